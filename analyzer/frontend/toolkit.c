/* toolkit.c: locating the CUDA Toolkit: --cuda-path, $CUDA_PATH, the nvcc on
 * PATH, then /usr/local/cuda; and reading its version. */
#include "frontend/toolkit.h"
#include "base/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
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

/* nvcc's own release and build (__CUDACC_VER_BUILD__): version.json's
   "cuda_nvcc" entry, or a pip-style install's nvidia_cuda_nvcc-X.Y.Z.dist-info. */
static char *read_nvcc_version(const char *root)
{
    char *p = path_join(root, "version.json"), *text = NULL;
    char *version = NULL;
    if (read_file(p, &text, NULL) == 0) {
        const char *nvcc = strstr(text, "\"cuda_nvcc\"");
        const char *v = nvcc ? strstr(nvcc, "\"version\"") : NULL;
        if (v && (v = strchr(v + 9, '"'))) {
            const char *e = strchr(v + 1, '"');
            if (e) version = xstrndup(v + 1, (size_t)(e - v - 1));
        }
        free(text);
    }
    free(p);
    if (version) return version;
    p = path_join(root, "dist-info");
    DIR *d = opendir(p);
    free(p);
    if (!d) return NULL;
    static const char prefix[] = "nvidia_cuda_nvcc-", suffix[] = ".dist-info";
    struct dirent *de;
    while (!version && (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n > sizeof prefix + sizeof suffix - 2 && !strncmp(de->d_name, prefix, sizeof prefix - 1) &&
            !strcmp(de->d_name + n - (sizeof suffix - 1), suffix))
            version = xstrndup(de->d_name + sizeof prefix - 1, n - (sizeof prefix - 1) - (sizeof suffix - 1));
    }
    closedir(d);
    return version;
}

static int fill(const char *root, struct cuda_toolkit *tk)
{
    char real[PATH_MAX];
    tk->root = xstrdup(realpath(root, real) ? real : root);
    tk->version = read_version(tk->root);
    tk->nvcc_version = read_nvcc_version(tk->root);
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
    free(tk->nvcc_version);
    memset(tk, 0, sizeof *tk);
}

void toolkit_nvcc_macros(const char *version, const char *const *archs, unsigned n_archs, struct strvec *args)
{
    int major = 0, minor = 0, build = 0;
    if (!version || sscanf(version, "%d.%d.%d", &major, &minor, &build) < 2) return;
    sv_push(args, "-D__NVCC__=1");
    sv_push_owned(args, xasprintf("-D__CUDACC_VER_MAJOR__=%d", major));
    sv_push_owned(args, xasprintf("-D__CUDACC_VER_MINOR__=%d", minor));
    sv_push_owned(args, xasprintf("-D__CUDACC_VER_BUILD__=%d", build));
    sv_push_owned(args, xasprintf("-D__CUDA_API_VER_MAJOR__=%d", major));
    sv_push_owned(args, xasprintf("-D__CUDA_API_VER_MINOR__=%d", minor));
    sv_push(args, "-D__NVCC_DIAG_PRAGMA_SUPPORT__=1");
    sv_push(args, "-D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1");
    sv_push(args, "-DCUDA_DOUBLE_MATH_FUNCTIONS");
    /* __CUDA_ARCH_LIST__: every target, ascending, as __CUDA_ARCH__ spells them */
    int list[32];
    unsigned n = 0;
    for (unsigned i = 0; i < n_archs && n < 32; i++) {
        int a = 0;
        if (sscanf(archs[i], "sm_%d", &a) != 1 && sscanf(archs[i], "compute_%d", &a) != 1) continue;
        a *= 10;
        bool seen = false;
        for (unsigned k = 0; k < n; k++) seen |= list[k] == a;
        if (!seen) list[n++] = a;
    }
    if (!n) list[n++] = 900;
    for (unsigned i = 1; i < n; i++)
        for (unsigned k = i; k > 0 && list[k - 1] > list[k]; k--) {
            int t = list[k];
            list[k] = list[k - 1];
            list[k - 1] = t;
        }
    struct strbuf b;
    sb_init(&b);
    sb_addf(&b, "-D__CUDA_ARCH_LIST__=");
    for (unsigned i = 0; i < n; i++) sb_addf(&b, i ? ",%d" : "%d", list[i]);
    sv_push_owned(args, sb_detach(&b));
}
