/* buildfiles.c: flags a project's build files give nvcc for a file linted
 * without a compile command (see buildfiles.h). */
#include "frontend/buildfiles.h"
#include "frontend/include_guess.h"
#include "frontend/includers.h"
#include "base/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The build files whose flags reach the sources of their folder and of the
   folders below it. */
static const char *const build_file_names[] = {
    "CMakeLists.txt", "Makefile", "makefile", "GNUmakefile", "setup.py", "meson.build", NULL,
};

/* nvcc's and clang's spellings of "approximate division and math". */
static const char *const fast_math_flags[] = {
    "use_fast_math", "prec-div=false", "prec_div=false", "ffast-math", NULL,
};

/* Does text name a fast-math flag outside a '#' comment (CMake, make and
   Python all comment with '#')? */
static bool text_names_fast_math(const char *text)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *hash = memchr(line, '#', len);
        size_t code = hash ? (size_t)(hash - line) : len;
        for (int i = 0; fast_math_flags[i]; i++) {
            size_t fl = strlen(fast_math_flags[i]);
            for (size_t k = 0; k + fl <= code; k++)
                if (!memcmp(line + k, fast_math_flags[i], fl)) return true;
        }
        line = end ? end + 1 : NULL;
    }
    return false;
}

/* One folder's verdict, kept for the process: the build file naming fast
   math, or "" when none of the folder's does. */
struct folder_verdict {
    char *dir;
    char *file;
};
static struct folder_verdict *verdicts;
static size_t n_verdicts, cap_verdicts;
static pthread_mutex_t verdicts_lock = PTHREAD_MUTEX_INITIALIZER;

static char *folder_fast_math(const char *dir)
{
    pthread_mutex_lock(&verdicts_lock);
    for (size_t i = 0; i < n_verdicts; i++)
        if (!strcmp(verdicts[i].dir, dir)) {
            char *r = verdicts[i].file[0] ? xstrdup(verdicts[i].file) : NULL;
            pthread_mutex_unlock(&verdicts_lock);
            return r;
        }
    pthread_mutex_unlock(&verdicts_lock);
    char *found = NULL;
    for (int i = 0; build_file_names[i] && !found; i++) {
        char *p = path_join(dir, build_file_names[i]);
        char *text = NULL;
        size_t len = 0;
        if (read_file(p, &text, &len) == 0 && text_names_fast_math(text)) found = xstrdup(p);
        free(text);
        free(p);
    }
    pthread_mutex_lock(&verdicts_lock);
    if (n_verdicts == cap_verdicts) {
        cap_verdicts = cap_verdicts ? 2 * cap_verdicts : 16;
        verdicts = xrealloc(verdicts, cap_verdicts * sizeof *verdicts);
    }
    verdicts[n_verdicts].dir = xstrdup(dir);
    verdicts[n_verdicts].file = xstrdup(found ? found : "");
    n_verdicts++;
    pthread_mutex_unlock(&verdicts_lock);
    return found;
}

bool buildfiles_fast_math(const struct lint_options *o, const char *abs_file, char **where)
{
    if (where) *where = NULL;
    char *root = include_guess_tree_root(o, abs_file);
    size_t rn = strlen(root);
    char *found = NULL;
    /* from the file's folder up to the root (or the filesystem's top) */
    for (char *d = path_dirname(abs_file); d && !found;) {
        found = folder_fast_math(d);
        char *up = path_dirname(d);
        bool last = strlen(d) <= rn || strncmp(d, root, rn) != 0 || !strcmp(up, d);
        free(d);
        d = last ? (free(up), NULL) : up;
    }
    free(root);
    if (!found) return false;
    if (where) *where = found;
    else free(found);
    return true;
}

/* Bounds of the walk up the includers: levels of headers, files. */
#define INCLUDER_DEPTH 3
#define INCLUDER_FILES 256

bool buildfiles_fast_math_through_includers(const struct lint_options *o, const char *abs_file, char **where)
{
    if (buildfiles_fast_math(o, abs_file, where)) return true;
    struct strvec level = {0}, seen = {0};
    sv_push(&level, abs_file);
    sv_push(&seen, abs_file);
    bool found = false;
    for (int depth = 0; depth < INCLUDER_DEPTH && level.len && !found; depth++) {
        struct strvec next = {0};
        for (size_t i = 0; i < level.len && !found; i++) {
            struct strvec inc = {0};
            includers_of(o, level.items[i], &inc);
            for (size_t k = 0; k < inc.len && !found && seen.len < INCLUDER_FILES; k++) {
                if (sv_contains(&seen, inc.items[k])) continue;
                sv_push(&seen, inc.items[k]);
                sv_push(&next, inc.items[k]);
                found = buildfiles_fast_math(o, inc.items[k], where);
            }
            sv_release(&inc);
        }
        sv_release(&level);
        level = next;
    }
    sv_release(&level);
    sv_release(&seen);
    return found;
}
