/* cu104_shared_race_missing_barrier.c: the CU104 shared-race-missing-barrier
 * rule: a __shared__ element that one thread writes and a thread of another
 * warp reads (or the other way round) with no __syncthreads() between them,
 * straight through or from one iteration of a loop to the next.  The
 * shared-memory race model (analysis/shared.h) decides the pairs with the
 * affine index forms and stays silent when it cannot; this file keeps the
 * pairs across warps and words the finding, one per array and function. */
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

static char *thread_text(const int t[3], const long long b[3])
{
    if (b[1] <= 1 && b[2] <= 1) return xasprintf("%d", t[0]);
    if (b[2] <= 1) return xasprintf("(%d, %d)", t[0], t[1]);
    return xasprintf("(%d, %d, %d)", t[0], t[1], t[2]);
}

static char *shape_text(const long long b[3])
{
    if (b[1] <= 1 && b[2] <= 1) return xasprintf("%lld-thread", b[0]);
    if (b[2] <= 1) return xasprintf("%lldx%lld", b[0], b[1]);
    return xasprintf("%lldx%lldx%lld", b[0], b[1], b[2]);
}

static void cu104_on_cursor(struct rule_ctx *ctx, CXCursor c)
{
    if (!ctx_rule_applies_here(ctx) || ctx_in_instantiation(ctx)) return;
    /* Once per function: at its body (the compound statement whose parent
       is the function or lambda itself). */
    if (!ctx_at_function_body(ctx)) return;
    (void)c;
    struct shared_model *m = shared_model_of(ctx_analysis(ctx, &shared_analysis_holder));
    if (!m) return;
    const struct shared_race *r;
    size_t n = shared_model_races(m, &r);
    for (size_t i = 0; i < n; i++) {
        if (!r[i].cross_warp || r[i].ranged_out) continue;
        bool earlier = false;
        unsigned more = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i || !r[j].cross_warp || r[j].ranged_out || !clang_equalCursors(r[j].array, r[i].array))
                continue;
            if (j < i) earlier = true;
            else more++;
        }
        if (earlier) continue;
        char *name = ast_spelling(r[i].array);
        char *second = ctx_use_text(ctx, r[i].second);
        char *first = ctx_use_text(ctx, r[i].first);
        char *t1 = thread_text(r[i].t_first, r[i].block), *t2 = thread_text(r[i].t_second, r[i].block);
        char *shape = shape_text(r[i].block);
        struct diag *d;
        if (r[i].loop_carried)
            d = ctx_report(ctx, r[i].second,
                           "'%s' %s an element of '%s' that another thread %s in the previous iteration (line %u) "
                           "with no __syncthreads() between the end of one iteration and this access: "
                           "threads %s and %s, in different warps of a %s block%s",
                           second, r[i].second_writes ? "overwrites" : "reads", name,
                           r[i].first_writes ? "wrote" : "is still reading", line_of(r[i].first), t1, t2, shape,
                           r[i].shape_from_launch ? " (from the launch sites)"
                           : r[i].shape_guessed ? " (the block shape was not known from the linted files' launches: such a pair "
                                                  "races at every block width of two warps or more)"
                                                : "");
        else
            d = ctx_report(ctx, r[i].second,
                           "'%s' %s an element of '%s' that another thread %s (line %u) with no "
                           "__syncthreads() between: threads %s and %s, in different warps of a %s block%s",
                           second, r[i].second_writes ? "overwrites" : "reads", name,
                           r[i].first_writes ? "wrote" : "reads", line_of(r[i].first), t1, t2, shape,
                           r[i].shape_from_launch ? " (from the launch sites)"
                           : r[i].shape_guessed ? " (the block shape was not known from the linted files' launches: such a pair "
                                                  "races at every block width of two warps or more)"
                                                : "");
        if (d) {
            ctx_note(ctx, d, r[i].first, "the %s by the other thread ('%s')", r[i].first_writes ? "write" : "read",
                     first);
            if (r[i].loop_carried && !clang_Cursor_isNull(r[i].loop))
                ctx_note(ctx, d, r[i].loop,
                         "the loop: a __syncthreads() at the end of its body (after the last read) orders one "
                         "iteration's reads before the next iteration's writes");
            else
                ctx_note(ctx, d, r[i].second, "put __syncthreads() between the two, where every thread of the block "
                                              "reaches it");
            if (more)
                ctx_note(ctx, d, r[i].second, "%u more such pair%s of '%s' in this function", more,
                         more > 1 ? "s" : "", name);
        }
        free(name);
        free(first);
        free(second);
        free(t1);
        free(t2);
        free(shape);
    }
}

static const enum CXCursorKind cu104_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu104 = {
    .code = "CU104",
    .name = "shared-race-missing-barrier",
    .summary = "Threads of different warps write and read one shared element with no __syncthreads() between.",
    .severity = SEV_ERROR,
    .category = "correctness",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "0.40 (frozen test sets: 0 of 2 findings true on the sixth frozen test set of 2026-12-07, a 2-D block launched from another file; 2 of 2 on the fourth, 0 of 1 on the first and third; too few)",
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU104-shared-race-missing-barrier.md",
    .kernel = "kernels/cu104_shared_race_missing_barrier",
    .subscriptions = cu104_kinds,
    .on_cursor = cu104_on_cursor,
};
