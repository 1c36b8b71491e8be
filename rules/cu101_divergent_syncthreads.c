/* cu101_divergent_syncthreads.c: the CU101 divergent-syncthreads rule: a
 * block-wide barrier reached under control flow that may differ between the
 * threads of a block.  The thread-dependence analysis (analyzer/analysis/uniformity.c)
 * finds the candidates and the chain of reasons; the two-thread queries
 * (analysis/divergence.c) keep those a solver shows two threads disagree on,
 * with the two threads as a witness; this file picks the barriers and words
 * the finding and its notes. */
#include "core/rule.h"
#include "analysis/divergence.h"
#include "analysis/uniformity.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdio.h>
#include <stdlib.h>

static const enum CXCursorKind cu101_kinds[] = {CXCursor_CallExpr, 0};

static const char *kind_phrase(enum divergence_kind k)
{
    switch (k) {
    case DIV_IF: return "the condition depends on";
    case DIV_LOOP: return "the loop's trip count depends on";
    case DIV_SWITCH: return "the switch value depends on";
    case DIV_TERNARY: return "the ?: condition depends on";
    case DIV_AND: return "it is evaluated only when the left operand of && holds, which depends on";
    case DIV_OR: return "it is evaluated only when the left operand of || fails, which depends on";
    case DIV_RETURN: return "some threads return before it, under a condition that depends on";
    case DIV_BREAK: return "some threads leave the loop before it, under a condition that depends on";
    case DIV_CONTINUE: return "some threads skip to the next iteration before it, under a condition that depends on";
    case DIV_GOTO: return "some threads jump past it, under a condition that depends on";
    case DIV_CALL_ARG: return "the argument depends on";
    default: return "it depends on";
    }
}

/* The message fragment after "...: ".  Caller frees. */
static char *divergence_message(const struct divergence *dv)
{
    const char *what = dv->origin ? dv->origin : "the thread index";
    if (dv->n_steps == 0) return xstrdup("it depends on the thread index");
    if (dv->from_argument)
        return xasprintf("the barrier inside depends on parameter '%s', and the argument passed here "
                         "depends on %s",
                         dv->steps[0].what, what);
    if (dv->steps[0].kind == DIV_CALL_ARG)
        return xasprintf("'%s' reaches a barrier under a condition on its parameter '%s', and the "
                         "argument passed here depends on %s",
                         "", dv->steps[0].what, what);
    return xasprintf("%s %s", kind_phrase(dv->steps[0].kind), what);
}

static unsigned cursor_line(CXCursor c)
{
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    return line;
}

/* "thread 35", or "thread (3,1,0)" in a block of more than one dimension. */
static void thread_name(const struct divergence_witness *w, int i, char *buf, size_t size)
{
    if (w->block[1] == 1 && w->block[2] == 1) snprintf(buf, size, "thread %lld", w->tid[i][0]);
    else snprintf(buf, size, "thread (%lld,%lld,%lld)", w->tid[i][0], w->tid[i][1], w->tid[i][2]);
}

/* "threads 3 and 35 of a 64-thread block disagree: thread 35 returns at line
   12 and thread 3 does not (n = 40)".  Caller frees. */
static char *witness_text(const struct divergence *dv, const struct divergence_witness *w)
{
    char a[64], b[64], shape[96], values[200] = "";
    thread_name(w, w->first, a, sizeof a);
    thread_name(w, 1 - w->first, b, sizeof b);
    if (w->block[1] == 1 && w->block[2] == 1) snprintf(shape, sizeof shape, "a %lld-thread block", w->block[0]);
    else if (w->block[2] == 1) snprintf(shape, sizeof shape, "a %lldx%lld block", w->block[0], w->block[1]);
    else snprintf(shape, sizeof shape, "a %lldx%lldx%lld block", w->block[0], w->block[1], w->block[2]);
    size_t used = 0;
    for (unsigned i = 0; i < w->n_values && used + 1 < sizeof values; i++)
        used += (size_t)snprintf(values + used, sizeof values - used, "%s%s = %lld", i ? ", " : " (", w->value_name[i], w->value[i]);
    if (w->n_values && used + 1 < sizeof values) snprintf(values + used, sizeof values - used, ")");
    const struct divergence_step *st = &dv->steps[0];
    unsigned line = cursor_line(st->at);
    char *action;
    switch (st->kind) {
    case DIV_RETURN: action = xasprintf("%s returns at line %u and %s does not", a, line, b); break;
    case DIV_BREAK: action = xasprintf("%s leaves the loop at line %u and %s does not", a, line, b); break;
    case DIV_CONTINUE: action = xasprintf("%s skips to the next iteration at line %u and %s does not", a, line, b); break;
    case DIV_LOOP: action = xasprintf("in the same iteration %s stays in the loop at line %u and %s leaves it", a, line, b); break;
    case DIV_SWITCH: action = xasprintf("the switch at line %u sends them to different cases", line); break;
    default: action = xasprintf("the condition at line %u holds for %s and not for %s", line, a, b); break;
    }
    char *text = xasprintf("threads %lld and %lld of %s disagree: %s%s%s", w->tid[0][0] + w->block[0] * (w->tid[0][1] + w->block[1] * w->tid[0][2]),
                           w->tid[1][0] + w->block[0] * (w->tid[1][1] + w->block[1] * w->tid[1][2]), shape, action, values,
                           w->shape_known ? "" : "; the launch shape is not known, so blockDim.x was taken as any multiple of 32");
    free(action);
    return text;
}

#define MAX_NOTES 4

/* One note per step of the chain, from the divergent construct down to the
   origin (at most MAX_NOTES; an origin on the line of the previous note is
   not repeated). */
static void divergence_notes(struct rule_ctx *ctx, struct diag *d, const struct divergence *dv)
{
    const char *what = dv->origin ? dv->origin : "the thread index";
    unsigned last_line = 0, n_notes = 0;
    /* A control link's inner reason is why its condition varies (a value);
       an exit's inner reason is the control it was taken under. */
    bool value_role = false;
    for (unsigned i = 0; i < dv->n_steps; i++) {
        const struct divergence_step *r = &dv->steps[i];
        const char *via = r->via;
        char *text = NULL;
        bool next_value_role = true;
        switch (r->kind) {
        case DIV_ORIGIN:
            if (cursor_line(r->at) != last_line) text = xasprintf("%s is read here", r->what);
            break;
        case DIV_IF:
        case DIV_LOOP:
        case DIV_SWITCH:
        case DIV_TERNARY:
        case DIV_AND:
        case DIV_OR: {
            const char *kind = r->kind == DIV_LOOP     ? "this loop condition"
                               : r->kind == DIV_SWITCH ? "this switch value"
                                                       : "this condition";
            if (!value_role) {
                if (via) text = xasprintf("%s differs between threads: it reads '%s', which depends on %s", kind, via, what);
                else text = xasprintf("%s differs between threads: it depends on %s", kind, what);
            } else if (via) {
                text = xasprintf("a value read above is assigned under %s, which reads '%s', which depends on %s", kind, via, what);
            } else {
                text = xasprintf("a value read above is assigned under %s, which depends on %s", kind, what);
            }
            break;
        }
        case DIV_RETURN:
            text = xasprintf("threads that return here never reach the barrier");
            next_value_role = false;
            break;
        case DIV_BREAK:
            text = xasprintf("threads that break here leave the loop early");
            next_value_role = false;
            break;
        case DIV_CONTINUE:
            text = xasprintf("threads that continue here skip the rest of the iteration");
            next_value_role = false;
            break;
        case DIV_GOTO:
            text = xasprintf("threads that take this goto jump past the barrier");
            next_value_role = false;
            break;
        case DIV_CALL_ARG:
            if (via) text = xasprintf("this argument (for parameter '%s') reads '%s', which depends on %s", r->what, via, what);
            else text = xasprintf("this argument (for parameter '%s') depends on %s", r->what, what);
            break;
        }
        if (text) {
            if (n_notes < MAX_NOTES) {
                ctx_note(ctx, d, r->at, "%s", text);
                n_notes++;
            }
            last_line = cursor_line(r->at);
            free(text);
        }
        value_role = next_value_role;
    }
}

static void cu101_on_cursor(struct rule_ctx *ctx, CXCursor call)
{
    /* Barriers only mean something in device code; host code that calls a
       __device__ function does not compile anyway. */
    if (!ctx->in_device_code) return;
    /* A template is judged once, from its pattern: the witness of an
       instantiation would differ and make a second finding. */
    if (ctx_in_instantiation(ctx)) return;
    /* Cheap filter before the analysis: is this a call the linted file wrote? */
    if (!ctx_location_is_linted(ctx, clang_getCursorLocation(call))) return;
    struct uniformity *u = ctx_analysis(ctx, &uniformity_analysis);
    if (!u) return;
    struct barrier_info bi;
    if (!uniformity_call_barrier(u, call, &bi)) return;
    struct divergence dv;
    if (!uniformity_barrier_divergent(u, call, &dv)) return;
    /* The walk's candidate goes to the solver: kept with two threads that
       disagree, dropped when proved uniform or when the solver cannot tell. */
    struct divergence_witness wit;
    enum divergence_verdict verdict = divergence_barrier(ctx_analysis(ctx, &divergence_analysis), call, &dv, &wit);
    if (verdict == DIVERGENCE_UNIFORM || verdict == DIVERGENCE_UNKNOWN) return;

    /* One finding per cause: an early return before five barriers is one
       mistake, reported at the first barrier it makes divergent. */
    if (dv.same_cause_index > 0) return;

    struct diag *d;
    char *message = divergence_message(&dv);
    if (verdict == DIVERGENCE_WITNESSED) {
        char *w = witness_text(&dv, &wit);
        char *both = xasprintf("%s; %s", message, w);
        free(message);
        free(w);
        message = both;
    }
    if (bi.callee)
        d = ctx_report(ctx, call, "call to '%s' reaches %s only in some threads of the block: %s",
                       bi.callee, bi.name, message);
    else
        d = ctx_report(ctx, call, "%s is reached only by some threads of the block: %s", bi.name,
                       message);
    free(message);
    if (!d) return;
    if (verdict == DIVERGENCE_WITNESSED) {
        char a[64], b[64];
        thread_name(&wit, wit.first, a, sizeof a);
        thread_name(&wit, 1 - wit.first, b, sizeof b);
        unsigned ci = dv.steps[0].kind == DIV_RETURN || dv.steps[0].kind == DIV_BREAK || dv.steps[0].kind == DIV_CONTINUE ? 1 : 0;
        if (ci < dv.n_steps)
            ctx_note(ctx, d, dv.steps[ci].at, "here %s and %s go different ways: %s %s", a, b, a,
                     ci ? "takes the exit below" : dv.steps[0].kind == DIV_LOOP ? "stays in the loop" : "finds the condition true");
    }
    divergence_notes(ctx, d, &dv);
    if (dv.same_cause_count > 1 && !clang_Cursor_isNull(dv.same_cause_next))
        ctx_note(ctx, d, dv.same_cause_next,
                 "the same control makes %u more barrier%s divergent; the next is here",
                 dv.same_cause_count - 1, dv.same_cause_count > 2 ? "s" : "");
    if (bi.callee && !clang_Cursor_isNull(bi.inner))
        ctx_note(ctx, d, bi.inner, "the barrier inside '%s' is here",
                 bi.inner_function ? bi.inner_function : bi.callee);
}

const struct rule rule_cu101 = {
    .code = "CU101",
    .name = "divergent-syncthreads",
    .summary = "A block-wide barrier is reached under control flow that may differ between threads of a block.",
    .severity = SEV_ERROR,
    .category = "correctness",
    .scope = SCOPE_KERNEL,
    .status = STATUS_PREVIEW,
    .precision = "0.40 (sixth frozen test set of 2026-12-07: 8 of 20 sampled findings true, of 27: bounds the launch arithmetic keeps in range, exits uniform through data layout, a struct field blamed on an atomic to another field, dim3 shapes set field by field; the fourth set read 0.60)",
    .version = 2,
    .has_fix = false,
    .doc = "rules/CU101-divergent-syncthreads.md",
    .kernel = "kernels/cu101_divergent_syncthreads",
    .subscriptions = cu101_kinds,
    .on_cursor = cu101_on_cursor,
};
