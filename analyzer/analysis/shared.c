/* shared.c: the shared-memory access and race model (see shared.h).
 *
 * One pass over the function numbers every node in program order (a write
 * counts at the end of its assignment, after the reads of the same
 * statement), collects the accesses to tracked arrays and the barriers, and
 * the conditions and loops around each access.  Pairs of accesses are then
 * decided by enumeration over the threads of a block and the values of loop
 * counters with constant bounds. */
#include "analysis/shared.h"
#include "analysis/warp.h"
#include "clang/astutil.h"
#include "base/util.h"
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LOOP_VALUES 256
#define MAX_COMBOS 4096
#define MAX_THREADS 1024
#define MAX_CONDS 8
#define MAX_LOOPS 6

struct node {
    CXCursor c;
    int parent;
    unsigned pos, end;
};

struct loopinfo {
    int node;
    bool enumerable;
    CXCursor var;     /* canonical decl of the counter */
    long long values[MAX_LOOP_VALUES];
    unsigned n_values;
};

struct cond {
    CXCursor expr;
    bool polarity;    /* the access runs when expr is true (false: when it is false) */
};

struct access {
    CXCursor expr;      /* outermost subscript */
    CXCursor base;      /* tracked declaration (canonical) */
    CXCursor index[2];
    unsigned n_index;
    long long inner;    /* extent of the inner dimension for 2-D */
    long long extent0;  /* extent of the outer (or only) dimension, 0 if unknown */
    bool read, write;
    unsigned pos_read, pos_write;
    int node;
    struct cond conds[MAX_CONDS];
    unsigned n_conds;
    bool conds_ok;      /* every condition around it was collected */
    int loops[MAX_LOOPS]; /* enclosing loops, innermost first (indices into m->loops) */
    unsigned n_loops;
    bool loops_ok;
};

struct sync {
    unsigned pos;
    bool block;
};

struct tracked {
    CXCursor decl;      /* canonical */
    CXCursor target;    /* the shared array it stands for (itself, or an alias's array) */
};

struct shared_model {
    CXTranslationUnit tu;
    CXCursor fn;
    struct uniformity *u;
    const struct launch_info *li;
    /* No shapes, but callers that index rows (shared_build): blocks may be
       several rows of one warp each. */
    bool callers_rows;
    /* Pointer parameters (by position) that the callers may pass a
       different pointer in different threads (a row of a shared array per
       warp): a pair of threads in different warps may not share the array
       (shared_build). */
    unsigned long long varying_params;
    shared_affine_fn affine;
    void *affine_data;
    struct node *nodes;
    size_t n_nodes, cap_nodes;
    unsigned counter;
    struct tracked *tracked;
    size_t n_tracked, cap_tracked;
    struct access *acc;
    size_t n_acc, cap_acc;
    struct sync *syncs;
    size_t n_syncs, cap_syncs;
    struct loopinfo *loops;
    size_t n_loops, cap_loops;
    struct shared_race *races;
    size_t n_races, cap_races;
    bool computed;
    /* the interpreter's compiled expressions */
    struct iexpr *ix;
    size_t n_ix, cap_ix;
    struct { CXCursor key; int root; } *compiled;
    size_t n_compiled, cap_compiled;
    struct { CXCursor var; int assigns; } *vdefs;
    size_t n_vdefs, cap_vdefs;
    struct warp_view *warp;   /* for conditions the interpreter cannot evaluate */
    bool assumed_warp;        /* a warp-uniform condition was taken as true in this decision */
};

enum iop { I_CONST, I_TID, I_BDIM, I_LOOP, I_BIN, I_NEG, I_LNOT, I_BNOT, I_COND };
struct iexpr {
    int op, sub;
    long long v;
    int a, b, c;
    CXCursor var;
};

#define GROW(arr, n, cap, init)                                            \
    do {                                                                   \
        if ((n) == (cap)) {                                                \
            (cap) = (cap) ? 2 * (cap) : (init);                            \
            (arr) = xrealloc((arr), (cap) * sizeof *(arr));                \
        }                                                                  \
    } while (0)

/* ------------------------------------------------------------ tracking */

static bool has_shared_attr(CXCursor decl)
{
    CXCursor kids[8];
    unsigned n = ast_children(decl, kids, 8);
    for (unsigned i = 0; i < n; i++)
        if (kids[i].kind == CXCursor_CUDASharedAttr) return true;
    return false;
}

static int tracked_index(const struct shared_model *m, CXCursor decl)
{
    CXCursor c = clang_getCanonicalCursor(decl);
    for (size_t i = 0; i < m->n_tracked; i++)
        if (clang_equalCursors(m->tracked[i].decl, c)) return (int)i;
    return -1;
}

static void track(struct shared_model *m, CXCursor decl, CXCursor target)
{
    if (tracked_index(m, decl) >= 0) return;
    GROW(m->tracked, m->n_tracked, m->cap_tracked, 8);
    m->tracked[m->n_tracked++] =
        (struct tracked){clang_getCanonicalCursor(decl), clang_getCanonicalCursor(target)};
}

/* A declaration the model follows: a __shared__ variable, a pointer
   parameter to volatile data, or a local pointer set to a tracked array. */
static int base_of(struct shared_model *m, CXCursor ref)
{
    ref = ast_strip(ref);
    if (ref.kind != CXCursor_DeclRefExpr) return -1;
    CXCursor d = clang_getCursorReferenced(ref);
    if (d.kind != CXCursor_VarDecl && d.kind != CXCursor_ParmDecl) return -1;
    int i = tracked_index(m, d);
    if (i >= 0) return i;
    if (d.kind == CXCursor_VarDecl && has_shared_attr(d)) {
        track(m, d, d);
        return (int)m->n_tracked - 1;
    }
    return -1;
}

static void consider_decl(struct shared_model *m, CXCursor d)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    if (t.kind != CXType_Pointer) return;
    if (d.kind == CXCursor_ParmDecl) {
        CXType pt = clang_getPointeeType(t);
        /* volatile pointee: the warp-synchronous idiom's parameter */
        CXString s = clang_getTypeSpelling(pt);
        bool vol = strstr(clang_getCString(s), "volatile") != NULL;
        clang_disposeString(s);
        if (vol) track(m, d, d);
        return;
    }
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (clang_Cursor_isNull(init)) return;
    int b = base_of(m, init);
    if (b >= 0) track(m, d, m->tracked[b].target);
}

/* ------------------------------------------------------------ the pass */

struct visit {
    struct shared_model *m;
    int parent;
};

static enum CXChildVisitResult visit_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct visit *v = data;
    struct shared_model *m = v->m;
    GROW(m->nodes, m->n_nodes, m->cap_nodes, 256);
    int me = (int)m->n_nodes++;
    m->nodes[me] = (struct node){c, v->parent, m->counter++, 0};
    if (c.kind == CXCursor_VarDecl || c.kind == CXCursor_ParmDecl) consider_decl(m, c);
    if (c.kind == CXCursor_LambdaExpr) {
        m->nodes[me].end = m->counter;
        return CXChildVisit_Continue;
    }
    struct visit inner = {m, me};
    clang_visitChildren(c, visit_cb, &inner);
    m->nodes[me].end = m->counter++;
    return CXChildVisit_Continue;
}

static bool is_wrapper(CXCursor c)
{
    return c.kind == CXCursor_UnexposedExpr || c.kind == CXCursor_ParenExpr;
}

static int up(const struct shared_model *m, int n)
{
    int p = m->nodes[n].parent;
    while (p >= 0 && is_wrapper(m->nodes[p].c)) p = m->nodes[p].parent;
    return p;
}

/* The child of node p on the way down to n. */
static int child_towards(const struct shared_model *m, int p, int n)
{
    int c = n;
    while (c >= 0 && m->nodes[c].parent != p) c = m->nodes[c].parent;
    return c;
}

static bool is_loop_kind(enum CXCursorKind k)
{
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
           k == CXCursor_CXXForRangeStmt;
}

static CXCursor canon_var(CXCursor e)
{
    e = ast_strip(e);
    if (e.kind == CXCursor_DeclRefExpr) e = clang_getCursorReferenced(e);
    if (e.kind != CXCursor_VarDecl) return clang_getNullCursor();
    return clang_getCanonicalCursor(e);
}

/* A for loop with constant start, bound and step: its counter's values. */
static void read_loop(struct loopinfo *L, CXCursor loop)
{
    L->enumerable = false;
    if (loop.kind != CXCursor_ForStmt) return;
    CXCursor kids[4];
    unsigned n = ast_children(loop, kids, 4);
    if (n != 4) return;
    CXCursor init = kids[0], cond = kids[1], inc = kids[2];
    CXCursor var = clang_getNullCursor();
    long long start;
    if (init.kind == CXCursor_DeclStmt) {
        CXCursor vd = ast_child(init, 0);
        if (vd.kind != CXCursor_VarDecl || !clang_Cursor_isNull(ast_child(init, 1))) return;
        CXCursor iv = clang_Cursor_getVarDeclInitializer(vd);
        if (clang_Cursor_isNull(iv) || !ast_eval_int(iv, &start)) return;
        var = clang_getCanonicalCursor(vd);
    } else if (init.kind == CXCursor_BinaryOperator && ast_binop(init) == CXBinaryOperator_Assign) {
        var = canon_var(ast_child(init, 0));
        if (clang_Cursor_isNull(var) || !ast_eval_int(ast_child(init, 1), &start)) return;
    } else {
        return;
    }
    cond = ast_strip(cond);
    if (cond.kind != CXCursor_BinaryOperator) return;
    enum CXBinaryOperatorKind cop = ast_binop(cond);
    long long bound;
    bool var_left;
    if (clang_equalCursors(canon_var(ast_child(cond, 0)), var) && ast_eval_int(ast_child(cond, 1), &bound))
        var_left = true;
    else if (clang_equalCursors(canon_var(ast_child(cond, 1)), var) && ast_eval_int(ast_child(cond, 0), &bound))
        var_left = false;
    else
        return;
    /* step */
    inc = ast_strip(inc);
    int kind = 0; /* 1 add, 2 mul, 3 div, 4 shr, 5 shl */
    long long step = 0;
    if (inc.kind == CXCursor_UnaryOperator) {
        if (!clang_equalCursors(canon_var(ast_child(inc, 0)), var)) return;
        enum CXUnaryOperatorKind uo = ast_unop(inc);
        kind = 1;
        step = (uo == CXUnaryOperator_PostInc || uo == CXUnaryOperator_PreInc) ? 1 : -1;
    } else if (inc.kind == CXCursor_CompoundAssignOperator) {
        if (!clang_equalCursors(canon_var(ast_child(inc, 0)), var) || !ast_eval_int(ast_child(inc, 1), &step))
            return;
        switch (ast_binop(inc)) {
        case CXBinaryOperator_AddAssign: kind = 1; break;
        case CXBinaryOperator_SubAssign: kind = 1; step = -step; break;
        case CXBinaryOperator_MulAssign: kind = 2; break;
        case CXBinaryOperator_DivAssign: kind = 3; break;
        case CXBinaryOperator_ShrAssign: kind = 4; break;
        case CXBinaryOperator_ShlAssign: kind = 5; break;
        default: return;
        }
    } else {
        return;
    }
    long long v = start;
    for (unsigned k = 0; k <= MAX_LOOP_VALUES; k++) {
        bool go;
        long long a = var_left ? v : bound, b = var_left ? bound : v;
        switch (cop) {
        case CXBinaryOperator_LT: go = a < b; break;
        case CXBinaryOperator_LE: go = a <= b; break;
        case CXBinaryOperator_GT: go = a > b; break;
        case CXBinaryOperator_GE: go = a >= b; break;
        case CXBinaryOperator_NE: go = a != b; break;
        default: return;
        }
        if (!go) {
            L->var = var;
            L->enumerable = L->n_values > 0;
            return;
        }
        if (k == MAX_LOOP_VALUES) return;
        L->values[L->n_values++] = v;
        long long nv = v;
        switch (kind) {
        case 1: nv = v + step; break;
        case 2: nv = v * step; break;
        case 3: nv = step ? v / step : v; break;
        case 4: nv = (step >= 0 && step < 63) ? v >> step : v; break;
        case 5: nv = (step >= 0 && step < 32) ? v << step : v; break;
        }
        if (nv == v) return;
        v = nv;
    }
}

static int loop_of_node(struct shared_model *m, int node)
{
    for (size_t i = 0; i < m->n_loops; i++)
        if (m->loops[i].node == node) return (int)i;
    GROW(m->loops, m->n_loops, m->cap_loops, 8);
    struct loopinfo *L = &m->loops[m->n_loops];
    memset(L, 0, sizeof *L);
    L->node = node;
    read_loop(L, m->nodes[node].c);
    return (int)m->n_loops++;
}

/* The conditions and loops around an access, up to the function. */
static void context_of(struct shared_model *m, struct access *a)
{
    a->conds_ok = a->loops_ok = true;
    int child = a->node;
    for (int p = m->nodes[a->node].parent; p >= 0; child = p, p = m->nodes[p].parent) {
        CXCursor pc = m->nodes[p].c;
        CXCursor kids[4];
        unsigned n = ast_children(pc, kids, 4);
        int ci = -1;
        for (unsigned i = 0; i < n; i++)
            if (clang_equalCursors(kids[i], m->nodes[child].c)) ci = (int)i;
        switch (pc.kind) {
        case CXCursor_IfStmt:
            if (ci >= 1 && n >= 2 && kids[0].kind != CXCursor_DeclStmt) {
                if (a->n_conds == MAX_CONDS) a->conds_ok = false;
                else a->conds[a->n_conds++] = (struct cond){kids[0], ci == 1};
            } else if (ci >= 1) {
                a->conds_ok = false;
            }
            break;
        case CXCursor_ConditionalOperator:
            if (ci >= 1) {
                if (a->n_conds == MAX_CONDS) a->conds_ok = false;
                else a->conds[a->n_conds++] = (struct cond){kids[0], ci == 1};
            }
            break;
        case CXCursor_BinaryOperator: {
            enum CXBinaryOperatorKind op = ast_binop(pc);
            if ((op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) && ci == 1) {
                if (a->n_conds == MAX_CONDS) a->conds_ok = false;
                else a->conds[a->n_conds++] = (struct cond){kids[0], op == CXBinaryOperator_LAnd};
            }
            break;
        }
        case CXCursor_SwitchStmt:
        case CXCursor_CaseStmt:
            a->conds_ok = false;
            break;
        case CXCursor_ForStmt:
        case CXCursor_WhileStmt:
        case CXCursor_DoStmt:
        case CXCursor_CXXForRangeStmt: {
            int li = loop_of_node(m, p);
            if (a->n_loops == MAX_LOOPS) a->loops_ok = false;
            else a->loops[a->n_loops++] = li;
            /* A loop whose trip count is thread-dependent decides which
               threads get here. */
            if (!m->loops[li].enumerable) {
                for (unsigned i = 0; i < n; i++) {
                    if (i == n - 1 && pc.kind != CXCursor_DoStmt) continue;
                    if (pc.kind == CXCursor_DoStmt && i == 0) continue;
                    if (uniformity_expr_varies(m->u, kids[i], NULL)) a->conds_ok = false;
                }
            }
            break;
        }
        default:
            break;
        }
    }
    /* Early returns before the access, in the function's top-level block:
       `if (cond) return;` keeps the threads where cond is false. */
    CXCursor body = clang_getNullCursor();
    int body_node = -1;
    for (size_t i = 1; i < m->n_nodes; i++)
        if (m->nodes[i].parent == 0 && m->nodes[i].c.kind == CXCursor_CompoundStmt) {
            body = m->nodes[i].c;
            body_node = (int)i;
        }
    if (body_node < 0) return;
    (void)body;
    for (size_t i = 0; i < m->n_nodes; i++) {
        if (m->nodes[i].c.kind != CXCursor_ReturnStmt || m->nodes[i].pos >= a->pos_read) continue;
        /* return directly under an if at the top level */
        int p = up(m, (int)i);
        if (p >= 0 && m->nodes[p].c.kind == CXCursor_CompoundStmt) p = up(m, p);
        if (p >= 0 && m->nodes[p].c.kind == CXCursor_IfStmt && m->nodes[p].parent == body_node) {
            CXCursor kids[3];
            unsigned n = ast_children(m->nodes[p].c, kids, 3);
            if (n == 2) {
                if (a->n_conds == MAX_CONDS) a->conds_ok = false;
                else a->conds[a->n_conds++] = (struct cond){kids[0], false};
                continue;
            }
        }
        /* any other earlier return: which threads left is not modelled */
        int q = (int)i;
        bool in_lambda = false;
        for (; q > 0; q = m->nodes[q].parent)
            if (m->nodes[q].c.kind == CXCursor_LambdaExpr) in_lambda = true;
        if (!in_lambda && !is_loop_kind(m->nodes[i].c.kind)) {
            if (uniformity_control_varies(m->u, m->nodes[i].c, NULL)) a->conds_ok = false;
        }
    }
}

static void count_assign(struct shared_model *m, CXCursor target)
{
    CXCursor v = canon_var(target);
    if (clang_Cursor_isNull(v)) return;
    for (size_t i = 0; i < m->n_vdefs; i++)
        if (clang_equalCursors(m->vdefs[i].var, v)) {
            m->vdefs[i].assigns++;
            return;
        }
    GROW(m->vdefs, m->n_vdefs, m->cap_vdefs, 16);
    m->vdefs[m->n_vdefs].var = v;
    m->vdefs[m->n_vdefs++].assigns = 1;
}

static int assigns_of(const struct shared_model *m, CXCursor v)
{
    for (size_t i = 0; i < m->n_vdefs; i++)
        if (clang_equalCursors(m->vdefs[i].var, v)) return m->vdefs[i].assigns;
    return 0;
}

static void collect(struct shared_model *m)
{
    for (size_t i = 0; i < m->n_nodes; i++) {
        CXCursor c = m->nodes[i].c;
        if ((c.kind == CXCursor_BinaryOperator && ast_binop(c) == CXBinaryOperator_Assign) ||
            c.kind == CXCursor_CompoundAssignOperator)
            count_assign(m, ast_child(c, 0));
        else if (c.kind == CXCursor_UnaryOperator) {
            enum CXUnaryOperatorKind uo = ast_unop(c);
            if (uo == CXUnaryOperator_PostInc || uo == CXUnaryOperator_PreInc || uo == CXUnaryOperator_PostDec ||
                uo == CXUnaryOperator_PreDec || uo == CXUnaryOperator_AddrOf)
                count_assign(m, ast_child(c, 0));
        }
        if (c.kind == CXCursor_CallExpr) {
            struct barrier_info bi;
            char *name = ast_spelling(c);
            bool warp = !strcmp(name, "__syncwarp");
            bool block = !warp && uniformity_call_barrier(m->u, c, &bi);
            if (!warp && !block && !strcmp(name, "sync")) {
                /* cooperative groups: g.sync() or cg::sync(g) on a group the
                   barrier recogniser does not call block-wide.  A tile or a
                   coalesced group orders the lanes of a warp; a group of
                   unknown kind (thread_group) may be the block. */
                CXCursor g = clang_Cursor_getNumArguments(c) > 0 ? clang_Cursor_getArgument(c, 0) : ast_child(ast_child(c, 0), 0);
                CXString ts = clang_getTypeSpelling(clang_getCursorType(g));
                const char *tn = clang_getCString(ts);
                if (tn && (strstr(tn, "tile") || strstr(tn, "coalesced"))) warp = true;
                else block = true;
                clang_disposeString(ts);
            }
            free(name);
            if (warp || block) {
                GROW(m->syncs, m->n_syncs, m->cap_syncs, 8);
                m->syncs[m->n_syncs++] = (struct sync){m->nodes[i].pos, block};
            }
            continue;
        }
        if (c.kind != CXCursor_ArraySubscriptExpr) continue;
        /* the outermost subscript only */
        int p = up(m, (int)i);
        if (p >= 0 && m->nodes[p].c.kind == CXCursor_ArraySubscriptExpr) {
            /* Is this subscript the base of the parent one? */
            CXCursor pb = ast_strip(ast_child(m->nodes[p].c, 0));
            if (clang_equalCursors(pb, c)) continue;
        }
        CXCursor b0 = ast_strip(ast_child(c, 0));
        CXCursor idx[2];
        unsigned ni = 0;
        CXCursor basecur;
        if (b0.kind == CXCursor_ArraySubscriptExpr) {
            basecur = ast_strip(ast_child(b0, 0));
            idx[0] = ast_child(b0, 1);
            idx[1] = ast_child(c, 1);
            ni = 2;
        } else {
            basecur = b0;
            idx[0] = ast_child(c, 1);
            ni = 1;
        }
        int bi = base_of(m, basecur);
        if (bi < 0) continue;
        struct access a;
        memset(&a, 0, sizeof a);
        a.expr = c;
        a.base = m->tracked[bi].target;
        a.n_index = ni;
        a.index[0] = idx[0];
        a.index[1] = ni == 2 ? idx[1] : clang_getNullCursor();
        CXType t = clang_getCanonicalType(clang_getCursorType(a.base));
        if (t.kind == CXType_ConstantArray) {
            a.extent0 = clang_getArraySize(t);
            CXType e = clang_getCanonicalType(clang_getArrayElementType(t));
            if (ni == 2) {
                if (e.kind != CXType_ConstantArray) continue;
                a.inner = clang_getArraySize(e);
            }
        } else if (ni == 2) {
            continue;
        }
        if (!clang_equalCursors(a.base, clang_getCanonicalCursor(clang_getCursorReferenced(basecur))))
            a.extent0 = 0; /* through an alias: extents unknown */
        /* read or write, from the parent */
        int q = up(m, (int)i);
        CXCursor pc = q >= 0 ? m->nodes[q].c : clang_getNullCursor();
        a.read = true;
        a.pos_read = m->nodes[i].pos;
        if (q >= 0 && pc.kind == CXCursor_BinaryOperator && ast_binop(pc) == CXBinaryOperator_Assign &&
            clang_equalCursors(ast_strip(ast_child(pc, 0)), c)) {
            a.read = false;
            a.write = true;
            a.pos_write = m->nodes[q].end;
        } else if (q >= 0 && pc.kind == CXCursor_CompoundAssignOperator &&
                   clang_equalCursors(ast_strip(ast_child(pc, 0)), c)) {
            a.write = true;
            a.pos_write = m->nodes[q].end;
        } else if (q >= 0 && pc.kind == CXCursor_UnaryOperator) {
            enum CXUnaryOperatorKind uo = ast_unop(pc);
            if (uo == CXUnaryOperator_AddrOf) continue; /* atomics, pointers: not modelled */
            if (uo == CXUnaryOperator_PostInc || uo == CXUnaryOperator_PreInc ||
                uo == CXUnaryOperator_PostDec || uo == CXUnaryOperator_PreDec) {
                a.write = true;
                a.pos_write = m->nodes[q].end;
            }
        } else if (q >= 0 && (pc.kind == CXCursor_MemberRefExpr || pc.kind == CXCursor_CallExpr)) {
            /* a field, or passed by reference: not modelled */
            if (pc.kind == CXCursor_MemberRefExpr) continue;
            CXType at = clang_getCursorType(c);
            (void)at;
        }
        a.node = (int)i;
        context_of(m, &a);
        GROW(m->acc, m->n_acc, m->cap_acc, 16);
        m->acc[m->n_acc++] = a;
    }
}

struct shared_model *shared_model_new(CXTranslationUnit tu, CXCursor fn, struct uniformity *u,
                                      const struct launch_info *li, shared_affine_fn affine,
                                      void *affine_data)
{
    struct shared_model *m = xcalloc(1, sizeof *m);
    m->tu = tu;
    m->fn = fn;
    m->u = u;
    m->li = li && li->known && li->n_shapes > 0 ? li : NULL;
    m->affine = affine;
    m->affine_data = affine_data;
    GROW(m->nodes, m->n_nodes, m->cap_nodes, 256);
    m->nodes[m->n_nodes++] = (struct node){fn, -1, m->counter++, 0};
    struct visit v = {m, 0};
    clang_visitChildren(fn, visit_cb, &v);
    m->nodes[0].end = m->counter++;
    collect(m);
    m->warp = warp_view_new(tu, fn, u, m->li);
    return m;
}

void shared_model_free(struct shared_model *m)
{
    if (!m) return;
    free(m->nodes);
    free(m->tracked);
    free(m->acc);
    free(m->syncs);
    free(m->loops);
    free(m->races);
    free(m->ix);
    free(m->compiled);
    free(m->vdefs);
    warp_view_free(m->warp);
    free(m);
}

/* ------------------------------------------------------------ deciding */

static bool changes_in_loop(const struct shared_model *m, int loop, CXCursor var);

/* An index as coefficients over threads and loop counters; symbols of
   unknown value kept for cancelling. */
struct form {
    long long c;
    long long t[3];
    CXCursor sym[AFFINE_MAX_SYMBOLS * 2];
    long long k[AFFINE_MAX_SYMBOLS * 2];
    unsigned n;
};

static CXCursor sym_key(CXCursor s)
{
    CXCursor v = canon_var(s);
    return clang_Cursor_isNull(v) ? s : v;
}

static void form_add(struct form *f, CXCursor s, long long k)
{
    s = sym_key(s);
    for (unsigned i = 0; i < f->n; i++)
        if (clang_equalCursors(f->sym[i], s)) {
            f->k[i] += k;
            return;
        }
    if (f->n < AFFINE_MAX_SYMBOLS * 2) {
        f->sym[f->n] = s;
        f->k[f->n++] = k;
    }
}

static int loop_for_symbol(const struct shared_model *m, const struct access *a, CXCursor s);

/* Adds scale * e to f: loop counters of the loops around the access are
   read here (the thread-dependence analysis may call a counter varying when
   its loop sits under a thread-dependent branch); the rest through the
   caller's affine forms. */
static bool form_expr(struct shared_model *m, const struct access *a, CXCursor e, long long scale,
                      struct form *f, int depth)
{
    e = ast_strip(e);
    if (depth < 8) {
        CXCursor v = canon_var(e);
        if (!clang_Cursor_isNull(v) && loop_for_symbol(m, a, v) >= 0) {
            form_add(f, v, scale);
            return true;
        }
        if (e.kind == CXCursor_BinaryOperator) {
            enum CXBinaryOperatorKind op = ast_binop(e);
            CXCursor l = ast_child(e, 0), r = ast_child(e, 1);
            long long k;
            if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) {
                struct form g = *f;
                if (form_expr(m, a, l, scale, &g, depth + 1) &&
                    form_expr(m, a, r, op == CXBinaryOperator_Add ? scale : -scale, &g, depth + 1)) {
                    *f = g;
                    return true;
                }
            } else if (op == CXBinaryOperator_Mul && ast_eval_int(r, &k)) {
                return form_expr(m, a, l, scale * k, f, depth + 1);
            } else if (op == CXBinaryOperator_Mul && ast_eval_int(l, &k)) {
                return form_expr(m, a, r, scale * k, f, depth + 1);
            }
        }
    }
    struct affine af;
    if (!m->affine(m->affine_data, e, &af)) return false;
    if (af.more_uniform || af.warp_relative || af.n_symbols > AFFINE_MAX_SYMBOLS) return false;
    f->c += af.constant * scale;
    for (int i = 0; i < 3; i++) f->t[i] += af.tid[i] * scale;
    for (unsigned i = 0; i < af.n_symbols; i++) form_add(f, af.symbol[i], af.coeff[i] * scale);
    return true;
}

static bool form_of(struct shared_model *m, const struct access *a, struct form *f)
{
    memset(f, 0, sizeof *f);
    for (unsigned d = 0; d < a->n_index; d++) {
        long long scale = (a->n_index == 2 && d == 0) ? a->inner : 1;
        if (!form_expr(m, a, a->index[d], scale, f, 0)) return false;
    }
    return true;
}

/* Which loop (index into m->loops) has this counter, among those around a. */
static int loop_for_symbol(const struct shared_model *m, const struct access *a, CXCursor s)
{
    for (unsigned i = 0; i < a->n_loops; i++) {
        const struct loopinfo *L = &m->loops[a->loops[i]];
        if (L->enumerable && clang_equalCursors(L->var, s)) return a->loops[i];
    }
    return -1;
}

/* ---- conditions, per thread ---- */

struct env {
    long long t[3];
    const struct shared_model *m;
    const int *loop_ids;     /* loops with a value */
    const long long *loop_vals;
    unsigned n;
};

static bool env_value(const struct env *e, CXCursor sym, long long *v)
{
    for (unsigned i = 0; i < e->n; i++)
        if (clang_equalCursors(e->m->loops[e->loop_ids[i]].var, sym)) {
            *v = e->loop_vals[i];
            return true;
        }
    return false;
}

/* 1 true, 0 false, -1 unknown */
static int eval_cond(struct shared_model *m, CXCursor c, const struct env *e, int depth)
{
    if (depth > 8) return -1;
    c = ast_strip(c);
    if (c.kind == CXCursor_UnaryOperator && ast_unop(c) == CXUnaryOperator_LNot) {
        int r = eval_cond(m, ast_child(c, 0), e, depth + 1);
        return r < 0 ? -1 : !r;
    }
    if (c.kind != CXCursor_BinaryOperator) return -1;
    enum CXBinaryOperatorKind op = ast_binop(c);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
        int x = eval_cond(m, ast_child(c, 0), e, depth + 1);
        int y = eval_cond(m, ast_child(c, 1), e, depth + 1);
        if (op == CXBinaryOperator_LAnd) return (x == 0 || y == 0) ? 0 : (x < 0 || y < 0) ? -1 : 1;
        return (x == 1 || y == 1) ? 1 : (x < 0 || y < 0) ? -1 : 0;
    }
    if (op < CXBinaryOperator_LT || op > CXBinaryOperator_NE) return -1;
    struct affine l, r;
    if (!m->affine(m->affine_data, ast_child(c, 0), &l) || !m->affine(m->affine_data, ast_child(c, 1), &r))
        return -1;
    if (l.more_uniform || r.more_uniform || l.warp_relative || r.warp_relative) return -1;
    long long d = l.constant - r.constant;
    for (int i = 0; i < 3; i++) d += (l.tid[i] - r.tid[i]) * e->t[i];
    struct form f = {0};
    for (unsigned i = 0; i < l.n_symbols; i++) form_add(&f, l.symbol[i], l.coeff[i]);
    for (unsigned i = 0; i < r.n_symbols; i++) form_add(&f, r.symbol[i], -r.coeff[i]);
    for (unsigned i = 0; i < f.n; i++) {
        if (f.k[i] == 0) continue;
        long long v;
        if (!env_value(e, f.sym[i], &v)) return -1;
        d += f.k[i] * v;
    }
    switch (op) {
    case CXBinaryOperator_LT: return d < 0;
    case CXBinaryOperator_GT: return d > 0;
    case CXBinaryOperator_LE: return d <= 0;
    case CXBinaryOperator_GE: return d >= 0;
    case CXBinaryOperator_EQ: return d == 0;
    case CXBinaryOperator_NE: return d != 0;
    default: return -1;
    }
}

/* ---- the interpreter: integer expressions over thread indices, block
   extents (the enumerated shape), loop counters and constants, with local
   variables that are assigned once read through their initialisers ---- */

static int ix_new(struct shared_model *m, int op, int sub, long long v, int a, int b, int c, CXCursor var)
{
    GROW(m->ix, m->n_ix, m->cap_ix, 64);
    m->ix[m->n_ix] = (struct iexpr){op, sub, v, a, b, c, var};
    return (int)m->n_ix++;
}

static int ix_compile(struct shared_model *m, CXCursor e, int depth)
{
    if (depth > 16) return -1;
    e = ast_strip(e);
    if (clang_Cursor_isNull(e)) return -1;
    long long v;
    if (e.kind != CXCursor_CallExpr && clang_isExpression(e.kind) && ast_eval_int(e, &v))
        return ix_new(m, I_CONST, 0, v, -1, -1, -1, clang_getNullCursor());
    int comp;
    enum affine_builtin b = affine_builtin_member(m->tu, e, &comp);
    if (b == AFFINE_THREADIDX) return ix_new(m, I_TID, comp, 0, -1, -1, -1, clang_getNullCursor());
    if (b == AFFINE_BLOCKDIM) return ix_new(m, I_BDIM, comp, 0, -1, -1, -1, clang_getNullCursor());
    if (b != AFFINE_NOT_BUILTIN) return -1;
    switch (e.kind) {
    case CXCursor_DeclRefExpr: {
        char *name = ast_spelling(e);
        bool ws = !strcmp(name, "warpSize");
        free(name);
        if (ws) return ix_new(m, I_CONST, 0, 32, -1, -1, -1, clang_getNullCursor());
        CXCursor var = canon_var(e);
        if (clang_Cursor_isNull(var)) return -1;
        if (assigns_of(m, var) == 0) {
            CXCursor init = clang_Cursor_getVarDeclInitializer(clang_getCursorReferenced(e));
            if (clang_Cursor_isNull(init)) return -1;
            return ix_compile(m, init, depth + 1);
        }
        return ix_new(m, I_LOOP, 0, 0, -1, -1, -1, var);
    }
    case CXCursor_BinaryOperator: {
        int a = ix_compile(m, ast_child(e, 0), depth + 1);
        if (a < 0) return -1;
        int c = ix_compile(m, ast_child(e, 1), depth + 1);
        if (c < 0) return -1;
        return ix_new(m, I_BIN, (int)ast_binop(e), 0, a, c, -1, clang_getNullCursor());
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind uo = ast_unop(e);
        int a = ix_compile(m, ast_child(e, 0), depth + 1);
        if (a < 0) return -1;
        if (uo == CXUnaryOperator_Plus) return a;
        if (uo == CXUnaryOperator_Minus) return ix_new(m, I_NEG, 0, 0, a, -1, -1, clang_getNullCursor());
        if (uo == CXUnaryOperator_LNot) return ix_new(m, I_LNOT, 0, 0, a, -1, -1, clang_getNullCursor());
        if (uo == CXUnaryOperator_Not) return ix_new(m, I_BNOT, 0, 0, a, -1, -1, clang_getNullCursor());
        return -1;
    }
    case CXCursor_ConditionalOperator: {
        CXCursor k[3];
        if (ast_children(e, k, 3) != 3) return -1;
        int a = ix_compile(m, k[0], depth + 1), bb = ix_compile(m, k[1], depth + 1), c = ix_compile(m, k[2], depth + 1);
        if (a < 0 || bb < 0 || c < 0) return -1;
        return ix_new(m, I_COND, 0, 0, a, bb, c, clang_getNullCursor());
    }
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        CXCursor k[4];
        unsigned n = ast_children(e, k, 4);
        if (!n) return -1;
        CXType t = clang_getCanonicalType(clang_getCursorType(e));
        if (!ast_is_integer_kind(t.kind)) return -1;
        return ix_compile(m, k[n - 1], depth + 1);
    }
    default:
        return -1;
    }
}

/* The compiled root of an expression, -1 when it cannot be interpreted. */
static int ix_of(struct shared_model *m, CXCursor e)
{
    for (size_t i = 0; i < m->n_compiled; i++)
        if (clang_equalCursors(m->compiled[i].key, e)) return m->compiled[i].root;
    int root = ix_compile(m, e, 0);
    GROW(m->compiled, m->n_compiled, m->cap_compiled, 16);
    m->compiled[m->n_compiled].key = e;
    m->compiled[m->n_compiled++].root = root;
    return root;
}

static bool env_value(const struct env *e, CXCursor sym, long long *v);
static _Thread_local long long block_[3]; /* the block shape being enumerated (per worker thread) */
static _Thread_local bool block_guessed_;

static long long ix_eval(const struct shared_model *m, int i, const struct env *e, bool *ok)
{
    if (!*ok || i < 0) {
        *ok = false;
        return 0;
    }
    const struct iexpr *x = &m->ix[i];
    switch (x->op) {
    case I_CONST: return x->v;
    case I_TID: return e->t[x->sub];
    case I_BDIM: return block_[x->sub];
    case I_LOOP: {
        long long v;
        if (!env_value(e, x->var, &v)) *ok = false;
        return *ok ? v : 0;
    }
    case I_NEG: return -ix_eval(m, x->a, e, ok);
    case I_LNOT: return !ix_eval(m, x->a, e, ok);
    case I_BNOT: return ~ix_eval(m, x->a, e, ok);
    case I_COND: return ix_eval(m, x->a, e, ok) ? ix_eval(m, x->b, e, ok) : ix_eval(m, x->c, e, ok);
    case I_BIN: {
        enum CXBinaryOperatorKind op = (enum CXBinaryOperatorKind)x->sub;
        long long a = ix_eval(m, x->a, e, ok);
        if (op == CXBinaryOperator_LAnd && *ok && !a) return 0;
        if (op == CXBinaryOperator_LOr && *ok && a) return 1;
        long long b = ix_eval(m, x->b, e, ok);
        if (!*ok) return 0;
        switch (op) {
        case CXBinaryOperator_Add: return a + b;
        case CXBinaryOperator_Sub: return a - b;
        case CXBinaryOperator_Mul: return a * b;
        case CXBinaryOperator_Div: if (!b) { *ok = false; return 0; } return a / b;
        case CXBinaryOperator_Rem: if (!b) { *ok = false; return 0; } return a % b;
        case CXBinaryOperator_And: return a & b;
        case CXBinaryOperator_Or: return a | b;
        case CXBinaryOperator_Xor: return a ^ b;
        case CXBinaryOperator_Shl: if (b < 0 || b > 62) { *ok = false; return 0; } return a << b;
        case CXBinaryOperator_Shr: if (b < 0 || b > 62) { *ok = false; return 0; } return a >> b;
        case CXBinaryOperator_LT: return a < b;
        case CXBinaryOperator_GT: return a > b;
        case CXBinaryOperator_LE: return a <= b;
        case CXBinaryOperator_GE: return a >= b;
        case CXBinaryOperator_EQ: return a == b;
        case CXBinaryOperator_NE: return a != b;
        case CXBinaryOperator_LAnd: return a && b;
        case CXBinaryOperator_LOr: return a || b;
        case CXBinaryOperator_Comma: return b;
        default: *ok = false; return 0;
        }
    }
    default:
        *ok = false;
        return 0;
    }
}

static bool ix_has_tid(const struct shared_model *m, int i)
{
    if (i < 0) return false;
    const struct iexpr *x = &m->ix[i];
    if (x->op == I_TID) return true;
    return ix_has_tid(m, x->a) || ix_has_tid(m, x->b) || ix_has_tid(m, x->c);
}

/* Does the access run in this thread (with these loop values)?  -1 unknown. */
static int active(struct shared_model *m, const struct access *a, const struct env *e)
{
    for (unsigned i = 0; i < a->n_conds; i++) {
        const struct cond *c = &a->conds[i];
        int root = ix_of(m, c->expr);
        int r = -1;
        if (root >= 0) {
            bool ok = true;
            long long v = ix_eval(m, root, e, &ok);
            if (ok) r = v != 0;
        }
        if (r < 0 && !uniformity_expr_varies(m->u, c->expr, NULL)) continue; /* the same in every thread */
        if (r < 0) r = eval_cond(m, c->expr, e, 0);
        if (r < 0 && m->warp && warp_expr_class(m->warp, c->expr) <= WARP_WARP_UNIFORM) {
            /* The same in every lane of a warp: whichever warps run the
               access, lanes of one warp agree.  Good for pairs within a
               warp only. */
            m->assumed_warp = true;
            continue;
        }
        if (r < 0) return -1;
        if (r != (int)c->polarity) return 0;
    }
    return 1;
}

/* ---- enumeration ---- */

struct slot {
    long long addr;
    /* linear ids of threads of the first side at this address, -1 none:
       the first one, another of its warp, one of another warp, and another
       of that warp (enough to see a conflict within a warp and one across
       warps wherever both exist) */
    int t[4];
    bool used;
};

struct table {
    struct slot *s;
    size_t size;
};

static struct slot *slot_get(struct table *t, long long addr)
{
    size_t h = (size_t)(addr * 0x9E3779B97F4A7C15ULL) & (t->size - 1);
    while (t->s[h].used && t->s[h].addr != addr) h = (h + 1) & (t->size - 1);
    if (!t->s[h].used) {
        t->s[h].used = true;
        t->s[h].addr = addr;
        for (int k = 0; k < 4; k++) t->s[h].t[k] = -1;
    }
    return &t->s[h];
}

struct pairing {
    const struct access *x, *y; /* x first, y second */
    int shared_loops[MAX_LOOPS]; unsigned n_shared;   /* same value in both */
    int carried;                                       /* loop index whose next value y sees, or -1 */
    int across;                                        /* loop node crossed by the back edge, or -1 */
    int own_x[MAX_LOOPS]; unsigned n_own_x;            /* only around x */
    int own_y[MAX_LOOPS]; unsigned n_own_y;
};

static void lin_to_t(long long lin, long long t[3])
{
    t[0] = lin % block_[0];
    t[1] = (lin / block_[0]) % block_[1];
    t[2] = lin / (block_[0] * block_[1]);
}

static long long addr_of(const struct form *f, const long long t[3], const struct env *e, bool *ok)
{
    long long a = f->c + f->t[0] * t[0] + f->t[1] * t[1] + f->t[2] * t[2];
    for (unsigned i = 0; i < f->n; i++) {
        if (f->k[i] == 0) continue;
        long long v;
        if (!env_value(e, f->sym[i], &v)) {
            *ok = false;
            return 0;
        }
        a += f->k[i] * v;
    }
    return a;
}

/* Fills one access's side of the table (or looks it up); returns false on
   an undecided condition. */
static bool run_side(struct shared_model *m, const struct access *a, const struct form *f, int croot,
                     struct table *tab, bool lookup, int *ids, long long *vals, unsigned nfixed, const int *own, unsigned n_own,
                     struct shared_race *r, bool *found)
{
    /* enumerate own loop values (odometer) */
    unsigned idx[MAX_LOOPS] = {0};
    unsigned combos = 0;
    long long nthreads = block_[0] * block_[1] * block_[2];
    for (;;) {
        for (unsigned i = 0; i < n_own; i++) {
            ids[nfixed + i] = own[i];
            vals[nfixed + i] = m->loops[own[i]].values[idx[i]];
        }
        struct env e = {{0, 0, 0}, m, ids, vals, nfixed + n_own};
        for (long long lin = 0; lin < nthreads; lin++) {
            lin_to_t(lin, e.t);
            int act = active(m, a, &e);
            if (act < 0) return false;
            if (!act) continue;
            bool ok = true;
            long long ad = croot >= 0 ? ix_eval(m, croot, &e, &ok) : addr_of(f, e.t, &e, &ok);
            if (!ok) return false;
            if (!lookup) {
                struct slot *s = slot_get(tab, ad);
                int me = (int)lin;
                if (s->t[0] < 0) s->t[0] = me;
                else if (me != s->t[0] && me / 32 == s->t[0] / 32) {
                    if (s->t[1] < 0) s->t[1] = me;
                } else if (me / 32 != s->t[0] / 32) {
                    if (s->t[2] < 0) s->t[2] = me;
                    else if (me != s->t[2] && me / 32 == s->t[2] / 32 && s->t[3] < 0) s->t[3] = me;
                }
            } else {
                size_t h = (size_t)(ad * 0x9E3779B97F4A7C15ULL) & (tab->size - 1);
                while (tab->s[h].used && tab->s[h].addr != ad) h = (h + 1) & (tab->size - 1);
                if (!tab->s[h].used) continue;
                for (int k = 0; k < 4; k++) {
                    int other = tab->s[h].t[k];
                    if (other < 0 || other == (int)lin) continue;
                    bool same = other / 32 == (int)(lin / 32);
                    if (same && !r->same_warp) {
                        r->same_warp = true;
                        if (!r->cross_warp) {
                            long long t1[3];
                            lin_to_t(other, t1);
                            for (int q = 0; q < 3; q++) r->t_first[q] = (int)t1[q], r->t_second[q] = (int)e.t[q];
                        }
                    }
                    if (!same && !r->cross_warp) {
                        r->cross_warp = true;
                        long long t1[3];
                        lin_to_t(other, t1);
                        for (int q = 0; q < 3; q++) r->t_first[q] = (int)t1[q], r->t_second[q] = (int)e.t[q];
                    }
                    *found = true;
                }
            }
        }
        if (++combos > MAX_COMBOS) return false;
        unsigned i = 0;
        for (; i < n_own; i++) {
            if (++idx[i] < m->loops[own[i]].n_values) break;
            idx[i] = 0;
        }
        if (i == n_own) break;
    }
    return true;
}

/* The interpreted flat index of an access, or -1. */
static int index_root(struct shared_model *m, const struct access *a)
{
    int r0 = ix_of(m, a->index[0]);
    if (r0 < 0 || a->n_index == 1) return r0;
    int r1 = ix_of(m, a->index[1]);
    if (r1 < 0) return -1;
    int k = ix_new(m, I_CONST, 0, a->inner, -1, -1, -1, clang_getNullCursor());
    int mul = ix_new(m, I_BIN, CXBinaryOperator_Mul, 0, r0, k, -1, clang_getNullCursor());
    return ix_new(m, I_BIN, CXBinaryOperator_Add, 0, mul, r1, -1, clang_getNullCursor());
}

static bool decide(struct shared_model *m, const struct pairing *p, struct shared_race *r)
{
    struct form fx, fy;
    int cx = -1, cy = -1;
    if (!p->x->conds_ok || !p->y->conds_ok || !p->x->loops_ok || !p->y->loops_ok) return false;
    m->assumed_warp = false;
    if (!form_of(m, p->x, &fx) || !form_of(m, p->y, &fy)) {
        /* Not affine (t & 31, lane ^ 1): interpreted, when every value in
           them is known. */
        cx = index_root(m, p->x);
        cy = index_root(m, p->y);
        if (cx < 0 || cy < 0) return false;
        if (!ix_has_tid(m, cx) && !ix_has_tid(m, cy)) return false;
        memset(&fx, 0, sizeof fx);
        memset(&fy, 0, sizeof fy);
    }
    /* Thread-independent accesses by every thread are broadcasts or
       same-value stores: leave them to other rules. */
    bool tx = fx.t[0] || fx.t[1] || fx.t[2], ty = fy.t[0] || fy.t[1] || fy.t[2];
    if (cx < 0 && !tx && !ty) return false;
    /* Symbols: loop counters with values, or cancelling between the two. */
    for (unsigned i = 0; i < fx.n; i++) {
        if (!fx.k[i]) continue;
        if (loop_for_symbol(m, p->x, fx.sym[i]) >= 0) continue;
        bool cancels = false;
        for (unsigned j = 0; j < fy.n; j++)
            if (clang_equalCursors(fx.sym[i], fy.sym[j]) && fy.k[j] == fx.k[i] &&
                loop_for_symbol(m, p->y, fy.sym[j]) < 0)
                cancels = true;
        if (!cancels) return false;
        if (p->across >= 0 && changes_in_loop(m, p->across, fx.sym[i])) return false;
        for (unsigned j = 0; j < fy.n; j++)
            if (clang_equalCursors(fx.sym[i], fy.sym[j])) fy.k[j] = 0;
        fx.k[i] = 0;
    }
    for (unsigned j = 0; j < fy.n; j++)
        if (fy.k[j] && loop_for_symbol(m, p->y, fy.sym[j]) < 0) return false;

    /* shared loop values (odometer over shared loops and the carried one) */
    int ids[3 * MAX_LOOPS + 1];
    long long vals[3 * MAX_LOOPS + 1];
    unsigned idx[MAX_LOOPS + 1] = {0};
    unsigned nsh = p->n_shared;
    int sh[MAX_LOOPS + 1];
    for (unsigned i = 0; i < nsh; i++) sh[i] = p->shared_loops[i];
    bool found = false;
    struct table tab;
    tab.size = 1;
    while (tab.size < 4 * MAX_THREADS * 4) tab.size *= 2;
    tab.s = xcalloc(tab.size, sizeof *tab.s);
    bool ok = true;
    unsigned combos = 0;
    int carried = p->carried;
    unsigned carried_steps = carried >= 0 ? m->loops[carried].n_values - 1 : 1;
    if (carried >= 0 && !m->loops[carried].enumerable) ok = false;
    for (unsigned cs = 0; ok && cs < carried_steps && !(r->same_warp && r->cross_warp); cs++) {
        memset(idx, 0, sizeof idx);
        for (;;) {
            for (unsigned i = 0; i < nsh; i++) {
                ids[i] = sh[i];
                vals[i] = m->loops[sh[i]].values[idx[i]];
            }
            unsigned nf = nsh;
            memset(tab.s, 0, tab.size * sizeof *tab.s);
            if (carried >= 0) {
                ids[nf] = carried;
                vals[nf] = m->loops[carried].values[cs];
            }
            if (!run_side(m, p->x, &fx, cx, &tab, false, ids, vals, nf + (carried >= 0), p->own_x, p->n_own_x, r,
                          &found)) {
                ok = false;
                break;
            }
            if (carried >= 0) vals[nf] = m->loops[carried].values[cs + 1];
            if (!run_side(m, p->y, &fy, cy, &tab, true, ids, vals, nf + (carried >= 0), p->own_y, p->n_own_y, r,
                          &found)) {
                ok = false;
                break;
            }
            if ((r->same_warp && r->cross_warp) || ++combos > MAX_COMBOS) break;
            unsigned i = 0;
            for (; i < nsh; i++) {
                if (++idx[i] < m->loops[sh[i]].n_values) break;
                idx[i] = 0;
            }
            if (i == nsh) break;
        }
    }
    free(tab.s);
    if (ok && found && m->assumed_warp) {
        /* conditions taken as true per warp: only pairs within a warp hold */
        r->cross_warp = false;
        found = r->same_warp;
    }
    return ok && found;
}

/* Is there a barrier with a position in (lo, hi)? */
static bool sync_between(const struct shared_model *m, unsigned lo, unsigned hi, bool block_only)
{
    for (size_t i = 0; i < m->n_syncs; i++)
        if (m->syncs[i].pos > lo && m->syncs[i].pos < hi && (!block_only || m->syncs[i].block)) return true;
    return false;
}

static bool is_anc(const struct shared_model *m, int anc, int n)
{
    for (int p = n; p >= 0; p = m->nodes[p].parent)
        if (p == anc) return true;
    return false;
}

static bool exclusive_branches(const struct shared_model *m, int x, int y)
{
    for (int a = m->nodes[x].parent; a >= 0; a = m->nodes[a].parent) {
        if (!is_anc(m, a, y)) continue;
        enum CXCursorKind k = m->nodes[a].c.kind;
        if (k != CXCursor_IfStmt && k != CXCursor_ConditionalOperator) return false;
        int cx = child_towards(m, a, x), cy = child_towards(m, a, y);
        if (cx < 0 || cy < 0 || cx == cy) return false;
        /* the condition is the first child */
        int first = -1;
        for (size_t i = (size_t)a + 1; i < m->n_nodes; i++)
            if (m->nodes[i].parent == a) {
                first = (int)i;
                break;
            }
        return cx != first && cy != first;
    }
    return false;
}

/* Does the variable take another value from one iteration of the loop
   (node) to the next: declared inside it, or assigned inside it? */
static bool changes_in_loop(const struct shared_model *m, int loop, CXCursor var)
{
    if (clang_Cursor_isNull(var) || var.kind != CXCursor_VarDecl) return false;
    for (size_t i = (size_t)loop + 1; i < m->n_nodes && m->nodes[i].pos < m->nodes[loop].end; i++) {
        CXCursor c = m->nodes[i].c;
        if (c.kind == CXCursor_VarDecl && clang_equalCursors(clang_getCanonicalCursor(c), var)) return true;
        CXCursor target = clang_getNullCursor();
        if ((c.kind == CXCursor_BinaryOperator && ast_binop(c) == CXBinaryOperator_Assign) ||
            c.kind == CXCursor_CompoundAssignOperator)
            target = canon_var(ast_child(c, 0));
        else if (c.kind == CXCursor_UnaryOperator) {
            enum CXUnaryOperatorKind uo = ast_unop(c);
            if (uo == CXUnaryOperator_PostInc || uo == CXUnaryOperator_PreInc || uo == CXUnaryOperator_PostDec ||
                uo == CXUnaryOperator_PreDec)
                target = canon_var(ast_child(c, 0));
        }
        if (!clang_Cursor_isNull(target) && clang_equalCursors(target, var)) return true;
    }
    return false;
}

static bool in_loop(const struct access *a, int li)
{
    for (unsigned i = 0; i < a->n_loops; i++)
        if (a->loops[i] == li) return true;
    return false;
}

static void set_own(const struct shared_model *m, struct pairing *p)
{
    (void)m;
    p->n_own_x = p->n_own_y = p->n_shared = 0;
    for (unsigned i = 0; i < p->x->n_loops; i++) {
        int L = p->x->loops[i];
        if (L == p->carried) continue;
        if (in_loop(p->y, L)) {
            /* a loop around both: outside the carried one it is shared;
               inside it (nested in the carried loop) each side has its own */
            bool inside_carried = false;
            if (p->carried >= 0)
                for (unsigned j = 0; j < i; j++)
                    if (p->x->loops[j] == p->carried) inside_carried = true;
            if (p->carried >= 0) {
                /* loops[] is innermost first: L is inside the carried loop
                   when the carried one comes after it */
                inside_carried = false;
                for (unsigned j = i + 1; j < p->x->n_loops; j++)
                    if (p->x->loops[j] == p->carried) inside_carried = true;
            }
            if (!inside_carried) {
                if (m->loops[L].enumerable) p->shared_loops[p->n_shared++] = L;
                continue;
            }
        }
        if (m->loops[L].enumerable) p->own_x[p->n_own_x++] = L;
    }
    for (unsigned i = 0; i < p->y->n_loops; i++) {
        int L = p->y->loops[i];
        if (L == p->carried) continue;
        bool shared = false;
        for (unsigned j = 0; j < p->n_shared; j++)
            if (p->shared_loops[j] == L) shared = true;
        if (!shared && m->loops[L].enumerable) p->own_y[p->n_own_y++] = L;
    }
}

/* The position of base among the function's parameters, or -1. */
static int param_position(const struct shared_model *m, CXCursor base)
{
    if (clang_getCursorKind(base) != CXCursor_ParmDecl) return -1;
    int n = clang_Cursor_getNumArguments(m->fn);
    for (int i = 0; i < n && i < 64; i++)
        if (clang_equalCursors(clang_getCanonicalCursor(clang_Cursor_getArgument(m->fn, (unsigned)i)), base)) return i;
    return -1;
}

static void add_race(struct shared_model *m, const struct shared_race *r)
{
    /* Threads of different warps through a pointer the callers may give
       each warp (or thread) its own value of: not known to meet. */
    if (r->cross_warp) {
        int p = param_position(m, r->array);
        if (p >= 0 && (m->varying_params >> p & 1)) return;
    }
    for (size_t i = 0; i < m->n_races; i++)
        if (clang_equalCursors(m->races[i].first, r->first) && clang_equalCursors(m->races[i].second, r->second) &&
            m->races[i].loop_carried == r->loop_carried)
            return;
    GROW(m->races, m->n_races, m->cap_races, 8);
    m->races[m->n_races++] = *r;
}

static void pick_block(struct shared_model *m, CXCursor base)
{
    if (m->li) {
        for (int i = 0; i < 3; i++) block_[i] = m->li->shape[0].b[i];
        block_guessed_ = false;
        return;
    }
    long long b[3] = {0, 0, 0};
    bool used[3] = {false, false, false};
    for (size_t i = 0; i < m->n_acc; i++) {
        const struct access *a = &m->acc[i];
        if (!clang_equalCursors(a->base, base)) continue;
        for (unsigned d = 0; d < a->n_index; d++) {
            struct affine af;
            if (!m->affine(m->affine_data, a->index[d], &af)) continue;
            long long ext = a->n_index == 2 ? (d == 0 ? a->extent0 : a->inner) : a->extent0;
            for (int c = 0; c < 3; c++) {
                if (!af.tid[c]) continue;
                used[c] = true;
                int others = 0;
                for (int q = 0; q < 3; q++) others += q != c && af.tid[q];
                if (af.tid[c] == 1 && !others && af.n_symbols == 0 && !af.more_uniform && ext > 0 &&
                    af.constant == 0) {
                    long long lim = ext;
                    if (lim > 0 && (b[c] == 0 || lim < b[c])) b[c] = lim;
                }
            }
        }
    }
    block_guessed_ = !b[0];
    block_[0] = b[0] ? b[0] : 64;
    block_[1] = b[1] ? b[1] : used[1] || m->callers_rows ? 2 : 1;
    block_[2] = b[2] ? b[2] : used[2] ? 2 : 1;
    while (block_[0] * block_[1] * block_[2] > MAX_THREADS) {
        if (block_[2] > 1) block_[2] /= 2;
        else if (block_[1] > 1) block_[1] /= 2;
        else block_[0] /= 2;
    }
}

/* decide() over the shapes the kernel may run with.  Launch sites with
   several shapes: the first shape that races (each is a real launch).  No
   shape known (pick_block guessed): the guess first (what CU102's same-warp
   pairs rest on), then a pair across warps is kept only when it holds for
   every block width a launch may use, a multiple of 32 up to 1024 threads
   (from 32 when y or z is used: two rows are two warps then); else
   ranged_out.  cross_warp stays the guess's, which CU102 reads. */
static bool decide_shapes(struct shared_model *m, const struct pairing *p, struct shared_race *r)
{
    struct shared_race base = *r;
    if (m->li && m->li->n_shapes > 1) {
        for (unsigned s = 0; s < m->li->n_shapes; s++) {
            *r = base;
            for (int i = 0; i < 3; i++) block_[i] = r->block[i] = m->li->shape[s].b[i];
            if (decide(m, p, r)) return true;
        }
        return false;
    }
    if (!decide(m, p, r)) return false;
    if (!block_guessed_ || !r->cross_warp) return true;
    long long guess[3] = {block_[0], block_[1], block_[2]};
    long long rows = guess[1] * guess[2];
    for (long long x = rows > 1 ? 32 : 64; x * rows <= MAX_THREADS && !r->ranged_out; x += 32) {
        if (x == guess[0]) continue;
        struct shared_race t = base;
        block_[0] = t.block[0] = x;
        if (!decide(m, p, &t) || !t.cross_warp) r->ranged_out = true;
    }
    for (int i = 0; i < 3; i++) block_[i] = guess[i];
    return true;
}

size_t shared_model_races(struct shared_model *m, const struct shared_race **out)
{
    if (m->computed) {
        *out = m->races;
        return m->n_races;
    }
    m->computed = true;
    for (size_t i = 0; i < m->n_acc; i++) {
        for (size_t j = 0; j < m->n_acc; j++) {
            const struct access *x = &m->acc[i], *y = &m->acc[j];
            if (!clang_equalCursors(x->base, y->base)) continue;
            /* events: x's write/read then y's read/write */
            for (int xe = 0; xe < 2; xe++) {
                bool xw = xe == 1;
                if (xw ? !x->write : !x->read) continue;
                unsigned xpos = xw ? x->pos_write : x->pos_read;
                for (int ye = 0; ye < 2; ye++) {
                    bool yw = ye == 1;
                    if (yw ? !y->write : !y->read) continue;
                    if (!xw && !yw) continue; /* two reads */
                    if (xw && yw) continue;   /* two writes: not modelled */
                    unsigned ypos = yw ? y->pos_write : y->pos_read;
                    if (exclusive_branches(m, x->node, y->node)) continue;
                    pick_block(m, x->base);
                    struct shared_race r;
                    memset(&r, 0, sizeof r);
                    r.first = x->expr;
                    r.second = y->expr;
                    r.first_writes = xw;
                    r.second_writes = yw;
                    r.array = x->base;
                    r.loop = clang_getNullCursor();
                    for (int q = 0; q < 3; q++) r.block[q] = block_[q];
                    r.shape_from_launch = m->li != NULL;
                    r.shape_guessed = block_guessed_;
                    r.from = xpos;
                    r.to = ypos;
                    if (xpos < ypos) {
                        /* straight through */
                        if (sync_between(m, xpos, ypos, true)) continue;
                        r.warp_synced = sync_between(m, xpos, ypos, false);
                        struct pairing p = {.x = x, .y = y, .carried = -1, .across = -1};
                        set_own(m, &p);
                        if (decide_shapes(m, &p, &r)) add_race(m, &r);
                    } else if (xpos > ypos) {
                        /* around the innermost loop holding both */
                        int L = -1;
                        for (unsigned k = 0; k < x->n_loops && L < 0; k++)
                            if (in_loop(y, x->loops[k])) L = x->loops[k];
                        if (L < 0) continue;
                        const struct node *ln = &m->nodes[m->loops[L].node];
                        if (sync_between(m, xpos, ln->end + 1, true) || sync_between(m, ln->pos, ypos, true))
                            continue;
                        r.warp_synced = sync_between(m, xpos, ln->end + 1, false) ||
                                        sync_between(m, ln->pos, ypos, false);
                        r.loop_carried = true;
                        r.loop = m->nodes[m->loops[L].node].c;
                        if (!m->loops[L].enumerable) {
                            /* the counter's values are unknown: only
                               accesses that do not use it can be decided,
                               as if the next iteration were this one */
                            struct pairing p = {.x = x, .y = y, .carried = -1, .across = m->loops[L].node};
                            set_own(m, &p);
                            if (decide_shapes(m, &p, &r)) add_race(m, &r);
                        } else {
                            struct pairing p = {.x = x, .y = y, .carried = L, .across = m->loops[L].node};
                            set_own(m, &p);
                            if (decide_shapes(m, &p, &r)) add_race(m, &r);
                        }
                    }
                }
            }
        }
    }
    *out = m->races;
    return m->n_races;
}

bool shared_model_statement(const struct shared_model *m, CXCursor access, CXCursor *stmt, CXCursor *block)
{
    int n = -1;
    for (size_t i = 0; i < m->n_nodes; i++)
        if (clang_equalCursors(m->nodes[i].c, access)) {
            n = (int)i;
            break;
        }
    for (int c = n, p = n >= 0 ? m->nodes[n].parent : -1; p >= 0; c = p, p = m->nodes[p].parent) {
        if (m->nodes[p].c.kind == CXCursor_LambdaExpr) return false;
        if (m->nodes[p].c.kind == CXCursor_CompoundStmt) {
            *stmt = m->nodes[c].c;
            *block = m->nodes[p].c;
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------ rule-side access */

static bool affine_cb(void *data, CXCursor expr, struct affine *out)
{
    return affine_of(data, expr, out);
}

struct shared_holder {
    struct shared_model *m;
    struct launch_info li;
};

static void holder_release(void *p)
{
    struct shared_holder *h = p;
    if (!h) return;
    shared_model_free(h->m);
    free(h);
}

/* The pointer parameters of a device function that a call in the unit
   passes a thread-dependent argument for, or all of them when the unit
   shows no call (or too many to read). */
static unsigned long long varying_pointer_params(struct analysis_cache *deps, struct launch_model *lm, CXCursor fn)
{
    if ((ast_exec_space(fn) & SPACE_GLOBAL) == SPACE_GLOBAL) return 0;
    int np = clang_Cursor_getNumArguments(fn);
    unsigned long long pointers = 0;
    for (int i = 0; i < np && i < 64; i++)
        if (clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i))).kind == CXType_Pointer)
            pointers |= 1ull << i;
    if (!pointers || !lm) return pointers;
    CXCursor calls[32], callers[32];
    unsigned n = launch_device_calls(lm, fn, calls, callers, 32);
    if (n == 0 || n > 32) return pointers;
    unsigned long long varying = 0;
    for (unsigned c = 0; c < n; c++) {
        struct uniformity *cu = analysis_get(deps, &uniformity_analysis, callers[c]);
        int na = clang_Cursor_getNumArguments(calls[c]);
        for (int i = 0; i < np && i < 64; i++) {
            if (!(pointers >> i & 1)) continue;
            if (!cu || i >= na || uniformity_expr_varies(cu, clang_Cursor_getArgument(calls[c], (unsigned)i), NULL))
                varying |= 1ull << i;
        }
    }
    return varying;
}

/* Built from the function's uniformity, affine forms and launch shapes. */
static void *shared_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    if (clang_Cursor_isNull(fn)) return NULL;
    struct uniformity *u = analysis_get(deps, &uniformity_analysis, fn);
    if (!u) return NULL;
    struct affine_fn *af = analysis_get(deps, &affine_analysis, fn);
    struct launch_model *lm = analysis_get(deps, &launch_analysis, clang_getNullCursor());
    struct shared_holder *h = xcalloc(1, sizeof *h);
    bool known = lm && launch_function_shapes(lm, fn, &h->li);
    h->m = shared_model_new(tu, fn, u, known ? &h->li : NULL, affine_cb, af);
    /* A device function with no shapes, called from code that indexes rows
       (threadIdx.y): a row may be one warp, 32 threads wide. */
    if (!known && lm && launch_callers_use_rows(lm, fn)) h->m->callers_rows = true;
    h->m->varying_params = varying_pointer_params(deps, lm, fn);
    return h;
}

const struct analysis_kind shared_analysis_holder = {
    .name = "shared", .build = shared_build, .free = holder_release};

struct shared_model *shared_model_of(struct shared_holder *h)
{
    return h ? h->m : NULL;
}
