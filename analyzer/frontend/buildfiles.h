/* buildfiles.h: what a project's own build files say about how nvcc compiles
 * a file that has no compile command: flags written in the build files
 * (CMakeLists.txt, Makefiles, setup.py, meson.build) of the file's folder and
 * of every folder above it up to the linted tree's root, where flags set
 * there apply to it.  Read as text: a flag named outside a comment counts,
 * whatever condition guards it, so a rule that must not fire under the flag
 * stays silent when the build may pass it. */
#ifndef CUDALINT_BUILDFILES_H
#define CUDALINT_BUILDFILES_H

#include "core/options.h"
#include <stdbool.h>

/* Do the build files above abs_file ask nvcc for fast math
   (-use_fast_math, --use_fast_math, -prec-div=false, -ffast-math)?  When
   they do and where is not NULL, *where is the build file's path (caller
   frees).  Each folder is read once per process. */
bool buildfiles_fast_math(const struct lint_options *o, const char *abs_file, char **where);
/* The same for abs_file or for any file of the linted tree that includes
   it, directly or through up to two more headers: a header is compiled
   with the flags of the units that include it (a library's kernels header
   whose library builds with fast math; a samples' header whose every sample
   does). */
bool buildfiles_fast_math_through_includers(const struct lint_options *o, const char *abs_file, char **where);

#endif
