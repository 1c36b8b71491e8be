/* lint.c: the lint driver.  Expands paths into the file set, runs each file
 * through its parse passes and the walk, merges and de-duplicates findings,
 * applies suppressions, and spreads files over worker threads with results in
 * a deterministic order. */
#include "engine/lint.h"
#include "cache/cache.h"
#include "frontend/compile_args.h"
#include "config/config.h"
#include "fix/fixwrite.h"
#include "frontend/parse.h"
#include "frontend/pch.h"
#include "core/rule.h"
#include "engine/suppress.h"
#include "frontend/toolkit.h"
#include "engine/walk.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

int lint_prepare(struct lint_options *o, char **error)
{
    if (o->compdb_dir) {
        o->compdb = compdb_load(o->compdb_dir, error);
        if (!o->compdb) return -1;
    } else if (o->headers != HEADERS_SHIM || true) {
        char *dir = compdb_discover();
        if (dir) {
            char *err = NULL;
            o->compdb = compdb_load(dir, &err);
            if (!o->compdb) {
                /* A broken auto-discovered database is reported, not fatal. */
                fprintf(stderr, "cudalint: warning: ignoring %s\n", err);
                free(err);
            }
            free(dir);
        }
    }
    if (o->headers != HEADERS_SHIM) {
        struct cuda_toolkit tk;
        if (toolkit_find(o->cuda_path, &tk, error) == 0) {
            o->toolkit = xmalloc(sizeof tk);
            *o->toolkit = tk;
        } else if (o->cuda_path) {
            return -1;
        } else if (o->headers == HEADERS_TOOLKIT) {
            *error = xstrdup("no CUDA Toolkit found (tried $CUDA_PATH, nvcc on PATH, /usr/local/cuda); "
                             "give --cuda-path or use --no-cuda-headers");
            return -1;
        }
    }
    if (o->archs.len == 0) sv_push(&o->archs, "sm_90");
    sv_release(&o->roots);
    for (size_t i = 0; i < o->paths.len; i++) sv_push_owned(&o->roots, path_absolute(o->paths.items[i]));
    return 0;
}

void lint_unprepare(struct lint_options *o)
{
    if (o->compdb) compdb_free(o->compdb);
    o->compdb = NULL;
    if (o->toolkit) {
        toolkit_release(o->toolkit);
        free(o->toolkit);
    }
    o->toolkit = NULL;
}

/* ---- one file ---- */

static bool looks_binary(const char *text, size_t len)
{
    size_t n = len < 8192 ? len : 8192;
    return memchr(text, '\0', n) != NULL;
}

static char *diagnostic_text(CXDiagnostic d)
{
    CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
    char *r = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

void lint_collect_parse_errors(CXTranslationUnit tu, const char *pass_name, const char *path,
                               const struct lint_options *o, struct diag_list *out,
                               unsigned *n_errors, bool *first_reported)
{
    unsigned n = clang_getNumDiagnostics(tu);
    char *abs_p = path_absolute(path);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        (*n_errors)++;
        if (o->show_parse_errors || !*first_reported) {
            CXFile f;
            unsigned line, col, off;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, &off);
            CXString msg = clang_getDiagnosticSpelling(d);
            CXString fname = clang_getFileName(f);
            const char *fn = clang_getCString(fname);
            char *abs_f = fn ? path_absolute(fn) : NULL;
            bool in_main = abs_f && strcmp(abs_f, abs_p) == 0;
            struct diag *dg = diag_list_add(out);
            dg->file = xstrdup(path);
            dg->rule = &rule_cu000;
            dg->severity = rule_cu000.severity;
            if (in_main) {
                dg->line = line;
                dg->column = col;
                dg->message = xasprintf("%s: %s", o->show_parse_errors ? "clang error" : "file not fully parsed, first error",
                                        clang_getCString(msg));
            } else {
                dg->line = 1;
                dg->column = 1;
                char *full = diagnostic_text(d);
                dg->message = xasprintf("%s: %s", o->show_parse_errors ? "clang error" : "file not fully parsed, first error", full);
                free(full);
            }
            dg->end_line = dg->line;
            dg->end_column = dg->column + 1;
            if (!o->show_parse_errors) {
                char *m = xasprintf("%s (%s pass)", dg->message, pass_name);
                free(dg->message);
                dg->message = m;
            }
            *first_reported = true;
            free(abs_f);
            clang_disposeString(msg);
            clang_disposeString(fname);
        }
        clang_disposeDiagnostic(d);
    }
    free(abs_p);
}

void lint_apply_suppressions(const struct lint_options *o, const char *path, const char *text,
                             size_t len, struct diag_list *diags)
{
    struct diag_list problems = {0};
    struct suppressions *main_s = suppress_scan(path, text, len, &problems);
    /* Findings in linted headers use the header's own comments. */
    struct { char *file; struct suppressions *s; } *others = NULL;
    size_t n_others = 0;
    size_t w = 0;
    for (size_t i = 0; i < diags->len; i++) {
        struct diag *d = &diags->items[i];
        struct suppressions *s = main_s;
        if (strcmp(d->file, path) != 0) {
            s = NULL;
            for (size_t j = 0; j < n_others && !s; j++)
                if (strcmp(others[j].file, d->file) == 0) s = others[j].s;
            if (!s) {
                char *htext = NULL;
                size_t hlen = 0;
                if (read_file(d->file, &htext, &hlen) == 0) {
                    s = suppress_scan(d->file, htext, hlen, NULL);
                    free(htext);
                }
                others = xrealloc(others, (n_others + 1) * sizeof *others);
                others[n_others].file = xstrdup(d->file);
                others[n_others].s = s;
                n_others++;
            }
        }
        if (d->rule != &rule_cu000 && suppress_matches(s, d)) {
            diag_release(d);
            continue;
        }
        diags->items[w++] = *d;
    }
    diags->len = w;
    for (size_t i = 0; i < problems.len; i++)
        if (!lint_rule_enabled(o, problems.items[i].rule)) diag_release(&problems.items[i]);
        else *diag_list_add(diags) = problems.items[i];
    free(problems.items);
    for (size_t j = 0; j < n_others; j++) {
        free(others[j].file);
        suppress_free(others[j].s);
    }
    free(others);
    suppress_free(main_s);
}

/* *index is created when the first pass has to be parsed: a run that the
   result cache answers never loads libclang (clang_api.h). */
static void lint_file_with_index(CXIndex *index, const struct lint_options *cli_opts, const char *path,
                                 const char *contents, size_t contents_len, struct file_result *res)
{
    memset(res, 0, sizeof *res);
    res->path = xstrdup(path);
    res->status = xstrdup("ok");
    /* From here on, o is the command line merged with the file's .cudalint.yaml. */
    char *config_error = NULL;
    const struct lint_options *o = config_options_for_file(cli_opts, path, &config_error);
    if (!o) {
        file_result_set_status(res, "error", config_error);
        return;
    }
    if (config_path_excluded(cli_opts, path)) {
        file_result_set_status(res, "skipped", xstrdup("excluded by the configuration (exclude:)"));
        return;
    }
    char *text = NULL;
    size_t len = 0;
    if (contents) {
        text = xstrndup(contents, contents_len);
        len = contents_len;
    } else {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && o->max_file_size > 0 &&
            st.st_size > o->max_file_size) {
            file_result_set_status(res, "skipped", xasprintf("file too large (%.1f MB, the limit is %.1f MB: --max-file-size)",
                                                 st.st_size / 1e6, o->max_file_size / 1e6));
            return;
        }
        int e = read_file(path, &text, &len);
        if (e) {
            file_result_set_status(res, "error", xasprintf("cannot read: %s", strerror(e)));
            return;
        }
        /* --fix writes only over the bytes its fixes were computed from. */
        if (o->fix || o->diff) fixwrite_remember(path, text, len);
    }
    if (len == 0) {
        file_result_set_status(res, "ok", xstrdup("empty file"));
        free(text);
        return;
    }
    if (looks_binary(text, len)) {
        file_result_set_status(res, "skipped", xstrdup("binary file (contains NUL bytes), not linted"));
        free(text);
        return;
    }
    if (o->max_file_size > 0 && (long long)len > o->max_file_size) {
        file_result_set_status(res, "skipped", xasprintf("file too large (%.1f MB, the limit is %.1f MB: --max-file-size)",
                                             len / 1e6, o->max_file_size / 1e6));
        free(text);
        return;
    }

    char *abs = path_absolute(path);
    struct parse_plan plan;
    char *error = NULL;
    if (parse_plan_build(o, abs, &plan, &error) != 0) {
        file_result_set_status(res, "error", error);
        free(abs);
        free(text);
        return;
    }
    bool first_reported = false;
    struct diag_list parse_diags = {0};
    /* The result cache holds what the passes found, before suppressions. */
    struct cache_rec *cached = cache_begin(o, cli_opts, path, text, len, contents != NULL, &plan);
    bool hit = cache_lookup(cached, &res->diags, &parse_diags, &res->n_parse_errors);
    for (size_t i = 0; i < plan.n_passes && !hit; i++) {
        enum CXErrorCode err;
        const struct pch *pch = NULL;
        /* Declarations from a precompiled header are skipped by the walk (they
           are all toolkit headers), so it need not deserialize them. */
        if (!*index) *index = clang_createIndex(1, 0);
        CXTranslationUnit tu = pch_parse_pass(*index, o, path, &plan.passes[i], text, len, contents != NULL,
                                              &err, &pch);
        if (!tu) {
            file_result_set_status(res, "error", xasprintf("libclang could not parse the file (error %d, %s pass)",
                                               (int)err, plan.passes[i].name));
            continue;
        }
        lint_collect_parse_errors(tu, plan.passes[i].name, path, o, &parse_diags, &res->n_parse_errors,
                                  &first_reported);
        walk_translation_unit(tu, path, plan.passes[i].name, plan.passes[i].is_device, o, &res->diags);
        cache_add_tu(cached, tu, pch);
        clang_disposeTranslationUnit(tu);
    }
    if (!hit) cache_store(cached, res->status, &res->diags, &parse_diags, res->n_parse_errors);
    cache_end(cached);
    if (res->n_parse_errors && strcmp(res->status, "ok") == 0)
        file_result_set_status(res, "parse-errors", xasprintf("%u clang error%s; the file was analysed as far as clang recovered",
                                                  res->n_parse_errors, res->n_parse_errors == 1 ? "" : "s"));
    if (lint_rule_enabled(o, &rule_cu000)) diag_list_move(&res->diags, &parse_diags);
    else diag_list_release(&parse_diags);
    lint_apply_suppressions(o, path, text, len, &res->diags);
    config_finish_file(o, &res->diags);
    diag_list_sort_unique(&res->diags);
    parse_plan_release(&plan);
    free(abs);
    free(text);
}

void lint_file(const struct lint_options *o, const char *path, const char *contents,
               size_t contents_len, struct file_result *res)
{
    CXIndex index = NULL;
    lint_file_with_index(&index, o, path, contents, contents_len, res);
    if (index) clang_disposeIndex(index);
}

/* ---- the file set ---- */

static bool has_extension(const struct lint_options *o, const char *name)
{
    for (size_t i = 0; i < o->extensions.len; i++)
        if (str_ends_with(name, o->extensions.items[i])) return true;
    return false;
}

static void collect_dir(const struct lint_options *o, const char *dir, struct strvec *out,
                        struct strvec *errors)
{
    DIR *d = opendir(dir);
    if (!d) {
        sv_push_owned(errors, xasprintf("%s\t%s", dir, strerror(errno)));
        return;
    }
    struct strvec names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        /* Hidden entries (.git, .cache) are never source trees to lint. */
        if (e->d_name[0] == '.') continue;
        sv_push(&names, e->d_name);
    }
    closedir(d);
    sv_sort(&names);
    for (size_t i = 0; i < names.len; i++) {
        char *p = path_join(dir, names.items[i]);
        struct stat st;
        if (stat(p, &st) != 0) {
            free(p);
            continue; /* a dangling symlink */
        }
        if (config_path_excluded(o, p)) {
            free(p);
            continue; /* an exclude: pattern of .cudalint.yaml */
        }
        if (S_ISDIR(st.st_mode)) collect_dir(o, p, out, errors);
        else if (S_ISREG(st.st_mode) && has_extension(o, p)) sv_push(out, p);
        free(p);
    }
    sv_release(&names);
}

struct work {
    const struct lint_options *o;
    struct strvec *files;
    struct file_result *results;
    atomic_size_t next;
};

static void *worker(void *arg)
{
    struct work *w = arg;
    CXIndex index = NULL;
    for (;;) {
        size_t i = atomic_fetch_add(&w->next, 1);
        if (i >= w->files->len) break;
        lint_file_with_index(&index, w->o, w->files->items[i], NULL, 0, &w->results[i]);
    }
    if (index) clang_disposeIndex(index);
    return NULL;
}

void lint_run(const struct lint_options *o, struct lint_run *run)
{
    memset(run, 0, sizeof *run);
    struct strvec files = {0}, errors = {0}, notes = {0};
    for (size_t i = 0; i < o->paths.len; i++) {
        const char *p = o->paths.items[i];
        struct stat st;
        if (stat(p, &st) != 0) {
            sv_push_owned(&errors, xasprintf("%s\t%s", p, strerror(errno)));
        } else if (S_ISDIR(st.st_mode)) {
            size_t before = files.len;
            collect_dir(o, p, &files, &errors);
            if (files.len == before) sv_push_owned(&notes, xasprintf("%s\tno CUDA files (%s) found", p, "extensions .cu, .cuh and --extensions"));
        } else {
            sv_push(&files, p); /* an explicitly named file is linted whatever its extension */
        }
    }
    /* The same file named twice is linted once. */
    struct strvec unique = {0};
    for (size_t i = 0; i < files.len; i++)
        if (!sv_contains(&unique, files.items[i])) sv_push(&unique, files.items[i]);
    sv_release(&files);

    size_t n = unique.len + errors.len + notes.len;
    run->files = xcalloc(n ? n : 1, sizeof *run->files);
    struct work w = {o, &unique, run->files, 0};
    int jobs = o->jobs > 0 ? o->jobs : 1;
    if ((size_t)jobs > unique.len) jobs = (int)unique.len;
    if (jobs <= 1) {
        worker(&w);
    } else {
        pthread_t *th = xmalloc((size_t)jobs * sizeof *th);
        for (int i = 0; i < jobs; i++) {
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            /* libclang recurses deeply on large expressions. */
            pthread_attr_setstacksize(&attr, 16u << 20);
            pthread_create(&th[i], &attr, worker, &w);
            pthread_attr_destroy(&attr);
        }
        for (int i = 0; i < jobs; i++) pthread_join(th[i], NULL);
        free(th);
    }
    run->n_files = unique.len;
    for (size_t i = 0; i < errors.len; i++) {
        struct file_result *r = &run->files[run->n_files++];
        char *tab = strchr(errors.items[i], '\t');
        *tab = '\0';
        r->path = xstrdup(errors.items[i]);
        r->status = xstrdup("error");
        r->message = xstrdup(tab + 1);
        run->input_errors++;
    }
    for (size_t i = 0; i < notes.len; i++) {
        struct file_result *r = &run->files[run->n_files++];
        char *tab = strchr(notes.items[i], '\t');
        *tab = '\0';
        r->path = xstrdup(notes.items[i]);
        r->status = xstrdup("skipped");
        r->message = xstrdup(tab + 1);
    }
    for (size_t i = 0; i < run->n_files; i++) {
        if (strcmp(run->files[i].status, "error") == 0 && i < unique.len) run->input_errors++;
        /* Copy findings into the run-wide list; a header included by several
           linted files yields its findings once. */
        struct diag_list *dl = &run->files[i].diags;
        for (size_t j = 0; j < dl->len; j++) {
            struct diag *src = &dl->items[j], *d = diag_list_add(&run->diags);
            *d = *src;
            d->file = xstrdup(src->file);
            d->message = xstrdup(src->message);
            d->function = src->function ? xstrdup(src->function) : NULL;
            d->notes = NULL;
            d->n_notes = 0;
            d->fixes = NULL;
            d->n_fixes = 0;
            for (size_t k = 0; k < src->n_notes; k++)
                diag_add_note(d, src->notes[k].file, src->notes[k].line, src->notes[k].column, "%s",
                              src->notes[k].message);
            for (size_t k = 0; k < src->n_fixes; k++) {
                const struct diag_fix *f = &src->fixes[k];
                diag_add_fix(d, f->file, f->line, f->column, f->end_line, f->end_column, f->offset,
                             f->end_offset, f->replacement);
            }
        }
    }
    diag_list_sort_unique(&run->diags);
    sv_release(&unique);
    sv_release(&errors);
    sv_release(&notes);
}
