/* pch.c: precompiled headers of the headers a CUDA file starts with.
 *
 * Parsing the toolkit headers costs far more than the user's file: the CUDA
 * runtime wrapper clang force-includes, then cuda_runtime.h, cooperative_groups.h,
 * cuda_fp16.h ...  A file's *prefix* is its leading run of `#include <...>`
 * lines and value-less `#define NAME` switches (comments, blank lines and
 * `#pragma once` may sit between them); when it ends with `#include "x.h"` of
 * a project header, x.h's own prefix continues it (llm.c's kernels all start
 * with a few system headers, then "common.h", which includes cuBLAS).  For
 * each pass we precompile exactly that prefix, with exactly the pass's
 * arguments, into <cache>/pch/<key>.pch, and parse the file with -include-pch
 * and those lines blanked out in the file and in the headers (same bytes, so
 * every line, column and offset is unchanged; the headers go to clang as
 * unsaved files under the name clang gives them).  clang sees the same tokens
 * in the same order, so the parse is the same as without the PCH; a test
 * checks it.  Files that start the same way share the PCH, across files,
 * processes and runs.
 *
 * What keeps it exact:
 * - the key hashes every pass argument, the working directory, the libclang
 *   version, the toolkit and the header text, so any difference means another
 *   PCH;
 * - a prefix include found in a user -I directory ends the prefix, and a PCH
 *   that pulls in any non-system file is refused: its declarations would be
 *   hidden from the walk (the index excludes PCH declarations, which is what
 *   makes the walk cheap);
 * - a prefix that does not parse cleanly is cut before the failing include;
 * - <key>.deps lists every header the PCH was built from (size, mtime, hash)
 *   and is checked before use; a PCH clang still rejects at load time is
 *   dropped and the file parsed without it.
 * - arguments with their own -include, -imacros, modules or -Xclang get no PCH.
 *
 * When a PCH is built: the first time a prefix is seen (persistently, by a
 * <key>.seen marker) the file is parsed without it and, in toolkit mode,
 * through the prefix-less PCH (just the runtime wrapper, which every file
 * shares); the second time builds it.  So a one-off file never pays for a PCH
 * nobody reuses, and a tree whose files start alike pays once.  Concurrent
 * workers wait for one build (a condition variable); concurrent processes
 * serialize on flock(<key>.lock); every file is written to a temporary name
 * and renamed, so a reader never sees half a PCH. */
#include "frontend/pch.h"
#include "base/cachedir.h"
#include "base/phasetime.h"
#include "base/stamp.h"
#include "core/options.h"
#include "frontend/shim.h"
#include "frontend/toolkit.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define PCH_FORMAT 2
/* The least recently used PCHs go when they take more than this (each is
   10-40 MB); CUDALINT_PCH_MAX_MB overrides. */
#define PCH_MAX_MB 1024

enum pch_state { PCH_ABSENT, PCH_SEEN, PCH_BUILDING, PCH_READY, PCH_FAILED };

struct pch {
    char key[33];
    enum pch_state state;
    char *path;                 /* <dir>/<key>.pch when READY */
    struct file_stamp *deps;
    size_t n_deps;
    size_t usable;              /* when FAILED: how many includes of the prefix do build */
    struct pch *next;
};

static pthread_mutex_t pch_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pch_cv = PTHREAD_COND_INITIALIZER;
static struct pch *pch_table;
static atomic_uint tmp_counter;

const struct file_stamp *pch_deps(const struct pch *p, size_t *n)
{
    *n = p ? p->n_deps : 0;
    return p ? p->deps : NULL;
}

/* ---- the prefix of a file ---- */

/* One line of the prefix: `#include <name>`, or `#define NAME` with no value
   (a switch for the headers that follow, like _USE_MATH_DEFINES). */
struct prefix_line {
    size_t file;       /* index in prefix.files */
    size_t start, end; /* the directive's bytes, blanked when the PCH holds it */
    char *name;
    bool define;
};

/* The files the prefix runs through: the linted file, then, when its prefix
   ends with `#include "header"` of the project, that header's own prefix, and
   so on.  The token stream is the same whether those lines come from the
   files or from the PCH, as long as they are blanked in the files. */
struct chain_file {
    char *path;        /* NULL for the linted file itself */
    char *text;        /* headers: read from disk (owned) */
    size_t len;
};

struct prefix {
    struct prefix_line *lines;
    size_t n;
    struct chain_file files[4];
    size_t n_files;
};

static bool is_hspace(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

static bool is_ident(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/* Only blanks or a line comment from k to eol? */
static bool rest_is_blank(const char *text, size_t k, size_t eol)
{
    while (k < eol && (is_hspace(text[k]) || text[k] == '\r')) k++;
    return k == eol || (k + 1 < eol && text[k] == '/' && text[k + 1] == '/');
}

/* Appends the leading run of `#include <...>` and `#define NAME` lines of
   one file to pre.  Anything else (a quoted include, a macro with a value, a
   conditional, a line continuation) ends it: a shorter prefix is always
   correct, only less useful.  Returns the name of a quoted include that ends
   it (malloc'd), or NULL. */
static char *scan_prefix(const char *text, size_t len, size_t file, struct prefix *pre)
{
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) i = 3;
    for (;;) {
        while (i < len && (is_hspace(text[i]) || text[i] == '\r' || text[i] == '\n')) i++;
        if (i + 1 < len && text[i] == '/' && text[i + 1] == '/') {
            size_t e = i;
            while (e < len && text[e] != '\n') e++;
            size_t last = e;
            while (last > i && (text[last - 1] == '\r')) last--;
            if (last > i && text[last - 1] == '\\') return NULL; /* the comment continues */
            i = e;
            continue;
        }
        if (i + 1 < len && text[i] == '/' && text[i + 1] == '*') {
            const char *e = memmem(text + i + 2, len - i - 2, "*/", 2);
            if (!e) return NULL;
            i = (size_t)(e - text) + 2;
            continue;
        }
        if (i >= len || text[i] != '#') return NULL;
        size_t eol = i;
        while (eol < len && text[eol] != '\n') eol++;
        size_t last = eol;
        while (last > i && (text[last - 1] == '\r' || is_hspace(text[last - 1]))) last--;
        if (last > i && text[last - 1] == '\\') return NULL;
        size_t j = i + 1;
        while (j < eol && is_hspace(text[j])) j++;
        size_t w = j;
        while (j < eol && is_ident(text[j], false)) j++;
        size_t wlen = j - w;
        while (j < eol && is_hspace(text[j])) j++;
        if (wlen == 6 && memcmp(text + w, "pragma", 6) == 0) {
            /* `#pragma once` changes nothing where it stands: step over it. */
            if (eol - j >= 4 && memcmp(text + j, "once", 4) == 0 && rest_is_blank(text, j + 4, eol)) {
                i = eol;
                continue;
            }
            return NULL;
        }
        if (wlen == 6 && memcmp(text + w, "define", 6) == 0) {
            /* Only a value-less object-like macro: one with a value could be
               something a rule looks at in the linted file. */
            size_t n0 = j;
            if (j >= eol || !is_ident(text[j], true)) return NULL;
            while (j < eol && is_ident(text[j], false)) j++;
            if (j < eol && text[j] == '(') return NULL;
            if (!rest_is_blank(text, j, eol)) return NULL;
            pre->lines = xrealloc(pre->lines, (pre->n + 1) * sizeof *pre->lines);
            pre->lines[pre->n++] = (struct prefix_line){file, i, j, xstrndup(text + n0, j - n0), true};
            i = eol;
            continue;
        }
        if (wlen != 7 || memcmp(text + w, "include", 7) != 0 || j >= eol) return NULL;
        char close = text[j] == '<' ? '>' : text[j] == '"' ? '"' : 0;
        if (!close) return NULL;
        size_t gt = j + 1;
        while (gt < eol && text[gt] != close && text[gt] != '<' && text[gt] != '>' && text[gt] != '"') gt++;
        if (gt >= eol || text[gt] != close || gt == j + 1 || !rest_is_blank(text, gt + 1, eol)) return NULL;
        if (close == '"') return xstrndup(text + j + 1, gt - j - 1);
        pre->lines = xrealloc(pre->lines, (pre->n + 1) * sizeof *pre->lines);
        pre->lines[pre->n++] = (struct prefix_line){file, i, gt + 1, xstrndup(text + j + 1, gt - j - 1), false};
        i = eol;
    }
}

static void prefix_release(struct prefix *p)
{
    for (size_t i = 0; i < p->n; i++) free(p->lines[i].name);
    free(p->lines);
    for (size_t i = 0; i < p->n_files; i++) {
        free(p->files[i].path);
        if (i) free(p->files[i].text);
    }
    memset(p, 0, sizeof *p);
}

/* ---- arguments ---- */

/* Arguments that change what a PCH would mean (their own forced includes,
   modules, raw frontend flags) get no PCH. */
static bool args_allow_pch(const struct strvec *args, bool shim)
{
    for (size_t i = 0; i < args->len; i++) {
        const char *a = args->items[i];
        if (strcmp(a, "-include") == 0) {
            if (shim && i + 1 < args->len && strcmp(args->items[i + 1], SHIM_MAIN) == 0) {
                i++;
                continue;
            }
            /* toolkit mode's own pre-include: guarded, so the copy the PCH
               holds makes the file's own -include of it a no-op */
            if (i + 1 < args->len && strcmp(args->items[i + 1], SHIM_TOOLKIT_PREINCLUDE) == 0) {
                i++;
                continue;
            }
            return false;
        }
        /* parse.c's own launch-ABI flag is part of the PCH key like any argument. */
        if (strcmp(a, "-Xclang") == 0 && i + 1 < args->len &&
            str_starts_with(args->items[i + 1], "-target-sdk-version=")) {
            i++;
            continue;
        }
        if (str_starts_with(a, "-include") || str_starts_with(a, "--include") ||
            str_starts_with(a, "-imacros") || str_starts_with(a, "--imacros") ||
            str_starts_with(a, "-Xclang") || str_starts_with(a, "-fmodule") ||
            str_starts_with(a, "-fcxx-modules") || strcmp(a, "-emit-ast") == 0)
            return false;
    }
    return true;
}

/* Directories searched for <...> that do not make system headers. */
static void user_include_dirs(const struct strvec *args, struct strvec *dirs)
{
    static const char *const opts[] = {"-I", "--include-directory", "-idirafter", "-iwithprefix",
                                       "-iwithprefixbefore"};
    for (size_t i = 0; i < args->len; i++) {
        const char *a = args->items[i];
        for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
            size_t n = strlen(opts[k]);
            if (strncmp(a, opts[k], n) != 0) continue;
            const char *v = a + n;
            if (*v == '=') v++;
            if (!*v) {
                if (i + 1 >= args->len) break;
                v = args->items[++i];
            }
            sv_push(dirs, v);
            break;
        }
    }
}

static bool is_regular_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* How many prefix lines can go into a PCH: the first <include> a user -I
   directory provides ends it. */
static size_t system_prefix_length(const struct prefix *pre, const struct strvec *args)
{
    struct strvec dirs = {0};
    user_include_dirs(args, &dirs);
    size_t n = 0;
    for (; n < pre->n; n++) {
        bool user = false;
        if (pre->lines[n].define) continue;
        for (size_t d = 0; d < dirs.len && !user; d++) {
            char *p = path_join(dirs.items[d], pre->lines[n].name);
            user = is_regular_file(p);
            free(p);
        }
        if (user) break;
    }
    sv_release(&dirs);
    return n;
}

/* The arguments a PCH is built and used with: the pass's, less the shim's
   forced include, which the PCH header includes itself instead. */
static void pch_args(const struct strvec *args, bool shim, struct strvec *out)
{
    for (size_t i = 0; i < args->len; i++) {
        if (shim && strcmp(args->items[i], "-include") == 0 && i + 1 < args->len &&
            strcmp(args->items[i + 1], SHIM_MAIN) == 0) {
            i++;
            continue;
        }
        sv_push(out, args->items[i]);
    }
}

/* The generated PCH header: prefix line k on header line k + 1 (+ 1 more
   after the shim's include). */
static char *header_text(const struct prefix *pre, size_t n, bool shim)
{
    struct strbuf sb;
    sb_init(&sb);
    if (shim) sb_addf(&sb, "#include <%s>\n", SHIM_MAIN);
    for (size_t i = 0; i < n; i++)
        sb_addf(&sb, pre->lines[i].define ? "#define %s\n" : "#include <%s>\n", pre->lines[i].name);
    return sb_detach(&sb);
}

/* dir/name, spelled the way clang spells an include it found there: the
   unsaved copy of a header must carry clang's name for it, since findings
   name the file by it. */
static char *include_spelling(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

/* Where clang finds `#include "name"` written in includer (as clang names
   it): the includer's directory, then -iquote and -I directories.  Returns
   clang's spelling of the path, or NULL when it is not a project file found
   there (a system header, or missing). */
static char *resolve_quoted(const char *includer, const char *name, const struct strvec *args)
{
    if (name[0] == '/') return is_regular_file(name) ? xstrdup(name) : NULL;
    const char *slash = strrchr(includer, '/');
    char *dir = slash ? xstrndup(includer, slash == includer ? 1 : (size_t)(slash - includer)) : xstrdup(".");
    char *p = include_spelling(dir, name);
    free(dir);
    if (is_regular_file(p)) return p;
    free(p);
    struct strvec dirs = {0};
    for (size_t i = 0; i < args->len; i++)
        if (str_starts_with(args->items[i], "-iquote")) {
            const char *v = args->items[i] + 7;
            if (!*v && i + 1 < args->len) v = args->items[++i];
            if (*v) sv_push(&dirs, v);
        }
    user_include_dirs(args, &dirs);
    char *found = NULL;
    for (size_t d = 0; d < dirs.len && !found; d++) {
        p = include_spelling(dirs.items[d], name);
        if (is_regular_file(p)) found = p;
        else free(p);
    }
    sv_release(&dirs);
    return found;
}

/* The prefix of file (text), continued through the project headers its
   prefixes end with (at most 3 deep). */
static void prefix_build(const char *file, const char *text, size_t len, const struct strvec *args,
                         struct prefix *pre)
{
    memset(pre, 0, sizeof *pre);
    pre->files[0] = (struct chain_file){NULL, (char *)text, len};
    pre->n_files = 1;
    char *quoted = scan_prefix(text, len, 0, pre);
    const char *includer = file;
    while (quoted && pre->n_files < sizeof pre->files / sizeof *pre->files) {
        char *path = resolve_quoted(includer, quoted, args);
        free(quoted);
        quoted = NULL;
        if (!path) break;
        bool seen = false;
        char *abs = path_absolute(path);
        for (size_t i = 1; i < pre->n_files; i++) {
            char *other = path_absolute(pre->files[i].path);
            seen |= strcmp(other, abs) == 0;
            free(other);
        }
        free(abs);
        char *htext = NULL;
        size_t hlen = 0;
        if (seen || read_file(path, &htext, &hlen) != 0) {
            free(path);
            break;
        }
        size_t k = pre->n_files++;
        pre->files[k] = (struct chain_file){path, htext, hlen};
        quoted = scan_prefix(htext, hlen, k, pre);
        includer = path;
    }
    free(quoted);
}

/* ---- keys and files ---- */

static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static char *clang_version;
static uint64_t shim_sum;

static void version_init(void)
{
    CXString v = clang_getClangVersion();
    clang_version = xstrdup(clang_getCString(v));
    clang_disposeString(v);
    shim_sum = shim_hash();
}

static void key_add(XXH3_state_t *st, const char *s)
{
    XXH3_128bits_update(st, s, strlen(s) + 1);
}

static void compute_key(const struct lint_options *o, const struct strvec *bargs, const char *htext,
                        char out[33])
{
    pthread_once(&version_once, version_init);
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    char *fmt = xasprintf("cudalint-pch %d %s", PCH_FORMAT, CUDALINT_VERSION);
    key_add(st, fmt);
    free(fmt);
    key_add(st, clang_version);
    char cwd[4096];
    key_add(st, getcwd(cwd, sizeof cwd) ? cwd : "?");
    for (size_t i = 0; i < bargs->len; i++) key_add(st, bargs->items[i]);
    key_add(st, "--");
    key_add(st, htext);
    if (o->toolkit) {
        key_add(st, o->toolkit->root);
        key_add(st, o->toolkit->version ? o->toolkit->version : "?");
    }
    if (parse_args_use_shim_files(bargs)) XXH3_128bits_update(st, &shim_sum, sizeof shim_sum);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

static char *key_file(const char *dir, const char *key, const char *ext)
{
    return xasprintf("%s/%s%s", dir, key, ext);
}

/* Writes to a temporary name and renames: readers see the old file or the
   whole new one. */
static int write_atomic(const char *path, const char *data, size_t len)
{
    char *tmp = xasprintf("%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&tmp_counter, 1));
    FILE *f = fopen(tmp, "wb");
    int rc = -1;
    if (f) {
        bool ok = fwrite(data, 1, len, f) == len;
        if (fclose(f) == 0 && ok && rename(tmp, path) == 0) rc = 0;
    }
    if (rc) unlink(tmp);
    free(tmp);
    return rc;
}

/* <key>.deps: "cudalint-pch-deps FORMAT ok|fail USABLE", then one
   "SIZE MTIME_NS HASH PATH" line per header the PCH was built from. */
static char *deps_text(bool ok, size_t usable, const struct file_stamp *deps, size_t n)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "cudalint-pch-deps %d %s %zu\n", PCH_FORMAT, ok ? "ok" : "fail", usable);
    for (size_t i = 0; i < n; i++)
        sb_addf(&sb, "%lld %lld %016llx %s\n", (long long)deps[i].size, (long long)deps[i].mtime_ns,
                (unsigned long long)deps[i].hash, deps[i].path);
    return sb_detach(&sb);
}

static void free_deps(struct file_stamp *deps, size_t n)
{
    for (size_t i = 0; i < n; i++) stamp_release(&deps[i]);
    free(deps);
}

/* Reads <key>.deps and checks every header in it.  Returns PCH_READY (ok, the
   .pch exists), PCH_FAILED (a recorded failure, still current) or PCH_ABSENT
   (missing, stale or unreadable: build again). */
static enum pch_state load_deps(struct pch *p, const char *dir, bool *had_file)
{
    char *dpath = key_file(dir, p->key, ".deps");
    char *text = NULL;
    size_t len = 0;
    *had_file = false;
    enum pch_state st = PCH_ABSENT;
    if (read_file(dpath, &text, &len) != 0) {
        free(dpath);
        return PCH_ABSENT;
    }
    *had_file = true;
    int fmt = 0;
    char status[8] = "";
    size_t usable = 0;
    char *line = text, *nl = strchr(line, '\n');
    if (!nl || sscanf(line, "cudalint-pch-deps %d %7s %zu", &fmt, status, &usable) != 3 || fmt != PCH_FORMAT)
        goto out;
    struct file_stamp *deps = NULL;
    size_t n = 0;
    bool valid = true;
    for (line = nl + 1; *line && valid; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) {
            valid = false;
            break;
        }
        *nl = '\0';
        long long size, mtime;
        unsigned long long hash;
        int used = 0;
        if (sscanf(line, "%lld %lld %llx %n", &size, &mtime, &hash, &used) != 3 || !line[used]) {
            valid = false;
            break;
        }
        deps = xrealloc(deps, (n + 1) * sizeof *deps);
        deps[n] = (struct file_stamp){xstrdup(line + used), size, mtime, hash, true};
        valid = stamp_still_valid(&deps[n]);
        n++;
    }
    if (valid && strcmp(status, "ok") == 0) {
        char *ppath = key_file(dir, p->key, ".pch");
        if (is_regular_file(ppath)) {
            p->path = ppath;
            p->deps = deps;
            p->n_deps = n;
            deps = NULL;
            st = PCH_READY;
            /* The .deps mtime says when the PCH was last used (eviction). */
            utimensat(AT_FDCWD, dpath, NULL, 0);
        } else {
            free(ppath);
        }
    } else if (valid && strcmp(status, "fail") == 0) {
        p->usable = usable;
        st = PCH_FAILED;
    }
    if (deps) free_deps(deps, n);
out:
    free(text);
    free(dpath);
    return st;
}

/* ---- building ---- */

struct incl_scan {
    CXTranslationUnit tu;
    const char *header;         /* the generated PCH header (skipped) */
    int line_base;              /* header line of include 0 */
    struct file_stamp *deps;
    size_t n_deps;
    struct { char *name; long top; } *tops; /* which prefix include brought each file in */
    size_t n_tops;
    long problem;               /* lowest include index that must stay out, or -1 */
    bool stamp_failed;
};

static void note_problem(struct incl_scan *s, long index)
{
    if (index < 0) index = 0;
    if (s->problem < 0 || index < s->problem) s->problem = index;
}

static void visit_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    struct incl_scan *s = data;
    CXString cs = clang_getFileName(f);
    const char *name = clang_getCString(cs);
    if (!name || depth == 0 || strcmp(name, s->header) == 0) {
        clang_disposeString(cs);
        return;
    }
    /* The outermost directive is a line of the PCH header, or the predefines
       (the runtime wrapper): index -1, part of every prefix. */
    long top = -1;
    CXFile tf;
    unsigned line, col, off;
    clang_getSpellingLocation(stack[depth - 1], &tf, &line, &col, &off);
    if (tf) {
        CXString tn = clang_getFileName(tf);
        if (clang_getCString(tn) && strcmp(clang_getCString(tn), s->header) == 0)
            top = (long)line - s->line_base;
        clang_disposeString(tn);
    }
    s->tops = xrealloc(s->tops, (s->n_tops + 1) * sizeof *s->tops);
    s->tops[s->n_tops].name = xstrdup(name);
    s->tops[s->n_tops].top = top;
    s->n_tops++;
    /* The embedded headers are compiled in (the key covers them); the
       toolkit-mode pre-include counts as a system header although its
       location at offset 0 precedes its system_header pragma. */
    bool embedded = str_starts_with(name, SHIM_DIR "/");
    bool system = embedded || clang_Location_isInSystemHeader(clang_getLocationForOffset(s->tu, f, 0));
    if (!system) {
        note_problem(s, top);
    } else if (!embedded) {
        struct file_stamp st;
        if (stamp_take(name, &st) == 0) {
            st.system = true;
            s->deps = xrealloc(s->deps, (s->n_deps + 1) * sizeof *s->deps);
            s->deps[s->n_deps++] = st;
        } else {
            s->stamp_failed = true;
        }
    }
    clang_disposeString(cs);
}

/* Which prefix include an error comes from. */
static long error_index(struct incl_scan *s, CXDiagnostic d)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, &off);
    if (!f) return 0;
    CXString cs = clang_getFileName(f);
    const char *name = clang_getCString(cs);
    long idx = 0;
    if (name && strcmp(name, s->header) == 0) {
        idx = (long)line - s->line_base;
    } else if (name) {
        for (size_t i = 0; i < s->n_tops; i++)
            if (strcmp(s->tops[i].name, name) == 0) {
                idx = s->tops[i].top;
                break;
            }
    }
    clang_disposeString(cs);
    return idx;
}

/* Drops the least recently used PCHs beyond the size limit, and week-old
   markers and leftovers of killed processes. */
static void evict(const char *dir, const char *keep_key)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct old { char key[33]; time_t used; long long size; } *pchs = NULL;
    size_t n = 0;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *nm = e->d_name;
        char *full = path_join(dir, nm);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            if (str_ends_with(nm, ".pch") && strlen(nm) == 36) {
                pchs = xrealloc(pchs, (n + 1) * sizeof *pchs);
                memcpy(pchs[n].key, nm, 32);
                pchs[n].key[32] = '\0';
                pchs[n].size = (long long)st.st_size;
                char *dp = key_file(dir, pchs[n].key, ".deps");
                struct stat ds;
                pchs[n].used = stat(dp, &ds) == 0 ? ds.st_mtime : st.st_mtime;
                free(dp);
                n++;
            } else if ((str_ends_with(nm, ".seen") || strstr(nm, ".tmp.")) && now - st.st_mtime > 7 * 86400) {
                unlink(full);
            }
        }
        free(full);
    }
    closedir(d);
    const char *env = getenv("CUDALINT_PCH_MAX_MB");
    long long limit = (env && atoll(env) > 0 ? atoll(env) : PCH_MAX_MB) * 1024 * 1024;
    /* Newest first; keep while the total fits. */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && pchs[j].used > pchs[j - 1].used; j--) {
            struct old t = pchs[j];
            pchs[j] = pchs[j - 1];
            pchs[j - 1] = t;
        }
    long long total = 0;
    for (size_t i = 0; i < n; i++) {
        total += pchs[i].size;
        if (total <= limit || strcmp(pchs[i].key, keep_key) == 0) continue;
        static const char *const exts[] = {".pch", ".deps", ".h", ".lock"};
        for (size_t k = 0; k < sizeof exts / sizeof *exts; k++) {
            char *p = key_file(dir, pchs[i].key, exts[k]);
            unlink(p);
            free(p);
        }
    }
    free(pchs);
}

/* Builds <key>.pch from the header text under an exclusive lock on
   <key>.lock (another process may be building the same one). */
static enum pch_state build(struct pch *p, const char *dir, const char *htext, size_t n_includes,
                            const struct strvec *bargs, bool shim)
{
    char *lpath = key_file(dir, p->key, ".lock");
    int lock = open(lpath, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    free(lpath);
    /* Another process building the same PCH holds the lock: the wait is
       timed on its own, so a slow file can say it waited. */
    phasetime_announce("waiting for another process's build of precompiled header %s", p->key);
    struct phasetime_mark waited = phasetime_begin();
    if (lock >= 0) flock(lock, LOCK_EX);
    phasetime_end(waited, PHASE_PCH_WAIT);
    phasetime_announce("building precompiled header %s", p->key);
    struct phasetime_mark built = phasetime_begin();
    bool had;
    enum pch_state st = load_deps(p, dir, &had);
    if (st != PCH_ABSENT) goto out;

    char *hpath = key_file(dir, p->key, ".h");
    if (!is_regular_file(hpath)) {
        /* Never rewritten: the PCH records the header's mtime. */
        char *tmp = xasprintf("%s.tmp.%ld.%u", hpath, (long)getpid(), atomic_fetch_add(&tmp_counter, 1));
        if (write_atomic(tmp, htext, strlen(htext)) == 0) {
            if (link(tmp, hpath) != 0 && errno != EEXIST) {
                /* (no hard links: a rename is fine under the lock) */
                rename(tmp, hpath);
            }
            unlink(tmp);
        }
        free(tmp);
    }
    struct parse_unsaved unsaved;
    parse_unsaved_init(&unsaved, hpath, NULL, 0, NULL, 0, bargs);
    /* Templates the headers instantiate among themselves are instantiated
       into the PCH (clang would otherwise redo that at the end of every file
       that uses it: most of what is left of a parse).  Function bodies stay:
       instantiations the file itself triggers, and their errors, are the
       same as without the PCH.  The flag is not part of the PCH's contract,
       so files use it with their own arguments. */
    struct strvec build_args = {0};
    for (size_t i = 0; i < bargs->len; i++) sv_push(&build_args, bargs->items[i]);
    sv_push(&build_args, "-Xclang");
    sv_push(&build_args, "-fpch-instantiate-templates");
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    enum CXErrorCode err = clang_parseTranslationUnit2(
        index, hpath, (const char *const *)build_args.items, (int)build_args.len, unsaved.files, unsaved.n,
        CXTranslationUnit_ForSerialization | CXTranslationUnit_Incomplete, &tu);
    sv_release(&build_args);
    st = PCH_FAILED;
    if (err == CXError_Success && tu) {
        struct incl_scan s = {0};
        s.tu = tu;
        s.header = hpath;
        s.line_base = shim ? 2 : 1;
        s.problem = -1;
        clang_getInclusions(tu, visit_inclusion, &s);
        unsigned nd = clang_getNumDiagnostics(tu);
        for (unsigned i = 0; i < nd; i++) {
            CXDiagnostic d = clang_getDiagnostic(tu, i);
            if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) note_problem(&s, error_index(&s, d));
            clang_disposeDiagnostic(d);
        }
        char *dpath = key_file(dir, p->key, ".deps");
        if (s.problem >= 0) {
            /* Record the failure, with the prefix length that can work, so
               later runs do not try again until a header changes. */
            p->usable = (size_t)s.problem < n_includes ? (size_t)s.problem : 0;
            char *txt = deps_text(false, p->usable, s.deps, s.n_deps);
            if (!s.stamp_failed) write_atomic(dpath, txt, strlen(txt));
            free(txt);
        } else if (!s.stamp_failed) {
            char *ppath = key_file(dir, p->key, ".pch");
            char *tmp = xasprintf("%s.tmp.%ld.%u", ppath, (long)getpid(), atomic_fetch_add(&tmp_counter, 1));
            if (clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) == CXSaveError_None &&
                rename(tmp, ppath) == 0) {
                char *txt = deps_text(true, n_includes, s.deps, s.n_deps);
                if (write_atomic(dpath, txt, strlen(txt)) == 0) {
                    p->path = ppath;
                    ppath = NULL;
                    p->deps = s.deps;
                    p->n_deps = s.n_deps;
                    s.deps = NULL;
                    s.n_deps = 0;
                    st = PCH_READY;
                }
                free(txt);
            }
            unlink(tmp);
            free(tmp);
            free(ppath);
        }
        free(dpath);
        free_deps(s.deps, s.n_deps);
        for (size_t i = 0; i < s.n_tops; i++) free(s.tops[i].name);
        free(s.tops);
        clang_disposeTranslationUnit(tu);
    }
    clang_disposeIndex(index);
    parse_unsaved_release(&unsaved);
    free(hpath);
    char *seen = key_file(dir, p->key, ".seen");
    unlink(seen);
    free(seen);
    if (st == PCH_READY) evict(dir, p->key);
out:
    if (lock >= 0) close(lock); /* releases the flock */
    phasetime_end(built, PHASE_PCH_BUILD);
    return st;
}

/* Finds or makes the PCH for key: loads it from disk, builds it, or (the
   first time this prefix is ever seen) only notes it.  Waits while another
   worker of this process builds it. */
static struct pch *acquire(const char *dir, const char *key, const char *htext, size_t n_includes,
                           const struct strvec *bargs, bool shim)
{
    pthread_mutex_lock(&pch_mu);
    struct pch *p = pch_table;
    while (p && strcmp(p->key, key) != 0) p = p->next;
    if (!p) {
        p = xcalloc(1, sizeof *p);
        memcpy(p->key, key, 33);
        p->next = pch_table;
        pch_table = p;
    }
    if (p->state == PCH_BUILDING) {
        /* Another worker of this process builds it. */
        phasetime_announce("waiting for another worker's build of precompiled header %s", p->key);
        struct phasetime_mark waited = phasetime_begin();
        while (p->state == PCH_BUILDING) pthread_cond_wait(&pch_cv, &pch_mu);
        phasetime_end(waited, PHASE_PCH_WAIT);
    }
    if (p->state == PCH_READY || p->state == PCH_FAILED) {
        pthread_mutex_unlock(&pch_mu);
        return p;
    }
    bool seen = p->state == PCH_SEEN;
    p->state = PCH_BUILDING;
    pthread_mutex_unlock(&pch_mu);

    bool had_deps;
    enum pch_state st = load_deps(p, dir, &had_deps);
    if (st == PCH_ABSENT) {
        char *marker = key_file(dir, p->key, ".seen");
        if (!seen && !had_deps && !is_regular_file(marker)) {
            int fd = open(marker, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
            if (fd >= 0) close(fd);
            st = PCH_SEEN;
        } else {
            st = build(p, dir, htext, n_includes, bargs, shim);
        }
        free(marker);
    }
    pthread_mutex_lock(&pch_mu);
    p->state = st;
    pthread_cond_broadcast(&pch_cv);
    pthread_mutex_unlock(&pch_mu);
    return p;
}

/* ---- parsing through a PCH ---- */

/* Did clang refuse the PCH (a header changed under it, a version mismatch)? */
static bool pch_rejected(CXTranslationUnit tu)
{
    bool bad = false;
    unsigned nd = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < nd && !bad; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString s = clang_getDiagnosticSpelling(d);
            const char *m = clang_getCString(s);
            bad = m && (strstr(m, "precompiled header") || strstr(m, "PCH file") || strstr(m, "AST file") ||
                        strstr(m, "module file"));
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    return bad;
}

/* pch_args: the arguments of the parse through a precompiled header (the
   pass's own, plus -include-pch), or NULL when none applies. */
static void print_args(const char *file, const struct parse_pass *pass, const struct strvec *pch_args)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "pass", pass->name);
    cJSON *a = cJSON_AddArrayToObject(o, "args");
    for (size_t i = 0; i < pass->args.len; i++) cJSON_AddItemToArray(a, cJSON_CreateString(pass->args.items[i]));
    if (pch_args) {
        cJSON *b = cJSON_AddArrayToObject(o, "pch_args");
        for (size_t i = 0; i < pch_args->len; i++) cJSON_AddItemToArray(b, cJSON_CreateString(pch_args->items[i]));
    }
    char *s = cJSON_PrintUnformatted(o);
    /* Data for the benchmark (it gives clang-tidy the same arguments), not a
       report: it goes to stderr as it is. */
    fprintf(stderr, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(o);
}

static bool env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* <cache>/pch, created once per process; NULL when unusable. */
static const char *pch_dir(const struct lint_options *o)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static char *dir, *for_cache;
    static bool ok;
    const char *cdir = cache_dir_writable(o->cache_dir, !o->quiet && !o->no_cache);
    if (!cdir) return NULL;
    pthread_mutex_lock(&mu);
    if (!for_cache || strcmp(for_cache, cdir) != 0) {
        free(for_cache);
        free(dir);
        for_cache = xstrdup(cdir);
        dir = path_join(cdir, "pch");
        ok = (mkdir(dir, 0755) == 0 || errno == EEXIST) && access(dir, W_OK | X_OK) == 0;
    }
    const char *r = ok ? dir : NULL;
    pthread_mutex_unlock(&mu);
    return r;
}

bool pch_prepare(const struct lint_options *o, const char *file, const struct parse_pass *pass,
                 const char *text, size_t len, struct pch_input *in)
{
    memset(in, 0, sizeof *in);
    bool shim = sv_contains(&pass->args, SHIM_DIR);
    const char *dir = NULL;
    if (env_on("CUDALINT_NO_PCH") || !args_allow_pch(&pass->args, shim) || !(dir = pch_dir(o))) return false;

    struct prefix pre;
    prefix_build(file, text, len, &pass->args, &pre);
    struct strvec bargs = {0};
    pch_args(&pass->args, shim, &bargs);
    size_t n = system_prefix_length(&pre, &pass->args);
    struct pch *p = NULL;
    for (;;) {
        /* The shim alone is small: a prefix-less PCH is not worth it there. */
        if (n == 0 && shim) break;
        char *htext = header_text(&pre, n, shim);
        char key[33];
        compute_key(o, &bargs, htext, key);
        struct pch *c = acquire(dir, key, htext, n, &bargs, shim);
        free(htext);
        if (c->state == PCH_READY) {
            p = c;
            break;
        }
        if (c->state == PCH_FAILED && c->usable < n) {
            n = c->usable;
            continue;
        }
        if (n == 0) break;
        n = 0; /* not built yet, or no shorter prefix works: the runtime wrapper alone */
    }
    if (p) {
        in->pass = *pass;
        in->pass.name = xstrdup(pass->name);
        memset(&in->pass.args, 0, sizeof in->pass.args);
        for (size_t i = 0; i < bargs.len; i++) sv_push(&in->pass.args, bargs.items[i]);
        sv_push(&in->pass.args, "-include-pch");
        sv_push(&in->pass.args, p->path);
        /* The PCH holds the first n prefix lines: blank them, byte for byte,
           in the file and in the project headers they run through. */
        for (size_t f = 0; f < pre.n_files; f++) {
            char *b = NULL;
            for (size_t i = 0; i < n; i++) {
                if (pre.lines[i].file != f) continue;
                if (!b) {
                    b = xmalloc(pre.files[f].len + 1);
                    memcpy(b, pre.files[f].text, pre.files[f].len);
                    b[pre.files[f].len] = '\0';
                }
                memset(b + pre.lines[i].start, ' ', pre.lines[i].end - pre.lines[i].start);
            }
            if (f == 0) {
                in->text = b ? b : xstrndup(text, len);
            } else if (b) {
                in->headers = xrealloc(in->headers, (in->n_headers + 1) * sizeof *in->headers);
                in->headers[in->n_headers].Filename = xstrdup(pre.files[f].path);
                in->headers[in->n_headers].Contents = b;
                in->headers[in->n_headers].Length = (unsigned long)pre.files[f].len;
                in->n_headers++;
            }
        }
        in->used = p;
    }
    prefix_release(&pre);
    sv_release(&bargs);
    return p != NULL;
}

void pch_input_release(struct pch_input *in)
{
    free(in->pass.name);
    sv_release(&in->pass.args);
    free(in->text);
    for (size_t i = 0; i < in->n_headers; i++) {
        free((char *)in->headers[i].Filename);
        free((char *)in->headers[i].Contents);
    }
    free(in->headers);
    memset(in, 0, sizeof *in);
}

void pch_reject(const struct pch *used)
{
    struct pch *p = (struct pch *)used;
    if (!p) return;
    pthread_mutex_lock(&pch_mu);
    p->state = PCH_FAILED;
    p->usable = 0;
    pthread_mutex_unlock(&pch_mu);
    if (p->path && str_ends_with(p->path, ".pch")) {
        /* <key>.pch -> <key>.deps: without it a later run rebuilds the PCH. */
        char *dpath = xasprintf("%.*s.deps", (int)(strlen(p->path) - 4), p->path);
        unlink(dpath);
        free(dpath);
    }
}

bool pch_parse_failed(CXTranslationUnit tu)
{
    /* A PCH clang cannot read (damaged, or built by another libclang) fails
       the parse outright (CXError_ASTReadError); one whose inputs moved
       under it gives a fatal error. */
    return !tu || pch_rejected(tu);
}

CXTranslationUnit pch_parse_pass(CXIndex index, const struct lint_options *o, const char *file,
                                 const struct parse_pass *pass, const char *text, size_t len,
                                 bool unsaved, enum CXErrorCode *err, const struct pch **used)
{
    *used = NULL;
    struct pch_input in;
    bool with_pch = pch_prepare(o, file, pass, text, len, &in);
    if (env_on("CUDALINT_PRINT_CLANG_ARGS")) print_args(file, pass, with_pch ? &in.pass.args : NULL);
    if (with_pch) {
        CXTranslationUnit tu =
            parse_pass_run_with(index, file, &in.pass, in.text, len, in.headers, in.n_headers, err);
        const struct pch *p = in.used;
        pch_input_release(&in);
        if (!pch_parse_failed(tu)) {
            *used = p;
            return tu;
        }
        if (tu) clang_disposeTranslationUnit(tu);
        pch_reject(p);
    }
    return parse_pass_run(index, file, pass, unsaved ? text : NULL, unsaved ? len : 0, err);
}
