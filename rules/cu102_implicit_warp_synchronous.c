/* cu102_implicit_warp_synchronous.c: the CU102 implicit-warp-synchronous
 * rule: shared memory that one lane of a warp writes and another lane of the
 * same warp reads (or the other way round) with no __syncwarp() or barrier
 * between, code that relied on the lanes of a warp running in lock-step.
 * The shared-memory race model (analysis/shared.h) finds the pairs; this file
 * keeps those whose threads all share a warp (pairs across warps are
 * CU104's) and words the finding, one per array and function. */
#include "analysis/shared.h"
#include "analysis/warp.h"
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

static bool counted(const struct shared_race *r, size_t n, size_t i)
{
    return r[i].same_warp && !r[i].cross_warp && !r[i].warp_synced && !covered_by_block_race(r, n, &r[i]);
}

static unsigned offset_of(CXSourceLocation loc, CXFile *file)
{
    unsigned off;
    clang_getExpansionLocation(loc, file, NULL, NULL, &off);
    return off;
}

static bool in_place(CXSourceLocation loc)
{
    CXFile fs, fe;
    unsigned os, oe;
    clang_getSpellingLocation(loc, &fs, NULL, NULL, &os);
    clang_getExpansionLocation(loc, &fe, NULL, NULL, &oe);
    return fs && fe && clang_File_isEqual(fs, fe) && os == oe;
}

/* The fix-it, when inserting __syncwarp() is exactly enough: every pair of
   the array is a write in one statement and a read in a later statement of
   the same block (no read and write of one element by two lanes inside one
   statement, no pair around a loop), and the insertion point, just before
   each reading statement, is reached by every lane of the warp. */
static void add_fix(struct rule_ctx *ctx, struct diag *d, struct shared_model *m, const struct shared_race *r,
                    size_t n, CXCursor array)
{
    CXCursor stmts[16];
    unsigned ns = 0;
    struct warp_view *w = ctx_analysis(ctx, &warp_analysis);
    if (!w) return;
    for (size_t i = 0; i < n; i++) {
        if (!clang_equalCursors(r[i].array, array)) continue;
        if (r[i].same_warp && !counted(r, n, i) && !r[i].warp_synced) return; /* reported elsewhere: leave it */
        if (!counted(r, n, i)) continue;
        if (r[i].loop_carried || !r[i].first_writes || r[i].second_writes) return;
        CXCursor s1, b1, s2, b2;
        if (!shared_model_statement(m, r[i].first, &s1, &b1) || !shared_model_statement(m, r[i].second, &s2, &b2))
            return;
        if (!clang_equalCursors(b1, b2) || clang_equalCursors(s1, s2)) return;
        CXFile f1, f2;
        if (offset_of(clang_getCursorLocation(s1), &f1) >= offset_of(clang_getCursorLocation(s2), &f2)) return;
        if (!in_place(clang_getRangeStart(clang_getCursorExtent(s2)))) return;
        struct warp_divergence dv;
        if (warp_stmt_lane_divergent(w, s2, false, &dv)) return;
        bool seen = false;
        for (unsigned k = 0; k < ns; k++)
            if (clang_equalCursors(stmts[k], s2)) seen = true;
        if (!seen) {
            if (ns == 16) return;
            stmts[ns++] = s2;
        }
    }
    for (unsigned k = 0; k < ns; k++) {
        CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(stmts[k]));
        CXFile f;
        unsigned line, col, off;
        clang_getExpansionLocation(at, &f, &line, &col, &off);
        size_t size = 0;
        const char *text = f ? clang_getFileContents(ctx->tu, f, &size) : NULL;
        if (!text || off > size) return;
        /* the indentation of the statement's line */
        unsigned b = off;
        while (b > 0 && text[b - 1] != '\n') b--;
        bool blank = true;
        for (unsigned q = b; q < off; q++)
            if (text[q] != ' ' && text[q] != '\t') blank = false;
        char *rep = blank ? xasprintf("__syncwarp();\n%.*s", (int)(off - b), text + b) : xstrdup("__syncwarp(); ");
        ctx_fix(ctx, d, clang_getRange(at, at), rep);
        free(rep);
    }
}

static void cu102_on_cursor(struct rule_ctx *ctx, CXCursor c)
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
        if (d) add_fix(ctx, d, m, r, n, r[i].array);
        free(name);
        free(first);
        free(second);
    }
}

static const enum CXCursorKind cu102_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu102 = {
    .code = "CU102",
    .name = "implicit-warp-synchronous",
    .summary = "Lanes of one warp exchange data through shared memory without __syncwarp(), relying on lock-step execution.",
    .severity = SEV_ERROR,
    .category = "correctness",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "1.00 (frozen test sets of 2026-11-28: 6 of 6 findings true on the second, 4 of 4 on the third; too few to earn stable)",
    .version = 1,
    .has_fix = true,
    .doc = "rules/CU102-implicit-warp-synchronous.md",
    .kernel = "kernels/cu102_implicit_warp_synchronous",
    .subscriptions = cu102_kinds,
    .on_cursor = cu102_on_cursor,
};
