/* toolkit.h: finding the CUDA Toolkit (--cuda-path, $CUDA_PATH, nvcc on PATH,
 * /usr/local/cuda) and reading its version. */
#ifndef CUDALINT_TOOLKIT_H
#define CUDALINT_TOOLKIT_H

#include "base/util.h"

struct cuda_toolkit {
    char *root;       /* e.g. /usr/local/cuda-13.0 */
    char *version;    /* "13.0" from version.json / cuda.h, or NULL */
    char *nvcc;       /* path to nvcc, or NULL */
    char *nvcc_version; /* "13.0.88": nvcc's release and build, from version.json's cuda_nvcc
                           entry or the installed nvcc package's dist-info name; NULL if unknown */
};

/* Returns 0 and fills tk when found.  explicit_path (--cuda-path) wins and is
   an error when it does not hold include/cuda_runtime.h (returns -1, *error). */
int toolkit_find(const char *explicit_path, struct cuda_toolkit *tk, char **error);
void toolkit_release(struct cuda_toolkit *tk);

/* The macros nvcc predefines and clang does not (__NVCC__, __CUDACC_VER_MAJOR__,
   _MINOR__, _BUILD__, __CUDA_API_VER_MAJOR__, _MINOR__, __CUDA_ARCH_LIST__,
   __NVCC_DIAG_PRAGMA_SUPPORT__, __CUDACC_DEVICE_ATOMIC_BUILTINS__,
   CUDA_DOUBLE_MATH_FUNCTIONS), as -D arguments appended to args, for a
   compiler of version "MAJOR.MINOR[.BUILD]" (a missing build is 0) and the
   GPU architectures archs ("sm_90"; none: sm_90).  __CUDACC__ and
   __CUDA_ARCH__ are left to clang, which defines them.  A parse puts the
   compile database's arguments after these, so its -D and -U win. */
void toolkit_nvcc_macros(const char *version, const char *const *archs, unsigned n_archs,
                         struct strvec *args);

#endif
