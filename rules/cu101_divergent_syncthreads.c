/* cu101_divergent_syncthreads.c: the CU101 divergent-syncthreads rule: a
 * block-wide barrier reached under control flow that may differ between the
 * threads of a block.  The thread-dependence analysis (analyzer/analysis/uniformity.c)
 * does the work; this file picks the barriers and words the finding. */
#include "core/rule.h"
#include "analysis/uniformity.h"
#include "engine/walk.h"

static const enum CXCursorKind cu101_kinds[] = {CXCursor_CallExpr, 0};

static void cu101_on_cursor(struct rule_ctx *ctx, CXCursor call)
{
    /* Barriers only mean something in device code; host code that calls a
       __device__ function does not compile anyway. */
    if (!ctx->in_device_code) return;
    /* Cheap filter before the analysis: is this a call the linted file wrote? */
    if (!ctx_location_is_linted(ctx, clang_getCursorLocation(call))) return;
    struct uniformity *u = uniformity_get(ctx);
    if (!u) return;
    struct barrier_info bi;
    if (!uniformity_call_barrier(u, call, &bi)) return;
    struct divergence dv;
    if (!uniformity_barrier_divergent(u, call, &dv)) return;

    /* One finding per cause: an early return before five barriers is one
       mistake, reported at the first barrier it makes divergent. */
    if (dv.same_cause_index > 0) return;

    struct diag *d;
    if (bi.callee)
        d = ctx_report(ctx, call, "call to '%s' reaches %s only in some threads of the block: %s",
                       bi.callee, bi.name, dv.message);
    else
        d = ctx_report(ctx, call, "%s is reached only by some threads of the block: %s", bi.name,
                       dv.message);
    if (!d) return;
    for (unsigned i = 0; i < dv.n_notes; i++) ctx_note(ctx, d, dv.notes[i].at, "%s", dv.notes[i].text);
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
