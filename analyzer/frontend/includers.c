/* includers.c: the linted tree's #include lines and the CUDA-version
 * conditionals around them (see includers.h). */
#include "frontend/includers.h"
#include "frontend/include_guess.h"
#include "base/util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One #include of the tree: the path it names and whether a CUDA-version
   conditional encloses it. */
struct include_line {
    char *name;
    bool version_guarded;
    unsigned from; /* the including file: an index into the tree's files */
};

struct tree_includes {
    char *root;
    struct include_line *lines;
    size_t n, cap;
    struct strvec files; /* the including files, absolute */
};

static pthread_mutex_t includes_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tree_includes *trees;
static size_t n_trees;

#define MAX_IF_DEPTH 64

static const char *const version_macros[] = {
    "CUDART_VERSION", "CUDA_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__", "__CUDACC_VER__",
    "__CUDA_API_VERSION", NULL,
};

static bool names_cuda_version(const char *text, size_t len)
{
    for (int i = 0; version_macros[i]; i++) {
        size_t ml = strlen(version_macros[i]);
        for (size_t k = 0; k + ml <= len; k++)
            if (!memcmp(text + k, version_macros[i], ml) &&
                (k + ml == len || !(isalnum((unsigned char)text[k + ml]) || text[k + ml] == '_')) &&
                (k == 0 || !(isalnum((unsigned char)text[k - 1]) || text[k - 1] == '_')))
                return true;
    }
    return false;
}

static bool is_source(const char *path)
{
    static const char *const exts[] = {".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".cpp", ".cc", ".cxx", ".c",
                                       ".cuinc", NULL};
    const char *dot = strrchr(path, '.');
    if (!dot) return false;
    for (int i = 0; exts[i]; i++)
        if (!strcmp(dot, exts[i])) return true;
    return false;
}

/* Reads one file's directives: the #if stack (is each level a version
   test?) and the includes. */
static void scan_file(struct tree_includes *t, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (read_file(path, &text, &len) != 0) return;
    unsigned from = (unsigned)t->files.len;
    sv_push(&t->files, path);
    bool stack[MAX_IF_DEPTH];
    int depth = 0, skipped = 0; /* levels beyond MAX_IF_DEPTH */
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        const char *p = line;
        while (p < line + ll && (*p == ' ' || *p == '\t')) p++;
        if (p < line + ll && *p == '#') {
            p++;
            while (p < line + ll && (*p == ' ' || *p == '\t')) p++;
            size_t rest = (size_t)(line + ll - p);
            if (rest >= 2 && !strncmp(p, "if", 2)) {
                /* #if, #ifdef, #ifndef */
                if (depth < MAX_IF_DEPTH) stack[depth++] = names_cuda_version(p, rest);
                else skipped++;
            } else if (rest >= 4 && !strncmp(p, "elif", 4)) {
                if (depth > 0 && !skipped) stack[depth - 1] = stack[depth - 1] || names_cuda_version(p, rest);
            } else if (rest >= 5 && !strncmp(p, "endif", 5)) {
                if (skipped) skipped--;
                else if (depth > 0) depth--;
            } else if (rest >= 7 && !strncmp(p, "include", 7)) {
                const char *q = p + 7;
                while (q < line + ll && (*q == ' ' || *q == '\t')) q++;
                char close = q < line + ll && *q == '"' ? '"' : q < line + ll && *q == '<' ? '>' : 0;
                const char *e = close ? memchr(q + 1, close, (size_t)(line + ll - q - 1)) : NULL;
                if (e && e > q + 1) {
                    bool guarded = false;
                    for (int i = 0; i < depth; i++) guarded = guarded || stack[i];
                    if (t->n == t->cap) {
                        t->cap = t->cap ? 2 * t->cap : 256;
                        t->lines = xrealloc(t->lines, t->cap * sizeof *t->lines);
                    }
                    t->lines[t->n].name = xstrndup(q + 1, (size_t)(e - q - 1));
                    t->lines[t->n].version_guarded = guarded;
                    t->lines[t->n].from = from;
                    t->n++;
                }
            }
        }
        line = end ? end + 1 : NULL;
    }
    free(text);
}

static const struct tree_includes *tree_includes(const char *root)
{
    pthread_mutex_lock(&includes_lock);
    for (size_t i = 0; i < n_trees; i++)
        if (!strcmp(trees[i].root, root)) {
            pthread_mutex_unlock(&includes_lock);
            return &trees[i];
        }
    trees = xrealloc(trees, (n_trees + 1) * sizeof *trees);
    struct tree_includes *t = &trees[n_trees++];
    memset(t, 0, sizeof *t);
    t->root = xstrdup(root);
    const struct strvec *files = include_guess_tree_files(root);
    for (size_t i = 0; i < files->len; i++) {
        if (!is_source(files->items[i])) continue;
        char *p = path_join(root, files->items[i]);
        scan_file(t, p);
        free(p);
    }
    pthread_mutex_unlock(&includes_lock);
    return t;
}

/* Does the include's path name this header: its last components equal the
   path written ("cub/util_type.cuh" names .../cub/util_type.cuh)? */
static bool names_header(const char *written, const char *abs_header)
{
    while (written[0] == '.' && written[1] == '/') written += 2;
    if (strstr(written, "../")) {
        /* ../x.h: compare the part after the last ../ */
        const char *last = written;
        for (const char *s = strstr(written, "../"); s; s = strstr(s + 3, "../")) last = s + 3;
        written = last;
    }
    size_t wl = strlen(written), hl = strlen(abs_header);
    return wl > 0 && wl <= hl && !strcmp(abs_header + hl - wl, written) && (wl == hl || abs_header[hl - wl - 1] == '/');
}

bool includers_only_under_version_guard(const struct lint_options *o, const char *abs_header)
{
    char *root = include_guess_tree_root(o, abs_header);
    const struct tree_includes *t = tree_includes(root);
    free(root);
    bool seen = false;
    for (size_t i = 0; i < t->n; i++) {
        if (!names_header(t->lines[i].name, abs_header)) continue;
        if (!t->lines[i].version_guarded) return false;
        seen = true;
    }
    return seen;
}

void includers_of(const struct lint_options *o, const char *abs_header, struct strvec *out)
{
    char *root = include_guess_tree_root(o, abs_header);
    const struct tree_includes *t = tree_includes(root);
    free(root);
    for (size_t i = 0; i < t->n; i++) {
        if (!names_header(t->lines[i].name, abs_header)) continue;
        const char *f = t->files.items[t->lines[i].from];
        if (strcmp(f, abs_header) != 0 && !sv_contains(out, f)) sv_push(out, f);
    }
}
