/* cu102_implicit_warp_synchronous.c: the CU102 implicit-warp-synchronous
 * rule: shared memory that one lane of a warp writes and another lane of the
 * same warp reads (or the other way round) with no __syncwarp() or barrier
 * between, code that relied on the lanes of a warp running in lock-step.
 * The shared-memory race model (analysis/shared.h) finds the pairs; this file
 * keeps those whose threads all share a warp (pairs across warps are
 * CU104's) and words the finding, one per array and function. */
#include "analysis/shared.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static unsigned line_of(CXCursor c)
{
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    return line;
}

/* A race across warps on the same stretch of code (CU104 reports it, and
   its __syncthreads() also orders the lanes of a warp). */
static bool covered_by_block_race(const struct shared_race *r, size_t n, const struct shared_race *x)
{
    for (size_t j = 0; j < n; j++) {
        if (!r[j].cross_warp || r[j].loop_carried != x->loop_carried) continue;
        if (x->loop_carried) {
            if (clang_equalCursors(r[j].loop, x->loop)) return true;
        } else if (r[j].from < x->to && x->from < r[j].to) {
            return true;
        }
    }
    return false;
}

static void cu102_on_cursor(struct rule_ctx *ctx, CXCursor c)
{
    (void)c;
    if (!ctx_rule_applies_here(ctx) || ctx_in_instantiation(ctx)) return;
    if (ctx_fn_cache_get(ctx, "cu102.done")) return;
    ctx_fn_cache_set(ctx, "cu102.done", xstrdup("1"), free);
    struct shared_model *m = shared_model_of(ctx_analysis(ctx, &shared_analysis_holder));
    if (!m) return;
    const struct shared_race *r;
    size_t n = shared_model_races(m, &r);
    for (size_t i = 0; i < n; i++) {
        if (!r[i].same_warp || r[i].cross_warp || r[i].warp_synced) continue;
        if (covered_by_block_race(r, n, &r[i])) continue;
        /* one finding per array: the first race in program order */
        bool earlier = false;
        unsigned more = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i || !r[j].same_warp || r[j].cross_warp || r[j].warp_synced) continue;
            if (covered_by_block_race(r, n, &r[j])) continue;
            if (!clang_equalCursors(r[j].array, r[i].array)) continue;
            if (j < i) earlier = true;
            else more++;
        }
        if (earlier) continue;
        char *name = ast_spelling(r[i].array);
        char *second = ctx_use_text(ctx, r[i].second);
        char *first = ctx_use_text(ctx, r[i].first);
        const char *what2 = r[i].second_writes ? "writes" : "reads";
        const char *what1 = r[i].first_writes ? "wrote" : "read";
        struct diag *d = ctx_report(
            ctx, r[i].second,
            "'%s' %s an element of '%s' that another lane of the same warp %s%s (line %u) with no "
            "__syncwarp() between: lanes of a warp do not run in lock-step since Volta (lanes %d and %d)",
            second, what2, name, what1, r[i].loop_carried ? " in the previous iteration" : "",
            line_of(r[i].first), r[i].t_first[0] + r[i].t_first[1] * (int)r[i].block[0],
            r[i].t_second[0] + r[i].t_second[1] * (int)r[i].block[0]);
        if (d) {
            ctx_note(ctx, d, r[i].first, "the %s by the other lane ('%s')", r[i].first_writes ? "write" : "read",
                     first);
            if (r[i].loop_carried && !clang_Cursor_isNull(r[i].loop))
                ctx_note(ctx, d, r[i].loop, "around this loop's back edge");
            char *tail = more ? xasprintf("; %u more such pair%s of '%s' in this function", more,
                                          more > 1 ? "s" : "", name)
                              : xstrdup("");
            ctx_note(ctx, d, r[i].second,
                     "put __syncwarp() between the two (for a read-modify-write such as s[i] += s[i + k]: "
                     "read into a register, __syncwarp(), store, __syncwarp())%s",
                     tail);
            free(tail);
        }
        free(name);
        free(first);
        free(second);
    }
}

static const enum CXCursorKind cu102_kinds[] = {CXCursor_ArraySubscriptExpr, 0};

const struct rule rule_cu102 = {
    .code = "CU102",
    .name = "implicit-warp-synchronous",
    .summary = "Lanes of one warp exchange data through shared memory without __syncwarp(), relying on lock-step execution.",
    .severity = SEV_ERROR,
    .category = "correctness",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU102-implicit-warp-synchronous.md",
    .kernel = "kernels/cu102_implicit_warp_synchronous",
    .subscriptions = cu102_kinds,
    .on_cursor = cu102_on_cursor,
};
