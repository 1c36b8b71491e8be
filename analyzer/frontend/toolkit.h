/* toolkit.h: finding the CUDA Toolkit (--cuda-path, $CUDA_PATH, nvcc on PATH,
 * /usr/local/cuda) and reading its version. */
#ifndef CUDALINT_TOOLKIT_H
#define CUDALINT_TOOLKIT_H

struct cuda_toolkit {
    char *root;       /* e.g. /usr/local/cuda-13.0 */
    char *version;    /* "13.0" from version.json / cuda.h, or NULL */
    char *nvcc;       /* path to nvcc, or NULL */
};

/* Returns 0 and fills tk when found.  explicit_path (--cuda-path) wins and is
   an error when it does not hold include/cuda_runtime.h (returns -1, *error). */
int toolkit_find(const char *explicit_path, struct cuda_toolkit *tk, char **error);
void toolkit_release(struct cuda_toolkit *tk);

#endif
