/* constprop.c: compile-time constants after propagation through locals,
 * template parameters and single-valued parameters (see constprop.h).
 *
 * One visit of the function counts, per variable, what may change it after
 * its declaration (an assignment, ++/--, its address taken, the variable
 * itself passed to a call, where a reference parameter may bind to it).  A
 * query folds the expression recursively: what clang folds is taken as is;
 * a variable with no such write is its initialiser; a parameter asks the
 * translation unit's call table, gathered once from every call written
 * outside system headers. */
#include "analysis/constprop.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 24
#define MAX_VISITING 16

struct var_writes {
    unsigned hash;
    CXCursor var;
    unsigned writes;
};

struct constprop {
    CXTranslationUnit tu;
    CXCursor fn;
    struct analysis_cache *deps; /* for the call table, asked on first need */
    struct var_writes *w;
    size_t n_w, cap_w;
    CXCursor visiting[MAX_VISITING];
    unsigned n_visiting;
};

/* ---- the translation unit's calls ---- */

enum param_state { PARAM_UNSEEN, PARAM_CONST, PARAM_VARIES };

struct callee {
    unsigned hash;
    CXCursor fn; /* canonical declaration */
    bool address_taken;
    unsigned n_calls;
    unsigned n_params;
    enum param_state *state;
    struct constval *value;
};

struct cp_calls {
    struct callee *c;
    size_t n, cap;
};

static struct callee *callee_of(struct cp_calls *t, CXCursor fn, bool add)
{
    fn = clang_getCanonicalCursor(fn);
    unsigned h = clang_hashCursor(fn);
    for (size_t i = 0; i < t->n; i++)
        if (t->c[i].hash == h && clang_equalCursors(t->c[i].fn, fn)) return &t->c[i];
    if (!add) return NULL;
    XGROW(t->c, t->n, t->cap, 16);
    struct callee *c = &t->c[t->n++];
    memset(c, 0, sizeof *c);
    c->hash = h;
    c->fn = fn;
    int np = clang_Cursor_getNumArguments(fn);
    c->n_params = np > 0 ? (unsigned)np : 0;
    c->state = xcalloc(c->n_params + 1, sizeof *c->state);
    c->value = xcalloc(c->n_params + 1, sizeof *c->value);
    return c;
}

static bool same_value(const struct constval *a, const struct constval *b)
{
    if (a->kind != b->kind || a->kind == CONSTVAL_UNKNOWN_VALUE) return false;
    return a->kind == CONSTVAL_INT ? a->i == b->i : a->f == b->f;
}

static void note_call(struct cp_calls *t, CXCursor call, CXCursor fn)
{
    struct callee *c = callee_of(t, fn, true);
    c->n_calls++;
    int na = clang_Cursor_getNumArguments(call);
    for (unsigned i = 0; i < c->n_params; i++) {
        struct constval v;
        bool known = (int)i < na && constprop_value(NULL, clang_Cursor_getArgument(call, i), &v) &&
                     v.kind != CONSTVAL_UNKNOWN_VALUE;
        if (!known) c->state[i] = PARAM_VARIES;
        else if (c->state[i] == PARAM_UNSEEN) {
            c->state[i] = PARAM_CONST;
            c->value[i] = v;
        } else if (c->state[i] == PARAM_CONST && !same_value(&c->value[i], &v)) {
            c->state[i] = PARAM_VARIES;
        }
    }
}

static enum CXChildVisitResult gather_calls(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct cp_calls *t = d;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        CXCursor fn = clang_getCursorReferenced(c);
        if (clang_getCursorKind(fn) == CXCursor_FunctionDecl) {
            note_call(t, c, fn);
            /* the callee's name is a call, not an address taken: visit the
               arguments only */
            int na = clang_Cursor_getNumArguments(c);
            for (int i = 0; i < na; i++)
                gather_calls(clang_Cursor_getArgument(c, (unsigned)i), c, d);
            return CXChildVisit_Continue;
        }
    } else if (k == CXCursor_DeclRefExpr) {
        CXCursor fn = clang_getCursorReferenced(c);
        if (clang_getCursorKind(fn) == CXCursor_FunctionDecl) callee_of(t, fn, true)->address_taken = true;
    }
    clang_visitChildren(c, gather_calls, d);
    return CXChildVisit_Continue;
}

/* Only the main file's declarations: the functions whose parameters are
   propagated are defined there (eval_param), and headers (the toolkit's
   above all) are large and call none of them. */
static enum CXChildVisitResult gather_top_level(CXCursor c, CXCursor parent, CXClientData d)
{
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    return gather_calls(c, parent, d);
}

static void *calls_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    (void)fn;
    (void)deps;
    struct cp_calls *t = xcalloc(1, sizeof *t);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), gather_top_level, t);
    return t;
}

static void calls_free(void *p)
{
    struct cp_calls *t = p;
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->c[i].state);
        free(t->c[i].value);
    }
    free(t->c);
    free(t);
}

const struct analysis_kind constprop_calls_analysis = {
    .name = "constprop_calls",
    .per_tu = true,
    .build = calls_build,
    .free = calls_free,
};

/* ---- writes in the function ---- */

static struct var_writes *writes_of(struct constprop *cp, CXCursor var, bool add)
{
    unsigned h = clang_hashCursor(var);
    for (size_t i = 0; i < cp->n_w; i++)
        if (cp->w[i].hash == h && clang_equalCursors(cp->w[i].var, var)) return &cp->w[i];
    if (!add) return NULL;
    XGROW(cp->w, cp->n_w, cp->cap_w, 32);
    struct var_writes *v = &cp->w[cp->n_w++];
    memset(v, 0, sizeof *v);
    v->hash = h;
    v->var = var;
    return v;
}

/* The variable an lvalue names, through subscripts and members. */
static CXCursor lvalue_root(CXCursor e)
{
    for (int i = 0; i < 8; i++) {
        e = ast_strip(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr) e = ast_child(e, 0);
        else break;
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(d);
    return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? d : clang_getNullCursor();
}

static void note_write(struct constprop *cp, CXCursor lhs)
{
    CXCursor v = lvalue_root(lhs);
    if (!clang_Cursor_isNull(v)) writes_of(cp, v, true)->writes++;
}

static enum CXChildVisitResult count_writes(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct constprop *cp = d;
    switch (clang_getCursorKind(c)) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign)
            note_write(cp, ast_child(c, 0));
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (ast_unop_is_incdec(op) || op == CXUnaryOperator_AddrOf) note_write(cp, ast_child(c, 0));
        break;
    }
    case CXCursor_CallExpr: {
        /* a variable passed without a conversion may bind to a reference;
           a member call on it may change it */
        CXCursor kids[32];
        unsigned n = ast_children(c, kids, 32);
        for (unsigned i = 0; i < n; i++) {
            enum CXCursorKind k = clang_getCursorKind(kids[i]);
            if (k == CXCursor_DeclRefExpr && i > 0) note_write(cp, kids[i]);
            if (k == CXCursor_MemberRefExpr && i == 0) note_write(cp, ast_child(kids[i], 0));
        }
        break;
    }
    case CXCursor_VarDecl: {
        /* a reference bound to a variable: T &r = x */
        CXType t = clang_getCursorType(c);
        if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
            CXCursor init = clang_Cursor_getVarDeclInitializer(c);
            if (!clang_Cursor_isNull(init)) note_write(cp, init);
        }
        break;
    }
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

/* ---- values ---- */

static bool is_float_kind(enum CXTypeKind k)
{
    return k == CXType_Float || k == CXType_Double || k == CXType_LongDouble ||
           k == CXType_Half || k == CXType_Float16;
}

/* The value converted to the type of cursor c (an int stored in a float, a
   float truncated to an int). */
static void convert_to(CXCursor c, struct constval *v)
{
    enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(c)).kind;
    if (v->kind == CONSTVAL_UNKNOWN_VALUE) return;
    if (is_float_kind(t)) {
        double f = v->kind == CONSTVAL_INT ? (double)v->i : v->f;
        if (t == CXType_Float) f = (double)(float)f;
        v->kind = CONSTVAL_FLOAT;
        v->f = f;
    } else if (t == CXType_Bool) {
        long long b = v->kind == CONSTVAL_INT ? v->i != 0 : v->f != 0;
        v->kind = CONSTVAL_INT;
        v->i = b;
    } else if (ast_is_integer_kind(t) && v->kind == CONSTVAL_FLOAT) {
        if (!(fabs(v->f) < 9.2e18)) {
            v->kind = CONSTVAL_UNKNOWN_VALUE;
            return;
        }
        v->kind = CONSTVAL_INT;
        v->i = (long long)v->f;
    }
}

static bool clang_folds(CXCursor e, struct constval *out)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r) return false;
    bool ok = true;
    switch (clang_EvalResult_getKind(r)) {
    case CXEval_Int:
        out->kind = CONSTVAL_INT;
        out->i = clang_EvalResult_getAsLongLong(r);
        break;
    case CXEval_Float:
        out->kind = CONSTVAL_FLOAT;
        out->f = clang_EvalResult_getAsDouble(r);
        break;
    default:
        ok = false;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

static bool eval(struct constprop *cp, CXCursor e, struct constval *out, int depth);

static bool binary(enum CXBinaryOperatorKind op, const struct constval *a, const struct constval *b,
                   struct constval *out)
{
    if (a->kind == CONSTVAL_UNKNOWN_VALUE || b->kind == CONSTVAL_UNKNOWN_VALUE) {
        out->kind = CONSTVAL_UNKNOWN_VALUE;
        return true;
    }
    if (a->kind == CONSTVAL_FLOAT || b->kind == CONSTVAL_FLOAT) {
        double x = a->kind == CONSTVAL_FLOAT ? a->f : (double)a->i;
        double y = b->kind == CONSTVAL_FLOAT ? b->f : (double)b->i;
        out->kind = CONSTVAL_FLOAT;
        switch (op) {
        case CXBinaryOperator_Add: out->f = x + y; return true;
        case CXBinaryOperator_Sub: out->f = x - y; return true;
        case CXBinaryOperator_Mul: out->f = x * y; return true;
        case CXBinaryOperator_Div: out->f = x / y; return true;
        default: break;
        }
        out->kind = CONSTVAL_INT;
        switch (op) {
        case CXBinaryOperator_LT: out->i = x < y; return true;
        case CXBinaryOperator_GT: out->i = x > y; return true;
        case CXBinaryOperator_LE: out->i = x <= y; return true;
        case CXBinaryOperator_GE: out->i = x >= y; return true;
        case CXBinaryOperator_EQ: out->i = x == y; return true;
        case CXBinaryOperator_NE: out->i = x != y; return true;
        case CXBinaryOperator_LAnd: out->i = x != 0 && y != 0; return true;
        case CXBinaryOperator_LOr: out->i = x != 0 || y != 0; return true;
        default: return false;
        }
    }
    long long x = a->i, y = b->i;
    out->kind = CONSTVAL_INT;
    switch (op) {
    case CXBinaryOperator_Add: out->i = (long long)((unsigned long long)x + (unsigned long long)y); return true;
    case CXBinaryOperator_Sub: out->i = (long long)((unsigned long long)x - (unsigned long long)y); return true;
    case CXBinaryOperator_Mul: out->i = (long long)((unsigned long long)x * (unsigned long long)y); return true;
    case CXBinaryOperator_Div:
        if (y == 0 || (y == -1 && x == (long long)(-9223372036854775807LL - 1))) return false;
        out->i = x / y;
        return true;
    case CXBinaryOperator_Rem:
        if (y == 0 || y == -1) return false;
        out->i = x % y;
        return true;
    case CXBinaryOperator_Shl:
        if (y < 0 || y > 62) return false;
        out->i = (long long)((unsigned long long)x << y);
        return true;
    case CXBinaryOperator_Shr:
        if (y < 0 || y > 62) return false;
        out->i = x >> y;
        return true;
    case CXBinaryOperator_And: out->i = x & y; return true;
    case CXBinaryOperator_Or: out->i = x | y; return true;
    case CXBinaryOperator_Xor: out->i = x ^ y; return true;
    case CXBinaryOperator_LT: out->i = x < y; return true;
    case CXBinaryOperator_GT: out->i = x > y; return true;
    case CXBinaryOperator_LE: out->i = x <= y; return true;
    case CXBinaryOperator_GE: out->i = x >= y; return true;
    case CXBinaryOperator_EQ: out->i = x == y; return true;
    case CXBinaryOperator_NE: out->i = x != y; return true;
    case CXBinaryOperator_LAnd: out->i = x && y; return true;
    case CXBinaryOperator_LOr: out->i = x || y; return true;
    default: return false;
    }
}

static bool in_visiting(struct constprop *cp, CXCursor var)
{
    for (unsigned i = 0; i < cp->n_visiting; i++)
        if (clang_equalCursors(cp->visiting[i], var)) return true;
    return false;
}

/* Is the enclosing function one nvcc sees every call of (a __device__ or a
   static function: without relocatable device code no other translation
   unit calls it)? */
static bool calls_all_visible(CXCursor fn)
{
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl) return false;
    unsigned space = ast_exec_space(fn);
    if ((space & SPACE_GLOBAL) == SPACE_GLOBAL) return false; /* a kernel: the launch decides */
    if (space & SPACE_DEVICE) return !(space & SPACE_HOST) || clang_Cursor_getStorageClass(fn) == CX_SC_Static;
    return clang_Cursor_getStorageClass(fn) == CX_SC_Static;
}

static bool eval_param(struct constprop *cp, CXCursor parm, struct constval *out)
{
    if (!cp || !cp->deps) return false;
    struct var_writes *w = writes_of(cp, parm, false);
    if (w && w->writes) return false;
    CXCursor fn = clang_getCursorSemanticParent(parm);
    if (!clang_equalCursors(fn, cp->fn) || !calls_all_visible(fn) ||
        !clang_Location_isFromMainFile(clang_getCursorLocation(fn)))
        return false;
    /* which parameter */
    int np = clang_Cursor_getNumArguments(fn);
    int index = -1;
    for (int i = 0; i < np; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), parm)) index = i;
    if (index < 0) return false;
    struct cp_calls *t = analysis_get(cp->deps, &constprop_calls_analysis, clang_getNullCursor());
    struct callee *c = t ? callee_of(t, fn, false) : NULL;
    if (!c || c->address_taken || c->n_calls == 0 || (unsigned)index >= c->n_params ||
        c->state[index] != PARAM_CONST)
        return false;
    *out = c->value[index];
    convert_to(parm, out);
    return true;
}

static bool eval_var(struct constprop *cp, CXCursor d, struct constval *out, int depth)
{
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k == CXCursor_NonTypeTemplateParameter) {
        out->kind = CONSTVAL_UNKNOWN_VALUE;
        return true;
    }
    if (k == CXCursor_EnumConstantDecl) {
        out->kind = CONSTVAL_INT;
        out->i = clang_getEnumConstantDeclValue(d);
        return true;
    }
    if (k == CXCursor_ParmDecl) return eval_param(cp, d, out);
    if (k != CXCursor_VarDecl) return false;
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    if (!is_float_kind(t.kind) && !ast_is_integer_kind(t.kind)) return false;
    bool is_const = clang_isConstQualifiedType(t);
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(d);
    CXCursor parent = clang_getCursorSemanticParent(d);
    bool local = cp && clang_equalCursors(parent, cp->fn) && sc != CX_SC_Static && sc != CX_SC_Extern;
    if (!local) {
        /* a const at file scope (not __device__/__constant__ memory) */
        if (!is_const || ast_has_attr(d, CXCursor_CUDADeviceAttr) ||
            ast_has_attr(d, CXCursor_CUDAConstantAttr) || ast_has_attr(d, CXCursor_CUDASharedAttr))
            return false;
    } else if (!is_const) {
        struct var_writes *w = writes_of(cp, d, false);
        if (w && w->writes) return false;
    }
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (clang_Cursor_isNull(init) || (cp && (in_visiting(cp, d) || cp->n_visiting >= MAX_VISITING)))
        return false;
    if (cp) cp->visiting[cp->n_visiting++] = d;
    bool ok = eval(cp, init, out, depth + 1);
    if (cp) cp->n_visiting--;
    if (ok) convert_to(d, out);
    return ok;
}

static bool eval(struct constprop *cp, CXCursor e, struct constval *out, int depth)
{
    if (depth > MAX_DEPTH || clang_Cursor_isNull(e)) return false;
    enum CXCursorKind k = clang_getCursorKind(e);
    if (!clang_isExpression(k)) return false;
    if (clang_folds(e, out)) return true;
    CXCursor kids[3];
    unsigned n;
    switch (k) {
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
        if (ast_children(e, kids, 2) != 1 || !eval(cp, kids[0], out, depth + 1)) return false;
        convert_to(e, out);
        return true;
    case CXCursor_DeclRefExpr:
        return eval_var(cp, clang_getCursorReferenced(e), out, depth);
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(e);
        if (ast_children(e, kids, 2) != 2) return false;
        if (op == CXBinaryOperator_Comma) return false;
        struct constval a, b;
        if (!eval(cp, kids[0], &a, depth + 1) || !eval(cp, kids[1], &b, depth + 1)) return false;
        if (!binary(op, &a, &b, out)) return false;
        convert_to(e, out);
        return true;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(e);
        if (op != CXUnaryOperator_Plus && op != CXUnaryOperator_Minus && op != CXUnaryOperator_Not &&
            op != CXUnaryOperator_LNot)
            return false;
        if (!eval(cp, ast_child(e, 0), out, depth + 1)) return false;
        if (out->kind == CONSTVAL_UNKNOWN_VALUE) return true;
        if (op == CXUnaryOperator_Minus) {
            if (out->kind == CONSTVAL_FLOAT) out->f = -out->f;
            else out->i = (long long)(0ULL - (unsigned long long)out->i);
        } else if (op == CXUnaryOperator_Not) {
            if (out->kind != CONSTVAL_INT) return false;
            out->i = ~out->i;
        } else if (op == CXUnaryOperator_LNot) {
            long long z = out->kind == CONSTVAL_FLOAT ? out->f == 0 : out->i == 0;
            out->kind = CONSTVAL_INT;
            out->i = z;
        }
        convert_to(e, out);
        return true;
    }
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        n = ast_children(e, kids, 3);
        if (!n || !eval(cp, kids[n - 1], out, depth + 1)) return false;
        convert_to(e, out);
        return true;
    }
    case CXCursor_ConditionalOperator: {
        if (ast_children(e, kids, 3) != 3) return false;
        struct constval c, a, b;
        if (!eval(cp, kids[0], &c, depth + 1) || !eval(cp, kids[1], &a, depth + 1) ||
            !eval(cp, kids[2], &b, depth + 1))
            return false;
        if (c.kind == CONSTVAL_UNKNOWN_VALUE) out->kind = CONSTVAL_UNKNOWN_VALUE;
        else *out = (c.kind == CONSTVAL_INT ? c.i != 0 : c.f != 0) ? a : b;
        convert_to(e, out);
        return true;
    }
    default:
        return false;
    }
}

bool constprop_value(struct constprop *cp, CXCursor expr, struct constval *out)
{
    struct constval tmp;
    if (!out) out = &tmp;
    return eval(cp, expr, out, 0);
}

static void *constprop_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    struct constprop *cp = xcalloc(1, sizeof *cp);
    cp->tu = tu;
    cp->fn = fn;
    cp->deps = deps;
    if (!clang_Cursor_isNull(fn)) clang_visitChildren(fn, count_writes, cp);
    return cp;
}

static void constprop_free(void *p)
{
    struct constprop *cp = p;
    if (!cp) return;
    free(cp->w);
    free(cp);
}

const struct analysis_kind constprop_analysis = {
    .name = "constprop",
    .build = constprop_build,
    .free = constprop_free,
};
