/* lint.c: the lint driver.  Expands paths into the file set, runs each file
 * through its parse passes and the walk, merges and de-duplicates findings,
 * applies suppressions, and spreads files over worker threads with results in
 * a deterministic order. */
#include "engine/lint.h"
#include "analysis/analysis.h"
#include "analysis/launch.h"
#include "base/phasetime.h"
#include "analysis/smt_solve.h"
#include "analysis/uniformity.h"
#include "base/report.h"
#include "cache/cache.h"
#include "codegen/codegen.h"
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
                report_warning("ignoring %s", err);
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
    /* --statistics reports the costliest rules and analyses of slow files. */
    phasetime_set_detail(o->statistics);
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

void lint_session_init(struct lint_session *s)
{
    lint_options_init(&s->opts);
    s->opts.config = config_set_new();
    s->opts.fix_memory = fix_memory_new();
}

int lint_session_prepare(struct lint_session *s, char **error)
{
    return lint_prepare(&s->opts, error) != 0 || config_prepare(&s->opts, error) != 0 ? -1 : 0;
}

void lint_session_release(struct lint_session *s)
{
    config_set_free(s->opts.config);
    fix_memory_free(s->opts.fix_memory);
    lint_unprepare(&s->opts);
    lint_options_release(&s->opts);
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

/* Counts a pass's clang errors into out, and turns the first (or, with
   --show-parse-errors, each) into a CU000 note. */
static void collect_parse_errors(CXTranslationUnit tu, const char *pass_name, const char *path,
                                 const struct lint_options *o, struct lint_pass_result *out)
{
    unsigned n = clang_getNumDiagnostics(tu);
    char *abs_p = path_absolute(path);
    bool first_reported = false;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        out->n_parse_errors++;
        if (o->show_parse_errors || !first_reported) {
            CXFile f;
            unsigned line, col, off;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, &off);
            CXString msg = clang_getDiagnosticSpelling(d);
            CXString fname = clang_getFileName(f);
            const char *fn = clang_getCString(fname);
            char *abs_f = fn ? path_absolute(fn) : NULL;
            bool in_main = abs_f && strcmp(abs_f, abs_p) == 0;
            const char *what = o->show_parse_errors ? "clang error" : "file not fully parsed, first error";
            char *text = in_main ? xstrdup(clang_getCString(msg)) : diagnostic_text(d);
            char *message = o->show_parse_errors ? xasprintf("%s: %s", what, text)
                                                 : xasprintf("%s: %s (%s pass)", what, text, pass_name);
            /* Outside the file (a header's error), the note goes on its first
               line and the message carries clang's location. */
            unsigned at_line = in_main ? line : 1, at_col = in_main ? col : 1;
            diag_new(&out->parse_diags, &rule_cu000, path, at_line, at_col, at_line, at_col + 1, message);
            free(text);
            first_reported = true;
            free(abs_f);
            clang_disposeString(msg);
            clang_disposeString(fname);
        }
        clang_disposeDiagnostic(d);
    }
    free(abs_p);
}

void lint_pass_walk(CXTranslationUnit tu, const struct parse_pass *pass, const char *path,
                    const struct lint_options *o, struct lint_pass_result *out)
{
    lint_pass_walk_launch(tu, pass, path, o, NULL, NULL, out);
}

void lint_pass_walk_launch(CXTranslationUnit tu, const struct parse_pass *pass, const char *path,
                           const struct lint_options *o, const struct launch_table *table,
                           struct launch_facts *facts, struct lint_pass_result *out)
{
    collect_parse_errors(tu, pass->name, path, o, out);
    if (!table) {
        walk_translation_unit(tu, path, pass->name, pass->is_device, o, &out->diags);
        return;
    }
    /* The launch model is built here, with the run's table, and handed to
       the walk's analyses; afterwards its sites and the kernels asked about
       go to the file's facts. */
    struct analysis_cache *analyses = analysis_cache_new(tu);
    struct launch_model *lm = launch_model_new_in(tu, table);
    analysis_cache_provide(analyses, &launch_analysis, lm);
    walk_translation_unit_in(tu, path, pass->name, pass->is_device, o, &out->diags, analyses);
    analysis_cache_free(analyses);
    launch_facts_take(facts, lm);
    launch_model_free(lm);
}

/* Drops suppressed findings (NOLINT comments of the file, or of the linted
   header a finding is in); adds CU001 for unmatched NOLINTBEGIN/END. */
static void apply_suppressions(const struct lint_options *o, const char *path, const char *text,
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
        else diag_list_take(diags, &problems.items[i]);
    free(problems.items);
    for (size_t j = 0; j < n_others; j++) {
        free(others[j].file);
        suppress_free(others[j].s);
    }
    free(others);
    suppress_free(main_s);
}

/* The phases of the thread's accounts into t; with --statistics, the three
   costliest rules and analyses into t->detail. */
static void file_timing_fill(struct file_timing *t)
{
    const struct phasetime *pt = phasetime_current();
    const struct phasetime_account *top[3] = {NULL, NULL, NULL};
    for (size_t i = 0; i < pt->n; i++) {
        const struct phasetime_account *a = &pt->acc[i];
        if (strcmp(a->name, PHASE_CACHE) == 0) t->cache += a->seconds;
        else if (strcmp(a->name, PHASE_PCH_WAIT) == 0) t->pch_wait += a->seconds;
        else if (strcmp(a->name, PHASE_PCH_BUILD) == 0) t->pch_build += a->seconds;
        else if (strcmp(a->name, PHASE_PARSE) == 0) t->parse += a->seconds;
        else if (strcmp(a->name, PHASE_WALK) == 0) t->walk += a->seconds;
        else if (strcmp(a->name, "setup") != 0) {
            /* a rule or an analysis: part of the walk */
            t->walk += a->seconds;
            for (int k = 0; k < 3; k++)
                if (!top[k] || a->seconds > top[k]->seconds) {
                    for (int m = 2; m > k; m--) top[m] = top[m - 1];
                    top[k] = a;
                    break;
                }
        }
    }
    if (!top[0] || !phasetime_detail()) return;
    struct strbuf sb;
    sb_init(&sb);
    for (int k = 0; k < 3 && top[k]; k++)
        sb_addf(&sb, "%s%s%s %.3f s", k ? ", " : "", str_starts_with(top[k]->name, "CU") ? "" : "analysis ",
                top[k]->name, top[k]->seconds);
    t->detail = sb_detach(&sb);
}

static bool same_finding(const struct diag *a, const struct diag *b)
{
    return a->rule == b->rule && a->line == b->line && a->column == b->column && strcmp(a->file, b->file) == 0 &&
           strcmp(a->message, b->message) == 0;
}

static bool pass_has(const struct lint_pass_result *p, const struct diag *d)
{
    for (size_t k = 0; k < p->diags.len; k++)
        if (same_finding(&p->diags.items[k], d)) return true;
    return false;
}

/* With several device passes (the file tests __CUDA_ARCH__), a finding that
   only some of them produce gets a note naming their archs: the code differs
   between architectures, and the user should know which one it is about. */
static void name_arch_only_findings(const struct parse_plan *plan, struct lint_pass_result *out)
{
    size_t n_device = 0;
    for (size_t i = 0; i < plan->n_passes; i++) n_device += plan->passes[i].is_device;
    if (n_device < 2) return;
    for (size_t i = 0; i < plan->n_passes; i++) {
        if (!plan->passes[i].is_device) continue;
        for (size_t k = 0; k < out[i].diags.len; k++) {
            struct diag *d = &out[i].diags.items[k];
            struct strbuf archs;
            sb_init(&archs);
            size_t found = 0;
            bool in_host = false;
            for (size_t j = 0; j < plan->n_passes; j++) {
                if (!pass_has(&out[j], d)) continue;
                if (!plan->passes[j].is_device) {
                    in_host = true;
                    continue;
                }
                const char *name = plan->passes[j].name;
                if (str_starts_with(name, "device ")) name += strlen("device ");
                sb_addf(&archs, "%s%s", found ? ", " : "", name);
                found++;
            }
            if (!in_host && found < n_device)
                diag_add_note(d, d->file, d->line, d->column, "found only for %s of the %zu GPU architectures linted "
                              "(the code tests __CUDA_ARCH__)", archs.buf, n_device);
            sb_release(&archs);
        }
    }
}

/* The early outs: the file's configuration, exclusion, size, readability,
   empty and binary files.  Returns the file's options and sets *text (owned)
   and *len, or returns NULL when res is already final. */
static const struct lint_options *file_begin(const struct lint_options *cli, const char *path,
                                             const char *contents, size_t contents_len,
                                             struct file_result *res, char **text, size_t *len)
{
    /* From here on, o is the command line merged with the file's .cudalint.yaml. */
    char *config_error = NULL;
    const struct lint_options *o = config_options_for_file(cli, path, &config_error);
    if (!o) {
        file_result_set_status(res, FILE_ERROR, config_error);
        return NULL;
    }
    if (config_path_excluded(cli, path)) {
        file_result_set_status(res, FILE_SKIPPED, xstrdup("excluded by the configuration (exclude:)"));
        return NULL;
    }
    if (contents) {
        *text = xstrndup(contents, contents_len);
        *len = contents_len;
    } else {
        struct stat st;
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
            const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                             : S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
                             : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
            file_result_set_status(res, FILE_ERROR, xasprintf("cannot read: %s, not a source file", what));
            return NULL;
        }
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && o->max_file_size > 0 &&
            st.st_size > o->max_file_size) {
            file_result_set_status(res, FILE_SKIPPED, xasprintf("file too large (%.1f MB, the limit is %.1f MB: --max-file-size)",
                                                 st.st_size / 1e6, o->max_file_size / 1e6));
            return NULL;
        }
        int e = read_file(path, text, len);
        if (e) {
            file_result_set_status(res, FILE_ERROR, xasprintf("cannot read: %s", strerror(e)));
            return NULL;
        }
        /* --fix writes only over the bytes its fixes were computed from. */
        if ((o->fix || o->diff) && o->fix_memory) fixwrite_remember(o->fix_memory, path, *text, *len);
    }
    const char *skip = NULL;
    if (*len == 0) {
        file_result_set_status(res, FILE_OK, xstrdup("empty file"));
        skip = "";
    } else if (looks_binary(*text, *len)) {
        file_result_set_status(res, FILE_SKIPPED, xstrdup("binary file (contains NUL bytes), not linted"));
        skip = "";
    } else if (o->max_file_size > 0 && (long long)*len > o->max_file_size) {
        file_result_set_status(res, FILE_SKIPPED, xasprintf("file too large (%.1f MB, the limit is %.1f MB: --max-file-size)",
                                             *len / 1e6, o->max_file_size / 1e6));
        skip = "";
    }
    if (skip) {
        free(*text);
        *text = NULL;
        return NULL;
    }
    return o;
}

/* Findings nvcc's code disproved leave the report (--statistics counts
   them) unless --show-disproved keeps them, marked so. */
static void set_aside_disproved(const struct lint_options *o, struct file_result *res)
{
    size_t w = 0;
    for (size_t i = 0; i < res->diags.len; i++) {
        struct diag *d = &res->diags.items[i];
        if (d->codegen == CODEGEN_DISPROVED) {
            if (o->show_disproved) {
                char *m = xasprintf("[disproved by codegen] %s", d->message);
                free(d->message);
                d->message = m;
            } else {
                diag_list_take(&res->disproved, d);
                continue;
            }
        }
        res->diags.items[w++] = *d;
    }
    res->diags.len = w;
    diag_list_sort_unique(&res->disproved);
}

/* Can a cached result stand, given its launch facts (extra)?  Without a
   run's table only a result computed without one; with one, a result with
   facts, computed with the same facts about the kernels it asked about
   (any, in a run's first phase).  A hit fills passes->launch_facts. */
static bool launch_hit_usable(struct lint_passes *passes, const char *extra)
{
    if (!passes->launch_table) return extra == NULL;
    struct launch_facts *f = launch_facts_from_json(extra);
    if (!f) return false;
    bool ok = passes->launch_any_digest;
    if (!ok) {
        char *now = launch_facts_digest(f, passes->launch_table);
        ok = strcmp(now, launch_facts_digest_used(f)) == 0;
        free(now);
    }
    if (ok) launch_facts_merge(passes->launch_facts, f);
    launch_facts_free(f);
    return ok;
}

void lint_file_with(const struct lint_options *cli, const char *path, const char *contents,
                    size_t contents_len, struct lint_passes *passes, struct file_result *res)
{
    memset(res, 0, sizeof *res);
    res->path = xstrdup(path);
    res->status = FILE_OK;
    phasetime_reset();
    struct phasetime_mark whole = phasetime_begin();
    char *text = NULL;
    size_t len = 0;
    const struct lint_options *o = file_begin(cli, path, contents, contents_len, res, &text, &len);
    if (!o) {
        if (res->status == FILE_SKIPPED && passes->drop) passes->drop(passes);
        res->timing.total = phasetime_end(whole, "setup");
        return;
    }

    char *abs = path_absolute(path);
    struct parse_plan plan;
    char *error = NULL;
    if (parse_plan_build(o, abs, text, len, &plan, &error) != 0) {
        file_result_set_status(res, FILE_ERROR, error);
        free(abs);
        free(text);
        return;
    }
    struct diag_list parse_diags = {0};
    /* The result cache holds what the passes found, before suppressions. */
    phasetime_announce("looking up the result cache");
    struct phasetime_mark looked_up = phasetime_begin();
    struct cache_rec *cached = cache_begin(o, cli, path, text, len, contents != NULL, &plan);
    bool hit = cache_lookup(cached, &res->diags, &parse_diags, &res->n_parse_errors);
    phasetime_end(looked_up, PHASE_CACHE);
    if (hit && !launch_hit_usable(passes, cache_extra(cached))) {
        diag_list_release(&res->diags);
        diag_list_release(&parse_diags);
        res->n_parse_errors = 0;
        hit = false;
    }
    if (!hit) {
        struct lint_pass_result *out = xcalloc(plan.n_passes ? plan.n_passes : 1, sizeof *out);
        passes->run(passes, o, path, text, len, contents != NULL, &plan, out, cached);
        for (size_t i = 0; i < plan.n_passes; i++)
            if (out[i].seconds > res->timing.slowest_pass_s || !res->timing.slowest_pass) {
                free(res->timing.slowest_pass);
                res->timing.slowest_pass = xstrdup(plan.passes[i].name);
                res->timing.slowest_pass_s = out[i].seconds;
            }
        name_arch_only_findings(&plan, out);
        /* Merged in pass order: the result does not depend on thread timing.
           Without --show-parse-errors, only the first pass with a clang error
           reports it. */
        bool first_kept = false;
        for (size_t i = 0; i < plan.n_passes; i++) {
            struct lint_pass_result *p = &out[i];
            if (p->error) file_result_set_status(res, FILE_ERROR, p->error);
            res->n_parse_errors += p->n_parse_errors;
            if (o->show_parse_errors || (!first_kept && p->parse_diags.len)) {
                first_kept = true;
                diag_list_move(&parse_diags, &p->parse_diags);
            }
            diag_list_release(&p->parse_diags);
            diag_list_move(&res->diags, &p->diags);
        }
        free(out);
        /* nvcc's code judges the performance findings (each once: passes find
           the same ones); what it says is cached with them. */
        diag_list_sort_unique(&res->diags);
        phasetime_announce("checking performance findings against nvcc's output");
        bool cacheable = codegen_check(o, path, text, len, &plan.guessed_includes, &res->diags, &res->codegen_seconds);
        if (passes->launch_table && passes->launch_facts) {
            /* The findings were computed with the table's facts about the
               kernels the file asked about: named by the digest, kept with
               them. */
            launch_facts_set_digest(passes->launch_facts, launch_facts_digest(passes->launch_facts, passes->launch_table));
            char *facts = launch_facts_to_json(passes->launch_facts);
            cache_set_extra(cached, facts);
            free(facts);
        }
        /* (with the cache off there is nothing to store: the last phase
           named stays the one a time limit reports) */
        if (!o->no_cache) phasetime_announce("storing into the result cache");
        struct phasetime_mark stored = phasetime_begin();
        if (cacheable) cache_store(cached, res->status, &res->diags, &parse_diags, res->n_parse_errors);
        phasetime_end(stored, PHASE_CACHE);
    }
    struct phasetime_mark ended = phasetime_begin();
    cache_end(cached);
    phasetime_end(ended, PHASE_CACHE);
    if (res->n_parse_errors && res->status == FILE_OK)
        file_result_set_status(res, FILE_PARSE_ERRORS, xasprintf("%u clang error%s; the file was analysed as far as clang recovered",
                                                  res->n_parse_errors, res->n_parse_errors == 1 ? "" : "s"));
    if (lint_rule_enabled(o, &rule_cu000)) diag_list_move(&res->diags, &parse_diags);
    else diag_list_release(&parse_diags);
    if (passes->only_main_file) {
        size_t w = 0;
        for (size_t i = 0; i < res->diags.len; i++) {
            struct diag *d = &res->diags.items[i];
            if (d->file && strcmp(d->file, path) != 0) {
                diag_release(d);
                continue;
            }
            res->diags.items[w++] = *d;
        }
        res->diags.len = w;
    }
    apply_suppressions(o, path, text, len, &res->diags);
    config_finish_file(o, &res->diags);
    set_aside_disproved(o, res);
    diag_list_sort_unique(&res->diags);
    parse_plan_release(&plan);
    free(abs);
    free(text);
    res->timing.total = phasetime_end(whole, "setup");
    file_timing_fill(&res->timing);
}

/* The command line's passes: parsed one after the other on the worker's
   index, each through a precompiled header when one applies, and disposed of
   after the walk. */
struct disk_passes {
    struct lint_passes base;
    CXIndex *index; /* created when the first pass has to be parsed: a run that
                       the result cache answers never loads libclang */
};

static void disk_passes_run(struct lint_passes *self, const struct lint_options *o, const char *path,
                            const char *text, size_t len, bool unsaved, const struct parse_plan *plan,
                            struct lint_pass_result *out, struct cache_rec *cache)
{
    struct disk_passes *dp = (struct disk_passes *)self;
    for (size_t i = 0; i < plan->n_passes; i++) {
        enum CXErrorCode err;
        const struct pch *pch = NULL;
        /* Declarations from a precompiled header are skipped by the walk (they
           are all toolkit headers), so it need not deserialize them. */
        if (!*dp->index) *dp->index = clang_createIndex(1, 0);
        double pass_start = monotonic_seconds();
        phasetime_announce("parsing (%s pass)", plan->passes[i].name);
        struct phasetime_mark parsed = phasetime_begin();
        CXTranslationUnit tu = pch_parse_pass(*dp->index, o, path, &plan->passes[i], text, len, unsaved, &err, &pch);
        phasetime_end(parsed, PHASE_PARSE);
        if (!tu) {
            out[i].error = err == CXError_Crashed
                               ? xasprintf("libclang crashed while parsing the file (out of memory, or a bug in "
                                           "libclang; %s pass)", plan->passes[i].name)
                               : xasprintf("libclang could not parse the file (error %d, %s pass)", (int)err,
                                           plan->passes[i].name);
            continue;
        }
        phasetime_announce("analysing (%s pass: the walk, rules and analyses)", plan->passes[i].name);
        struct phasetime_mark walked = phasetime_begin();
        lint_pass_walk_launch(tu, &plan->passes[i], path, o, self->launch_table, self->launch_facts, &out[i]);
        phasetime_end(walked, PHASE_WALK);
        cache_add_tu(cache, tu, pch);
        clang_disposeTranslationUnit(tu);
        out[i].seconds = monotonic_seconds() - pass_start;
    }
}

static void lint_file_on_index(CXIndex *index, const struct lint_options *o, const char *path,
                               const char *contents, size_t contents_len, bool only_main_file,
                               struct file_result *res)
{
    struct disk_passes dp = {{disk_passes_run, NULL, only_main_file, NULL, NULL, false}, index};
    lint_file_with(o, path, contents, contents_len, &dp.base, res);
}

struct workspace_load {
    struct launch_table *table;
    const char *skip;   /* the document itself: its own unit shows its sites */
};

static void add_cached_facts(void *data, const char *path, const char *text)
{
    struct workspace_load *w = data;
    if (strcmp(path, w->skip) == 0) return;
    struct launch_facts *f = launch_facts_from_json(text);
    launch_table_add(w->table, f);
    launch_facts_free(f);
}

struct launch_table *lint_workspace_launches(const struct lint_options *o, const char *path)
{
    if (!o->workspace) return NULL;
    char *abs = path_absolute(path);
    struct workspace_load w = {launch_table_new(), abs};
    cache_launch_rows(o, o->workspace, add_cached_facts, &w);
    free(abs);
    return w.table;
}

/* One file of a run, with the run's table (phase 1: empty, any cached
   result taken; phase 2: complete). */
static void lint_file_in_run(CXIndex *index, const struct lint_options *o, const char *path,
                             const struct launch_table *table, bool any_digest, struct launch_facts *facts,
                             struct file_result *res)
{
    struct disk_passes dp = {{disk_passes_run, NULL, false, table, facts, any_digest}, index};
    lint_file_with(o, path, NULL, 0, &dp.base, res);
}

void lint_file(const struct lint_options *o, const char *path, const char *contents,
               size_t contents_len, bool only_main_file, struct file_result *res)
{
    CXIndex index = NULL;
    lint_file_on_index(&index, o, path, contents, contents_len, only_main_file, res);
    if (index) clang_disposeIndex(index);
}

int lint_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    /* libclang recurses deeply on large expressions. */
    pthread_attr_setstacksize(&attr, LINT_THREAD_STACK);
    int rc = pthread_create(thread, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

/* ---- the file set ---- */

struct dir_chain;
static void collect_dir_in(const struct lint_options *o, const char *dir, struct strvec *out,
                           struct strvec *errors, const struct dir_chain *up);
static void collect_dir(const struct lint_options *o, const char *dir, struct strvec *out,
                        struct strvec *errors)
{
    collect_dir_in(o, dir, out, errors, NULL);
}

static bool has_extension(const struct lint_options *o, const char *name)
{
    for (size_t i = 0; i < o->extensions.len; i++)
        if (str_ends_with(name, o->extensions.items[i])) return true;
    return false;
}

/* The directories being searched, from the root down: a symbolic link back
   to one of them (a cycle) is not followed again. */
struct dir_chain {
    dev_t dev;
    ino_t ino;
    const struct dir_chain *up;
};

static void collect_dir_in(const struct lint_options *o, const char *dir, struct strvec *out,
                           struct strvec *errors, const struct dir_chain *up)
{
    struct stat dst;
    if (stat(dir, &dst) != 0) return;
    for (const struct dir_chain *c = up; c; c = c->up)
        if (c->dev == dst.st_dev && c->ino == dst.st_ino) return; /* a cycle */
    struct dir_chain here = {dst.st_dev, dst.st_ino, up};
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
        if (S_ISDIR(st.st_mode)) collect_dir_in(o, p, out, errors, &here);
        else if (S_ISREG(st.st_mode) && has_extension(o, p)) sv_push(out, p);
        free(p);
    }
    sv_release(&names);
}

/* ---- .cu files that another file includes ---- */

/* The file set's .cu files that another file of the set #includes (a quoted
   include resolved from the includer's folder, the way the preprocessor looks
   first): such a file does not parse alone (it relies on what its includer
   declares before the include), so it is linted through the includer.
   includer[k] = the index k' (of which) whose unit holds file k, following
   chains to a file nobody includes; SIZE_MAX for the others. */
static void find_includers(const struct strvec *files, const size_t *which, size_t n, size_t *includer)
{
    char **real = xcalloc(n ? n : 1, sizeof *real);
    for (size_t k = 0; k < n; k++) {
        includer[k] = SIZE_MAX;
        real[k] = realpath(files->items[which ? which[k] : k], NULL);
    }
    for (size_t k = 0; k < n; k++) {
        const char *path = files->items[which ? which[k] : k];
        char *text = NULL;
        size_t len = 0;
        if (!real[k] || read_file(path, &text, &len) != 0) continue;
        char *dir = path_dirname(path);
        for (char *line = text; line && *line;) {
            char *end = strchr(line, '\n');
            const char *p = line;
            while (*p == ' ' || *p == '\t') p++;
            if (*p == '#') {
                p++;
                while (*p == ' ' || *p == '\t') p++;
                if (strncmp(p, "include", 7) == 0) {
                    p += 7;
                    while (*p == ' ' || *p == '\t') p++;
                    const char *close = *p == '"' ? strchr(p + 1, '"') : NULL;
                    if (close && (!end || close < end) && close - p > 4 && strncmp(close - 3, ".cu", 3) == 0) {
                        char *name = xstrndup(p + 1, (size_t)(close - p - 1));
                        char *joined = path_join(dir, name);
                        char *target = realpath(joined, NULL);
                        for (size_t t = 0; target && t < n; t++)
                            if (t != k && includer[t] == SIZE_MAX && real[t] && strcmp(real[t], target) == 0)
                                includer[t] = k;
                        free(target);
                        free(joined);
                        free(name);
                    }
                }
            }
            line = end ? end + 1 : NULL;
        }
        free(dir);
        free(text);
    }
    /* Chains (a.cu includes b.cu includes c.cu) end at the file nobody
       includes; a cycle is linted file by file. */
    for (size_t k = 0; k < n; k++) {
        size_t r = includer[k], steps = 0;
        while (r != SIZE_MAX && includer[r] != SIZE_MAX && steps++ < n) r = includer[r];
        includer[k] = steps > n ? SIZE_MAX : r;
    }
    for (size_t k = 0; k < n; k++)
        if (includer[k] != SIZE_MAX && includer[includer[k]] != SIZE_MAX) includer[k] = SIZE_MAX;
    for (size_t k = 0; k < n; k++) free(real[k]);
    free(real);
}

/* The result of a file linted through its includer: the includer's
   findings located in it. */
static void result_through(const char *path, const char *includer_path, const struct file_result *from,
                           struct file_result *res)
{
    memset(res, 0, sizeof *res);
    res->path = xstrdup(path);
    res->status = FILE_OK;
    char *abs = path_absolute(path);
    for (size_t i = 0; i < from->diags.len; i++) {
        const struct diag *d = &from->diags.items[i];
        char *df = d->file ? path_absolute(d->file) : NULL;
        if (df && strcmp(df, abs) == 0) diag_copy(&res->diags, d);
        free(df);
    }
    free(abs);
    if (from->status == FILE_ERROR || from->status == FILE_SKIPPED)
        file_result_set_status(res, from->status, xasprintf("linted through %s, which #includes it: %s", includer_path,
                                                            from->message ? from->message : "not linted"));
}

/* ---- the worker pool ---- */

struct work {
    const struct lint_options *o;
    const struct strvec *files;
    const size_t *which; /* indices into files, or NULL: all of them */
    const size_t *positions; /* positions k (into which) this phase lints */
    size_t n;
    lint_started_fn started;
    lint_parked_fn parked;
    void *data;
    const struct launch_table *table;
    bool any_digest;     /* the first phase */
    struct file_result *results;   /* per position k */
    struct launch_facts **facts;   /* per position k */
    atomic_size_t next;
};

static void *worker(void *arg)
{
    struct work *w = arg;
    CXIndex index = NULL;
    for (;;) {
        size_t j = atomic_fetch_add(&w->next, 1);
        if (j >= w->n) break;
        size_t k = w->positions[j];
        size_t i = w->which ? w->which[k] : k;
        phasetime_set_item(i);
        if (w->started) w->started(w->data, i);
        launch_facts_free(w->facts[k]);
        w->facts[k] = launch_facts_new();
        lint_file_in_run(&index, w->o, w->files->items[i], w->table, w->any_digest, w->facts[k], &w->results[k]);
        if (w->parked) w->parked(w->data, i);
    }
    if (index) clang_disposeIndex(index);
    return NULL;
}

static void run_workers(struct work *w, int jobs)
{
    atomic_store(&w->next, 0);
    if (jobs < 1) jobs = 1;
    if ((size_t)jobs > w->n) jobs = w->n ? (int)w->n : 1;
    /* Even one job runs on a thread of its own: the main thread's stack is
       whatever ulimit -s says, a worker's is LINT_THREAD_STACK. */
    pthread_t *th = xmalloc((size_t)jobs * sizeof *th);
    bool *started_ok = xcalloc((size_t)jobs, sizeof *started_ok);
    for (int i = 0; i < jobs; i++) started_ok[i] = lint_thread_start(&th[i], worker, w) == 0;
    if (!started_ok[0]) worker(w); /* no thread to be had: this one does the work */
    for (int i = 0; i < jobs; i++)
        if (started_ok[i]) pthread_join(th[i], NULL);
    free(started_ok);
    free(th);
}

/* Hands over the results of the files at positions in order that are
   final (and those linted through them); marks them given. */
static void hand_over(const struct strvec *files, const size_t *which, size_t n, const size_t *includer,
                      const bool *final, bool *given, struct file_result *results, struct launch_facts **facts,
                      lint_done_fn done, void *data)
{
    for (size_t k = 0; k < n; k++) {
        if (given[k] || includer[k] != SIZE_MAX || !final[k]) continue;
        for (size_t t = 0; t < n; t++)
            if (includer[t] == k) {
                size_t it = which ? which[t] : t;
                result_through(files->items[it], files->items[which ? which[k] : k], &results[k], &results[t]);
                given[t] = true;
                done(data, it, &results[t]);
            }
        given[k] = true;
        launch_facts_kernels(facts[k], &results[k].kernels_shaped_elsewhere, &results[k].kernels_shape_unknown);
        done(data, which ? which[k] : k, &results[k]);
    }
}

void lint_files(const struct lint_options *o, const struct strvec *files, const size_t *which, size_t n,
                int jobs, lint_started_fn started, lint_parked_fn parked, lint_done_fn done, void *data)
{
    size_t *includer = xmalloc((n ? n : 1) * sizeof *includer);
    find_includers(files, which, n, includer);
    size_t *todo = xmalloc((n ? n : 1) * sizeof *todo);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (includer[k] == SIZE_MAX) todo[m++] = k;
    struct file_result *results = xcalloc(n ? n : 1, sizeof *results);
    struct launch_facts **facts = xcalloc(n ? n : 1, sizeof *facts);
    bool *final = xcalloc(n ? n : 1, sizeof *final), *given = xcalloc(n ? n : 1, sizeof *given);

    /* Phase 1: each file with the launch sites its own units see. */
    struct launch_table *empty = launch_table_new();
    struct work w = {o, files, which, todo, m, started, parked, data, empty, true, results, facts, 0};
    run_workers(&w, jobs);
    launch_table_free(empty);

    /* The run's table; a file whose kernels other files launch (or whose
       cached result saw other launches) is linted again with it. */
    struct launch_table *table = launch_table_new();
    for (size_t j = 0; j < m; j++) launch_table_add(table, facts[todo[j]]);
    size_t m2 = 0;
    for (size_t j = 0; j < m; j++) {
        size_t k = todo[j];
        char *d = launch_facts_digest(facts[k], table);
        final[k] = strcmp(d, launch_facts_digest_used(facts[k])) == 0;
        free(d);
        if (!final[k]) {
            file_result_release(&results[k]);
            todo[m2++] = k;
        }
    }
    hand_over(files, which, n, includer, final, given, results, facts, done, data);

    /* Phase 2. */
    if (m2) {
        struct work w2 = {o, files, which, todo, m2, started, NULL, data, table, false, results, facts, 0};
        run_workers(&w2, jobs);
        for (size_t j = 0; j < m2; j++) final[todo[j]] = true;
        hand_over(files, which, n, includer, final, given, results, facts, done, data);
    }
    /* Files left (an includer that is not final cannot happen; a cycle of
       includes was linted file by file): none. */
    launch_table_free(table);
    for (size_t k = 0; k < n; k++) launch_facts_free(facts[k]);
    free(facts);
    free(results);
    free(final);
    free(given);
    free(todo);
    free(includer);
    /* The divergence queries this process asked (analysis/smt_solve.h). */
    if (o->statistics) {
        smt_stats_report();
        uniformity_stats_report();
    }
}

/* --shard K/N: the files sorted by path are cut into N contiguous slices of
   about equal weight (size plus a fixed per-file part: parsing the toolkit's
   headers costs the same for every file); a file belongs to the slice that
   holds the middle of its weight.  Every shard computes the same cut from the
   same tree, so the slices are disjoint and cover it; a file added or
   removed only moves the cut points by its weight / N, so only files next to
   a cut change shard.  Keeps files' order. */
#define SHARD_FILE_BASE 16384.0

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void lint_shard_select(struct strvec *files, int k, int n)
{
    if (n <= 1 || files->len == 0) return;
    size_t len = files->len;
    char **sorted = xmalloc(len * sizeof *sorted);
    memcpy(sorted, files->items, len * sizeof *sorted);
    qsort(sorted, len, sizeof *sorted, cmp_str_ptr);
    double *w = xmalloc(len * sizeof *w), total = 0;
    for (size_t i = 0; i < len; i++) {
        struct stat st;
        w[i] = SHARD_FILE_BASE + (stat(sorted[i], &st) == 0 ? (double)st.st_size : 0);
        total += w[i];
    }
    struct strvec keep = {0};
    double before = 0;
    for (size_t i = 0; i < len; i++) {
        int shard = (int)((before + w[i] / 2) * n / total);
        if (shard >= n) shard = n - 1;
        before += w[i];
        if (shard == k - 1) sv_push(&keep, sorted[i]);
    }
    struct strvec out = {0};
    for (size_t i = 0; i < files->len; i++)
        if (bsearch(&files->items[i], keep.items, keep.len, sizeof *keep.items, cmp_str_ptr))
            sv_push(&out, files->items[i]);
    sv_release(&keep);
    sv_release(files);
    *files = out;
    free(sorted);
    free(w);
}

void lint_collect(const struct lint_options *o, struct strvec *files, struct strvec *errors,
                  struct strvec *notes)
{
    struct strvec all = {0};
    for (size_t i = 0; i < o->paths.len; i++) {
        const char *p = o->paths.items[i];
        struct stat st;
        if (stat(p, &st) != 0) {
            sv_push_owned(errors, xasprintf("%s\t%s", p, strerror(errno)));
        } else if (S_ISDIR(st.st_mode)) {
            size_t before = all.len;
            collect_dir(o, p, &all, errors);
            if (all.len == before) sv_push_owned(notes, xasprintf("%s\tno CUDA files (%s) found", p, "extensions .cu, .cuh and --extensions"));
        } else {
            sv_push(&all, p); /* an explicitly named file is linted whatever its extension */
        }
    }
    /* The same file named twice is linted once. */
    for (size_t i = 0; i < all.len; i++)
        if (!sv_contains(files, all.items[i])) sv_push(files, all.items[i]);
    sv_release(&all);
    if (o->shard_n > 1) lint_shard_select(files, o->shard_k, o->shard_n);
}

/* A file of the run as the user named it ("./src/k.cuh"), for a path
   libclang spelled another way ("/home/u/p/src/k.cuh", "src/app/../k.cuh")
   when a finding of an included header came through another file; else
   NULL.  names: the run's files, absolute, in the order of run->files. */
static const char *linted_name(const struct lint_run *run, const struct strvec *abs_names, const char *file)
{
    if (!file) return NULL;
    char *abs = path_absolute(file);
    const char *r = NULL;
    for (size_t i = 0; i < abs_names->len && !r; i++)
        if (strcmp(abs_names->items[i], abs) == 0) r = run->files[i].path;
    free(abs);
    return r && strcmp(r, file) != 0 ? r : NULL;
}

static void rename_to(char **field, const char *name)
{
    if (!name) return;
    free(*field);
    *field = xstrdup(name);
}

void lint_run_assemble(struct lint_run *run, struct file_result *results, size_t n_files,
                       const struct strvec *errors, const struct strvec *notes)
{
    memset(run, 0, sizeof *run);
    size_t n = n_files + errors->len + notes->len;
    run->files = xcalloc(n ? n : 1, sizeof *run->files);
    for (size_t i = 0; i < n_files; i++) run->files[i] = results[i];
    run->n_files = n_files;
    for (size_t i = 0; i < errors->len; i++) {
        struct file_result *r = &run->files[run->n_files++];
        char *tab = strchr(errors->items[i], '\t');
        r->path = xstrndup(errors->items[i], (size_t)(tab - errors->items[i]));
        r->status = FILE_ERROR;
        r->message = xstrdup(tab + 1);
        run->input_errors++;
    }
    for (size_t i = 0; i < notes->len; i++) {
        struct file_result *r = &run->files[run->n_files++];
        char *tab = strchr(notes->items[i], '\t');
        r->path = xstrndup(notes->items[i], (size_t)(tab - notes->items[i]));
        r->status = FILE_SKIPPED;
        r->message = xstrdup(tab + 1);
    }
    struct strvec elsewhere = {0}, unknown = {0};
    for (size_t i = 0; i < n_files; i++) {
        const struct strvec *e = &run->files[i].kernels_shaped_elsewhere, *u = &run->files[i].kernels_shape_unknown;
        for (size_t j = 0; j < e->len; j++)
            if (!sv_contains(&elsewhere, e->items[j])) sv_push(&elsewhere, e->items[j]);
        for (size_t j = 0; j < u->len; j++)
            if (!sv_contains(&unknown, u->items[j])) sv_push(&unknown, u->items[j]);
    }
    run->kernels_shaped_elsewhere = elsewhere.len;
    for (size_t j = 0; j < unknown.len; j++) run->kernels_shape_unknown += !sv_contains(&elsewhere, unknown.items[j]);
    sv_release(&elsewhere);
    sv_release(&unknown);
    struct strvec abs_names = {0};
    for (size_t i = 0; i < n_files; i++) sv_push_owned(&abs_names, path_absolute(run->files[i].path));
    /* Findings of units that parsed clean, and of the others. */
    struct diag_list clean = {0}, rest = {0};
    for (size_t i = 0; i < run->n_files; i++) {
        if (run->files[i].status == FILE_ERROR && i < n_files) run->input_errors++;
        /* Copy findings into the run-wide list; a header included by several
           linted files yields its findings once, under the name the run gave
           it when it is one of the run's files. */
        struct diag_list *dl = &run->files[i].diags;
        struct diag_list *to = run->files[i].status == FILE_OK ? &clean : &rest;
        for (size_t j = 0; j < dl->len; j++) {
            struct diag *d = diag_copy(to, &dl->items[j]);
            rename_to(&d->file, linted_name(run, &abs_names, d->file));
            for (size_t k = 0; k < d->n_notes; k++)
                rename_to(&d->notes[k].file, linted_name(run, &abs_names, d->notes[k].file));
            for (size_t k = 0; k < d->n_fixes; k++)
                rename_to(&d->fixes[k].file, linted_name(run, &abs_names, d->fixes[k].file));
        }
    }
    /* The same rule at the same place, reported from several units (a
       header linted alone and through the files that include it) with
       different messages (another witness, another launch shape): one
       finding, the one of a unit that parsed clean, where the header saw
       what its includer declares. */
    diag_list_sort_unique(&clean);
    diag_list_sort_unique(&rest);
    diag_list_unique_places(&clean, NULL);
    diag_list_unique_places(&rest, &clean);
    diag_list_move(&run->diags, &clean);
    diag_list_move(&run->diags, &rest);
    diag_list_sort_unique(&run->diags);
    /* A header's finding that one unit's compile disproved and none
       confirmed (another unit could not check it: the header alone emits
       no code) is set aside too. */
    struct diag_list disproved = {0};
    for (size_t i = 0; i < run->n_files; i++)
        for (size_t j = 0; j < run->files[i].disproved.len; j++) {
            struct diag *d = diag_copy(&disproved, &run->files[i].disproved.items[j]);
            rename_to(&d->file, linted_name(run, &abs_names, d->file));
        }
    diag_list_sort_unique(&disproved);
    diag_list_unique_places(&disproved, NULL);
    diag_list_drop_places(&run->diags, &disproved);
    diag_list_release(&disproved);
    sv_release(&abs_names);
}

struct in_process {
    const struct lint_options *o;
    struct file_result *results;
    pthread_mutex_t progress_lock; /* one o->progress->file_done() at a time */
};

static void store_result(void *data, size_t i, struct file_result *res)
{
    struct in_process *ip = data;
    ip->results[i] = *res;
    const struct lint_progress *p = ip->o->progress;
    if (p && p->file_done) {
        pthread_mutex_lock(&ip->progress_lock);
        p->file_done(p->data, &ip->results[i]);
        pthread_mutex_unlock(&ip->progress_lock);
    }
}

void lint_run(const struct lint_options *o, struct lint_run *run)
{
    struct strvec files = {0}, errors = {0}, notes = {0};
    lint_collect(o, &files, &errors, &notes);
    struct in_process ip = {o, xcalloc(files.len ? files.len : 1, sizeof *ip.results), PTHREAD_MUTEX_INITIALIZER};
    if (o->progress && o->progress->start) o->progress->start(o->progress->data, files.len);
    lint_files(o, &files, NULL, files.len, o->jobs, NULL, NULL, store_result, &ip);
    lint_run_assemble(run, ip.results, files.len, &errors, &notes);
    free(ip.results);
    sv_release(&files);
    sv_release(&errors);
    sv_release(&notes);
}

void lint_run_stdin(const struct lint_options *o, const char *path, const char *text, size_t len,
                    struct lint_run *run)
{
    memset(run, 0, sizeof *run);
    run->files = xcalloc(1, sizeof *run->files);
    run->n_files = 1;
    lint_file(o, path, text, len, true, &run->files[0]);
    if (run->files[0].status == FILE_ERROR) run->input_errors++;
    struct diag_list *dl = &run->files[0].diags;
    for (size_t j = 0; j < dl->len; j++) diag_copy(&run->diags, &dl->items[j]);
    diag_list_sort_unique(&run->diags);
}
