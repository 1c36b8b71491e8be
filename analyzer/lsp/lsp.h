/* lsp.h: `cudalint lsp`, the Language Server Protocol server over stdio. */
#ifndef CUDALINT_LSP_H
#define CUDALINT_LSP_H

int lsp_main(int argc, char **argv);

#endif
