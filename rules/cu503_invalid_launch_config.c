/* cu503_invalid_launch_config.c: CU503 flags <<<...>>> launches whose constant configuration the device cannot run (block above 1024 threads or the per-dimension limits, a zero dimension, a grid beyond its limits, more than 48 KB of dynamic shared memory without opting in).  Blocks that are not a whole number of warps are advice, CU508's. */
#include "analysis/launch.h"
#include "analysis/hostapi.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static void cu503_check(struct rule_ctx *ctx, const struct hostapi_call *c)
{
    struct launch_site ls;
    if (!launch_site_read(c->call, &ls)) return;
    char *k = ast_spelling(ls.kernel);
    static const char axis[3] = {'x', 'y', 'z'};
    static const long long block_max[3] = {1024, 1024, 64};
    static const long long grid_max[3] = {2147483647LL, 65535, 65535};
    struct diag *d = NULL;
    if (ls.block_known) {
        long long total = ls.block[0] * ls.block[1] * ls.block[2];
        for (int i = 0; i < 3 && !d; i++) {
            if (ls.block[i] == 0)
                d = ctx_report(ctx, ls.block_arg, "the launch of '%s' has a zero block dimension (%c): the "
                               "launch fails and the kernel does not run", k, axis[i]);
            else if (ls.block[i] > block_max[i])
                d = ctx_report(ctx, ls.block_arg, "the launch of '%s' asks for blockDim.%c = %lld, above "
                               "the limit of %lld: the launch fails and the kernel does not run",
                               k, axis[i], ls.block[i], block_max[i]);
        }
        if (!d && total > 1024)
            d = ctx_report(ctx, ls.block_arg, "the launch of '%s' asks for %lld threads per block "
                           "(%lldx%lldx%lld), above the limit of 1024: the launch fails (CUDA 13 "
                           "returns cudaErrorInvalidValue) and the kernel does not run",
                           k, total, ls.block[0], ls.block[1], ls.block[2]);
    }
    if (!d && ls.grid_known) {
        for (int i = 0; i < 3 && !d; i++) {
            if (ls.grid[i] == 0)
                d = ctx_report(ctx, ls.grid_arg, "the launch of '%s' has a zero grid dimension (%c): the "
                               "launch fails and the kernel does not run", k, axis[i]);
            else if (ls.grid[i] > grid_max[i])
                d = ctx_report(ctx, ls.grid_arg, "the launch of '%s' asks for gridDim.%c = %lld, above "
                               "the limit of %lld: the launch fails and the kernel does not run",
                               k, axis[i], ls.grid[i], grid_max[i]);
        }
    }
    if (!d && ls.smem_known && ls.smem > 48 * 1024 &&
        !hostapi_sets_max_dynamic_smem(ctx->tu, ls.kernel))
        d = ctx_report(ctx, ls.smem_arg, "the launch of '%s' asks for %lld bytes of dynamic shared "
                       "memory, above the default limit of 48 KB, and this file never raises it with "
                       "cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, ...): "
                       "it fails with cudaErrorInvalidValue",
                       k, ls.smem, k);
    free(k);
}

static void cu503_on_cursor(struct rule_ctx *ctx, CXCursor body)
{
    (void)body;
    const struct hostapi_fn *m = (ctx_at_host_body(ctx) ? ctx_analysis(ctx, &hostapi_analysis) : NULL);
    if (!m) return;
    for (unsigned i = 0; i < m->n_calls; i++)
        if (m->calls[i].flags & HOSTAPI_LAUNCH) cu503_check(ctx, &m->calls[i]);
}

static const enum CXCursorKind cu503_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu503 = {
    .code = "CU503",
    .name = "invalid-launch-config",
    .summary = "A launch whose constant configuration the device cannot run: more than 1024 threads, a zero dimension, or too much shared memory.",
    .severity = SEV_ERROR,
    .category = "correctness",
    .scope = SCOPE_HOST,
    .status = STATUS_PREVIEW,
    .precision = NULL,
    .version = 2,
    .has_fix = false,
    .doc = "rules/CU503-invalid-launch-config.md",
    .kernel = "kernels/cu503_invalid_launch_config",
    .subscriptions = cu503_kinds,
    .on_cursor = cu503_on_cursor,
};
