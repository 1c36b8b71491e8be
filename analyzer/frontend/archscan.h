/* archscan.h: whether a file's device code can differ between GPU
 * architectures, from a scan of its text and of the project headers it
 * includes (no parse), so that one device pass stands for all archs when not. */
#ifndef CUDALINT_ARCHSCAN_H
#define CUDALINT_ARCHSCAN_H

#include "base/util.h"
#include <stdbool.h>
#include <stddef.h>

/* True when text (the file at path) or a header it includes, directly or
   through other headers, names __CUDA_ARCH__ or a macro derived from it
   (__CUDA_ARCH_FEAT_*, __CUDA_ARCH_SPECIFIC__, CCCL's NV_PROVIDES_SM_*,
   NV_IS_EXACTLY_SM_*, NV_HAS_FEATURE_*).  Headers are followed when found
   beside their includer (quoted includes) or under a -I/-iquote directory of
   args; system and toolkit headers (-isystem, the compiler's) are not: their
   arch-dependent declarations do not change what the file's own code does.
   -I directories under toolkit_root (may be NULL) are not followed either.
   A mention in a comment counts too: the scan errs towards another pass. */
bool archscan_source_tests_arch(const char *path, const char *text, size_t len, const struct strvec *args,
                                const char *toolkit_root);

/* The number of an arch name ("sm_90a" -> 90, "sm_100" -> 100), or -1. */
int archscan_arch_number(const char *arch);

#endif
