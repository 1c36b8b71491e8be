/* cu504_alloc_in_loop.c: CU504 flags cudaMalloc/cudaFree and the page-locked and managed allocators inside host loops that also launch kernels or free what they allocate: each call costs microseconds to milliseconds and cudaFree synchronises the device. */
#include "analysis/hostapi.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static bool same_target(CXCursor a, CXCursor b)
{
    return !clang_Cursor_isNull(a) && !clang_Cursor_isNull(b) && clang_equalCursors(a, b);
}

static void cu504_on_cursor(struct rule_ctx *ctx, CXCursor body)
{
    (void)body;
    const struct hostapi_fn *m = (ctx_at_host_body(ctx) ? ctx_analysis(ctx, &hostapi_analysis) : NULL);
    if (!m) return;
    for (unsigned i = 0; i < m->n_calls; i++) {
        const struct hostapi_call *c = &m->calls[i];
        if (c->loop < 0 || !(c->flags & (HOSTAPI_ALLOC | HOSTAPI_FREE))) continue;
        /* on the way out of the loop (if (done) { cudaFree(p); break; }): once */
        if (c->exit_path) continue;
        /* an element of an array of buffers (set-up and clean-up loops) */
        if (clang_Cursor_isNull(c->target)) continue;
        const struct hostapi_loop *l = &m->loops[c->loop];
        /* the matching free (or allocation) in the same loop */
        const struct hostapi_call *pair = NULL;
        for (unsigned j = 0; j < m->n_calls && !pair; j++) {
            const struct hostapi_call *o = &m->calls[j];
            if (j == i || o->loop < 0 || !hostapi_loop_within(m, o->loop, c->loop)) continue;
            unsigned want = (c->flags & HOSTAPI_ALLOC) ? HOSTAPI_FREE : HOSTAPI_ALLOC;
            if ((o->flags & want) && same_target(o->target, c->target)) pair = o;
        }
        /* the loop does device work (launches or copies) with a buffer of the
           same size each time: a loop over sizes or configurations, or one
           that only allocates, is not a hot loop */
        if (!l->has_launch && !l->has_copy) continue;
        /* a loop over devices (cudaSetDevice(i) in it): one buffer per device */
        if (l->sets_device) continue;
        /* a benchmark of the allocator itself: the call is what its timers measure */
        if (c->timed) continue;
        /* one distinct buffer kept per iteration (a set-up loop filling a
           container): nothing to hoist */
        if ((c->flags & HOSTAPI_ALLOC) && c->kept && !pair) continue;
        if ((c->flags & HOSTAPI_ALLOC) && c->size_varies) continue;
        if ((c->flags & HOSTAPI_FREE) && (c->size_varies || (pair && pair->size_varies))) continue;
        /* reported once, at the allocation, when both are in the loop */
        if ((c->flags & HOSTAPI_FREE) && pair) continue;
        char *v = ast_spelling(c->target);
        struct diag *d;
        if (c->flags & HOSTAPI_ALLOC)
            d = ctx_report(ctx, c->call,
                           "'%s' allocates '%s' on every iteration of a loop%s: allocation costs "
                           "microseconds to milliseconds and the matching free synchronises the "
                           "device; allocate once before the loop",
                           c->name, v, l->has_launch ? " that launches kernels" : "");
        else
            d = ctx_report(ctx, c->call,
                           "'%s' frees '%s' on every iteration of a loop that launches kernels: it "
                           "synchronises the device each time; free once after the loop",
                           c->name, v);
        if (d && pair) ctx_note(ctx, d, pair->call, "and '%s' releases it in the same loop", pair->name);
        free(v);
    }
}

static const enum CXCursorKind cu504_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu504 = {
    .code = "CU504",
    .name = "alloc-in-loop",
    .summary = "Device or page-locked memory allocated or freed on every iteration of a host loop that launches kernels.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_HOST,
    .status = STATUS_PREVIEW,
    .precision = "0.00 (second frozen test set of 2026-11-28: 0 of 2 findings true: a loop over devices)",
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU504-alloc-in-loop.md",
    .kernel = "kernels/cu504_alloc_in_loop",
    .subscriptions = cu504_kinds,
    .on_cursor = cu504_on_cursor,
};
