/* cmdline_docs.h: the man page cudalint(1) and the bash and zsh completions,
 * generated from the option table (core/cmdline.h), the rule registry and
 * the output writers, so that they list exactly what --help lists. */
#ifndef CUDALINT_CMDLINE_DOCS_H
#define CUDALINT_CMDLINE_DOCS_H

#include <stdio.h>

void cmdline_docs_man(FILE *out);
void cmdline_docs_bash(FILE *out);
void cmdline_docs_zsh(FILE *out);

#endif
