/* lanes.c: the active-lane model: which lanes of each warp of a block reach
 * a point of a kernel, read from the conditions that guard it (if, ?:,
 * loops, && and ||, early exits) as affine forms of the thread index. */
#include "analysis/lanes.h"
#include "clang/astutil.h"

#include <stdlib.h>

/* Which child of p is c (by equality), or -1. */
static int child_index(CXCursor p, CXCursor c)
{
    CXCursor kids[8];
    unsigned n = ast_children(p, kids, 8);
    for (unsigned i = 0; i < n; i++)
        if (clang_equalCursors(kids[i], c)) return (int)i;
    return -1;
}

void lanes_all(struct lanes *l)
{
    for (int w = 0; w < WARP_LANES; w++) l->m[w] = 0xffffffffu;
}

/* Lanes where cond == want; false when the condition depends on the thread
   in a way not read here (then the access is skipped: unknown lanes). */
/* `threadIdx.x % m` or `threadIdx.x & (m - 1)` (m a multiple of 32), as
   affine.c reads it: threadIdx.x plus one per-warp symbol, the expression
   itself.  Sets *m. */
static bool lane_modulus(const struct affine *a, long long *m)
{
    if (!a->warp_relative || a->more_uniform || a->tid[0] != 1 || a->tid[1] || a->tid[2]) return false;
    const CXCursor *sym = NULL;
    for (unsigned i = 0; i < a->n_symbols; i++) {
        if (!a->coeff[i]) continue;
        if (sym || a->coeff[i] != 1) return false;
        sym = &a->symbol[i];
    }
    if (!sym || clang_getCursorKind(*sym) != CXCursor_BinaryOperator) return false;
    enum CXBinaryOperatorKind op = ast_binop(*sym);
    long long k;
    if ((op != CXBinaryOperator_Rem && op != CXBinaryOperator_And) || !ast_eval_int(ast_child(*sym, 1), &k) || k <= 0)
        return false;
    *m = op == CXBinaryOperator_Rem ? k : k + 1;
    return *m % WARP_LANES == 0;
}

bool lanes_of_condition(struct affine_fn *af, const struct block_shape *sh, CXCursor cond, bool want,
                        struct lanes *out)
{
    cond = ast_strip(cond);
    if (affine_is_uniform(af, cond)) {
        /* The whole warp goes one way; where it enters, all lanes do. */
        lanes_all(out);
        return true;
    }
    enum CXCursorKind k = clang_getCursorKind(cond);
    if (k == CXCursor_UnaryOperator && ast_unop(cond) == CXUnaryOperator_LNot)
        return lanes_of_condition(af, sh, ast_child(cond, 0), !want, out);
    if (k != CXCursor_BinaryOperator) return false;
    enum CXBinaryOperatorKind op = ast_binop(cond);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
        struct lanes a, b;
        if (!lanes_of_condition(af, sh, ast_child(cond, 0), want, &a) ||
            !lanes_of_condition(af, sh, ast_child(cond, 1), want, &b))
            return false;
        /* (a && b) is true where both are; false where either is false. */
        bool inter = (op == CXBinaryOperator_LAnd) == want;
        for (int w = 0; w < WARP_LANES; w++) out->m[w] = inter ? a.m[w] & b.m[w] : a.m[w] | b.m[w];
        return true;
    }
    if (op < CXBinaryOperator_LT || op > CXBinaryOperator_NE) return false;
    struct affine l, r;
    if (!affine_of(af, ast_child(cond, 0), &l) || !affine_of(af, ast_child(cond, 1), &r))
        return false;
    /* d = l - r.  Without a stated block shape only threadIdx.x varies
       within a warp; y and z terms are unknown uniform values then. */
    long long ct[3], c = l.constant - r.constant;
    for (int i = 0; i < 3; i++) ct[i] = l.tid[i] - r.tid[i];
    bool known = block_shape_known(sh);
    /* A lane index (`threadIdx.x & 31`, `threadIdx.x % 32`: threadIdx.x less
       a per-warp constant, coefficient 1) against a constant: for each lane
       that is its own threadIdx.x % 32. */
    const struct affine *rel = l.warp_relative ? &l : &r, *other = l.warp_relative ? &r : &l;
    long long modulus = 0;
    bool lane_index = l.warp_relative != r.warp_relative && lane_modulus(rel, &modulus) &&
                      !affine_has_symbols(other) && other->tid[0] == 0 && other->tid[1] == 0 && other->tid[2] == 0;
    bool unknown = (!lane_index && (affine_has_symbols(&l) || affine_has_symbols(&r) || l.warp_relative ||
                                    r.warp_relative)) ||
                   (!known && (ct[1] || ct[2]));
    if (ct[0] == 0 && (!known || (ct[1] == 0 && ct[2] == 0))) {
        lanes_all(out);
        return true;
    }
    bool eq = op == CXBinaryOperator_EQ, ne = op == CXBinaryOperator_NE;
    if (unknown && known && (eq || ne)) return false; /* how many lanes match depends on the value */
    if (unknown) {
        /* Against a value not known here: for <, <=, >, >= some bound lets
           the whole warp through (a bounds check), so assume it does; for
           == at most one lane passes, for != all but one. */
        if ((eq && want) || (ne && !want)) {
            for (int w = 0; w < WARP_LANES; w++) out->m[w] = 1u;
        } else {
            lanes_all(out);
        }
        return true;
    }
    for (int w = 0; w < WARP_LANES; w++) {
        uint32_t m = 0;
        for (int lane = 0; lane < WARP_LANES; lane++) {
            long long t[3];
            block_shape_lane(sh, (unsigned)w, (unsigned)lane, t);
            if (lane_index) t[0] %= modulus;
            long long d = ct[0] * t[0] + ct[1] * t[1] + ct[2] * t[2] + c;
            bool holds;
            switch (op) {
            case CXBinaryOperator_LT: holds = d < 0; break;
            case CXBinaryOperator_GT: holds = d > 0; break;
            case CXBinaryOperator_LE: holds = d <= 0; break;
            case CXBinaryOperator_GE: holds = d >= 0; break;
            case CXBinaryOperator_EQ: holds = d == 0; break;
            default: holds = d != 0; break;
            }
            if (holds == want) m |= 1u << lane;
        }
        out->m[w] = m;
    }
    return true;
}

static void lanes_and(struct lanes *acc, const struct lanes *b)
{
    for (int w = 0; w < WARP_LANES; w++) acc->m[w] &= b->m[w];
}

bool lanes_reaching(struct affine_fn *af, const struct block_shape *sh, CXCursor fn,
                    const CXCursor *chain, unsigned depth, struct lanes *out)
{
    lanes_all(out);
    /* chain[depth-1] is the innermost; only guards inside the function
       count: find it in the chain and walk inwards from there. */
    unsigned start = 0;
    for (unsigned i = 0; i < depth; i++)
        if (clang_equalCursors(chain[i], fn)) start = i + 1;
    for (unsigned i = start; i < depth; i++) {
        CXCursor p = chain[i];
        CXCursor next = i + 1 < depth ? chain[i + 1] : clang_getNullCursor();
        if (clang_Cursor_isNull(next)) break; /* the access's own parent: no guard */
        enum CXCursorKind k = clang_getCursorKind(p);
        struct lanes g;
        if (k == CXCursor_IfStmt || k == CXCursor_ConditionalOperator) {
            int idx = child_index(p, next);
            CXCursor kids[4];
            unsigned n = ast_children(p, kids, 4);
            if (idx <= 0 || n < 2) continue; /* in the condition itself */
            /* Children: condition, then, [else] (an if with an init
               statement or a condition variable is not read here). */
            if (k == CXCursor_IfStmt && n > 3) return false;
            if (!lanes_of_condition(af, sh, kids[0], idx == 1, &g)) return false;
            lanes_and(out, &g);
        } else if (k == CXCursor_WhileStmt || k == CXCursor_ForStmt || k == CXCursor_DoStmt) {
            /* The first iteration of a do loop runs with every lane that
               got there: its condition removes none of them. */
            if (k == CXCursor_DoStmt) continue;
            CXCursor kids[5];
            unsigned n = ast_children(p, kids, 5);
            if (n == 0 || !clang_equalCursors(kids[n - 1], next)) continue; /* not in the body */
            for (unsigned c = 0; c + 1 < n; c++) {
                CXCursor e = kids[c];
                enum CXCursorKind ek = clang_getCursorKind(e);
                if (ek == CXCursor_DeclStmt) continue;
                if (ek == CXCursor_UnaryOperator || ek == CXCursor_CompoundAssignOperator) continue;
                if (ek == CXCursor_BinaryOperator &&
                    (ast_binop(e) == CXBinaryOperator_Assign || ast_binop(e) == CXBinaryOperator_Comma))
                    continue;
                if (!lanes_of_condition(af, sh, e, true, &g)) return false;
                lanes_and(out, &g);
            }
        } else if (k == CXCursor_SwitchStmt) {
            CXCursor cond = ast_child(p, 0);
            if (!affine_is_uniform(af, cond)) return false;
        } else if (k == CXCursor_CompoundStmt) {
            /* Early exits before the statement holding the access. */
            CXCursor kids[256];
            unsigned n = ast_children(p, kids, 256);
            for (unsigned c = 0; c < n && !clang_equalCursors(kids[c], next); c++) {
                if (clang_getCursorKind(kids[c]) != CXCursor_IfStmt) continue;
                CXCursor ik[4];
                unsigned in = ast_children(kids[c], ik, 4);
                if (in != 2 || !ast_stmt_leaves_block(ik[1])) continue;
                if (!lanes_of_condition(af, sh, ik[0], false, &g)) return false;
                lanes_and(out, &g);
            }
        } else if (k == CXCursor_BinaryOperator &&
                   (ast_binop(p) == CXBinaryOperator_LAnd || ast_binop(p) == CXBinaryOperator_LOr)) {
            if (child_index(p, next) == 1) {
                if (!lanes_of_condition(af, sh, ast_child(p, 0), ast_binop(p) == CXBinaryOperator_LAnd, &g))
                    return false;
                lanes_and(out, &g);
            }
        }
    }
    return true;
}


void lanes_clip_to_block(struct lanes *l, const struct block_shape *sh)
{
    if (!block_shape_known(sh)) return;
    /* Warps past the block's last thread do not exist. */
    long long threads = sh->b[0] * (sh->b[1] > 0 ? sh->b[1] : 1024) * (sh->b[2] > 0 ? sh->b[2] : 1024);
    for (long long w = (threads + WARP_LANES - 1) / WARP_LANES; w < WARP_LANES; w++) l->m[w] = 0;
    if (threads / WARP_LANES < WARP_LANES && threads % WARP_LANES)
        l->m[threads / WARP_LANES] &= (1u << (threads % WARP_LANES)) - 1;
}
