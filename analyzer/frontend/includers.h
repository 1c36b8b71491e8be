/* includers.h: how the files of the linted tree include a header, read as
 * text: which files include it, and whether every `#include` that names it
 * sits inside a preprocessor conditional on the CUDA version.  A header linted on its own is parsed
 * with the toolkit at hand, but its project may only compile it for older
 * toolkits (`#if CUDART_VERSION < 11050` around the include). */
#ifndef CUDALINT_INCLUDERS_H
#define CUDALINT_INCLUDERS_H

#include "core/options.h"
#include <stdbool.h>

/* Is abs_header included by at least one file of its linted tree, and every
   such `#include` (quoted or angled, matched by the path it names as a
   suffix of abs_header's) written inside an #if/#ifdef/#ifndef, or one of
   its #elif/#else arms, whose condition names the CUDA version
   (CUDART_VERSION, CUDA_VERSION, __CUDACC_VER_MAJOR__, __CUDACC_VER__ ...)?
   The tree's includes are read once per process. */
bool includers_only_under_version_guard(const struct lint_options *o, const char *abs_header);
/* Adds to out (each once) the files of abs_header's linted tree that name it
   in an `#include`, matched as above, whatever conditional surrounds it;
   absolute paths. */
void includers_of(const struct lint_options *o, const char *abs_header, struct strvec *out);

#endif
