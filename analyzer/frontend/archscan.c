/* archscan.c: a textual scan of a file and its project headers for tests of
 * __CUDA_ARCH__ (see archscan.h).  Cheap by design: it reads the files once
 * and looks at #include lines and identifiers, without a preprocessor. */
#include "frontend/archscan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A bound on the headers followed, so a huge include graph costs little. */
#define MAX_SCANNED_FILES 256

static const char *const arch_markers[] = {"__CUDA_ARCH", "NV_PROVIDES_SM_", "NV_IS_EXACTLY_SM_",
                                           "NV_HAS_FEATURE_"};

int archscan_arch_number(const char *arch)
{
    const char *p = strchr(arch, '_');
    if (!p || !isdigit((unsigned char)p[1])) return -1;
    return atoi(p + 1);
}

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static bool mentions_arch(const char *text, size_t len)
{
    for (size_t m = 0; m < sizeof arch_markers / sizeof *arch_markers; m++) {
        size_t n = strlen(arch_markers[m]);
        for (const char *p = text; (size_t)(p - text) + n <= len;) {
            const char *hit = memmem(p, len - (size_t)(p - text), arch_markers[m], n);
            if (!hit) break;
            if (hit == text || !is_ident_char(hit[-1])) return true;
            p = hit + 1;
        }
    }
    return false;
}

/* Whether dir is skip or under it, symbolic links resolved (CMake names
   the toolkit's include directory as /usr/local/cuda/include, a link to
   /usr/local/cuda-13.0). */
static bool under_dir(const char *dir, const char *skip)
{
    if (!skip) return false;
    char *a = realpath(dir, NULL), *b = realpath(skip, NULL);
    bool r = a && b && path_has_prefix_dir(a, b);
    free(a);
    free(b);
    return r;
}

/* -I DIR, -IDIR, -iquote DIR, --include-directory=DIR: where the project's
   headers are looked for; a build's -I of the toolkit's own include
   directory (CMake adds one) is not the project's. */
static void project_dirs(const struct strvec *args, const char *toolkit_root, struct strvec *dirs)
{
    static const char *const opts[] = {"--include-directory=", "-iquote", "-I"};
    for (size_t i = 0; i < args->len; i++) {
        const char *a = args->items[i];
        for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
            size_t n = strlen(opts[k]);
            if (strncmp(a, opts[k], n) != 0) continue;
            const char *v = a + n;
            if (!*v) {
                if (i + 1 >= args->len) break;
                v = args->items[++i];
            }
            if (!under_dir(v, toolkit_root)) sv_push(dirs, v);
            break;
        }
    }
}

static bool regular_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where `#include "name"` or `<name>` from includer resolves among the
   project's directories, or NULL. */
static char *resolve(const char *includer, const char *name, bool quoted, const struct strvec *dirs)
{
    if (name[0] == '/') return regular_file(name) ? xstrdup(name) : NULL;
    if (quoted) {
        char *d = path_dirname(includer);
        char *p = path_join(d, name);
        free(d);
        if (regular_file(p)) return p;
        free(p);
    }
    for (size_t i = 0; i < dirs->len; i++) {
        char *p = path_join(dirs->items[i], name);
        if (regular_file(p)) return p;
        free(p);
    }
    return NULL;
}

/* Appends the headers text includes (resolved, not yet seen) to queue. */
static void add_includes(const char *path, const char *text, size_t len, const struct strvec *dirs,
                         struct strvec *seen)
{
    const char *end = text + len;
    for (const char *line = text; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol) eol = end;
        const char *p = line;
        while (p < eol && (*p == ' ' || *p == '\t')) p++;
        if (p < eol && *p == '#') {
            p++;
            while (p < eol && (*p == ' ' || *p == '\t')) p++;
            if ((size_t)(eol - p) > 7 && strncmp(p, "include", 7) == 0) {
                p += 7;
                while (p < eol && (*p == ' ' || *p == '\t')) p++;
                if (p < eol && (*p == '"' || *p == '<')) {
                    char close = *p == '"' ? '"' : '>';
                    const char *q = memchr(p + 1, close, (size_t)(eol - p - 1));
                    if (q && seen->len < MAX_SCANNED_FILES) {
                        char *name = xstrndup(p + 1, (size_t)(q - p - 1));
                        char *found = resolve(path, name, close == '"', dirs);
                        if (found && !sv_contains(seen, found)) sv_push_owned(seen, found);
                        else free(found);
                        free(name);
                    }
                }
            }
        }
        line = eol + 1;
    }
}

bool archscan_source_tests_arch(const char *path, const char *text, size_t len, const struct strvec *args,
                                const char *toolkit_root)
{
    if (mentions_arch(text, len)) return true;
    struct strvec dirs = {0}, seen = {0};
    project_dirs(args, toolkit_root, &dirs);
    sv_push(&seen, path);
    add_includes(path, text, len, &dirs, &seen);
    bool found = false;
    /* seen grows as headers are read: a breadth-first walk of the graph. */
    for (size_t i = 1; i < seen.len && !found; i++) {
        char *htext = NULL;
        size_t hlen = 0;
        if (read_file(seen.items[i], &htext, &hlen) != 0) continue;
        found = mentions_arch(htext, hlen);
        if (!found) add_includes(seen.items[i], htext, hlen, &dirs, &seen);
        free(htext);
    }
    sv_release(&dirs);
    sv_release(&seen);
    return found;
}
