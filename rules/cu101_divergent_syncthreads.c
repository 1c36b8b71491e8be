/* cu101_divergent_syncthreads.c: the CU101 divergent-syncthreads rule: a
 * block-wide barrier reached under control flow that may differ between the
 * threads of a block.  The thread-dependence analysis (analyzer/analysis/uniformity.c)
 * does the work and returns the chain of reasons; this file picks the
 * barriers and words the finding and its notes. */
#include "core/rule.h"
#include "analysis/uniformity.h"
#include "base/util.h"
#include "engine/walk.h"

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
    /* Cheap filter before the analysis: is this a call the linted file wrote? */
    if (!ctx_location_is_linted(ctx, clang_getCursorLocation(call))) return;
    struct uniformity *u = ctx_analysis(ctx, &uniformity_analysis);
    if (!u) return;
    struct barrier_info bi;
    if (!uniformity_call_barrier(u, call, &bi)) return;
    struct divergence dv;
    if (!uniformity_barrier_divergent(u, call, &dv)) return;

    /* One finding per cause: an early return before five barriers is one
       mistake, reported at the first barrier it makes divergent. */
    if (dv.same_cause_index > 0) return;

    struct diag *d;
    char *message = divergence_message(&dv);
    if (bi.callee)
        d = ctx_report(ctx, call, "call to '%s' reaches %s only in some threads of the block: %s",
                       bi.callee, bi.name, message);
    else
        d = ctx_report(ctx, call, "%s is reached only by some threads of the block: %s", bi.name,
                       message);
    free(message);
    if (!d) return;
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
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU101-divergent-syncthreads.md",
    .kernel = "kernels/cu101_divergent_syncthreads",
    .subscriptions = cu101_kinds,
    .on_cursor = cu101_on_cursor,
};
