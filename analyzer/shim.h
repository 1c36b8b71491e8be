/* shim.h: the embedded CUDA declarations header used when no toolkit is
 * installed or --no-cuda-headers is given.  Its sources live in
 * analyzer/shim/; the build embeds them (see CMakeLists.txt). */
#ifndef CUDALINT_SHIM_H
#define CUDALINT_SHIM_H

#include <stddef.h>

struct shim_file {
    const char *name;     /* "cuda_runtime.h", relative to the shim directory */
    const char *contents;
    size_t len;
};

extern const struct shim_file shim_files[];
extern const size_t shim_files_len;

/* The virtual directory the shim headers appear in (added with -isystem). */
#define SHIM_DIR "/__cudalint_shim__"
/* The header force-included in shim mode. */
#define SHIM_MAIN "cudalint_cuda.h"

#endif
