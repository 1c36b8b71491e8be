/* cu508_partial_warp_block.c: CU508 flags <<<...>>> launches whose constant block has a thread count that is not a multiple of the warp size 32 (so the last warp of every block runs with idle lanes) while the grid is sized from the work by that block size; advice, split from CU503, which keeps the launches the device cannot run. */
#include "analysis/launch.h"
#include "analysis/hostapi.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "engine/walk.h"

#include <stdlib.h>

/* A block the device cannot run at all is CU503's error, not advice. */
static bool block_runs(const struct launch_site *ls)
{
    static const long long block_max[3] = {1024, 1024, 64};
    for (int i = 0; i < 3; i++)
        if (ls->block[i] <= 0 || ls->block[i] > block_max[i]) return false;
    return ls->block[0] * ls->block[1] * ls->block[2] <= 1024;
}

static void cu508_check(struct rule_ctx *ctx, const struct hostapi_call *c)
{
    struct launch_site ls;
    if (!launch_site_read(c->call, &ls) || !ls.block_known || !block_runs(&ls)) return;
    long long total = ls.block[0] * ls.block[1] * ls.block[2];
    /* One thread on purpose (set-up kernels) is not a wasted warp worth a warning. */
    if (total <= 1 || total % 32 == 0) return;
    /* A block sized to a fixed piece of work (one row of 127, a 351-point
       stencil, a latency probe) already uses the fewest warps for it:
       rounding it up adds idle lanes.  Only where the grid is sized from the
       work by this block size is the size a free choice that wastes lanes. */
    if (!launch_grid_scales_with_block(&ls)) return;
    char *k = ast_spelling(ls.kernel);
    ctx_report(ctx, ls.block_arg,
               "the launch of '%s' uses blocks of %lld threads, not a multiple of the warp size 32: the last "
               "warp of every block runs with %lld of its 32 lanes",
               k, total, total % 32);
    free(k);
}

static void cu508_on_cursor(struct rule_ctx *ctx, CXCursor body)
{
    (void)body;
    const struct hostapi_fn *m = (ctx_at_host_body(ctx) ? ctx_analysis(ctx, &hostapi_analysis) : NULL);
    if (!m) return;
    for (unsigned i = 0; i < m->n_calls; i++)
        if (m->calls[i].flags & HOSTAPI_LAUNCH) cu508_check(ctx, &m->calls[i]);
}

static const enum CXCursorKind cu508_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu508 = {
    .code = "CU508",
    .name = "partial-warp-block",
    .summary = "A launch whose constant block is not a whole number of warps, so the last warp of every block runs with idle lanes.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_HOST,
    .status = STATUS_PREVIEW,
    .precision = "0.00 (frozen test sets of 2026-11-28: 0 of 4 findings true on the first, 0 of 2 on the third)",
    .version = 2,
    .has_fix = false,
    .doc = "rules/CU508-partial-warp-block.md",
    .kernel = "kernels/cu508_partial_warp_block",
    .subscriptions = cu508_kinds,
    .on_cursor = cu508_on_cursor,
};
