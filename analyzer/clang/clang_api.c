/* clang_api.c: finds and loads libclang the first time cudalint calls it (see
 * clang_api.h for why it is not linked). */
#include "clang/clang_api.h"
#include "base/report.h"
#include "base/util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void *handle;
static char *load_error;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* $CUDALINT_LIBCLANG when set (and only it), else the library the build
   used, then its name on the loader's search path (a relocated install with
   LD_LIBRARY_PATH). */
static void load(void)
{
    /* libclang parses on a thread of its own with an 8 MB stack unless this
       is set; deeply nested (but valid) code overflows that stack.  With it,
       libclang parses on the calling thread, which cudalint starts with a
       stack it chose (engine/lint.h, LINT_THREAD_STACK). */
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    const char *tried[3];
    size_t n = 0;
    const char *env = getenv("CUDALINT_LIBCLANG");
    if (env && *env) {
        tried[n++] = env;
    } else {
        tried[n++] = CUDALINT_LIBCLANG_PATH;
        tried[n++] = CUDALINT_LIBCLANG_SONAME;
    }
    struct strbuf why;
    sb_init(&why);
    for (size_t i = 0; i < n && !handle; i++) {
        handle = dlopen(tried[i], RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *e = dlerror();
            sb_addf(&why, "%s%s", why.len ? "; " : "", e ? e : tried[i]);
        }
    }
    if (!handle)
        load_error = xasprintf("cannot load libclang (%s); install libclang-22 or name the library with "
                               "CUDALINT_LIBCLANG=/path/to/libclang.so",
                               why.buf);
    sb_release(&why);
}

char *clang_api_identity(void)
{
    const char *env = getenv("CUDALINT_LIBCLANG");
    const char *path = env && *env ? env : CUDALINT_LIBCLANG_PATH;
    struct stat st;
    if (stat(path, &st) != 0) return xasprintf("%s ? ? (libclang %s)", path, CUDALINT_LLVM_VERSION);
    return xasprintf("%s %lld %lld.%09ld", path, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                     (long)st.st_mtim.tv_nsec);
}

void *clang_api_symbol(const char *name)
{
    pthread_once(&load_once, load);
    if (!handle) {
        report_error("%s", load_error);
        exit(2);
    }
    void *f = dlsym(handle, name);
    if (!f) {
        report_error("the libclang loaded has no %s (cudalint needs libclang 17 or later)",
                     name);
        exit(2);
    }
    return f;
}
