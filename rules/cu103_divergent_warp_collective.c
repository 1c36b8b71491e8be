/* cu103_divergent_warp_collective.c: the CU103 divergent-warp-collective
 * rule: a warp shuffle, vote, match, reduce or __syncwarp whose mask is the
 * full warp (0xffffffff) although the call sits under control flow that may
 * differ between the lanes of a warp, so the mask names lanes that never
 * arrive.  The warp view (analysis/warp.h) finds the candidates; the
 * two-lane queries (analysis/divergence.h) keep those where a solver finds two
 * non-exited lanes of one warp that disagree, and give them as a witness;
 * this file picks the calls and words the finding.  A call of a
 * device function of the file that runs such a collective on every path
 * counts as the collective itself. */
#include "analysis/analysis.h"
#include "analysis/divergence.h"
#include "analysis/unroll.h"
#include "analysis/warp.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is name a warp collective taking a mask as its first argument? */
static bool is_collective(const char *name)
{
    size_t n = strlen(name);
    if (!strcmp(name, "__syncwarp")) return true;
    if (n < 6 || strcmp(name + n - 5, "_sync")) return false;
    return !strncmp(name, "__shfl", 6) || !strcmp(name, "__ballot_sync") || !strcmp(name, "__any_sync") ||
           !strcmp(name, "__all_sync") || !strcmp(name, "__uni_sync") || !strncmp(name, "__match_", 8) ||
           !strncmp(name, "__reduce_", 9);
}

/* The callee's declaration in a system header (the intrinsic itself). */
static bool is_intrinsic_call(CXCursor call, char **name_out)
{
    *name_out = NULL;
    char *name = ast_spelling(call);
    if (!is_collective(name)) {
        free(name);
        return false;
    }
    CXCursor d = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(d) || !clang_Location_isInSystemHeader(clang_getCursorLocation(d))) {
        free(name);
        return false;
    }
    *name_out = name;
    return true;
}

/* The mask of a collective call: full, and written how. */
static bool full_mask(CXCursor call, const char *name)
{
    int nargs = clang_Cursor_getNumArguments(call);
    if (!strcmp(name, "__syncwarp")) {
        if (nargs < 1) return true;
        CXCursor a = clang_Cursor_getArgument(call, 0);
        /* The default argument: nothing written. */
        CXSourceRange r = clang_getCursorExtent(a);
        unsigned s, e;
        clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &s);
        clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
        if (e <= s) return true;
        return warp_mask_is_full(a);
    }
    if (nargs < 1) return false;
    return warp_mask_is_full(clang_Cursor_getArgument(call, 0));
}

/* ---- callees that run a full-mask collective on every path ---- */

struct scan {
    CXCursor found;
    char *name;
    int conditional; /* depth of branches around the current node */
};

static enum CXChildVisitResult scan_cb(CXCursor c, CXCursor parent, CXClientData data);

static void scan_children_cond(CXCursor c, struct scan *s, unsigned first_conditional)
{
    CXCursor kids[8];
    unsigned n = ast_children(c, kids, 8);
    for (unsigned i = 0; i < n && clang_Cursor_isNull(s->found); i++) {
        bool cond = i >= first_conditional;
        s->conditional += cond;
        scan_cb(kids[i], c, s);
        s->conditional -= cond;
    }
}

static enum CXChildVisitResult scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct scan *s = data;
    if (!clang_Cursor_isNull(s->found)) return CXChildVisit_Break;
    switch (c.kind) {
    case CXCursor_LambdaExpr:
        return CXChildVisit_Continue;
    case CXCursor_IfStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_ConditionalOperator:
        scan_children_cond(c, s, 1);
        return CXChildVisit_Continue;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
            scan_children_cond(c, s, 1);
            return CXChildVisit_Continue;
        }
        break;
    }
    case CXCursor_ReturnStmt:
    case CXCursor_BreakStmt:
    case CXCursor_GotoStmt:
        /* After an exit, what follows may not run: count it as a branch. */
        if (s->conditional == 0) s->conditional = 1000;
        break;
    case CXCursor_CallExpr:
        if (s->conditional == 0) {
            char *name;
            if (is_intrinsic_call(c, &name)) {
                if (full_mask(c, name)) {
                    s->found = c;
                    s->name = name;
                    return CXChildVisit_Break;
                }
                free(name);
            }
        }
        break;
    default:
        break;
    }
    clang_visitChildren(c, scan_cb, s);
    return CXChildVisit_Continue;
}

/* A device function defined in the file that runs a full-mask collective
   outside any branch of its own: that collective, else a null cursor. */
static CXCursor callee_collective(CXCursor call, char **name)
{
    *name = NULL;
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref)) return clang_getNullCursor();
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(ref))) return clang_getNullCursor();
    CXCursor def = clang_getCursorDefinition(ref);
    if (clang_Cursor_isNull(def)) {
        CXCursor t = clang_getSpecializedCursorTemplate(ref);
        if (!clang_Cursor_isNull(t)) def = clang_getCursorDefinition(t);
    }
    if (clang_Cursor_isNull(def)) return clang_getNullCursor();
    CXCursor kids[16];
    unsigned n = ast_children(def, kids, 16);
    if (!n || kids[n - 1].kind != CXCursor_CompoundStmt) return clang_getNullCursor();
    struct scan s = {.found = clang_getNullCursor()};
    clang_visitChildren(kids[n - 1], scan_cb, &s);
    *name = s.name;
    return s.found;
}

/* ---- the witness ---- */

static void lane_name(const struct divergence_witness *w, int i, char *buf, size_t size)
{
    long long lin = w->tid[i][0] + w->block[0] * (w->tid[i][1] + w->block[1] * w->tid[i][2]);
    if (w->block[1] == 1 && w->block[2] == 1) snprintf(buf, size, "lane %lld (thread %lld)", lin % 32, lin);
    else snprintf(buf, size, "lane %lld (thread (%lld,%lld,%lld))", lin % 32, w->tid[i][0], w->tid[i][1], w->tid[i][2]);
}

/* "; lanes 3 and 7 of one warp disagree: lane 7 (thread 39) returns at line
   12 and lane 3 (thread 35) does not (n = 40)".  Caller frees. */
static char *lanes_text(const struct warp_divergence *dv, const struct divergence_witness *w)
{
    char a[64], b[64], values[200] = "";
    lane_name(w, w->first, a, sizeof a);
    lane_name(w, 1 - w->first, b, sizeof b);
    size_t used = 0;
    for (unsigned i = 0; i < w->n_values && used + 1 < sizeof values; i++)
        used += (size_t)snprintf(values + used, sizeof values - used, "%s%s = %lld", i ? ", " : " (", w->value_name[i], w->value[i]);
    if (w->n_values && used + 1 < sizeof values) snprintf(values + used, sizeof values - used, ")");
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(dv->at), NULL, &line, NULL, NULL);
    const char *verb = !dv->early_exit                                     ? "finds the condition true"
                       : clang_getCursorKind(dv->at) == CXCursor_ReturnStmt ? "returns"
                                                                            : "leaves the loop";
    char act[96];
    snprintf(act, sizeof act, "%s at line %u", verb, line);
    long long l0 = w->tid[0][0] + w->block[0] * (w->tid[0][1] + w->block[1] * w->tid[0][2]);
    long long l1 = w->tid[1][0] + w->block[0] * (w->tid[1][1] + w->block[1] * w->tid[1][2]);
    char shape[64];
    if (w->block[1] == 1 && w->block[2] == 1) snprintf(shape, sizeof shape, "a %lld-thread block", w->block[0]);
    else snprintf(shape, sizeof shape, "a %lldx%lldx%lld block", w->block[0], w->block[1], w->block[2]);
    return xasprintf("; lanes %lld and %lld of one warp of %s disagree: %s %s and %s does not%s%s", l0 % 32, l1 % 32, shape, a,
                     act, b, values, w->shape_known ? "" : " (launch shape not known: blockDim.x taken as any multiple of 32)");
}

/* ---- shuffles confined to groups of lanes ---- */

/* The for loop whose init statement declares var. */
struct for_of {
    CXCursor var;
    CXCursor loop;
};

static enum CXChildVisitResult for_of_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct for_of *q = data;
    if (clang_getCursorKind(c) == CXCursor_ForStmt) {
        CXCursor init = ast_child(c, 0);
        if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
            CXCursor decls[8];
            unsigned n = ast_children(init, decls, 8);
            for (unsigned i = 0; i < n; i++)
                if (clang_equalCursors(decls[i], q->var)) {
                    q->loop = c;
                    return CXChildVisit_Break;
                }
        }
    }
    return CXChildVisit_Recurse;
}

/* Is the xor lane mask below limit in every lane: a constant, or the
   counter of a for loop that starts at a constant and only shrinks
   (o >>= 1, o /= 2) with no other write? */
static bool lane_mask_below(CXCursor e, long long limit)
{
    long long v;
    e = ast_strip(e);
    if (ast_eval_int(e, &v)) return v >= 0 && v < limit;
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return false;
    CXCursor var = clang_getCursorReferenced(e);
    if (clang_getCursorKind(var) != CXCursor_VarDecl) return false;
    CXCursor init = clang_Cursor_getVarDeclInitializer(var);
    if (clang_Cursor_isNull(init) || !ast_eval_int(init, &v) || v < 0 || v >= limit) return false;
    /* declared in a for's init statement */
    struct for_of q = {var, clang_getNullCursor()};
    clang_visitChildren(clang_getCursorSemanticParent(var), for_of_cb, &q);
    CXCursor loop = q.loop;
    if (clang_Cursor_isNull(loop)) return false;
    /* for (o = C; ...; o >>= k) or o /= k, and no other write */
    CXCursor inc = ast_strip(ast_child(loop, 2));
    bool shrinks = false;
    enum CXCursorKind ik = clang_getCursorKind(inc);
    if (ik == CXCursor_CompoundAssignOperator) {
        enum CXBinaryOperatorKind op = ast_binop(inc);
        long long by;
        shrinks = (op == CXBinaryOperator_ShrAssign || op == CXBinaryOperator_DivAssign) &&
                  ast_eval_int(ast_child(inc, 1), &by) && by >= 1;
    }
    if (!shrinks) return false;
    CXCursor target = ast_strip(ast_child(inc, 0));
    return clang_getCursorKind(target) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(target), var) && unroll_counter_only_in_step(loop, var);
}

/* The lanes a shuffle stays within: its width argument when a constant
   power of two below 32 (up, down and indexed shuffles never read outside
   their group of width lanes; an xor shuffle only when its lane mask is
   below the width), else 0. */
static unsigned shuffle_group(CXCursor call, const char *name)
{
    if (strncmp(name, "__shfl", 6) != 0 || clang_Cursor_getNumArguments(call) < 4) return 0;
    long long width;
    if (!ast_eval_int(clang_Cursor_getArgument(call, 3), &width) || width < 2 || width >= 32 || (width & (width - 1)))
        return 0;
    if (!strncmp(name, "__shfl_xor", 10) && !lane_mask_below(clang_Cursor_getArgument(call, 2), width)) return 0;
    return (unsigned)width;
}

/* ---- one finding per cause ---- */

struct causes {
    unsigned *hash;
    size_t n, cap;
};

static void causes_free(void *p)
{
    struct causes *c = p;
    free(c->hash);
    free(c);
}

/* The causes reported so far in a function: rule-private state kept per
   function by the analysis cache (dropped when the walk leaves it). */
static void *causes_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    (void)tu, (void)fn, (void)deps;
    return xcalloc(1, sizeof(struct causes));
}

static const struct analysis_kind cu103_causes = {.name = "cu103.causes", .build = causes_build, .free = causes_free};

/* Was this cause reported already in the function?  Records it if not. */
static bool seen_cause(struct rule_ctx *ctx, CXCursor at)
{
    struct causes *c = ctx_analysis(ctx, &cu103_causes);
    if (!c) return false;
    unsigned h = clang_hashCursor(at);
    for (size_t i = 0; i < c->n; i++)
        if (c->hash[i] == h) return true;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->hash = xrealloc(c->hash, c->cap * sizeof *c->hash);
    }
    c->hash[c->n++] = h;
    return false;
}

static void cu103_on_cursor(struct rule_ctx *ctx, CXCursor call)
{
    if (!ctx_rule_applies_here(ctx) || ctx_in_instantiation(ctx)) return;
    if (!ctx_location_is_linted(ctx, clang_getCursorLocation(call))) return;
    char *name = NULL;
    CXCursor inner = clang_getNullCursor();
    char *inner_name = NULL;
    if (is_intrinsic_call(call, &name)) {
        if (!full_mask(call, name)) {
            free(name);
            return;
        }
    } else {
        inner = callee_collective(call, &inner_name);
        if (clang_Cursor_isNull(inner)) return;
        name = ast_spelling(call);
    }
    struct warp_view *w = ctx_analysis(ctx, &warp_analysis);
    struct warp_divergence dv;
    /* Votes, matches, reductions and __syncwarp wait only for the lanes
       of the mask that have not exited; a shuffle reads its source lane,
       which must take part. */
    const char *op = clang_Cursor_isNull(inner) ? name : inner_name;
    bool exits_ok = strncmp(op, "__shfl", 6) != 0;
    if (!w || !warp_stmt_lane_divergent(w, call, exits_ok, &dv) || clang_Cursor_isNull(dv.at)) goto out;
    /* The candidate goes to the solver: kept with two lanes that disagree,
       dropped when proved the same in every lane or when it cannot tell. */
    struct divergence_witness wit;
    struct divergence_facts *facts = ctx_analysis(ctx, &divergence_analysis);
    enum divergence_verdict verdict = divergence_collective(facts, call, exits_ok, &dv, &wit);
    /* A shuffle confined to groups of lanes by its width: lanes that leave
       the kernel a whole group at a time are never read by a lane that
       stays, so exits count as for votes; what remains is whether the lanes
       of one group agree (exits included). */
    unsigned group = exits_ok ? 0 : shuffle_group(clang_Cursor_isNull(inner) ? call : inner, op);
    if (group && verdict == DIVERGENCE_WITNESSED && (dv.early_exit || divergence_tail_guard(facts, call, &dv))) {
        struct warp_divergence dv_exits;
        struct divergence_witness wit_exits;
        enum divergence_verdict others = divergence_collective(facts, call, true, &dv_exits, &wit_exits);
        if (others == DIVERGENCE_UNIFORM) {
            struct warp_divergence dv_group;
            struct divergence_witness wit_group;
            enum divergence_verdict in_group = divergence_collective_in_groups(facts, call, group, &dv_group, &wit_group);
            if (in_group == DIVERGENCE_UNIFORM || in_group == DIVERGENCE_UNKNOWN) goto out;
            if (in_group == DIVERGENCE_WITNESSED) {
                dv = dv_group;
                wit = wit_group;
            }
        }
    }
    if (verdict == DIVERGENCE_UNIFORM || verdict == DIVERGENCE_UNKNOWN) goto out;
    if (seen_cause(ctx, dv.at)) goto out;
    char *witness = verdict == DIVERGENCE_WITNESSED ? lanes_text(&dv, &wit) : xstrdup("");

    struct diag *d;
    if (clang_Cursor_isNull(inner))
        d = ctx_report(ctx, call,
                       "'%s' with the full mask is reached by only some lanes of a warp: %s; the "
                       "mask names lanes that never arrive%s",
                       name, dv.why, witness);
    else
        d = ctx_report(ctx, call,
                       "call to '%s' runs '%s' with the full mask, but only some lanes of a warp reach "
                       "the call: %s%s",
                       name, inner_name, dv.why, witness);
    free(witness);
    if (!d) goto out;
    if (verdict == DIVERGENCE_WITNESSED) {
        char a[64], b[64];
        lane_name(&wit, wit.first, a, sizeof a);
        lane_name(&wit, 1 - wit.first, b, sizeof b);
        ctx_note(ctx, d, dv.at, dv.early_exit ? "some lanes leave here: %s does, %s does not" : "the lanes part here: %s goes one way, %s the other", a, b);
    } else {
        ctx_note(ctx, d, dv.at, "%s", dv.early_exit ? "some lanes leave here" : "the lanes part here");
    }
    if (!clang_Cursor_isNull(inner)) ctx_note(ctx, d, inner, "the full-mask '%s' inside is here", inner_name);
    ctx_note(ctx, d, call,
             "make every lane of the warp reach the call (guard the work, not the collective), or pass "
             "the mask of the lanes that do: '__ballot_sync(0xffffffff, condition)' computed before "
             "the branch");
out:
    free(name);
    free(inner_name);
}

static const enum CXCursorKind cu103_kinds[] = {CXCursor_CallExpr, 0};

const struct rule rule_cu103 = {
    .code = "CU103",
    .name = "divergent-warp-collective",
    .summary = "A warp shuffle, vote or __syncwarp with the full mask is reached by only some lanes of a warp.",
    .severity = SEV_ERROR,
    .category = "correctness",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "0.00 (sixth frozen test set of 2026-12-07: 0 of 14 findings true: lanes that exit the kernel (a guard if around the rest of the kernel, returns from a function that is the whole kernel body), width-parameter scans; the third set read 2 of 6)",
    .version = 3,
    .has_fix = false,
    .doc = "rules/CU103-divergent-warp-collective.md",
    .kernel = "kernels/cu103_divergent_warp_collective",
    .subscriptions = cu103_kinds,
    .on_cursor = cu103_on_cursor,
};
