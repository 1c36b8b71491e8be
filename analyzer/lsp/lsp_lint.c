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
 * The passes of a plan (host + device) run in parallel.  Everything else is
 * the command line's per-file pipeline (engine/lint.c, lint_file_with): this
 * file only says how the passes are parsed. */
#include "lsp/lsp_lint.h"
#include "analysis/launch.h"
#include "frontend/parse.h"
#include "frontend/pch.h"

#include "clang/clang_api.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* parse.c's flags (PARSE_FLAGS).  The index excludes declarations from PCHs
   and preambles (pch.h requires it): the walk then skips the ~25,000 toolkit
   declarations and macros instead of visiting and rejecting each (100+ ms a
   walk). */
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
    struct lint_pass_result out;
    const char *how; /* "reparse", "parse", "parse+pch", ... for the timing line */
    const struct launch_table *launches; /* the workspace's launch sites (the result cache's) */
    double parse_ms, walk_ms;
};

struct lsp_lint_session {
    struct lint_passes base; /* the pipeline's view: how passes are parsed */
    struct pass_slot *slots;
    size_t n_slots;
    struct strbuf *timing;   /* one run's, or NULL */
};

static void session_run_passes(struct lint_passes *self, const struct lint_options *o, const char *path,
                               const char *text, size_t len, bool unsaved, const struct parse_plan *plan,
                               struct lint_pass_result *out, struct cache_rec *cache);
static void session_drop(struct lint_passes *self);

struct lsp_lint_session *lsp_lint_session_new(void)
{
    struct lsp_lint_session *s = xcalloc(1, sizeof *s);
    s->base.run = session_run_passes;
    s->base.drop = session_drop;
    s->base.only_main_file = true; /* only the document's own findings are published for it */
    return s;
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

/* Reparses p->tu with text when it was parsed with args (and the same PCH
   choice), else parses anew; true when p->tu is usable afterwards. */
static bool parse_or_reparse(struct pass_slot *p, const struct strvec *args, bool pch,
                             const char *text, size_t len, const struct CXUnsavedFile *extra,
                             size_t n_extra)
{
    if (p->tu && (p->tu_pch != pch || !same_args(&p->tu_args, args))) slot_drop_tu(p);
    struct parse_unsaved unsaved;
    parse_unsaved_init(&unsaved, p->path, text, len, extra, n_extra, args);
    if (p->tu) {
        p->how = "reparse";
        if (clang_reparseTranslationUnit(p->tu, unsaved.n, unsaved.files, clang_defaultReparseOptions(p->tu)) != 0)
            slot_drop_tu(p); /* a failed reparse leaves the unit unusable */
    }
    if (!p->tu) {
        p->how = pch ? "parse with pch" : "parse";
        if (!p->index) p->index = clang_createIndex(1, 0);
        unsigned flags = PARSE_FLAGS | (pch ? 0 : LSP_PREAMBLE_FLAGS);
        enum CXErrorCode err = clang_parseTranslationUnit2(
            p->index, p->path, (const char *const *)args->items, (int)args->len, unsaved.files, unsaved.n,
            flags, &p->tu);
        if (err == CXError_Success && p->tu) {
            for (size_t i = 0; i < args->len; i++) sv_push(&p->tu_args, args->items[i]);
            p->tu_pch = pch;
        } else {
            p->tu = NULL;
            free(p->out.error);
            p->out.error = xasprintf("libclang could not parse the file (error %d, %s pass)", (int)err,
                                     p->pass.name);
        }
    }
    parse_unsaved_release(&unsaved);
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
            free(p->out.error);
            p->out.error = NULL;
        }
        pch_input_release(&in);
    }
    if (!ok) ok = parse_or_reparse(p, &p->pass.args, false, p->text, p->len, NULL, 0);
    double t1 = now_ms();
    p->parse_ms = t1 - t0;
    if (!ok) return NULL;
    lint_pass_walk_launch(p->tu, &p->pass, p->path, p->o, p->launches, NULL, &p->out);
    p->walk_ms = now_ms() - t1;
    return NULL;
}

/* The pipeline's passes->run(): every pass of the plan, in parallel. */
static void session_run_passes(struct lint_passes *self, const struct lint_options *o, const char *path,
                               const char *text, size_t len, bool unsaved, const struct parse_plan *plan,
                               struct lint_pass_result *out, struct cache_rec *cache)
{
    struct lsp_lint_session *s = (struct lsp_lint_session *)self;
    slots_match_plan(s, plan);
    for (size_t i = 0; i < s->n_slots; i++) {
        struct pass_slot *p = &s->slots[i];
        p->o = o;
        p->path = path;
        p->text = text;
        p->len = len;
        memset(&p->out, 0, sizeof p->out);
        p->how = "";
        p->launches = self->launch_table;
        p->parse_ms = p->walk_ms = 0;
    }
    /* Pass 0 runs here, the others on threads of their own. */
    pthread_t *th = xcalloc(s->n_slots ? s->n_slots : 1, sizeof *th);
    bool *started = xcalloc(s->n_slots ? s->n_slots : 1, sizeof *started);
    for (size_t i = 1; i < s->n_slots; i++) started[i] = lint_thread_start(&th[i], run_slot, &s->slots[i]) == 0;
    if (s->n_slots) run_slot(&s->slots[0]);
    for (size_t i = 1; i < s->n_slots; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else run_slot(&s->slots[i]);
    }
    free(th);
    free(started);
    for (size_t i = 0; i < s->n_slots; i++) {
        struct pass_slot *p = &s->slots[i];
        out[i] = p->out;
        memset(&p->out, 0, sizeof p->out);
        if (s->timing)
            sb_addf(s->timing, "%s%s: %s %.0f ms + walk %.0f ms", i ? ", " : "", p->pass.name, p->how,
                    p->parse_ms, p->walk_ms);
        p->o = NULL;
        p->path = p->text = NULL;
    }
}

static void session_drop(struct lint_passes *self)
{
    slots_release((struct lsp_lint_session *)self);
}

void lsp_lint_session_run(struct lsp_lint_session *s, const struct lint_options *cli_opts,
                          const char *path, const char *text, size_t len,
                          struct file_result *res, struct strbuf *timing)
{
    /* Process CPU time as well as wall time: on a busy machine the wall
       time says more about the neighbours than about the lint.  (libclang
       reparses on threads of its own, so per-thread clocks would miss it.) */
    double t_start = now_ms(), cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    s->timing = timing;
    /* Kernels of the document launched from other files of the workspace get
       those launches' shapes, as in a run over the workspace. */
    struct launch_table *launches = lint_workspace_launches(cli_opts, path);
    s->base.launch_table = launches;
    s->base.launch_any_digest = true;
    lint_file_with(cli_opts, path, text, len, &s->base, res);
    s->base.launch_table = NULL;
    launch_table_free(launches);
    s->timing = NULL;
    if (timing)
        sb_addf(timing, "; total %.0f ms, cpu %.0f ms", now_ms() - t_start,
                clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start);
}
