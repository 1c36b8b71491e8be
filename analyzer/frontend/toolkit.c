/* toolkit.c: locating the CUDA Toolkit: --cuda-path, $CUDA_PATH, the nvcc on
 * PATH, then /usr/local/cuda; and reading its version. */
#include "frontend/toolkit.h"
#include "base/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool has_headers(const char *root)
{
    char *p = path_join(root, "include/cuda_runtime.h");
    bool ok = path_exists(p);
    free(p);
    return ok;
}

static char *read_version(const char *root)
{
    /* version.json: "cuda" : { "name" : ..., "version" : "13.0.48" } */
    char *p = path_join(root, "version.json"), *text = NULL;
    size_t len;
    char *version = NULL;
    if (read_file(p, &text, &len) == 0) {
        const char *cuda = strstr(text, "\"cuda\"");
        const char *v = cuda ? strstr(cuda, "\"version\"") : NULL;
        if (v && (v = strchr(v + 9, '"'))) {
            const char *e = strchr(v + 1, '"');
            if (e) version = xstrndup(v + 1, (size_t)(e - v - 1));
        }
        free(text);
    }
    free(p);
    if (!version) {
        /* include/cuda.h: #define CUDA_VERSION 13000 */
        p = path_join(root, "include/cuda.h");
        if (read_file(p, &text, &len) == 0) {
            const char *d = strstr(text, "#define CUDA_VERSION ");
            if (d) {
                long n = strtol(d + 21, NULL, 10);
                if (n > 0) version = xasprintf("%ld.%ld", n / 1000, (n % 1000) / 10);
            }
            free(text);
        }
        free(p);
    }
    return version;
}

static int fill(const char *root, struct cuda_toolkit *tk)
{
    char real[PATH_MAX];
    tk->root = xstrdup(realpath(root, real) ? real : root);
    tk->version = read_version(tk->root);
    char *nvcc = path_join(tk->root, "bin/nvcc");
    if (access(nvcc, X_OK) == 0) tk->nvcc = nvcc;
    else free(nvcc);
    return 0;
}

int toolkit_find(const char *explicit_path, struct cuda_toolkit *tk, char **error)
{
    memset(tk, 0, sizeof *tk);
    if (explicit_path) {
        if (!has_headers(explicit_path)) {
            *error = xasprintf("--cuda-path %s: no include/cuda_runtime.h there", explicit_path);
            return -1;
        }
        return fill(explicit_path, tk);
    }
    const char *env = getenv("CUDA_PATH");
    if (env && *env && has_headers(env)) return fill(env, tk);
    char *nvcc = path_find_executable("nvcc");
    if (nvcc) {
        char real[PATH_MAX];
        const char *resolved = realpath(nvcc, real) ? real : nvcc;
        char *bin = path_dirname(resolved), *root = path_dirname(bin);
        int found = has_headers(root) ? fill(root, tk) : -1;
        free(bin);
        free(root);
        free(nvcc);
        if (found == 0) return 0;
    }
    if (has_headers("/usr/local/cuda")) return fill("/usr/local/cuda", tk);
    return -1;
}

void toolkit_release(struct cuda_toolkit *tk)
{
    free(tk->root);
    free(tk->version);
    free(tk->nvcc);
    memset(tk, 0, sizeof *tk);
}
