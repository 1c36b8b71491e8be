/* include_guess.c: the include folders of a file without a compile command,
 * guessed from where its quoted includes lie under the linted tree (and,
 * for those not there, under the project around it).  Reads
 * the file's text for `#include` lines (a preprocessor-free scan: a guess
 * for an include that a condition skips only adds a folder), follows
 * the project headers they reach, and lists each tree once per process. */
#include "frontend/include_guess.h"
#include "frontend/compile_args.h"
#include "frontend/toolkit.h"
#include "frontend/shim.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Bounds: a tree is listed to this many files and this depth; this many
   headers are followed from one file. */
#define MAX_TREE_FILES 200000
#define MAX_TREE_DEPTH 24
#define MAX_FOLLOWED 256

struct tree {
    char *root;
    struct strvec files; /* paths relative to root */
};

static pthread_mutex_t trees_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tree *trees;
static size_t n_trees;

static void list_dir(const char *root, const char *rel, int depth, struct strvec *out)
{
    if (depth > MAX_TREE_DEPTH || out->len >= MAX_TREE_FILES) return;
    char *dir = rel[0] ? path_join(root, rel) : xstrdup(root);
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    struct dirent *de;
    while ((de = readdir(d)) && out->len < MAX_TREE_FILES) {
        if (de->d_name[0] == '.') continue; /* ., .., .git and other hidden folders */
        char *r = rel[0] ? path_join(rel, de->d_name) : xstrdup(de->d_name);
        char *full = path_join(root, r);
        struct stat st;
        /* lstat: a symbolic link to a folder may lead out of the tree or round in a cycle */
        if (lstat(full, &st) == 0) {
            if (S_ISDIR(st.st_mode)) list_dir(root, r, depth + 1, out);
            else if (S_ISREG(st.st_mode)) sv_push(out, r);
        }
        free(full);
        free(r);
    }
    closedir(d);
    free(dir);
}

const struct strvec *include_guess_tree_files(const char *root)
{
    pthread_mutex_lock(&trees_lock);
    for (size_t i = 0; i < n_trees; i++)
        if (!strcmp(trees[i].root, root)) {
            pthread_mutex_unlock(&trees_lock);
            return &trees[i].files;
        }
    trees = xrealloc(trees, (n_trees + 1) * sizeof *trees);
    struct tree *t = &trees[n_trees++];
    memset(t, 0, sizeof *t);
    t->root = xstrdup(root);
    list_dir(root, "", 0, &t->files);
    pthread_mutex_unlock(&trees_lock);
    return &t->files;
}

char *include_guess_tree_root(const struct lint_options *o, const char *abs_file)
{
    char *best = NULL;
    for (size_t i = 0; i < o->paths.len; i++) {
        char *p = path_absolute(o->paths.items[i]);
        size_t n = strlen(p);
        while (n > 1 && p[n - 1] == '/') p[--n] = 0;
        if (path_is_dir(p) && !strncmp(abs_file, p, n) && abs_file[n] == '/' && (!best || strlen(best) < n)) {
            free(best);
            best = p;
        } else {
            free(p);
        }
    }
    if (best) return best;
    char *dir = path_dirname(abs_file);
    for (char *d = xstrdup(dir); d;) {
        char *git = path_join(d, ".git");
        bool found = path_exists(git);
        free(git);
        if (found) {
            free(dir);
            return d;
        }
        char *up = path_dirname(d);
        bool top = !strcmp(up, d);
        free(d);
        d = top ? (free(up), NULL) : up;
    }
    return dir;
}

static bool exists_in(const char *dir, const char *name)
{
    char *p = path_join(dir, name);
    bool found = path_exists(p);
    free(p);
    return found;
}

static bool is_cuda_header(const char *name, const char *toolkit_include)
{
    for (size_t i = 0; i < shim_files_len; i++)
        if (shim_files[i].name && !strcmp(shim_files[i].name, name)) return true;
    if (!toolkit_include) return false;
    if (exists_in(toolkit_include, name)) return true;
    char *cccl = path_join(toolkit_include, "cccl");
    bool found = exists_in(cccl, name);
    free(cccl);
    return found;
}

/* Is <name> a header of the system or the compiler (which an angled
   include means first)? */
static bool is_system_header(const char *name)
{
    static const char *const fixed[] = {"/usr/local/include", "/usr/include", CUDALINT_CLANG_RESOURCE_DIR "/include"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (exists_in(fixed[i], name)) return true;
    static const char *const globbed[] = {"/usr/include/c++", "/usr/include"};
    for (size_t g = 0; g < 2; g++) {
        DIR *d = opendir(globbed[g]);
        if (!d) continue;
        struct dirent *de;
        bool found = false;
        while (!found && (de = readdir(d))) {
            if (de->d_name[0] == '.') continue;
            /* /usr/include/c++/12, /usr/include/x86_64-linux-gnu */
            if (g == 1 && !str_ends_with(de->d_name, "-linux-gnu")) continue;
            char *sub = path_join(globbed[g], de->d_name);
            found = exists_in(sub, name);
            free(sub);
        }
        closedir(d);
        if (found) return true;
    }
    return false;
}

/* Is <name> a header of the C library or of POSIX (what a platform
   compatibility folder replaces for another system), as opposed to a
   library's (GL/glut.h, curl/curl.h), which a project's copy serves as
   well as the system's? */
static bool is_libc_header(const char *name)
{
    static const char *const dirs[] = {"sys/", "bits/", "arpa/", "netinet/", "net/", NULL};
    static const char *const names[] = {
        "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
        "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h",
        "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h",
        "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h", "unistd.h", "pthread.h", "fcntl.h",
        "dirent.h", "dlfcn.h", "sched.h", "semaphore.h", "strings.h", "syslog.h", "termios.h", "netdb.h",
        "poll.h", "getopt.h", "libgen.h", "malloc.h", "memory.h", "alloca.h", "endian.h", "pwd.h",
        "grp.h", "glob.h", "fnmatch.h", "regex.h", "spawn.h", "utime.h", "utmp.h", "wordexp.h", NULL};
    for (int i = 0; dirs[i]; i++)
        if (!strncmp(name, dirs[i], strlen(dirs[i]))) return true;
    for (int i = 0; names[i]; i++)
        if (!strcmp(name, names[i])) return true;
    return false;
}

/* Where `#include "name"` from a file in dir resolves, or NULL. */
static char *resolve(const char *dir, const char *name, const struct strvec *dirs)
{
    char *p = dir ? path_join(dir, name) : NULL;
    if (p && path_exists(p) && !path_is_dir(p)) return p;
    free(p);
    for (size_t i = 0; i < dirs->len; i++) {
        p = path_join(dirs->items[i], name);
        if (path_exists(p) && !path_is_dir(p)) return p;
        free(p);
    }
    return NULL;
}

/* Path components dir a and b share. */
static size_t shared_components(const char *a, const char *b)
{
    size_t n = 0, i = 0;
    for (; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/') n++;
    if ((!a[i] || a[i] == '/') && (!b[i] || b[i] == '/')) n++;
    return n;
}

/* Folders in a path relative to the tree's root ("" is 0). */
static size_t depth_of(const char *rel)
{
    size_t n = rel[0] ? 1 : 0;
    for (; *rel; rel++) n += *rel == '/';
    return n;
}

/* The folder of the candidate for name nearest to includer_dir, or NULL.
   Between candidates equally near, the one nearest the tree's root (a
   project's top-level include/ over a copy inside a demo app); still
   equal: none. */
static char *find_in_tree(const char *root, const char *name, const char *includer_dir)
{
    const struct strvec *files = include_guess_tree_files(root);
    size_t nl = strlen(name);
    char *best = NULL;
    size_t best_score = 0, best_depth = 0;
    bool tie = false;
    for (size_t i = 0; i < files->len; i++) {
        const char *f = files->items[i];
        size_t fl = strlen(f);
        if (fl < nl || strcmp(f + fl - nl, name) != 0 || (fl > nl && f[fl - nl - 1] != '/')) continue;
        char *rel = xstrndup(f, fl > nl ? fl - nl - 1 : 0);
        char *dir = rel[0] ? path_join(root, rel) : xstrdup(root);
        size_t depth = depth_of(rel);
        free(rel);
        size_t score = shared_components(dir, includer_dir);
        if (!best || score > best_score || (score == best_score && depth < best_depth)) {
            free(best);
            best = dir;
            best_score = score;
            best_depth = depth;
            tie = false;
        } else {
            if (score == best_score && depth == best_depth && strcmp(dir, best) != 0) tie = true;
            free(dir);
        }
    }
    if (tie) {
        free(best);
        return NULL;
    }
    return best;
}

/* The names of the includes in text, each prefixed with its delimiter
   ("\"x.h" or "<x.h"). */
static void includes_of(const char *text, struct strvec *out)
{
    for (const char *line = text; line && *line;) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#') {
            p++;
            while (*p == ' ' || *p == '\t') p++;
            if (!strncmp(p, "include", 7)) {
                p += 7;
                while (*p == ' ' || *p == '\t') p++;
                if (*p == '"' || *p == '<') {
                    const char *e = strchr(p + 1, *p == '"' ? '"' : '>');
                    const char *nl = strchr(p + 1, '\n');
                    if (e && (!nl || e < nl) && e > p + 1 && p[1] != '/') {
                        char *name = xstrndup(p, (size_t)(e - p));
                        sv_push(out, name);
                        free(name);
                    }
                }
            }
        }
        line = strchr(line, '\n');
        if (line) line++;
    }
}

char *include_guess_outer_root(const char *abs_file, const char *root)
{
    /* The repository: the nearest folder above the file with .git. */
    char *dir = path_dirname(abs_file);
    for (char *d = dir; d;) {
        char *git = path_join(d, ".git");
        bool found = path_exists(git);
        free(git);
        if (found) {
            if (strcmp(d, root) != 0 && path_has_prefix_dir(root, d)) return d;
            free(d);
            break;
        }
        char *up = path_dirname(d);
        bool top = !strcmp(up, d);
        free(d);
        d = top ? (free(up), NULL) : up;
    }
    /* Else the working directory, when the linted folder lies inside it
       (`cudalint source/backend/cuda` run from the project's top). */
    char *cwd = path_absolute(".");
    if (cwd && strcmp(cwd, "/") != 0 && strcmp(cwd, root) != 0 && path_has_prefix_dir(root, cwd)) return cwd;
    free(cwd);
    return NULL;
}

/* The include folders the command line gives clang (-I, -isystem, -iquote,
   -idirafter, joined or separate), absolute: what they resolve is not
   guessed. */
static void user_include_dirs(const struct lint_options *o, struct strvec *out)
{
    static const char *const flags[] = {"-I", "-isystem", "-iquote", "-idirafter", NULL};
    if (!o) return;
    const struct strvec *a = &o->extra_args;
    for (size_t i = 0; i < a->len; i++) {
        for (int f = 0; flags[f]; f++) {
            size_t fl = strlen(flags[f]);
            if (strncmp(a->items[i], flags[f], fl) != 0) continue;
            const char *dir = a->items[i][fl] ? a->items[i] + fl : i + 1 < a->len ? a->items[i + 1] : NULL;
            if (!a->items[i][fl]) i++;
            if (dir && *dir) {
                char *abs = path_absolute(dir);
                if (abs && !sv_contains(out, abs)) sv_push(out, abs);
                free(abs);
            }
            break;
        }
    }
}

void include_guess(const struct lint_options *o, const char *abs_file, const char *toolkit_include,
                   struct strvec *dirs, struct strvec *angled_dirs, struct strvec *after_dirs)
{
    struct strvec user = {0};
    user_include_dirs(o, &user);
    char *root = NULL, *outer = NULL;
    bool outer_known = false;
    struct strvec queue = {0}, seen = {0}, system_names = {0};
    sv_push(&queue, abs_file);
    for (size_t q = 0; q < queue.len && q < MAX_FOLLOWED; q++) {
        const char *file = queue.items[q];
        if (sv_contains(&seen, file)) continue;
        sv_push(&seen, file);
        char *text = NULL;
        if (read_file(file, &text, NULL) != 0) continue;
        struct strvec names = {0};
        includes_of(text, &names);
        free(text);
        char *dir = path_dirname(file);
        for (size_t i = 0; i < names.len; i++) {
            bool angled = names.items[i][0] == '<';
            const char *name = names.items[i] + 1;
            /* quoted: next to the includer, then every guessed folder;
               angled: the folders guessed for angled includes */
            char *at = angled ? resolve(NULL, name, angled_dirs) : resolve(dir, name, dirs);
            if (!at && !angled) at = resolve(NULL, name, angled_dirs);
            if (!at) at = resolve(NULL, name, &user);
            /* An angled system or toolkit header is what the build finds,
               even where a guessed folder holds one of that name. */
            bool system = angled && (is_cuda_header(name, toolkit_include) || is_system_header(name));
            if (system) {
                if ((is_libc_header(name) || is_cuda_header(name, toolkit_include)) && !sv_contains(&system_names, name))
                    sv_push(&system_names, name);
                free(at);
                at = NULL;
            }
            if (!at && !system && !is_cuda_header(name, toolkit_include)) {
                if (!root) root = include_guess_tree_root(o, abs_file);
                char *found = find_in_tree(root, name, dir);
                if (!found && !outer_known) {
                    outer = include_guess_outer_root(abs_file, root);
                    outer_known = true;
                }
                if (!found && outer) found = find_in_tree(outer, name, dir);
                if (found) {
                    struct strvec *into = angled ? angled_dirs : dirs;
                    if (!sv_contains(into, found)) sv_push(into, found);
                    at = path_join(found, name);
                    free(found);
                }
            }
            if (at) {
                char *real = path_absolute(at);
                if (!sv_contains(&seen, real)) sv_push(&queue, real);
                free(real);
                free(at);
            }
        }
        free(dir);
        sv_release(&names);
    }
    /* A folder found for one angled include that also holds a header the C
       library or the toolkit provides for another (a project's compat/ with
       its own sys/time.h or stdint.h for another platform) would hide the
       real one under -I: searched after the system folders instead.  (What
       clang finds there counts as a system header: not analysed, so only
       for such folders; a copy of a library's headers, GL/glut.h, stays.) */
    if (after_dirs)
        for (size_t i = 0; i < angled_dirs->len;) {
            bool shadows = false;
            for (size_t k = 0; k < system_names.len && !shadows; k++)
                shadows = exists_in(angled_dirs->items[i], system_names.items[k]);
            if (!shadows) {
                i++;
                continue;
            }
            if (!sv_contains(after_dirs, angled_dirs->items[i])) sv_push(after_dirs, angled_dirs->items[i]);
            free(angled_dirs->items[i]);
            memmove(&angled_dirs->items[i], &angled_dirs->items[i + 1], (angled_dirs->len - i - 1) * sizeof(char *));
            angled_dirs->len--;
        }
    free(root);
    free(outer);
    sv_release(&queue);
    sv_release(&seen);
    sv_release(&system_names);
    sv_release(&user);
}

void include_guess_for_file(const struct lint_options *o, const char *abs_file, struct strvec *dirs)
{
    if (o->compdb && compdb_find(o->compdb, abs_file)) return;
    bool shim = o->headers == HEADERS_SHIM || !o->toolkit;
    char *tk_include = shim ? NULL : path_join(o->toolkit->root, "include");
    struct strvec angled = {0}, after = {0};
    include_guess(o, abs_file, tk_include, dirs, &angled, &after);
    for (size_t i = 0; i < angled.len; i++)
        if (!sv_contains(dirs, angled.items[i])) sv_push(dirs, angled.items[i]);
    for (size_t i = 0; i < after.len; i++)
        if (!sv_contains(dirs, after.items[i])) sv_push(dirs, after.items[i]);
    sv_release(&angled);
    sv_release(&after);
    free(tk_include);
}

void include_guess_summarize(const struct lint_options *o, const char *const *abs_files, size_t n,
                             struct include_guess_summary *out)
{
    memset(out, 0, sizeof *out);
    for (size_t f = 0; f < n; f++) {
        struct strvec dirs = {0};
        include_guess_for_file(o, abs_files[f], &dirs);
        for (size_t i = 0; i < dirs.len; i++) {
            size_t k = 0;
            while (k < out->folders.len && strcmp(out->folders.items[k], dirs.items[i]) != 0) k++;
            if (k == out->folders.len) {
                sv_push(&out->folders, dirs.items[i]);
                out->files = xrealloc(out->files, out->folders.len * sizeof *out->files);
                out->files[k] = 0;
            }
            out->files[k]++;
        }
        sv_release(&dirs);
    }
}

void include_guess_summary_release(struct include_guess_summary *s)
{
    sv_release(&s->folders);
    free(s->files);
    memset(s, 0, sizeof *s);
}
