/* confirm.h: `cudalint confirm`, which proves each rule's effect on its
 * kernels/ pair (lint, compile, static evidence, GPU timing, sqlite results). */
#ifndef CUDALINT_CONFIRM_H
#define CUDALINT_CONFIRM_H

int confirm_main(int argc, char **argv);

#endif
