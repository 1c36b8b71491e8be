/* fuzz_common.h: what the libFuzzer harnesses of tests/fuzz/ share: a private
 * temporary directory, writing an input there as a file, and taking typed
 * values off the front of an input. */
#ifndef CUDALINT_FUZZ_COMMON_H
#define CUDALINT_FUZZ_COMMON_H

#include "base/util.h"
#include "base/report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A directory of this process's own, made once, kept until exit. */
static const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/cudalint-fuzz-XXXXXX");
        if (!mkdtemp(dir)) abort();
    }
    return dir;
}

/* Writes data to fuzz_dir()/name; returns the path (malloc'd). */
static char *fuzz_write(const char *name, const void *data, size_t len)
{
    char *path = xasprintf("%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (len) fwrite(data, 1, len, f);
    fclose(f);
    return path;
}

/* Reports are expected from malformed inputs: keep them off the terminal. */
static void fuzz_quiet_sink(void *data, enum report_level level, const char *message)
{
    (void)data;
    (void)level;
    (void)message;
}

static void fuzz_quiet(void)
{
    report_set_sink(fuzz_quiet_sink, NULL);
}

/* Takes values off the front of an input (zero when it runs out). */
struct fuzz_in {
    const uint8_t *p;
    size_t left;
};

static uint32_t fuzz_u32(struct fuzz_in *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4 && in->left; i++, in->p++, in->left--) v = v << 8 | *in->p;
    return v;
}

static uint8_t fuzz_u8(struct fuzz_in *in)
{
    if (!in->left) return 0;
    in->left--;
    return *in->p++;
}

/* The input up to the next separator byte sequence "\n@@@\n" (or the end),
   as a NUL-terminated copy. */
static char *fuzz_part(struct fuzz_in *in, size_t *len)
{
    static const char sep[] = "\n@@@\n";
    size_t n = 0;
    while (n < in->left && !(in->left - n >= 5 && memcmp(in->p + n, sep, 5) == 0)) n++;
    char *s = xstrndup((const char *)in->p, n);
    if (len) *len = n;
    size_t skip = n < in->left ? n + 5 : n;
    in->p += skip;
    in->left -= skip;
    return s;
}

#endif
