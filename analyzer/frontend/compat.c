/* compat.c: the toolkit's driver_types.h with the cudaDeviceProp fields
 * CUDA 13 removed restored, served to toolkit-mode parses instead of the file
 * on disk.  A struct cannot be reopened from a force-included header, and the
 * runtime headers include driver_types.h by a quoted name that no include
 * directory can intercept; serving the patched text is the one way the real
 * struct gains the fields.  Appending keeps every other field's offset
 * (nothing in a parse depends on the size). */
#include "frontend/compat.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The fields CUDA 13 removed from cudaDeviceProp (all int). */
static const char *const removed_fields[] = {
    "clockRate", "deviceOverlap", "kernelExecTimeoutEnabled", "computeMode", "maxTexture1DLinear",
    "memoryClockRate", "singleToDualPrecisionPerfRatio", "cooperativeMultiDeviceLaunch",
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *cached_root, *cached_path, *cached_text;
static size_t cached_len;
static bool cached_ok;

static bool has_field(const char *body, size_t n, const char *field)
{
    size_t fl = strlen(field);
    for (const char *p = body; p && p < body + n; p++) {
        p = strstr(p, field);
        if (!p || p >= body + n) return false;
        char before = p > body ? p[-1] : ' ', after = p[fl];
        if ((before == ' ' || before == '\t') && (after == ';' || after == ' ' || after == '\t')) return true;
    }
    return false;
}

static void build(const char *root)
{
    free(cached_root);
    free(cached_path);
    free(cached_text);
    cached_root = xstrdup(root);
    cached_path = path_join(root, "include/driver_types.h");
    cached_text = NULL;
    cached_len = 0;
    cached_ok = false;
    char *text = NULL;
    size_t len = 0;
    if (read_file(cached_path, &text, &len) != 0) return;
    const char *start = strstr(text, "struct __device_builtin__ cudaDeviceProp\n");
    if (!start) start = strstr(text, "struct __device_builtin__ cudaDeviceProp\r\n");
    const char *end = start ? strstr(start, "\n};") : NULL;
    if (!end) {
        free(text);
        return;
    }
    struct strbuf extra;
    sb_init(&extra);
    for (size_t i = 0; i < sizeof removed_fields / sizeof removed_fields[0]; i++)
        if (!has_field(start, (size_t)(end - start), removed_fields[i]))
            sb_addf(&extra, "\n    int %s; /* removed in CUDA 13.0; restored for old code (cudalint) */",
                    removed_fields[i]);
    if (!extra.len) {
        sb_release(&extra);
        free(text);
        return;
    }
    struct strbuf out;
    sb_init(&out);
    sb_addn(&out, text, (size_t)(end - text));
    sb_add(&out, extra.buf);
    sb_add(&out, end);
    cached_len = out.len;
    cached_text = sb_detach(&out);
    cached_ok = true;
    sb_release(&extra);
    free(text);
}

bool compat_driver_types(const struct strvec *args, const char **path, const char **text, size_t *len)
{
    const char *root = NULL;
    for (size_t i = 0; i < args->len; i++)
        if (str_starts_with(args->items[i], "--cuda-path=")) root = args->items[i] + 12;
    if (!root) return false;
    pthread_mutex_lock(&lock);
    if (!cached_root || strcmp(cached_root, root) != 0) build(root);
    bool ok = cached_ok;
    *path = cached_path;
    *text = cached_text;
    *len = cached_len;
    pthread_mutex_unlock(&lock);
    return ok;
}
