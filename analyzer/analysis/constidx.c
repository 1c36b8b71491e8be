/* constidx.c: per-thread arrays and whether their indices are constants
 * after the loops with constant trip counts are unrolled (see constidx.h).
 *
 * Two visits of the function: the first records its local arrays, how often
 * each variable is written (and how often in a for statement's step), and
 * its for loops; the second judges each subscript of a local array.  An
 * index is a constant when it is built from constants, template arguments
 * and counters of for loops with constant bounds and steps (nvcc unrolls
 * those fully unless told `#pragma unroll 1`); it is a run-time value when
 * it involves threadIdx and the other built-in indices, a kernel parameter,
 * a load, or the counter of a loop whose trip count is a run-time value.
 * Everything else is unknown, and unknown is never reported. */
#include "analysis/constidx.h"
#include "analysis/affine.h"
#include "analysis/constprop.h"
#include "analysis/unroll.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

struct var_writes {
    unsigned hash;
    CXCursor var;
    unsigned writes;      /* assignments, ++/--, address taken, bound to a reference */
    unsigned step_writes; /* of those, in the step expression of the for that declares it */
};

struct loop {
    CXCursor stmt;
    CXCursor counter;     /* declared in its init, or null */
    enum unroll_verdict unroll; /* does nvcc unroll it fully (analysis/unroll) */
    bool count_pragma;    /* #pragma unroll N before it */
    int verdict;          /* -1 not computed yet, else enum idx_verdict of its trip count */
    bool visiting;
};

struct builder {
    CXTranslationUnit tu;
    CXCursor fn;
    struct constprop *cp; /* for trip counts; may be NULL */
    bool is_kernel;
    struct local_arrays *la;
    struct var_writes *w;
    size_t n_w, cap_w;
    struct loop *loops;
    size_t n_loops, cap_loops;
    CXCursor stack[256];
    unsigned depth;
    CXCursor step_of;     /* the for whose step expression is being visited */
    CXCursor visiting[MAX_DEPTH];
    unsigned n_visiting;
};

static struct var_writes *writes_of(struct builder *b, CXCursor var, bool add)
{
    unsigned h = clang_hashCursor(var);
    for (size_t i = 0; i < b->n_w; i++)
        if (b->w[i].hash == h && clang_equalCursors(b->w[i].var, var)) return &b->w[i];
    if (!add) return NULL;
    if (b->n_w == b->cap_w) {
        b->cap_w = b->cap_w ? b->cap_w * 2 : 32;
        b->w = xrealloc(b->w, b->cap_w * sizeof *b->w);
    }
    struct var_writes *v = &b->w[b->n_w++];
    memset(v, 0, sizeof *v);
    v->hash = h;
    v->var = var;
    return v;
}

static CXCursor ref_var(CXCursor e)
{
    e = ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(d);
    return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? d : clang_getNullCursor();
}

/* The variable an lvalue names, through subscripts and members (t[i] = v
   writes t). */
static CXCursor lvalue_root(CXCursor e)
{
    for (int i = 0; i < 8; i++) {
        e = ast_strip(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr) e = ast_child(e, 0);
        else break;
    }
    return ref_var(e);
}

static void note_write(struct builder *b, CXCursor lhs)
{
    CXCursor v = lvalue_root(lhs);
    if (clang_Cursor_isNull(v)) return;
    struct var_writes *w = writes_of(b, v, true);
    w->writes++;
    if (!clang_Cursor_isNull(b->step_of)) {
        /* only a counter the for itself declares */
        for (size_t i = 0; i < b->n_loops; i++)
            if (clang_equalCursors(b->loops[i].stmt, b->step_of) &&
                clang_equalCursors(b->loops[i].counter, v))
                w->step_writes++;
    }
}

static bool is_scalar_kind(enum CXTypeKind k, bool *is_float)
{
    *is_float = k == CXType_Float || k == CXType_Double || k == CXType_Half || k == CXType_Float16;
    return *is_float || ast_is_integer_kind(k);
}

static enum CXChildVisitResult has_attr(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CUDASharedAttr || k == CXCursor_CUDAConstantAttr ||
        k == CXCursor_CUDADeviceAttr) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static void add_array(struct builder *b, CXCursor decl)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    if (t.kind != CXType_ConstantArray) return;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    if (sc == CX_SC_Static || sc == CX_SC_Extern) return;
    bool space = false;
    clang_visitChildren(decl, has_attr, &space);
    if (space) return;
    if (!clang_equalCursors(clang_getCursorSemanticParent(decl), b->fn)) return;
    long long elems = 1;
    while (t.kind == CXType_ConstantArray) {
        long long n = clang_getArraySize(t);
        if (n <= 0) return;
        elems *= n;
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    struct local_arrays *la = b->la;
    if (la->n_arrays == la->cap_arrays) {
        la->cap_arrays = la->cap_arrays ? la->cap_arrays * 2 : 8;
        la->arrays = xrealloc(la->arrays, la->cap_arrays * sizeof *la->arrays);
    }
    struct local_array *a = &la->arrays[la->n_arrays++];
    memset(a, 0, sizeof *a);
    bool is_float;
    a->decl = decl;
    a->elems = elems;
    a->elem_size = clang_Type_getSizeOf(t);
    a->scalar = is_scalar_kind(t.kind, &is_float) && a->elem_size > 0;
}

static void add_loop(struct builder *b, CXCursor stmt)
{
    if (b->n_loops == b->cap_loops) {
        b->cap_loops = b->cap_loops ? b->cap_loops * 2 : 8;
        b->loops = xrealloc(b->loops, b->cap_loops * sizeof *b->loops);
    }
    struct loop *l = &b->loops[b->n_loops++];
    memset(l, 0, sizeof *l);
    l->stmt = stmt;
    l->counter = clang_getNullCursor();
    l->verdict = -1;
    CXCursor kids[4];
    if (ast_children(stmt, kids, 4) == 4 && clang_getCursorKind(kids[0]) == CXCursor_DeclStmt) {
        CXCursor vars[2];
        if (ast_children(kids[0], vars, 2) == 1 && clang_getCursorKind(vars[0]) == CXCursor_VarDecl)
            l->counter = vars[0];
    }
    struct unroll_pragma p;
    unroll_pragma_of(b->tu, b->fn, stmt, &p);
    l->count_pragma = p.hint == UNROLL_COUNT || p.hint == UNROLL_COUNT_UNKNOWN;
    l->unroll = unroll_loop(b->tu, b->fn, b->cp, stmt);
}

static void pass1(struct builder *b, CXCursor c);

static enum CXChildVisitResult pass1_child(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    pass1(d, c);
    return CXChildVisit_Continue;
}

static void pass1(struct builder *b, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    switch (k) {
    case CXCursor_LambdaExpr:
        return;
    case CXCursor_VarDecl:
        add_array(b, c);
        break;
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(c);
        for (size_t i = 0; i < b->la->n_arrays; i++)
            if (clang_equalCursors(b->la->arrays[i].decl, d)) b->la->arrays[i].refs++;
        break;
    }
    case CXCursor_ForStmt: {
        add_loop(b, c);
        CXCursor kids[4];
        if (ast_children(c, kids, 4) == 4) {
            pass1(b, kids[0]);
            pass1(b, kids[1]);
            CXCursor saved = b->step_of;
            b->step_of = c;
            pass1(b, kids[2]);
            b->step_of = saved;
            pass1(b, kids[3]);
            return;
        }
        break;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign)
            note_write(b, ast_child(c, 0));
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec ||
            op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
            op == CXUnaryOperator_AddrOf)
            note_write(b, ast_child(c, 0));
        break;
    }
    case CXCursor_CallExpr: {
        /* a variable passed without a conversion is bound to a reference */
        CXCursor kids[32];
        unsigned n = ast_children(c, kids, 32);
        for (unsigned i = 1; i < n; i++)
            if (clang_getCursorKind(kids[i]) == CXCursor_DeclRefExpr) note_write(b, kids[i]);
        break;
    }
    default:
        break;
    }
    clang_visitChildren(c, pass1_child, b);
}

/* ---- verdicts ---- */

static enum idx_verdict eval(struct builder *b, CXCursor e, int depth);

static enum idx_verdict join(enum idx_verdict a, enum idx_verdict c)
{
    if (a == IDX_RUNTIME || c == IDX_RUNTIME) return IDX_RUNTIME;
    if (a == IDX_UNKNOWN || c == IDX_UNKNOWN) return IDX_UNKNOWN;
    return IDX_CONST;
}

static struct loop *loop_of_counter(struct builder *b, CXCursor var)
{
    for (size_t i = 0; i < b->n_loops; i++)
        if (clang_equalCursors(b->loops[i].counter, var)) return &b->loops[i];
    return NULL;
}

static struct loop *loop_of_stmt(struct builder *b, CXCursor stmt)
{
    for (size_t i = 0; i < b->n_loops; i++)
        if (clang_equalCursors(b->loops[i].stmt, stmt)) return &b->loops[i];
    return NULL;
}

/* Is the trip count of a for loop with a declared counter a constant? */
static enum idx_verdict trip_verdict(struct builder *b, struct loop *l, int depth)
{
    if (l->verdict >= 0) return (enum idx_verdict)l->verdict;
    if (l->visiting || clang_Cursor_isNull(l->counter)) return IDX_UNKNOWN;
    l->visiting = true;
    enum idx_verdict v = IDX_UNKNOWN;
    CXCursor kids[4];
    ast_children(l->stmt, kids, 4);
    struct var_writes *w = writes_of(b, l->counter, false);
    unsigned writes = w ? w->writes : 0, step = w ? w->step_writes : 0;
    CXCursor init = clang_Cursor_getVarDeclInitializer(l->counter);
    CXCursor cond = ast_strip(kids[1]);
    CXCursor inc = ast_strip(kids[2]);
    if (writes == step && step >= 1 && !clang_Cursor_isNull(init) &&
        clang_getCursorKind(cond) == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(cond);
        bool cmp = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE ||
                   op == CXBinaryOperator_GT || op == CXBinaryOperator_GE ||
                   op == CXBinaryOperator_NE;
        CXCursor l0 = ast_child(cond, 0), r0 = ast_child(cond, 1), bound = clang_getNullCursor();
        if (clang_equalCursors(ref_var(l0), l->counter)) bound = r0;
        else if (clang_equalCursors(ref_var(r0), l->counter)) bound = l0;
        enum idx_verdict sv = IDX_UNKNOWN;
        enum CXCursorKind ik = clang_getCursorKind(inc);
        if (ik == CXCursor_UnaryOperator) sv = IDX_CONST;
        else if (ik == CXCursor_CompoundAssignOperator &&
                 (ast_binop(inc) == CXBinaryOperator_AddAssign ||
                  ast_binop(inc) == CXBinaryOperator_SubAssign))
            sv = eval(b, ast_child(inc, 1), depth + 1);
        if (cmp && !clang_Cursor_isNull(bound))
            v = join(join(eval(b, init, depth + 1), eval(b, bound, depth + 1)), sv);
    }
    if (v == IDX_CONST) {
        /* kept a loop (#pragma unroll 1, a count below the trip count): a
           run-time counter; a pragma whose effect cannot be told: unknown */
        if (l->unroll == UNROLL_KEPT) v = IDX_RUNTIME;
        else if (l->unroll == UNROLL_CANNOT_TELL && l->count_pragma) v = IDX_UNKNOWN;
    }
    l->verdict = (int)v;
    l->visiting = false;
    return v;
}

static bool in_visiting(struct builder *b, CXCursor var)
{
    for (unsigned i = 0; i < b->n_visiting; i++)
        if (clang_equalCursors(b->visiting[i], var)) return true;
    return false;
}

static enum idx_verdict eval_var(struct builder *b, CXCursor d, int depth)
{
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k == CXCursor_NonTypeTemplateParameter || k == CXCursor_EnumConstantDecl) return IDX_CONST;
    struct var_writes *w = writes_of(b, d, false);
    unsigned writes = w ? w->writes : 0;
    if (k == CXCursor_ParmDecl) {
        /* a kernel's parameters come from the launch; a device function's
           may be constants where it is inlined */
        return b->is_kernel && writes == 0 ? IDX_RUNTIME : IDX_UNKNOWN;
    }
    if (k != CXCursor_VarDecl) return IDX_UNKNOWN;
    if (!clang_equalCursors(clang_getCursorSemanticParent(d), b->fn)) {
        /* file scope: __constant__ and __device__ variables are loaded */
        bool space = false;
        clang_visitChildren(d, has_attr, &space);
        return space ? IDX_RUNTIME : IDX_UNKNOWN;
    }
    struct loop *l = loop_of_counter(b, d);
    if (l) return trip_verdict(b, l, depth);
    if (writes) return IDX_UNKNOWN;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (clang_Cursor_isNull(init) || in_visiting(b, d) || b->n_visiting >= MAX_DEPTH)
        return IDX_UNKNOWN;
    b->visiting[b->n_visiting++] = d;
    enum idx_verdict v = eval(b, init, depth + 1);
    b->n_visiting--;
    return v;
}

static bool is_local_array_ref(struct builder *b, CXCursor base)
{
    CXCursor v = lvalue_root(base);
    if (clang_Cursor_isNull(v)) return false;
    for (size_t i = 0; i < b->la->n_arrays; i++)
        if (clang_equalCursors(b->la->arrays[i].decl, v)) return true;
    return false;
}

static enum idx_verdict eval(struct builder *b, CXCursor e, int depth)
{
    if (depth > MAX_DEPTH) return IDX_UNKNOWN;
    long long value;
    e = ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    int comp;
    if (k != CXCursor_CallExpr && k != CXCursor_MemberRefExpr && ast_eval_int(e, &value))
        return IDX_CONST;
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_UnaryExpr: /* sizeof */
        return IDX_CONST;
    case CXCursor_DeclRefExpr:
        return eval_var(b, clang_getCursorReferenced(e), depth);
    case CXCursor_MemberRefExpr:
    case CXCursor_CallExpr: {
        if (affine_builtin_member(b->tu, e, &comp) != AFFINE_NOT_BUILTIN) return IDX_RUNTIME;
        if (k == CXCursor_MemberRefExpr) {
            /* a field of a kernel parameter (params.n) */
            CXCursor base = ast_strip(ast_child(e, 0));
            CXCursor v = ref_var(base);
            if (!clang_Cursor_isNull(v) && clang_getCursorKind(v) == CXCursor_ParmDecl)
                return eval_var(b, v, depth);
            return IDX_UNKNOWN;
        }
        /* a call: run-time when an argument is; otherwise it may fold */
        CXCursor kids[16];
        unsigned n = ast_children(e, kids, 16);
        enum idx_verdict v = IDX_UNKNOWN;
        for (unsigned i = 1; i < n; i++)
            if (eval(b, kids[i], depth + 1) == IDX_RUNTIME) v = IDX_RUNTIME;
        return v;
    }
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(e);
        if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign) return IDX_UNKNOWN;
        if (op == CXBinaryOperator_Comma) return eval(b, ast_child(e, 1), depth + 1);
        return join(eval(b, ast_child(e, 0), depth + 1), eval(b, ast_child(e, 1), depth + 1));
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(e);
        if (op == CXUnaryOperator_Plus || op == CXUnaryOperator_Minus ||
            op == CXUnaryOperator_Not || op == CXUnaryOperator_LNot)
            return eval(b, ast_child(e, 0), depth + 1);
        if (op == CXUnaryOperator_Deref) return IDX_RUNTIME;
        return IDX_UNKNOWN;
    }
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        return n ? eval(b, kids[n - 1], depth + 1) : IDX_UNKNOWN;
    }
    case CXCursor_ConditionalOperator: {
        CXCursor kids[3];
        if (ast_children(e, kids, 3) != 3) return IDX_UNKNOWN;
        enum idx_verdict a = eval(b, kids[1], depth + 1), c = eval(b, kids[2], depth + 1);
        if (a == IDX_CONST && c == IDX_CONST)
            return eval(b, kids[0], depth + 1) == IDX_CONST ? IDX_CONST : IDX_UNKNOWN;
        return join(join(eval(b, kids[0], depth + 1), a), c);
    }
    case CXCursor_ArraySubscriptExpr: {
        /* a load: from a per-thread array it may be a register; from
           memory it is a run-time value */
        CXCursor base = ast_child(e, 0);
        if (is_local_array_ref(b, base)) return IDX_UNKNOWN;
        CXCursor v = lvalue_root(base);
        if (!clang_Cursor_isNull(v) && clang_isConstQualifiedType(clang_getCursorType(e)) &&
            clang_getCursorKind(v) == CXCursor_VarDecl) {
            bool space = false;
            clang_visitChildren(v, has_attr, &space);
            if (!space) return IDX_UNKNOWN; /* a const table: may fold */
        }
        return IDX_RUNTIME;
    }
    default:
        return IDX_UNKNOWN;
    }
}

/* Is the index the plain counter of a loop with a run-time trip count, a
   constant start and a constant step? */
static bool counter_bounded(struct builder *b, CXCursor index)
{
    CXCursor v = ref_var(index);
    if (clang_Cursor_isNull(v)) return false;
    struct loop *l = loop_of_counter(b, v);
    if (!l || l->count_pragma || trip_verdict(b, l, 0) != IDX_RUNTIME) return false;
    CXCursor init = clang_Cursor_getVarDeclInitializer(v);
    if (clang_Cursor_isNull(init) || eval(b, init, 0) != IDX_CONST) return false;
    CXCursor kids[4];
    if (ast_children(l->stmt, kids, 4) != 4) return false;
    CXCursor inc = ast_strip(kids[2]);
    enum CXCursorKind ik = clang_getCursorKind(inc);
    if (ik == CXCursor_UnaryOperator) return true;
    return ik == CXCursor_CompoundAssignOperator && eval(b, ast_child(inc, 1), 0) == IDX_CONST;
}

/* ---- pass 2: the subscripts ---- */

static bool loop_kept(struct builder *b, CXCursor stmt)
{
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_WhileStmt || k == CXCursor_DoStmt) return true;
    if (k != CXCursor_ForStmt) return false;
    struct loop *l = loop_of_stmt(b, stmt);
    if (!l) return false;
    if (l->unroll == UNROLL_KEPT) return true;
    return trip_verdict(b, l, 0) == IDX_RUNTIME;
}

static void on_subscript(struct builder *b, CXCursor c)
{
    /* only the outermost subscript of t[i][j] */
    if (b->depth >= 2) {
        CXCursor p = b->stack[b->depth - 2];
        unsigned up = b->depth - 2;
        while (clang_getCursorKind(p) == CXCursor_UnexposedExpr && up > 0) p = b->stack[--up];
        if (clang_getCursorKind(p) == CXCursor_ArraySubscriptExpr) {
            CXCursor pb = ast_strip(ast_child(p, 0));
            if (clang_equalCursors(pb, c)) return;
        }
    }
    /* indices from the outermost in; the base must be a local array */
    CXCursor idx[8];
    unsigned n = 0;
    CXCursor e = c;
    while (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr && n < 8) {
        idx[n++] = ast_child(e, 1);
        e = ast_strip(ast_child(e, 0));
    }
    CXCursor var = ref_var(e);
    if (clang_Cursor_isNull(var)) return;
    size_t ai = b->la->n_arrays;
    for (size_t i = 0; i < b->la->n_arrays; i++)
        if (clang_equalCursors(b->la->arrays[i].decl, var)) ai = i;
    if (ai == b->la->n_arrays) return;

    struct local_index u;
    memset(&u, 0, sizeof u);
    u.expr = c;
    u.array = ai;
    u.verdict = IDX_CONST;
    u.index = idx[0];
    for (unsigned i = 0; i < n; i++) {
        enum idx_verdict v = eval(b, idx[i], 0);
        if (v != IDX_CONST && u.verdict == IDX_CONST) u.index = idx[i];
        if (v == IDX_RUNTIME && u.verdict != IDX_RUNTIME) u.index = idx[i];
        u.verdict = join(u.verdict, v);
    }
    /* what the code does with the element */
    if (b->depth >= 2) {
        CXCursor p = b->stack[b->depth - 2];
        enum CXCursorKind pk = clang_getCursorKind(p);
        if ((pk == CXCursor_BinaryOperator || pk == CXCursor_CompoundAssignOperator) &&
            ast_binop(p) >= CXBinaryOperator_Assign && ast_binop(p) <= CXBinaryOperator_OrAssign &&
            clang_equalCursors(ast_strip(ast_child(p, 0)), c))
            u.write = true;
        if (pk == CXCursor_UnaryOperator) {
            enum CXUnaryOperatorKind op = ast_unop(p);
            if (op != CXUnaryOperator_Plus && op != CXUnaryOperator_Minus &&
                op != CXUnaryOperator_Not && op != CXUnaryOperator_LNot)
                u.write = true; /* ++, --, & */
        }
    }
    for (unsigned i = 0; i + 1 < b->depth && !u.in_loop; i++) u.in_loop = loop_kept(b, b->stack[i]);
    u.counter_bounded = n == 1 && u.verdict == IDX_RUNTIME && counter_bounded(b, idx[0]);

    struct local_arrays *la = b->la;
    if (la->n_uses == la->cap_uses) {
        la->cap_uses = la->cap_uses ? la->cap_uses * 2 : 16;
        la->uses = xrealloc(la->uses, la->cap_uses * sizeof *la->uses);
    }
    la->uses[la->n_uses++] = u;
}

static void pass2(struct builder *b, CXCursor c);

static enum CXChildVisitResult pass2_child(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    pass2(d, c);
    return CXChildVisit_Continue;
}

static void pass2(struct builder *b, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr || b->depth >= 256) return;
    b->stack[b->depth++] = c;
    if (k == CXCursor_ArraySubscriptExpr) on_subscript(b, c);
    clang_visitChildren(c, pass2_child, b);
    b->depth--;
}

struct unchanged_scan {
    struct builder *b;
    bool ok;
};

static enum CXChildVisitResult index_vars_unchanged(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct unchanged_scan *s = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    int comp;
    if ((k == CXCursor_CallExpr || k == CXCursor_MemberRefExpr) &&
        affine_builtin_member(s->b->tu, c, &comp) != AFFINE_NOT_BUILTIN)
        return CXChildVisit_Continue; /* threadIdx.x: the same value every time */
    if (k == CXCursor_CallExpr || k == CXCursor_ArraySubscriptExpr ||
        (k == CXCursor_UnaryOperator && ast_unop(c) == CXUnaryOperator_Deref)) {
        s->ok = false; /* a load or a call may give another value the second time */
        return CXChildVisit_Break;
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor v = clang_getCursorReferenced(c);
        struct var_writes *w = writes_of(s->b, v, false);
        if (w && w->writes) {
            s->ok = false;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Arrays used only through one run-time index that never changes: written
   and read at t[i] alone, the value is forwarded from the store to the load
   (nvcc 13.0: no stack frame, no local access). */
static void mark_forwarded(struct builder *b)
{
    struct local_arrays *la = b->la;
    for (size_t a = 0; a < la->n_arrays; a++) {
        char *first = NULL;
        unsigned uses = 0;
        bool same = true;
        for (size_t i = 0; i < la->n_uses && same; i++) {
            const struct local_index *u = &la->uses[i];
            if (u->array != a) continue;
            uses++;
            CXCursor inner = ast_strip(ast_child(u->expr, 0));
            if (u->verdict != IDX_RUNTIME ||
                clang_getCursorKind(inner) == CXCursor_ArraySubscriptExpr) { /* t[i][j] */
                same = false;
                break;
            }
            char *t = ast_text(b->tu, u->index);
            if (!first) {
                struct unchanged_scan sc = {b, true};
                index_vars_unchanged(u->index, clang_getNullCursor(), &sc);
                if (sc.ok) clang_visitChildren(u->index, index_vars_unchanged, &sc);
                same = sc.ok && t && t[0];
                first = t;
            } else {
                same = t && strcmp(t, first) == 0;
                free(t);
            }
        }
        free(first);
        if (!same || uses == 0 || uses != la->arrays[a].refs) continue;
        for (size_t i = 0; i < la->n_uses; i++)
            if (la->uses[i].array == a) la->uses[i].forwarded = true;
    }
}

static struct local_arrays *build(CXTranslationUnit tu, CXCursor fn, struct constprop *cp);

struct local_arrays *local_arrays_new(CXTranslationUnit tu, CXCursor fn)
{
    return build(tu, fn, NULL);
}

static struct local_arrays *build(CXTranslationUnit tu, CXCursor fn, struct constprop *cp)
{
    struct local_arrays *la = xcalloc(1, sizeof *la);
    if (clang_Cursor_isNull(fn)) return la;
    struct builder *b = xcalloc(1, sizeof *b);
    b->tu = tu;
    b->fn = fn;
    b->la = la;
    b->cp = cp;
    b->is_kernel = (ast_exec_space(fn) & SPACE_GLOBAL) == SPACE_GLOBAL;
    b->step_of = clang_getNullCursor();
    clang_visitChildren(fn, pass1_child, b);
    if (la->n_arrays) {
        clang_visitChildren(fn, pass2_child, b);
        mark_forwarded(b);
    }
    free(b->w);
    free(b->loops);
    free(b);
    return la;
}

void local_arrays_free(struct local_arrays *la)
{
    if (!la) return;
    free(la->arrays);
    free(la->uses);
    free(la);
}

const struct local_index *local_arrays_find(const struct local_arrays *la, CXCursor expr)
{
    for (size_t i = 0; i < la->n_uses; i++)
        if (clang_equalCursors(la->uses[i].expr, expr)) return &la->uses[i];
    return NULL;
}

static void *constidx_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    return build(tu, fn, analysis_get(deps, &constprop_analysis, fn));
}

static void constidx_release(void *p)
{
    local_arrays_free(p);
}

const struct analysis_kind constidx_analysis = {
    .name = "constidx",
    .build = constidx_build,
    .free = constidx_release,
};
