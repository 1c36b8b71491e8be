/* shim.h: the embedded CUDA declarations header used when no toolkit is
 * installed or --no-cuda-headers is given.  Its sources live in
 * analyzer/frontend/shim/; the build embeds them (see CMakeLists.txt). */
#ifndef CUDALINT_SHIM_H
#define CUDALINT_SHIM_H

#include <stddef.h>
#include <stdint.h>

struct shim_file {
    const char *name;     /* "cuda_runtime.h", relative to the shim directory */
    const char *contents;
    size_t len;
};

extern const struct shim_file shim_files[];
extern const size_t shim_files_len;

/* A hash of every embedded file's name and contents (shim.c). */
uint64_t shim_hash(void);

/* The CUDA version the declarations header declares (CUDART_VERSION in
   cudalint/defines.h): nvcc's predefined version macros take it in shim mode. */
#define SHIM_CUDA_VERSION "13.0.0"

/* The virtual directory the shim headers appear in (added with -isystem). */
#define SHIM_DIR "/__cudalint_shim__"
/* The header force-included in shim mode. */
#define SHIM_MAIN "cudalint_cuda.h"
/* Toolkit mode serves the same files, but does not search SHIM_DIR: it
   force-includes this header (after clang's CUDA wrapper) to close the gaps
   between clang's view of the real headers and nvcc's, and searches the
   fallback directory last, for headers a compiler usually brings (omp.h). */
#define SHIM_TOOLKIT_PREINCLUDE SHIM_DIR "/cudalint_toolkit.h"
#define SHIM_FALLBACK_DIR SHIM_DIR "/fallback"

#endif
