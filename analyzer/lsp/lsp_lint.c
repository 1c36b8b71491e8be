/* lsp_lint.c: the language server's lint of one open document, keeping the
 * translation unit of each parse pass between edits.
 *
 * A fresh parse of a file with the toolkit headers costs about 0.7 s a pass;
 * an edit must be linted in well under 150 ms.  Two things make that work:
 *
 * - pch.c's shared precompiled header of the file's leading system #includes
 *   (the same one the command line uses): the pass is parsed with
 *   -include-pch and those lines blanked, so the parse and the walk are the
 *   command line's, minus the headers' cost.
 * - Each pass keeps its translation unit and clang_reparseTranslationUnit()
 *   re-reads only the editor's text.  Where no PCH applies (a user header
 *   comes first, or pch.c declines), the unit is built with libclang's own
 *   precompiled preamble instead, which a reparse reuses.
 *
 * The passes of a plan (host + device) run in parallel.  After parsing, the
 * steps of lint_file() follow: clang errors -> CU000, the walk, suppressions,
 * the configuration's severities, sorting, with lint.c's own helpers. */
#include "lsp/lsp_lint.h"
#include "config/config.h"
#include "frontend/parse.h"
#include "frontend/pch.h"
#include "core/rule.h"
#include "frontend/shim.h"
#include "engine/suppress.h"
#include "engine/walk.h"

#include "clang/clang_api.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* parse.c's flags.  The index excludes declarations from PCHs and preambles
   (pch.h requires it): the walk then skips the ~25,000 toolkit declarations
   and macros instead of visiting and rejecting each (100+ ms a walk). */
#define LSP_PARSE_FLAGS (CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing)
/* Without a PCH: libclang's preamble, built at the first parse.  (Not
   SkipFunctionBodies|LimitSkipFunctionBodiesToPreamble: it halves a reparse
   but hides the bodies of the user's headers, which CU101 follows calls into.) */
#define LSP_PREAMBLE_FLAGS \
    (CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse)

static double clock_ms(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double now_ms(void)
{
    return clock_ms(CLOCK_MONOTONIC);
}

struct pass_slot {
    struct parse_pass pass; /* as planned (name, is_device, args) */
    CXIndex index;          /* one per pass: passes run on different threads */
    CXTranslationUnit tu;   /* NULL until parsed, or after a failure */
    struct strvec tu_args;  /* what tu was parsed with: a change means a new parse */
    bool tu_pch;

    /* One run's inputs and outputs, filled by run_slot(). */
    const struct lint_options *o;
    const char *path, *text;
    size_t len;
    bool first_run;
    struct diag_list diags, parse_diags;
    unsigned n_parse_errors;
    char *error;
    const char *how; /* "reparse", "parse", "parse+pch", ... for the timing line */
    double parse_ms, walk_ms;
};

struct lsp_lint_session {
    struct pass_slot *slots;
    size_t n_slots;
};

struct lsp_lint_session *lsp_lint_session_new(void)
{
    return xcalloc(1, sizeof(struct lsp_lint_session));
}

static void slot_drop_tu(struct pass_slot *p)
{
    if (p->tu) clang_disposeTranslationUnit(p->tu);
    p->tu = NULL;
    sv_release(&p->tu_args);
    p->tu_pch = false;
}

static void slots_release(struct lsp_lint_session *s)
{
    for (size_t i = 0; i < s->n_slots; i++) {
        struct pass_slot *p = &s->slots[i];
        slot_drop_tu(p);
        if (p->index) clang_disposeIndex(p->index);
        free(p->pass.name);
        sv_release(&p->pass.args);
    }
    free(s->slots);
    s->slots = NULL;
    s->n_slots = 0;
}

void lsp_lint_session_free(struct lsp_lint_session *s)
{
    if (!s) return;
    slots_release(s);
    free(s);
}

static bool same_args(const struct strvec *a, const struct strvec *b)
{
    if (a->len != b->len) return false;
    for (size_t i = 0; i < a->len; i++)
        if (strcmp(a->items[i], b->items[i]) != 0) return false;
    return true;
}

/* Keeps the slots (and their units) while the plan has the same passes; a
   pass whose arguments changed (compile database, configuration) gets a new
   parse in run_slot(), and a reparse notices headers changed on disk. */
static void slots_match_plan(struct lsp_lint_session *s, const struct parse_plan *plan)
{
    bool same = s->n_slots == plan->n_passes;
    for (size_t i = 0; same && i < plan->n_passes; i++)
        same = strcmp(s->slots[i].pass.name, plan->passes[i].name) == 0 &&
               s->slots[i].pass.is_device == plan->passes[i].is_device;
    if (!same) {
        slots_release(s);
        s->slots = xcalloc(plan->n_passes ? plan->n_passes : 1, sizeof *s->slots);
        s->n_slots = plan->n_passes;
        for (size_t i = 0; i < plan->n_passes; i++) {
            s->slots[i].pass.name = xstrdup(plan->passes[i].name);
            s->slots[i].pass.is_device = plan->passes[i].is_device;
            s->slots[i].first_run = true;
        }
    }
    for (size_t i = 0; i < plan->n_passes; i++) {
        struct pass_slot *p = &s->slots[i];
        sv_release(&p->pass.args);
        for (size_t j = 0; j < plan->passes[i].args.len; j++) sv_push(&p->pass.args, plan->passes[i].args.items[j]);
    }
}

/* The text to parse as the main file, the extra files pch.c asks for
   (project headers with their precompiled lines blanked) and, when args use
   the embedded declarations header, its files (they exist nowhere on disk;
   parse.c does the same). */
static struct CXUnsavedFile *unsaved_files(const char *path, const char *text, size_t len,
                                           const struct CXUnsavedFile *extra, size_t n_extra,
                                           const struct strvec *args, unsigned *n, char ***names)
{
    struct CXUnsavedFile *u = xcalloc(shim_files_len + n_extra + 1, sizeof *u);
    *names = xcalloc(shim_files_len + 1, sizeof **names);
    unsigned k = 0;
    u[k].Filename = path;
    u[k].Contents = text;
    u[k].Length = (unsigned long)len;
    k++;
    for (size_t i = 0; i < n_extra; i++) u[k++] = extra[i];
    if (parse_args_use_shim_files(args)) k += (unsigned)parse_shim_unsaved(u + k, *names);
    *n = k;
    return u;
}

static void free_unsaved(struct CXUnsavedFile *u, char **names)
{
    for (size_t i = 0; i < shim_files_len; i++) free(names[i]);
    free(names);
    free(u);
}

/* Reparses p->tu with text when it was parsed with args (and the same PCH
   choice), else parses anew; true when p->tu is usable afterwards. */
static bool parse_or_reparse(struct pass_slot *p, const struct strvec *args, bool pch,
                             const char *text, size_t len, const struct CXUnsavedFile *extra,
                             size_t n_extra)
{
    if (p->tu && (p->tu_pch != pch || !same_args(&p->tu_args, args))) slot_drop_tu(p);
    unsigned n_unsaved;
    char **names;
    struct CXUnsavedFile *unsaved =
        unsaved_files(p->path, text, len, extra, n_extra, args, &n_unsaved, &names);
    if (p->tu) {
        p->how = "reparse";
        if (clang_reparseTranslationUnit(p->tu, n_unsaved, unsaved, clang_defaultReparseOptions(p->tu)) != 0)
            slot_drop_tu(p); /* a failed reparse leaves the unit unusable */
    }
    if (!p->tu) {
        p->how = pch ? "parse with pch" : "parse";
        if (!p->index) p->index = clang_createIndex(1, 0);
        unsigned flags = LSP_PARSE_FLAGS | (pch ? 0 : LSP_PREAMBLE_FLAGS);
        enum CXErrorCode err = clang_parseTranslationUnit2(
            p->index, p->path, (const char *const *)args->items, (int)args->len, unsaved, n_unsaved,
            flags, &p->tu);
        if (err == CXError_Success && p->tu) {
            for (size_t i = 0; i < args->len; i++) sv_push(&p->tu_args, args->items[i]);
            p->tu_pch = pch;
        } else {
            p->tu = NULL;
            free(p->error);
            p->error = xasprintf("libclang could not parse the file (error %d, %s pass)", (int)err,
                                 p->pass.name);
        }
    }
    free_unsaved(unsaved, names);
    return p->tu != NULL;
}

/* Parses or reparses one pass and walks it.  Runs on its own thread. */
static void *run_slot(void *arg)
{
    struct pass_slot *p = arg;
    double t0 = now_ms();
    struct pch_input in;
    bool use_pch = pch_prepare(p->o, p->path, &p->pass, p->text, p->len, &in);
    if (p->first_run) {
        /* pch.c builds a prefix's PCH the second time it sees it, so that a
           file linted once never pays for one.  An open document will be
           edited: ask again so the build happens now, not on the first edit. */
        if (use_pch) pch_input_release(&in);
        use_pch = pch_prepare(p->o, p->path, &p->pass, p->text, p->len, &in);
        p->first_run = false;
    }
    bool ok = false;
    if (use_pch) {
        ok = parse_or_reparse(p, &in.pass.args, true, in.text, p->len, in.headers, in.n_headers);
        if (!ok || pch_parse_failed(p->tu)) {
            /* The PCH went stale or was removed under us: drop it for good. */
            slot_drop_tu(p);
            pch_reject(in.used);
            ok = false;
            free(p->error);
            p->error = NULL;
        }
        pch_input_release(&in);
    }
    if (!ok) ok = parse_or_reparse(p, &p->pass.args, false, p->text, p->len, NULL, 0);
    double t1 = now_ms();
    p->parse_ms = t1 - t0;
    if (!ok) return NULL;
    bool first_reported = false;
    lint_collect_parse_errors(p->tu, p->pass.name, p->path, p->o, &p->parse_diags, &p->n_parse_errors,
                              &first_reported);
    walk_translation_unit(p->tu, p->path, p->pass.name, p->pass.is_device, p->o, &p->diags);
    p->walk_ms = now_ms() - t1;
    return NULL;
}

void lsp_lint_session_run(struct lsp_lint_session *s, const struct lint_options *cli_opts,
                          const char *path, const char *text, size_t len,
                          struct file_result *res, struct strbuf *timing)
{
    /* Process CPU time as well as wall time: on a busy machine the wall
       time says more about the neighbours than about the lint.  (libclang
       reparses on threads of its own, so per-thread clocks would miss it.) */
    double t_start = now_ms(), cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    memset(res, 0, sizeof *res);
    res->path = xstrdup(path);
    res->status = xstrdup("ok");

    /* The same early outs as lint_file(), with the file's configuration. */
    char *config_error = NULL;
    const struct lint_options *o = config_options_for_file(cli_opts, path, &config_error);
    if (!o) {
        file_result_set_status(res, "error", config_error);
        return;
    }
    if (config_path_excluded(cli_opts, path)) {
        file_result_set_status(res, "skipped", xstrdup("excluded by the configuration (exclude:)"));
        slots_release(s);
        return;
    }
    if (len == 0) {
        file_result_set_status(res, "ok", xstrdup("empty file"));
        return;
    }
    if (memchr(text, '\0', len < 8192 ? len : 8192)) {
        file_result_set_status(res, "skipped", xstrdup("binary file (contains NUL bytes), not linted"));
        return;
    }
    if (o->max_file_size > 0 && (long long)len > o->max_file_size) {
        file_result_set_status(res, "skipped", xasprintf("file too large (%.1f MB, the limit is %.1f MB: --max-file-size)",
                                             (double)len / 1e6, (double)o->max_file_size / 1e6));
        slots_release(s);
        return;
    }

    struct parse_plan plan;
    char *error = NULL;
    if (parse_plan_build(o, path, &plan, &error) != 0) {
        file_result_set_status(res, "error", error);
        return;
    }
    slots_match_plan(s, &plan);
    parse_plan_release(&plan);

    for (size_t i = 0; i < s->n_slots; i++) {
        struct pass_slot *p = &s->slots[i];
        p->o = o;
        p->path = path;
        p->text = text;
        p->len = len;
        memset(&p->diags, 0, sizeof p->diags);
        memset(&p->parse_diags, 0, sizeof p->parse_diags);
        p->n_parse_errors = 0;
        p->error = NULL;
        p->how = "";
        p->parse_ms = p->walk_ms = 0;
    }
    /* Pass 0 runs here, the others on threads of their own (16 MiB stacks:
       libclang recurses deeply on large expressions, as lint.c notes). */
    pthread_t *th = xcalloc(s->n_slots ? s->n_slots : 1, sizeof *th);
    bool *started = xcalloc(s->n_slots ? s->n_slots : 1, sizeof *started);
    for (size_t i = 1; i < s->n_slots; i++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 16u << 20);
        started[i] = pthread_create(&th[i], &attr, run_slot, &s->slots[i]) == 0;
        pthread_attr_destroy(&attr);
    }
    if (s->n_slots) run_slot(&s->slots[0]);
    for (size_t i = 1; i < s->n_slots; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else run_slot(&s->slots[i]);
    }
    free(th);
    free(started);

    /* Merge in pass order so the result does not depend on thread timing. */
    struct diag_list parse_diags = {0};
    bool first_kept = false;
    for (size_t i = 0; i < s->n_slots; i++) {
        struct pass_slot *p = &s->slots[i];
        if (p->error) file_result_set_status(res, "error", p->error);
        p->error = NULL;
        res->n_parse_errors += p->n_parse_errors;
        if (timing)
            sb_addf(timing, "%s%s: %s %.0f ms + walk %.0f ms", i ? ", " : "", p->pass.name, p->how,
                    p->parse_ms, p->walk_ms);
        if (o->show_parse_errors || (!first_kept && p->parse_diags.len)) {
            first_kept = true;
            diag_list_move(&parse_diags, &p->parse_diags);
        }
        diag_list_release(&p->parse_diags);
        diag_list_move(&res->diags, &p->diags);
        p->o = NULL;
        p->path = p->text = NULL;
    }
    if (res->n_parse_errors && strcmp(res->status, "ok") == 0)
        file_result_set_status(res, "parse-errors", xasprintf("%u clang error%s; the file was analysed as far as clang recovered",
                                                  res->n_parse_errors, res->n_parse_errors == 1 ? "" : "s"));
    if (lint_rule_enabled(o, &rule_cu000)) diag_list_move(&res->diags, &parse_diags);
    else diag_list_release(&parse_diags);

    /* Only the document's own findings are published for it. */
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
    lint_apply_suppressions(o, path, text, len, &res->diags);
    config_finish_file(o, &res->diags);
    diag_list_sort_unique(&res->diags);
    if (timing)
        sb_addf(timing, "; total %.0f ms, cpu %.0f ms", now_ms() - t_start,
                clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start);
}
