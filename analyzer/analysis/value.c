/* value.c: the value model of device code (value.h): integer expressions of
 * a function as smt terms for one thread of a pair, through a table of the
 * function's definitions (locals, struct fields, loop counters) built once
 * per model. */
#include "analysis/value.h"
#include "base/util.h"
#include "clang/astutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUE_MAX_DEPTH 24
#define VALUE_MAX_PARAMS 32

/* What the function does to one local variable or one field of a local
   struct ("p.y"). */
struct def {
    unsigned decl_hash;
    CXCursor decl;
    char *field;       /* NULL: the variable itself */
    bool has_init;
    CXCursor init;     /* the initialiser */
    unsigned writes;   /* assignments, compound assignments, ++/-- */
    bool escaped;      /* address taken, passed by reference, written as a whole (fields) */
    CXCursor assign;   /* the last plain assignment '=' */
    CXCursor assign_rhs;
    CXCursor assign_block; /* the compound statement holding it as a statement, or null */
    /* A for-loop counter: written only by the loop's init and increment. */
    CXCursor loop;
    CXCursor loop_init;    /* its starting value */
    CXCursor step;         /* the increment's operand (null: 1) */
    enum CXBinaryOperatorKind step_op; /* Add, Sub, Shl, Shr */
    CXCursor inc;          /* the increment expression */
    /* Every write, for "the last assignment before this read in the same
       block" (up to DEF_MAX_SITES; more: none is used). */
    unsigned n_sites;
    unsigned site_start[8], site_end[8];
    CXCursor site_rhs[8];   /* plain assignments: the value; else null */
    CXCursor site_block[8]; /* the compound statement holding it, or null */
    CXCursor site_stmt[8];  /* plain assignments: the assignment; else null */
    CXCursor site_parent[8]; /* ...and the statement holding it */
};
#define DEF_MAX_SITES 8

/* An if statement of the function: a variable assigned on its two arms has
   the value of the arm its condition picks. */
struct if_arms {
    CXCursor stmt, cond, then_arm, else_arm; /* else_arm null when there is none */
};

struct value_model {
    struct smt_arena *a;
    CXTranslationUnit tu;
    CXCursor fn;
    struct uniformity *u;
    struct warp_view *w;
    enum value_pair pair;
    struct def *defs;
    size_t n_defs, cap_defs;
    CXCursor *loops;
    size_t n_loops, cap_loops;
    struct if_arms *ifs;
    size_t n_ifs, cap_ifs;
    smt_id assume;
    bool shape_fixed;
    long long shape[3];
    /* Parameters the function writes or whose address it takes (by
       position): their value may change between two reads. */
    uint32_t changed_params;
    /* value_model_set_reads_per_use: a read of a variable that may change
       is its own symbol, not the variable's. */
    bool per_use;
    /* Congruence facts added since the last reset (by the expression and
       what is asked of it), so each is built once. */
    unsigned *congruent_keys;
    size_t n_congruent, cap_congruent;
    /* Parameters every launch passes one constant (value_model_set_params). */
    unsigned n_params;
    bool param_known[VALUE_MAX_PARAMS];
    long long param_value[VALUE_MAX_PARAMS];
};

/* ---- source positions ---- */

static unsigned offset_of(CXSourceLocation l)
{
    unsigned off = 0;
    clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
    return off;
}

static unsigned start_of(CXCursor c)
{
    return offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
}

static unsigned end_of(CXCursor c)
{
    return offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
}

static bool inside(CXCursor outer, CXCursor c)
{
    return ast_inside(outer, c);
}

/* The innermost loop of the function holding c, or a null cursor. */
static CXCursor loop_of(struct value_model *vm, CXCursor c)
{
    CXCursor best = clang_getNullCursor();
    for (size_t i = 0; i < vm->n_loops; i++)
        if (inside(vm->loops[i], c) && (clang_Cursor_isNull(best) || inside(best, vm->loops[i]))) best = vm->loops[i];
    return best;
}

/* The position of a parameter of the function, or -1.  By position:
   cursors reached by different routes need not compare equal. */
static int param_index(struct value_model *vm, CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_ParmDecl || !inside(vm->fn, decl)) return -1;
    int n = clang_Cursor_getNumArguments(vm->fn);
    for (int i = 0; i < n && i < VALUE_MAX_PARAMS; i++)
        if (start_of(clang_Cursor_getArgument(vm->fn, (unsigned)i)) == start_of(decl)) return i;
    return -1;
}

/* ---- the table of definitions ---- */

static bool is_local_var(struct value_model *vm, CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_VarDecl) return false;
    if (clang_Cursor_getStorageClass(decl) == CX_SC_Static || clang_Cursor_getStorageClass(decl) == CX_SC_Extern)
        return false;
    if (ast_has_attr(decl, CXCursor_CUDASharedAttr)) return false;
    return inside(vm->fn, decl);
}

static struct def *def_get(struct value_model *vm, CXCursor decl, const char *field, bool create)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = 0; i < vm->n_defs; i++) {
        struct def *d = &vm->defs[i];
        if (d->decl_hash == h && clang_equalCursors(d->decl, decl) && !d->field == !field &&
            (!field || !strcmp(d->field, field)))
            return d;
    }
    if (!create) return NULL;
    if (vm->n_defs == vm->cap_defs) {
        vm->cap_defs = vm->cap_defs ? 2 * vm->cap_defs : 32;
        vm->defs = xrealloc(vm->defs, vm->cap_defs * sizeof *vm->defs);
    }
    struct def *d = &vm->defs[vm->n_defs++];
    memset(d, 0, sizeof *d);
    d->decl_hash = h;
    d->decl = decl;
    d->field = field ? xstrdup(field) : NULL;
    d->init = d->assign = d->assign_rhs = d->assign_block = clang_getNullCursor();
    d->loop = d->loop_init = d->step = d->inc = clang_getNullCursor();
    return d;
}

/* The local variable an lvalue names (and the field, for p.y), or null. */
static CXCursor lvalue_target(struct value_model *vm, CXCursor lhs, char **field)
{
    *field = NULL;
    CXCursor s = ast_strip(lhs);
    if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        return is_local_var(vm, d) ? d : clang_getNullCursor();
    }
    if (clang_getCursorKind(s) == CXCursor_MemberRefExpr) {
        CXCursor base = ast_strip(ast_child(s, 0));
        if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return clang_getNullCursor();
        CXCursor d = clang_getCursorReferenced(base);
        if (!is_local_var(vm, d)) return clang_getNullCursor();
        *field = ast_spelling(s);
        return d;
    }
    return clang_getNullCursor();
}


/* lhs (written, or its address taken) names a parameter, or a field of
   one: the parameter may change. */
static void note_param_change(struct value_model *vm, CXCursor lhs)
{
    CXCursor s = ast_strip(lhs);
    while (clang_getCursorKind(s) == CXCursor_MemberRefExpr) s = ast_strip(ast_child(s, 0));
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr) return;
    int i = param_index(vm, clang_getCursorReferenced(s));
    if (i >= 0) vm->changed_params |= 1u << i;
}

/* A write to lhs: counts for the variable, or for the one field written. */
static struct def *note_write(struct value_model *vm, CXCursor lhs)
{
    char *field;
    CXCursor d = lvalue_target(vm, lhs, &field);
    if (clang_Cursor_isNull(d)) {
        free(field);
        note_param_change(vm, lhs);
        return NULL;
    }
    struct def *e = def_get(vm, d, field, true);
    e->writes++;
    free(field);
    if (e->n_sites < DEF_MAX_SITES) {
        e->site_start[e->n_sites] = start_of(lhs);
        e->site_end[e->n_sites] = start_of(lhs);
        e->site_rhs[e->n_sites] = clang_getNullCursor();
        e->site_block[e->n_sites] = clang_getNullCursor();
        e->site_stmt[e->n_sites] = clang_getNullCursor();
        e->site_parent[e->n_sites] = clang_getNullCursor();
    }
    e->n_sites++;
    return e;
}

static void note_escape(struct value_model *vm, CXCursor expr)
{
    char *field;
    CXCursor d = lvalue_target(vm, expr, &field);
    free(field);
    if (clang_Cursor_isNull(d)) {
        note_param_change(vm, expr);
        return;
    }
    def_get(vm, d, NULL, true)->escaped = true;
    /* Every field of it escapes too: marked when fields are looked up. */
}

static bool has_real_init(CXCursor var, CXCursor *init)
{
    CXCursor kids[16];
    unsigned n = ast_children(var, kids, 16);
    if (!n || !clang_isExpression(clang_getCursorKind(kids[n - 1]))) return false;
    CXCursor e = kids[n - 1];
    /* A default construction (`int2 p;`) defines nothing. */
    if (clang_getCursorKind(e) == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) == 0) {
        CXCursor r = clang_getCursorReferenced(e);
        if (clang_getCursorKind(r) == CXCursor_Constructor) return false;
    }
    *init = e;
    return true;
}

/* `for (i = a; ...; i += s)`: the counter's loop, start and step. */
static void note_counter(struct value_model *vm, CXCursor loop, CXCursor var, CXCursor start, CXCursor inc);

static enum CXChildVisitResult find_continue(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_ContinueStmt) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* `T i = start; while (cond) { ...; i += step; }`: a counter whose one
   increment is the body's last statement (no continue skips it), declared
   before the loop with its start.  At the condition and in the body it is
   start + k*step, as a for loop's counter. */
static void note_while_loop(struct value_model *vm, CXCursor loop)
{
    CXCursor k[4];
    if (ast_children(loop, k, 4) != 2 || clang_getCursorKind(k[1]) != CXCursor_CompoundStmt) return;
    CXCursor stmts[256];
    unsigned n = ast_children(k[1], stmts, 256);
    if (n == 0 || n == 256) return;
    CXCursor inc = ast_strip(stmts[n - 1]);
    CXCursor target_expr;
    enum CXCursorKind ik = clang_getCursorKind(inc);
    if (ik == CXCursor_UnaryOperator && ast_unop_is_incdec(ast_unop(inc))) target_expr = ast_child(inc, 0);
    else if (ik == CXCursor_CompoundAssignOperator) target_expr = ast_child(inc, 0);
    else return;
    char *f = NULL;
    CXCursor var = lvalue_target(vm, target_expr, &f);
    bool field = f != NULL;
    free(f);
    if (field || clang_Cursor_isNull(var) || clang_getCursorKind(var) != CXCursor_VarDecl) return;
    CXCursor start;
    if (!has_real_init(var, &start) || start_of(var) >= start_of(loop)) return;
    bool has_continue = false;
    clang_visitChildren(k[1], find_continue, &has_continue);
    if (has_continue) return;
    note_counter(vm, loop, var, start, inc);
}

static void note_loop(struct value_model *vm, CXCursor loop)
{
    CXCursor k[8];
    if (ast_children(loop, k, 8) != 4) return;
    CXCursor init = k[0], inc = ast_strip(k[2]);
    CXCursor var = clang_getNullCursor(), start = clang_getNullCursor();
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        CXCursor vk[4];
        if (ast_children(init, vk, 4) != 1 || !is_local_var(vm, vk[0])) return;
        var = vk[0];
        if (!has_real_init(var, &start)) return;
    } else if (clang_getCursorKind(ast_strip(init)) == CXCursor_BinaryOperator &&
               ast_binop(ast_strip(init)) == CXBinaryOperator_Assign) {
        char *f;
        var = lvalue_target(vm, ast_child(ast_strip(init), 0), &f);
        if (f || clang_Cursor_isNull(var)) {
            free(f);
            return;
        }
        start = ast_child(ast_strip(init), 1);
    } else {
        return;
    }
    note_counter(vm, loop, var, start, inc);
}

/* var counts the iterations of loop from start, inc (++, --, +=, -=, <<=,
   >>= of var) stepping it. */
static void note_counter(struct value_model *vm, CXCursor loop, CXCursor var, CXCursor start, CXCursor inc)
{
    CXCursor step = clang_getNullCursor();
    enum CXBinaryOperatorKind op;
    enum CXCursorKind ik = clang_getCursorKind(inc);
    char *f = NULL;
    CXCursor target;
    if (ik == CXCursor_UnaryOperator && ast_unop_is_incdec(ast_unop(inc))) {
        enum CXUnaryOperatorKind u = ast_unop(inc);
        op = u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc ? CXBinaryOperator_Add : CXBinaryOperator_Sub;
        target = lvalue_target(vm, ast_child(inc, 0), &f);
    } else if (ik == CXCursor_CompoundAssignOperator) {
        switch (ast_binop(inc)) {
        case CXBinaryOperator_AddAssign: op = CXBinaryOperator_Add; break;
        case CXBinaryOperator_SubAssign: op = CXBinaryOperator_Sub; break;
        case CXBinaryOperator_ShlAssign: op = CXBinaryOperator_Shl; break;
        case CXBinaryOperator_ShrAssign: op = CXBinaryOperator_Shr; break;
        case CXBinaryOperator_MulAssign: op = CXBinaryOperator_Mul; break;
        case CXBinaryOperator_DivAssign: op = CXBinaryOperator_Div; break;
        default: return;
        }
        target = lvalue_target(vm, ast_child(inc, 0), &f);
        step = ast_child(inc, 1);
    } else {
        return;
    }
    bool same = !f && clang_equalCursors(target, var);
    free(f);
    if (!same) return;
    struct def *d = def_get(vm, var, NULL, true);
    d->loop = loop;
    d->loop_init = start;
    d->step = step;
    d->step_op = op;
    d->inc = inc;
}

struct scan {
    struct value_model *vm;
};

static bool type_integer(CXType t);

static enum CXChildVisitResult scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    struct value_model *vm = ((struct scan *)data)->vm;
    enum CXCursorKind k = clang_getCursorKind(c);
    switch (k) {
    case CXCursor_LambdaExpr:
        return CXChildVisit_Continue;
    case CXCursor_VarDecl: {
        if (!is_local_var(vm, c)) break;
        struct def *d = def_get(vm, c, NULL, true);
        d->has_init = has_real_init(c, &d->init);
        CXType t = clang_getCursorType(c);
        if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
            if (d->has_init) note_escape(vm, d->init);
            d->escaped = true;
        }
        break;
    }
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
        if (vm->n_loops == vm->cap_loops) {
            vm->cap_loops = vm->cap_loops ? 2 * vm->cap_loops : 8;
            vm->loops = xrealloc(vm->loops, vm->cap_loops * sizeof *vm->loops);
        }
        vm->loops[vm->n_loops++] = c;
        break;
    case CXCursor_IfStmt: {
        /* `if (cond) A [else B]`; not C++17's `if (init; cond)` or a
           condition variable. */
        CXCursor arm[4];
        unsigned n = ast_children(c, arm, 4);
        if ((n != 2 && n != 3) || !clang_isExpression(clang_getCursorKind(arm[0]))) break;
        if (vm->n_ifs == vm->cap_ifs) {
            vm->cap_ifs = vm->cap_ifs ? 2 * vm->cap_ifs : 8;
            vm->ifs = xrealloc(vm->ifs, vm->cap_ifs * sizeof *vm->ifs);
        }
        vm->ifs[vm->n_ifs++] = (struct if_arms){c, arm[0], arm[1], n == 3 ? arm[2] : clang_getNullCursor()};
        break;
    }
    case CXCursor_BinaryOperator:
        if (ast_binop(c) == CXBinaryOperator_Assign) {
            struct def *d = note_write(vm, ast_child(c, 0));
            if (d) {
                d->assign = c;
                d->assign_rhs = ast_child(c, 1);
                d->assign_block = clang_getCursorKind(parent) == CXCursor_CompoundStmt ? parent : clang_getNullCursor();
                if (d->n_sites <= DEF_MAX_SITES) {
                    unsigned i = d->n_sites - 1;
                    d->site_end[i] = end_of(c);
                    d->site_rhs[i] = d->assign_rhs;
                    d->site_block[i] = d->assign_block;
                    d->site_stmt[i] = c;
                    d->site_parent[i] = parent;
                }
            }
        }
        break;
    case CXCursor_CompoundAssignOperator:
        note_write(vm, ast_child(c, 0));
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (ast_unop_is_incdec(op)) note_write(vm, ast_child(c, 0));
        else if (op == CXUnaryOperator_AddrOf) note_escape(vm, ast_child(c, 0));
        break;
    }
    case CXCursor_CallExpr: {
        /* An argument bound to a reference is the variable itself.  A call
           that depends on a template parameter (a functor of the template's
           type, interp(rows, r, i)) has no parameters yet, so its arguments
           carry no conversions: an integer variable there is taken as passed
           by value, as such calls nearly always take it, rather than as
           written by the call. */
        CXCursor target = clang_getCursorReferenced(c);
        enum CXCursorKind tk = clang_getCursorKind(target);
        bool dependent = clang_getCursorType(c).kind == CXType_Dependent && tk != CXCursor_FunctionDecl &&
                         tk != CXCursor_CXXMethod && tk != CXCursor_FunctionTemplate;
        int n = clang_Cursor_getNumArguments(c);
        for (int i = 0; i < n; i++) {
            CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
            enum CXCursorKind ak = clang_getCursorKind(arg);
            if (dependent && type_integer(clang_getCursorType(arg))) continue;
            if (ak == CXCursor_DeclRefExpr || ak == CXCursor_MemberRefExpr) note_escape(vm, arg);
        }
        /* A member call may change its object. */
        CXCursor callee = ast_child(c, 0);
        if (clang_getCursorKind(callee) == CXCursor_MemberRefExpr) note_escape(vm, ast_child(callee, 0));
        break;
    }
    default:
        break;
    }
    clang_visitChildren(c, scan_cb, data);
    return CXChildVisit_Continue;
}

struct value_model *value_model_new(struct smt_arena *a, CXTranslationUnit tu, CXCursor fn, struct uniformity *u,
                                    struct warp_view *w, enum value_pair pair)
{
    struct value_model *vm = xcalloc(1, sizeof *vm);
    vm->a = a;
    vm->tu = tu;
    vm->fn = fn;
    vm->u = u;
    vm->w = w;
    vm->pair = pair;
    vm->assume = smt_bool(a, true);
    struct scan s = {vm};
    clang_visitChildren(fn, scan_cb, &s);
    for (size_t i = 0; i < vm->n_loops; i++)
        if (clang_getCursorKind(vm->loops[i]) == CXCursor_ForStmt) note_loop(vm, vm->loops[i]);
        else if (clang_getCursorKind(vm->loops[i]) == CXCursor_WhileStmt) note_while_loop(vm, vm->loops[i]);
    return vm;
}

void value_model_free(struct value_model *vm)
{
    if (!vm) return;
    for (size_t i = 0; i < vm->n_defs; i++) free(vm->defs[i].field);
    free(vm->defs);
    free(vm->loops);
    free(vm->ifs);
    free(vm->congruent_keys);
    free(vm);
}

void value_model_set_reads_per_use(struct value_model *vm, bool on)
{
    vm->per_use = on;
}

void value_model_set_shape(struct value_model *vm, const long long *block)
{
    vm->shape_fixed = block != NULL;
    if (block) memcpy(vm->shape, block, sizeof vm->shape);
}

void value_model_set_params(struct value_model *vm, unsigned n, const bool *known, const long long *value)
{
    vm->n_params = n < VALUE_MAX_PARAMS ? n : VALUE_MAX_PARAMS;
    for (unsigned i = 0; i < vm->n_params; i++) {
        vm->param_known[i] = known[i];
        vm->param_value[i] = value[i];
    }
}

/* The constant every launch passes for parameter decl of the function. */
static bool param_constant(struct value_model *vm, CXCursor decl, long long *v)
{
    int i = param_index(vm, decl);
    if (i < 0 || (unsigned)i >= vm->n_params || !vm->param_known[i]) return false;
    *v = vm->param_value[i];
    return true;
}

void value_model_set_views(struct value_model *vm, struct uniformity *u, struct warp_view *w)
{
    vm->u = u;
    vm->w = w;
}

void value_model_reset(struct value_model *vm)
{
    vm->assume = smt_bool(vm->a, true);
    vm->n_congruent = 0;
}

smt_id value_assumptions(struct value_model *vm)
{
    return vm->assume;
}

static void assume(struct value_model *vm, smt_id fact)
{
    if (fact) vm->assume = smt_bin(vm->a, SMT_BAND, vm->assume, fact);
}

/* ---- types ---- */

static bool type_integer(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    return ast_is_integer_kind(c.kind);
}

static bool type_pointer(CXType t)
{
    return clang_getCanonicalType(t).kind == CXType_Pointer;
}

static bool type_float(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Float:
    case CXType_Double:
    case CXType_Half:
    case CXType_Float16:
    case CXType_BFloat16:
        return true;
    default:
        return false;
    }
}

/* The values the model holds as bit vectors: integers, pointers (64-bit
   addresses, computed with) and floating-point values (bit patterns the
   model never computes with: only "equal inputs give equal results"). */
static bool type_modelled(CXType t)
{
    return type_integer(t) || type_pointer(t) || type_float(t);
}

static unsigned type_width(CXType t)
{
    long long s = clang_Type_getSizeOf(clang_getCanonicalType(t));
    return s == 8 ? 64 : 32;
}

static bool type_signed(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_WChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
    case CXType_Int128:
    case CXType_Enum:
        return true;
    default:
        return false;
    }
}

/* x (signed or not) as a value of type to. */
static smt_id convert_bits(struct value_model *vm, smt_id x, bool from_signed, CXType to)
{
    if (!x) return 0;
    unsigned wt = type_width(to), wf = smt_width(vm->a, x);
    /* To bool: the truth of the whole value, before any narrowing. */
    if (clang_getCanonicalType(to).kind == CXType_Bool)
        return smt_ite(vm->a, smt_truth(vm->a, x), smt_const(vm->a, wt, 1), smt_const(vm->a, wt, 0));
    if (wf == 0) x = smt_ite(vm->a, x, smt_const(vm->a, wt, 1), smt_const(vm->a, wt, 0));
    else if (wf < wt) x = smt_ext(vm->a, from_signed ? SMT_SEXT : SMT_ZEXT, x, wt);
    else if (wf > wt) x = smt_ext(vm->a, SMT_TRUNC, x, wt);
    return x;
}

/* x (of type from) as a value of type to. */
static smt_id convert(struct value_model *vm, smt_id x, CXType from, CXType to)
{
    return convert_bits(vm, x, type_signed(from), to);
}

/* ---- symbols ---- */

smt_id value_builtin(struct value_model *vm, char which, int axis, int t)
{
    static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
    const char *nm = which == 't' ? names[0] : which == 'b' ? names[1] : which == 'd' ? names[2] : names[3];
    char buf[48];
    if (which == 'd' && vm->shape_fixed && vm->shape[axis] > 0) return smt_const(vm->a, 32, (uint64_t)vm->shape[axis]);
    if (which == 't') snprintf(buf, sizeof buf, "%s.%c#%d", nm, "xyz"[axis], t);
    else snprintf(buf, sizeof buf, "%s.%c", nm, "xyz"[axis]);
    return smt_sym(vm->a, 32, buf);
}

bool value_symbol_display(const char *symbol, char *buf, size_t size, int *thread)
{
    if (!symbol || symbol[0] == '$') return false;
    const char *hash = strchr(symbol, '#');
    const char *at = strchr(symbol, '@');
    size_t len = at ? (size_t)(at - symbol) : hash ? (size_t)(hash - symbol) : strlen(symbol);
    if (len + 1 > size) len = size - 1;
    memcpy(buf, symbol, len);
    buf[len] = 0;
    *thread = hash ? atoi(hash + 1) : 0;
    return true;
}

/* Is the value of expr the same in both threads of the pair? */
static bool shared_in_pair(struct value_model *vm, CXCursor expr)
{
    if (vm->pair == VALUE_PAIR_WARP && vm->w) return warp_expr_class(vm->w, expr) != WARP_LANE_VARIES;
    return vm->u && !uniformity_expr_varies(vm->u, expr, NULL);
}

/* The name of an opaque symbol: "NAME@KEY", with "#T" for thread t when the
   pair does not share it (t 0: shared). */
static void opaque_name(char *buf, size_t size, const char *name, unsigned key, int t)
{
    if (t) snprintf(buf, size, "%s@%x#%d", name ? name : "$", key, t);
    else snprintf(buf, size, "%s@%x", name ? name : "$", key);
}

/* An opaque value: one symbol per name (a variable) or per expression,
   shared by the pair or one per thread. */
static smt_id opaque(struct value_model *vm, CXCursor expr, const char *name, unsigned key, int t)
{
    if (!type_modelled(clang_getCursorType(expr))) return 0;
    char buf[160];
    bool shared = shared_in_pair(vm, expr);
    /* Keys are source offsets, the same in every parse pass of the file:
       the passes then ask the same formulas. */
    if (!name) key = start_of(expr) * 2654435761u ^ end_of(expr) ^ (unsigned)clang_getCursorKind(expr) << 24;
    opaque_name(buf, sizeof buf, name, key, shared ? 0 : t);
    return smt_sym(vm->a, type_width(clang_getCursorType(expr)), buf);
}

smt_id value_decl_symbol(struct value_model *vm, CXCursor decl)
{
    CXType t = clang_getCursorType(decl);
    if (!type_integer(t)) return 0;
    char *name = ast_spelling(decl);
    char buf[160];
    /* The symbol opaque() gives a read of decl that the pair shares. */
    opaque_name(buf, sizeof buf, name, start_of(decl), 0);
    free(name);
    return smt_sym(vm->a, type_width(t), buf);
}

/* ---- builtins ---- */

/* threadIdx.x -> 't', 0; false for anything else. */
static bool builtin_member(struct value_model *vm, CXCursor member, char *which, int *axis)
{
    CXCursor base = ast_strip(ast_child(member, 0));
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return false;
    char *bn = ast_spelling(base);
    char w = !strcmp(bn, "threadIdx") ? 't' : !strcmp(bn, "blockIdx") ? 'b' : !strcmp(bn, "blockDim") ? 'd'
             : !strcmp(bn, "gridDim") ? 'g' : 0;
    free(bn);
    if (!w) return false;
    char *mn = ast_spelling(member);
    char comp = mn[0] && !mn[1] ? mn[0] : 0;
    if (!comp) {
        /* clang's property members: the text after the dot. */
        char *txt = ast_text(vm->tu, member);
        const char *dot = txt ? strrchr(txt, '.') : NULL;
        if (dot) {
            dot++;
            while (isspace((unsigned char)*dot)) dot++;
            if (dot[0] && !isalnum((unsigned char)dot[1]) && dot[1] != '_') comp = dot[0];
        }
        free(txt);
    }
    free(mn);
    if (comp < 'x' || comp > 'z') return false;
    *which = w;
    *axis = comp - 'x';
    return true;
}

/* ---- expressions ---- */

static smt_id eval(struct value_model *vm, CXCursor e, int t, int depth);
static smt_id as_bool(struct value_model *vm, smt_id x);

/* ---- congruence: values the model does not compute ----

   A read of memory, or arithmetic on floating-point values, is a symbol per
   thread of the pair.  What still relates the two threads is that it is a
   function of things the model does compute: the same address read where
   the memory holds one value per address (uniformity_load_content_varies),
   the same float operation on equal operands.  For two threads that is
   Ackermann's reduction of an uninterpreted function: the fact "equal
   arguments give equal results" for the one pair of applications. */

static unsigned expr_key(CXCursor e, unsigned salt)
{
    return (start_of(e) * 2654435761u ^ end_of(e) ^ (unsigned)clang_getCursorKind(e) << 24) + salt * 40503u;
}

/* Has the fact for (e, salt) been built since the reset?  Marks it. */
static bool congruence_seen(struct value_model *vm, unsigned key)
{
    for (size_t i = 0; i < vm->n_congruent; i++)
        if (vm->congruent_keys[i] == key) return true;
    XGROW(vm->congruent_keys, vm->n_congruent, vm->cap_congruent, 16);
    vm->congruent_keys[vm->n_congruent++] = key;
    return false;
}

/* The fact: args1 == args2 (each pair of one width) implies v1 == v2. */
static void congruence_fact(struct value_model *vm, const smt_id *args1, const smt_id *args2, unsigned n, smt_id v1,
                            smt_id v2)
{
    struct smt_arena *a = vm->a;
    smt_id same = smt_bool(a, true);
    for (unsigned i = 0; i < n; i++) {
        if (!args1[i] || !args2[i] || smt_width(a, args1[i]) != smt_width(a, args2[i])) return;
        same = smt_bin(a, SMT_BAND, same, smt_bin(a, SMT_EQ, args1[i], args2[i]));
    }
    assume(vm, smt_bin(a, SMT_BOR, smt_un(a, SMT_BNOT, same), smt_bin(a, SMT_EQ, v1, v2)));
}

/* e's value in thread t as an uninterpreted function of the operands ops:
   one symbol per thread (shared when the pair shares e), with the fact that
   equal operands give equal values.  salt tells apart several questions
   about one expression (its value, its truth). */
static smt_id apply(struct value_model *vm, CXCursor e, unsigned salt, unsigned width, int t, const CXCursor *ops,
                    unsigned n, int depth)
{
    char name[48];
    unsigned key = expr_key(e, salt);
    if (!t || shared_in_pair(vm, e)) {
        snprintf(name, sizeof name, "$f@%x", key);
        return smt_sym(vm->a, width, name);
    }
    smt_id v[2];
    for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "$f@%x#%d", key, k + 1);
        v[k] = smt_sym(vm->a, width, name);
    }
    if (n <= 4 && !congruence_seen(vm, key)) {
        smt_id x1[4], x2[4];
        for (unsigned i = 0; i < n; i++) {
            x1[i] = eval(vm, ops[i], 1, depth + 1);
            x2[i] = eval(vm, ops[i], 2, depth + 1);
        }
        congruence_fact(vm, x1, x2, n, v[0], v[1]);
    }
    return v[t - 1];
}

/* i (an integer of type it) as a 64-bit offset. */
static smt_id to_offset(struct value_model *vm, smt_id i, CXType it)
{
    if (!i) return 0;
    unsigned w = smt_width(vm->a, i);
    if (w == 64) return i;
    if (w == 0) return smt_ite(vm->a, i, smt_const(vm->a, 64, 1), smt_const(vm->a, 64, 0));
    return smt_ext(vm->a, type_signed(it) ? SMT_SEXT : SMT_ZEXT, i, 64);
}

/* p + i elements of size bytes (C's pointer arithmetic). */
static smt_id pointer_offset(struct value_model *vm, smt_id p, smt_id i, CXType it, long long size, bool minus)
{
    smt_id off = to_offset(vm, i, it);
    if (!p || !off || size <= 0 || smt_width(vm->a, p) != 64) return 0;
    off = smt_bin(vm->a, SMT_MUL, off, smt_const(vm->a, 64, (uint64_t)size));
    return smt_bin(vm->a, minus ? SMT_SUB : SMT_ADD, p, off);
}

static long long pointee_size(CXType pointer)
{
    return clang_Type_getSizeOf(clang_getCanonicalType(clang_getPointeeType(clang_getCanonicalType(pointer))));
}

/* The address an lvalue expression names, in thread t (64 bits), or 0.
   Variables' own storage is a symbol the pair shares: a thread's local
   array and another's hold the same values where the uniformity analysis
   says what they hold does not vary, which is all a read compares. */
static smt_id eval_address(struct value_model *vm, CXCursor e, int t, int depth)
{
    if (depth > VALUE_MAX_DEPTH) return 0;
    CXCursor s = ast_strip(e);
    switch (clang_getCursorKind(s)) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(s);
        enum CXCursorKind dk = clang_getCursorKind(d);
        if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) return 0;
        if (clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_LValueReference) {
            /* A local reference bound once: the address of what it is bound to. */
            struct def *df = is_local_var(vm, d) ? def_get(vm, d, NULL, false) : NULL;
            CXCursor init;
            if (df && df->writes == 0 && !df->escaped && df->has_init) return eval_address(vm, df->init, t, depth + 1);
            if (!df && is_local_var(vm, d) && has_real_init(d, &init)) return eval_address(vm, init, t, depth + 1);
            return 0;
        }
        char name[64];
        snprintf(name, sizeof name, "$addr@%x", start_of(d));
        return smt_sym(vm->a, 64, name);
    }
    case CXCursor_MemberRefExpr: {
        CXCursor field = clang_getCursorReferenced(s);
        if (clang_getCursorKind(field) != CXCursor_FieldDecl) return 0;
        long long bits = clang_Cursor_getOffsetOfField(field);
        CXCursor base = ast_child(s, 0);
        if (bits < 0 || bits % 8 || clang_Cursor_isNull(base)) return 0;
        smt_id b = type_pointer(clang_getCursorType(base)) ? eval(vm, base, t, depth + 1)
                                                          : eval_address(vm, base, t, depth + 1);
        if (!b || smt_width(vm->a, b) != 64) return 0;
        return bits ? smt_bin(vm->a, SMT_ADD, b, smt_const(vm->a, 64, (uint64_t)(bits / 8))) : b;
    }
    case CXCursor_ArraySubscriptExpr: {
        CXCursor b = ast_child(s, 0), i = ast_child(s, 1);
        if (!type_pointer(clang_getCursorType(b))) {
            CXCursor x = b;
            b = i;
            i = x;
        }
        if (!type_pointer(clang_getCursorType(b)) || !type_integer(clang_getCursorType(i))) return 0;
        return pointer_offset(vm, eval(vm, b, t, depth + 1), eval(vm, i, t, depth + 1), clang_getCursorType(i),
                              clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(s))), false);
    }
    case CXCursor_UnaryOperator: {
        if (ast_unop(s) != CXUnaryOperator_Deref) return 0;
        CXCursor p = ast_child(s, 0);
        return type_pointer(clang_getCursorType(p)) ? eval(vm, p, t, depth + 1) : 0;
    }
    default:
        return 0;
    }
}

/* Is e a read of memory (or of a variable's storage through an lvalue the
   definitions table does not follow)? */
static bool is_memory_read(CXCursor e)
{
    switch (clang_getCursorKind(e)) {
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr:
        return true;
    case CXCursor_UnaryOperator:
        return ast_unop(e) == CXUnaryOperator_Deref;
    default:
        return false;
    }
}

/* The value a read of memory gives thread t: an opaque symbol (named as
   opaque() names it), with the fact that the two threads read equal values
   at equal addresses where what the memory holds does not vary. */
static smt_id load_value(struct value_model *vm, CXCursor e, const char *name, unsigned key, int t, int depth)
{
    smt_id v = opaque(vm, e, name, key, t);
    if (!v || !t || shared_in_pair(vm, e) || !vm->u) return v;
    CXType type = clang_getCursorType(e);
    if (clang_isVolatileQualifiedType(type) || uniformity_load_content_varies(vm->u, e)) return v;
    if (congruence_seen(vm, expr_key(e, 7))) return v;
    smt_id a1 = eval_address(vm, e, 1, depth + 1), a2 = eval_address(vm, e, 2, depth + 1);
    if (!a1 || !a2) return v;
    congruence_fact(vm, &a1, &a2, 1, opaque(vm, e, name, key, 1), opaque(vm, e, name, key, 2));
    return v;
}

/* The truth of a floating-point value: a function of it (C's rule, where
   -0.0 is false, is not the bit pattern's). */
static smt_id float_truth(struct value_model *vm, CXCursor e, int t, int depth)
{
    return smt_bin(vm->a, SMT_EQ, apply(vm, e, 1, 32, t, &e, 1, depth), smt_const(vm->a, 32, 1));
}

/* The truth of a condition expression in thread t. */
static smt_id eval_truth(struct value_model *vm, CXCursor e, int t, int depth)
{
    if (type_float(clang_getCursorType(e))) return float_truth(vm, e, t, depth);
    return as_bool(vm, eval(vm, e, t, depth));
}

/* May the definition at def_site be used for a read at use (the use follows
   it in the same loop, and nothing else writes the variable)? */
/* The plain assignment that reaches a read in straight-line code: the last
   write before the read, an assignment statement of a block holding the
   read, with no write between them and both in the same loop. */
static CXCursor straight_line_def(struct value_model *vm, const struct def *d, CXCursor use)
{
    if (d->n_sites > DEF_MAX_SITES) return clang_getNullCursor();
    unsigned u = start_of(use);
    int best = -1;
    for (unsigned i = 0; i < d->n_sites; i++)
        if (d->site_end[i] <= u && (best < 0 || d->site_start[i] > d->site_start[best])) best = (int)i;
    if (best < 0 || clang_Cursor_isNull(d->site_rhs[best]) || clang_Cursor_isNull(d->site_block[best]) ||
        !inside(d->site_block[best], use))
        return clang_getNullCursor();
    /* A write after the read inside a loop around both could reach it
       through the back edge. */
    CXCursor lu = loop_of(vm, use);
    for (unsigned i = 0; i < d->n_sites; i++)
        if (d->site_start[i] > u && !clang_Cursor_isNull(lu) && start_of(lu) <= d->site_start[i] &&
            d->site_start[i] < end_of(lu))
            return clang_getNullCursor();
    if (!clang_Cursor_isNull(lu) && start_of(lu) > d->site_start[best]) return clang_getNullCursor();
    return d->site_rhs[best];
}

static bool assignment_reaches(struct value_model *vm, const struct def *d, CXCursor use)
{
    if (clang_Cursor_isNull(d->assign) || start_of(use) <= end_of(d->assign)) return false;
    CXCursor la = loop_of(vm, d->assign), lu = loop_of(vm, use);
    if (clang_Cursor_isNull(la) != clang_Cursor_isNull(lu)) return false;
    if (!clang_Cursor_isNull(la) && !clang_equalCursors(la, lu)) return false;
    if (!clang_Cursor_isNull(d->assign_block) && inside(d->assign_block, use)) return true;
    /* Under control the same in every thread: all of them assigned, or none
       did (and the read is of an unset variable). */
    return vm->u && !uniformity_control_varies(vm->u, d->assign, NULL);
}

/* Which arm of an if statement an assignment is, as a statement of its own:
   1 the then arm, -1 the else arm, 0 neither (then *which is untouched). */
static int arm_holding(struct value_model *vm, const struct def *d, unsigned site, const struct if_arms **which)
{
    CXCursor parent = d->site_parent[site], stmt = d->site_stmt[site];
    if (clang_Cursor_isNull(stmt)) return 0;
    /* The arm is the block holding the assignment, or the assignment itself. */
    CXCursor arm = clang_getCursorKind(parent) == CXCursor_CompoundStmt ? parent : stmt;
    for (size_t i = 0; i < vm->n_ifs; i++) {
        const struct if_arms *f = &vm->ifs[i];
        int side = clang_equalCursors(f->then_arm, arm) ? 1
                   : !clang_Cursor_isNull(f->else_arm) && clang_equalCursors(f->else_arm, arm) ? -1 : 0;
        if (side) {
            *which = f;
            return side;
        }
    }
    return 0;
}

/* Is stmt run whenever `from` is, as far as branches go: no if statement and
   no loop holds stmt without holding `from` too? */
static bool runs_with(struct value_model *vm, CXCursor stmt, CXCursor from)
{
    for (size_t i = 0; i < vm->n_ifs; i++)
        if (inside(vm->ifs[i].stmt, stmt) && !inside(vm->ifs[i].stmt, from)) return false;
    CXCursor ls = loop_of(vm, stmt), lf = loop_of(vm, from);
    return clang_Cursor_isNull(ls) == clang_Cursor_isNull(lf) && (clang_Cursor_isNull(ls) || clang_equalCursors(ls, lf));
}

/* A variable given its value on the two arms of one if statement and read
   after it: `if (c) x = a; else x = b;`, or `x = b` as its initialiser and
   `if (c) x = a;`.  The read sees ite(c, a, b) in each thread: where the two
   values differ by the same thread-dependent term, a difference such as
   `x - threadIdx.x` is the same in every thread. */
static smt_id two_path_value(struct value_model *vm, const struct def *d, CXCursor decl, CXCursor use, int t, int depth)
{
    if (d->writes != d->n_sites || d->n_sites == 0 || d->n_sites > 2 || !clang_Cursor_isNull(d->loop)) return 0;
    const struct if_arms *f0 = NULL, *f1 = NULL;
    int side0 = arm_holding(vm, d, 0, &f0);
    if (!side0) return 0;
    CXCursor on_then, on_else;
    if (d->n_sites == 2 && !d->has_init) {
        int side1 = arm_holding(vm, d, 1, &f1);
        if (side1 != -side0 || !clang_equalCursors(f0->stmt, f1->stmt)) return 0;
        on_then = side0 > 0 ? d->site_rhs[0] : d->site_rhs[1];
        on_else = side0 > 0 ? d->site_rhs[1] : d->site_rhs[0];
    } else if (d->n_sites == 1 && d->has_init) {
        /* The if statement runs whenever the declaration does. */
        if (start_of(decl) >= start_of(f0->stmt) || !runs_with(vm, f0->stmt, decl)) return 0;
        on_then = side0 > 0 ? d->site_rhs[0] : d->init;
        on_else = side0 > 0 ? d->init : d->site_rhs[0];
    } else {
        return 0;
    }
    /* Read after the if statement, which runs whenever the read does. */
    if (start_of(use) < end_of(f0->stmt) || !runs_with(vm, f0->stmt, use)) return 0;
    CXType vt = clang_getCursorType(decl);
    if (!type_integer(vt)) return 0;
    smt_id c = eval(vm, f0->cond, t, depth + 1);
    smt_id a = eval(vm, on_then, t, depth + 1);
    smt_id b = eval(vm, on_else, t, depth + 1);
    if (!c || !a || !b) return 0;
    a = convert(vm, a, clang_getCursorType(on_then), vt);
    b = convert(vm, b, clang_getCursorType(on_else), vt);
    return smt_ite(vm->a, as_bool(vm, c), a, b);
}

/* The value of a read of a local variable (or one field of it). */
static smt_id read_local(struct value_model *vm, CXCursor use, CXCursor decl, const char *field, int t, int depth)
{
    struct def *d = def_get(vm, decl, field, false);
    struct def *whole = field ? def_get(vm, decl, NULL, false) : d;
    if (!d || d->escaped || (whole && whole->escaped)) return 0;
    /* A field is defined by its own assignments only when the struct is not
       initialised or assigned as a whole. */
    if (field && whole && (whole->has_init || whole->writes)) return 0;
    if (!clang_Cursor_isNull(d->loop) && inside(d->loop, use) && d->writes == (d->has_init ? 1u : 2u)) {
        /* A loop counter: start + k*step (or start shifted k*step times),
           with k the iteration, shared by the pair. */
        smt_id start = eval(vm, d->loop_init, t, depth + 1);
        CXType vt = clang_getCursorType(decl);
        if (!start || !type_integer(vt)) return 0;
        start = convert(vm, start, clang_getCursorType(d->loop_init), vt);
        unsigned w = type_width(vt);
        smt_id step = clang_Cursor_isNull(d->step) ? smt_const(vm->a, w, 1) : eval(vm, d->step, t, depth + 1);
        if (!step) return 0;
        step = convert(vm, step, clang_Cursor_isNull(d->step) ? vt : clang_getCursorType(d->step), vt);
        char name[48];
        if (d->step_op == CXBinaryOperator_Mul || d->step_op == CXBinaryOperator_Div) {
            /* i *= 2, i /= 2: start * step^k is not linear, but where the
               pair starts and steps alike the two threads hold the same
               value in the same iteration: one symbol of the iteration. */
            int o = t == 1 ? 2 : 1;
            smt_id start_o = eval(vm, d->loop_init, o, depth + 1);
            smt_id step_o = eval(vm, d->step, o, depth + 1);
            if (!start_o || !step_o) return 0;
            start_o = convert(vm, start_o, clang_getCursorType(d->loop_init), vt);
            step_o = convert(vm, step_o, clang_getCursorType(d->step), vt);
            if (start_o != start || step_o != step) return 0;
            snprintf(name, sizeof name, "$geo@%x", start_of(d->loop));
            return smt_sym(vm->a, w, name);
        }
        snprintf(name, sizeof name, "$k@%x", start_of(d->loop));
        smt_id k = smt_sym(vm->a, w, name);
        smt_id zero = smt_const(vm->a, w, 0);
        assume(vm, smt_bin(vm->a, SMT_SLE, zero, k));
        if (d->step_op == CXBinaryOperator_Shl || d->step_op == CXBinaryOperator_Shr) {
            smt_id amount = smt_bin(vm->a, SMT_MUL, k, step);
            assume(vm, smt_bin(vm->a, SMT_ULT, amount, smt_const(vm->a, w, w)));
            if (d->step_op == CXBinaryOperator_Shl) return smt_bin(vm->a, SMT_SHL, start, amount);
            return smt_bin(vm->a, type_signed(vt) ? SMT_ASHR : SMT_LSHR, start, amount);
        }
        if (d->step_op == CXBinaryOperator_Sub && type_signed(vt)) step = smt_un(vm->a, SMT_NEG, step);
        smt_id off = smt_bin(vm->a, SMT_MUL, k, step);
        smt_id value = d->step_op == CXBinaryOperator_Sub && !type_signed(vt) ? smt_bin(vm->a, SMT_SUB, start, off)
                                                                               : smt_bin(vm->a, SMT_ADD, start, off);
        /* The counter does not overflow (for signed counters C's rule). */
        if (type_signed(vt)) {
            assume(vm, smt_bin(vm->a, SMT_SMUL_OK, k, step));
            assume(vm, smt_bin(vm->a, SMT_SADD_OK, start, off));
        } else {
            assume(vm, smt_bin(vm->a, SMT_UMUL_OK, k, step));
            assume(vm, d->step_op == CXBinaryOperator_Sub ? smt_bin(vm->a, SMT_ULE, value, start)
                                                           : smt_bin(vm->a, SMT_ULE, start, value));
        }
        return value;
    }
    if (d->writes == 0 && d->has_init && !field) {
        smt_id v = eval(vm, d->init, t, depth + 1);
        return v ? convert(vm, v, clang_getCursorType(d->init), clang_getCursorType(decl)) : 0;
    }
    if (d->writes == 1 && !d->has_init && assignment_reaches(vm, d, use)) {
        smt_id v = eval(vm, d->assign_rhs, t, depth + 1);
        return v ? convert(vm, v, clang_getCursorType(d->assign_rhs), clang_getCursorType(use)) : 0;
    }
    CXCursor rhs = straight_line_def(vm, d, use);
    if (!clang_Cursor_isNull(rhs)) {
        smt_id v = eval(vm, rhs, t, depth + 1);
        return v ? convert(vm, v, clang_getCursorType(rhs), clang_getCursorType(use)) : 0;
    }
    if (!field) {
        smt_id v = two_path_value(vm, d, decl, use, t, depth);
        if (v) return convert(vm, v, clang_getCursorType(decl), clang_getCursorType(use));
    }
    return 0;
}

/* Can decl hold different values at two reads in the function?  Not a
   template argument, a constant, or a parameter the function never writes
   (nor binds to a reference or takes the address of). */
static bool may_change(struct value_model *vm, CXCursor decl)
{
    switch (clang_getCursorKind(decl)) {
    case CXCursor_NonTypeTemplateParameter:
        return false;
    case CXCursor_ParmDecl: {
        int i = param_index(vm, decl);
        return i < 0 || (vm->changed_params >> i & 1u);
    }
    case CXCursor_VarDecl:
        return !clang_isConstQualifiedType(clang_getCursorType(decl)) && !ast_has_attr(decl, CXCursor_CUDAConstantAttr);
    default:
        return true;
    }
}

static smt_id eval_decl_ref(struct value_model *vm, CXCursor e, int t, int depth)
{
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (dk == CXCursor_EnumConstantDecl)
        return smt_const(vm->a, type_width(clang_getCursorType(e)), (uint64_t)clang_getEnumConstantDeclValue(d));
    char *name = ast_spelling(d);
    smt_id r = 0;
    if (!strcmp(name, "warpSize") && !inside(vm->fn, d)) {
        r = smt_const(vm->a, 32, 32);
    } else if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl || dk == CXCursor_NonTypeTemplateParameter) {
        long long v;
        CXType dt = clang_getCursorType(d);
        if (dk == CXCursor_VarDecl && clang_isConstQualifiedType(dt) && ast_eval_int(e, &v))
            r = smt_const(vm->a, type_width(clang_getCursorType(e)), (uint64_t)v);
        else if (dk == CXCursor_ParmDecl && type_integer(dt) && param_constant(vm, d, &v))
            r = smt_const(vm->a, type_width(clang_getCursorType(e)), (uint64_t)v);
        else if (dk == CXCursor_VarDecl && is_local_var(vm, d))
            r = read_local(vm, e, d, NULL, t, depth);
        if (!r) r = vm->per_use && may_change(vm, d) ? opaque(vm, e, NULL, 0, t) : opaque(vm, e, name, start_of(d), t);
    }
    free(name);
    return r;
}

static enum smt_op arith_op(enum CXBinaryOperatorKind op, bool is_signed)
{
    switch (op) {
    case CXBinaryOperator_Add: return SMT_ADD;
    case CXBinaryOperator_Sub: return SMT_SUB;
    case CXBinaryOperator_Mul: return SMT_MUL;
    case CXBinaryOperator_Div: return is_signed ? SMT_SDIV : SMT_UDIV;
    case CXBinaryOperator_Rem: return is_signed ? SMT_SREM : SMT_UREM;
    case CXBinaryOperator_Shl: return SMT_SHL;
    case CXBinaryOperator_Shr: return is_signed ? SMT_ASHR : SMT_LSHR;
    case CXBinaryOperator_And: return SMT_AND;
    case CXBinaryOperator_Or: return SMT_OR;
    case CXBinaryOperator_Xor: return SMT_XOR;
    default: return SMT_CONST; /* none */
    }
}

static smt_id as_bool(struct value_model *vm, smt_id x)
{
    return smt_truth(vm->a, x);
}

static smt_id eval_binary(struct value_model *vm, CXCursor e, int t, int depth)
{
    enum CXBinaryOperatorKind op = ast_binop(e);
    CXCursor l = ast_child(e, 0), r = ast_child(e, 1);
    CXType rt = clang_getCursorType(e), lt = clang_getCursorType(l);
    if (op == CXBinaryOperator_Comma) return eval(vm, r, t, depth + 1);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
        smt_id x = eval_truth(vm, l, t, depth + 1), y = eval_truth(vm, r, t, depth + 1);
        return smt_bin(vm->a, op == CXBinaryOperator_LAnd ? SMT_BAND : SMT_BOR, x, y);
    }
    if (op >= CXBinaryOperator_Assign) return 0;
    /* Floating-point arithmetic and comparisons: functions of the operands. */
    if (type_float(lt) || type_float(rt) || type_float(clang_getCursorType(r))) {
        CXCursor ops[2] = {l, r};
        return type_modelled(rt) ? apply(vm, e, 0, type_width(rt), t, ops, 2, depth) : 0;
    }
    /* Pointer arithmetic: p + i, i + p, p - i in elements; p - q in elements. */
    if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) &&
        (type_pointer(lt) || type_pointer(clang_getCursorType(r)))) {
        CXType qt = clang_getCursorType(r);
        if (type_pointer(lt) && type_pointer(qt)) {
            long long size = pointee_size(lt);
            smt_id x = eval(vm, l, t, depth + 1), y = eval(vm, r, t, depth + 1);
            if (op != CXBinaryOperator_Sub || !x || !y || size <= 0 || smt_width(vm->a, x) != 64 ||
                smt_width(vm->a, y) != 64 || !type_integer(rt))
                return 0;
            smt_id d = smt_bin(vm->a, SMT_SDIV, smt_bin(vm->a, SMT_SUB, x, y), smt_const(vm->a, 64, (uint64_t)size));
            return convert_bits(vm, d, true, rt);
        }
        CXCursor p = type_pointer(lt) ? l : r, i = type_pointer(lt) ? r : l;
        if (op == CXBinaryOperator_Sub && !type_pointer(lt)) return 0;
        return pointer_offset(vm, eval(vm, p, t, depth + 1), eval(vm, i, t, depth + 1), clang_getCursorType(i),
                              pointee_size(clang_getCursorType(p)), op == CXBinaryOperator_Sub);
    }
    smt_id x = eval(vm, l, t, depth + 1), y = eval(vm, r, t, depth + 1);
    if (!x || !y) return 0;
    if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE) {
        /* Both operands have one type after the usual conversions. */
        if (smt_width(vm->a, x) != smt_width(vm->a, y)) return 0;
        bool s = type_signed(lt);
        switch (op) {
        case CXBinaryOperator_LT: return smt_bin(vm->a, s ? SMT_SLT : SMT_ULT, x, y);
        case CXBinaryOperator_GT: return smt_bin(vm->a, s ? SMT_SLT : SMT_ULT, y, x);
        case CXBinaryOperator_LE: return smt_bin(vm->a, s ? SMT_SLE : SMT_ULE, x, y);
        case CXBinaryOperator_GE: return smt_bin(vm->a, s ? SMT_SLE : SMT_ULE, y, x);
        case CXBinaryOperator_EQ: return smt_bin(vm->a, SMT_EQ, x, y);
        case CXBinaryOperator_NE: return smt_ne(vm->a, x, y);
        default: return 0;
        }
    }
    enum smt_op so = arith_op(op, type_signed(rt));
    if (so == SMT_CONST || !type_integer(rt)) return 0;
    unsigned w = type_width(rt);
    if (op == CXBinaryOperator_Shl || op == CXBinaryOperator_Shr) {
        y = convert(vm, y, clang_getCursorType(r), rt);
        if (!y) return 0;
        /* C leaves shifts by the width or more undefined: assumed not to happen. */
        assume(vm, smt_bin(vm->a, SMT_ULT, y, smt_const(vm->a, w, w)));
    }
    if (smt_width(vm->a, x) != w || smt_width(vm->a, y) != w) return 0;
    /* Signed overflow is undefined in C: the code is taken not to have it. */
    if (type_signed(rt) && (so == SMT_ADD || so == SMT_SUB || so == SMT_MUL))
        assume(vm, smt_bin(vm->a, so == SMT_ADD ? SMT_SADD_OK : so == SMT_SUB ? SMT_SSUB_OK : SMT_SMUL_OK, x, y));
    return smt_bin(vm->a, so, x, y);
}

static smt_id eval_unary(struct value_model *vm, CXCursor e, int t, int depth)
{
    enum CXUnaryOperatorKind op = ast_unop(e);
    CXCursor x = ast_child(e, 0);
    switch (op) {
    case CXUnaryOperator_Plus: return eval(vm, x, t, depth + 1);
    case CXUnaryOperator_Minus:
        if (type_float(clang_getCursorType(e))) return apply(vm, e, 0, type_width(clang_getCursorType(e)), t, &x, 1, depth);
        return smt_un(vm->a, SMT_NEG, eval(vm, x, t, depth + 1));
    case CXUnaryOperator_Not: return smt_un(vm->a, SMT_NOT, eval(vm, x, t, depth + 1));
    case CXUnaryOperator_LNot: return smt_un(vm->a, SMT_BNOT, eval_truth(vm, x, t, depth + 1));
    case CXUnaryOperator_AddrOf: return type_pointer(clang_getCursorType(e)) ? eval_address(vm, x, t, depth + 1) : 0;
    default: return 0;
    }
}

/* The tile size N of a cooperative_groups::thread_block_tile<N, ...>, 0
   for a thread_block, -1 for anything else (another group, not a group). */
static long long cg_tile_size(CXType type)
{
    char *sp = ast_cg_type_spelling(type);
    long long n = -1;
    const char *tile = sp ? strstr(sp, "thread_block_tile<") : NULL;
    const char *block = sp && !tile ? strstr(sp, "thread_block") : NULL;
    if (tile) {
        n = atoll(tile + strlen("thread_block_tile<"));
        if (n <= 0 || n > 1024 || (n & (n - 1))) n = -1;
    } else if (block) {
        char after = block[strlen("thread_block")];
        if (!isalnum((unsigned char)after) && after != '_') n = 0;
    }
    free(sp);
    return n;
}

/* The calling thread's rank in its block, x fastest, as
   cooperative_groups::thread_block::thread_rank() numbers it. */
static smt_id linear_rank(struct value_model *vm, int t)
{
    struct smt_arena *a = vm->a;
    smt_id tx = value_builtin(vm, 't', 0, t), ty = value_builtin(vm, 't', 1, t), tz = value_builtin(vm, 't', 2, t);
    smt_id dx = value_builtin(vm, 'd', 0, 0), dy = value_builtin(vm, 'd', 1, 0);
    return smt_bin(a, SMT_ADD, tx, smt_bin(a, SMT_MUL, dx, smt_bin(a, SMT_ADD, ty, smt_bin(a, SMT_MUL, dy, tz))));
}

/* Cooperative groups' ranks and sizes in terms of the thread indices: a
   block's thread_rank() and size(); a tile of N threads' thread_rank()
   (rank % N), meta_group_rank() (rank / N), size() and num_threads() (N).
   0 for other calls. */
static smt_id eval_cg_method(struct value_model *vm, CXCursor e, const char *name, int t)
{
    /* a static member called through an object (the declarations header's
       thread_block) sits under an implicit function-to-pointer cast */
    CXCursor callee = ast_strip(ast_child(e, 0));
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr || clang_Cursor_getNumArguments(e) != 0) return 0;
    CXCursor obj = ast_child(callee, 0);
    if (clang_Cursor_isNull(obj)) return 0;
    long long n = cg_tile_size(clang_getCursorType(obj));
    if (n < 0) return 0;
    struct smt_arena *a = vm->a;
    smt_id r = 0;
    if (!strcmp(name, "thread_rank")) {
        r = linear_rank(vm, t);
        if (n > 0) r = smt_bin(a, SMT_AND, r, smt_const(a, 32, (uint64_t)(n - 1)));
    } else if (n > 0 && !strcmp(name, "meta_group_rank")) {
        int shift = 0;
        while ((1ll << shift) < n) shift++;
        r = smt_bin(a, SMT_LSHR, linear_rank(vm, t), smt_const(a, 32, (uint64_t)shift));
    } else if (!strcmp(name, "size") || !strcmp(name, "num_threads")) {
        r = n > 0 ? smt_const(a, 32, (uint64_t)n)
                  : smt_bin(a, SMT_MUL, value_builtin(vm, 'd', 0, 0),
                            smt_bin(a, SMT_MUL, value_builtin(vm, 'd', 1, 0), value_builtin(vm, 'd', 2, 0)));
    }
    if (!r) return 0;
    /* the methods return unsigned long long or unsigned int */
    CXType rt = clang_getCursorType(e);
    return type_width(rt) == 32 ? r : smt_ext(a, SMT_ZEXT, r, type_width(rt));
}

/* min/max of two integers, as CUDA's overloads compute them; cooperative
   groups' ranks and sizes. */
static smt_id eval_call(struct value_model *vm, CXCursor e, int t, int depth)
{
    char *name = ast_spelling(e);
    smt_id r = eval_cg_method(vm, e, name, t);
    if (r) {
        free(name);
        return r;
    }
    bool is_min = !strcmp(name, "min") || !strcmp(name, "umin"), is_max = !strcmp(name, "max") || !strcmp(name, "umax");
    if ((is_min || is_max) && clang_Cursor_getNumArguments(e) == 2 && type_integer(clang_getCursorType(e))) {
        CXCursor p = clang_Cursor_getArgument(e, 0), q = clang_Cursor_getArgument(e, 1);
        CXType rt = clang_getCursorType(e);
        smt_id x = convert(vm, eval(vm, p, t, depth + 1), clang_getCursorType(p), rt);
        smt_id y = convert(vm, eval(vm, q, t, depth + 1), clang_getCursorType(q), rt);
        if (x && y) {
            smt_id lt = smt_bin(vm->a, type_signed(rt) ? SMT_SLT : SMT_ULT, x, y);
            r = is_min ? smt_ite(vm->a, lt, x, y) : smt_ite(vm->a, lt, y, x);
        }
    }
    free(name);
    return r;
}

static smt_id eval(struct value_model *vm, CXCursor e, int t, int depth)
{
    if (clang_Cursor_isNull(e) || depth > VALUE_MAX_DEPTH) return 0;
    enum CXCursorKind k = clang_getCursorKind(e);
    CXType type = clang_getCursorType(e);
    smt_id r = 0;
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_UnaryExpr: { /* sizeof */
        long long v;
        if (ast_eval_int(e, &v)) return smt_const(vm->a, type_width(type), (uint64_t)v);
        return 0;
    }
    case CXCursor_ParenExpr:
        return eval(vm, ast_child(e, 0), t, depth + 1);
    case CXCursor_FloatingLiteral: {
        CXEvalResult er = clang_Cursor_Evaluate(e);
        if (!er) return 0;
        double d = clang_EvalResult_getKind(er) == CXEval_Float ? clang_EvalResult_getAsDouble(er) : 0.0;
        bool ok = clang_EvalResult_getKind(er) == CXEval_Float;
        clang_EvalResult_dispose(er);
        if (!ok) return 0;
        uint64_t bits;
        if (type_width(type) == 64) {
            memcpy(&bits, &d, sizeof bits);
        } else {
            float f = (float)d;
            uint32_t b32;
            memcpy(&b32, &f, sizeof b32);
            bits = b32;
        }
        return smt_const(vm->a, type_width(type), bits);
    }
    case CXCursor_CXXNullPtrLiteralExpr:
    case CXCursor_GNUNullExpr:
        return type_modelled(type) ? smt_const(vm->a, type_width(type), 0) : 0;
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        if (n == 0) break;
        CXCursor inner = kids[n - 1];
        CXType it = clang_getCursorType(inner);
        if (type_pointer(type)) {
            /* Pointer to pointer: the same address; an array decays to its
               address; an integer (0, NULL) converts. */
            if (type_pointer(it)) r = eval(vm, inner, t, depth + 1);
            else if (clang_getCanonicalType(it).kind == CXType_ConstantArray ||
                     clang_getCanonicalType(it).kind == CXType_IncompleteArray)
                r = eval_address(vm, inner, t, depth + 1);
            else if (type_integer(it)) r = convert(vm, eval(vm, inner, t, depth + 1), it, type);
            break;
        }
        if (type_float(type)) {
            /* A float read as itself (an lvalue read, a no-op cast) is that
               value; any conversion is a function of its operand. */
            if (clang_equalTypes(clang_getCanonicalType(it), clang_getCanonicalType(type)))
                r = eval(vm, inner, t, depth + 1);
            else if (type_modelled(it))
                r = apply(vm, e, 0, type_width(type), t, &inner, 1, depth);
            break;
        }
        if (!type_integer(type)) break;
        if (type_integer(it) || type_pointer(it)) {
            r = convert(vm, eval(vm, inner, t, depth + 1), it, type);
            break;
        }
        if (type_float(it)) {
            r = apply(vm, e, 0, type_width(type), t, &inner, 1, depth);
            break;
        }
        /* threadIdx.x and friends are properties whose member expression
           has no integer type of its own: their value is an unsigned int. */
        char which;
        int axis;
        if (clang_getCursorKind(inner) == CXCursor_MemberRefExpr && builtin_member(vm, inner, &which, &axis))
            r = convert_bits(vm, value_builtin(vm, which, axis, t), false, type);
        break;
    }
    case CXCursor_DeclRefExpr:
        return eval_decl_ref(vm, e, t, depth);
    case CXCursor_MemberRefExpr: {
        char which;
        int axis;
        if (builtin_member(vm, e, &which, &axis)) return value_builtin(vm, which, axis, t);
        char *field;
        CXCursor d = lvalue_target(vm, e, &field);
        if (!clang_Cursor_isNull(d) && field && type_integer(type)) r = read_local(vm, e, d, field, t, depth);
        if (!r && field) {
            char name[96];
            char *vn = ast_spelling(d);
            snprintf(name, sizeof name, "%s.%s", vn, field);
            free(vn);
            /* p->f through a local pointer reads memory. */
            bool arrow = type_pointer(clang_getCursorType(ast_child(e, 0)));
            unsigned key = start_of(d) ^ (unsigned)strlen(field) * 40503u;
            if (arrow) r = vm->per_use ? load_value(vm, e, NULL, 0, t, depth) : load_value(vm, e, name, key, t, depth);
            else r = vm->per_use ? opaque(vm, e, NULL, 0, t) : opaque(vm, e, name, key, t);
        } else if (!r && vm->per_use && type_integer(type)) {
            /* p.rows of a parameter the function never changes: one value
               at every read.  Anything else is read where it is. */
            CXCursor base = ast_strip(ast_child(e, 0));
            CXCursor bd = clang_getCursorKind(base) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(base)
                                                                             : clang_getNullCursor();
            char *fn = ast_spelling(e);
            if (!clang_Cursor_isNull(bd) && !may_change(vm, bd) && fn && *fn && !type_pointer(clang_getCursorType(base))) {
                char name[96];
                char *vn = ast_spelling(bd);
                snprintf(name, sizeof name, "%s.%s", vn, fn);
                free(vn);
                r = opaque(vm, e, name, start_of(bd) ^ (unsigned)strlen(fn) * 40503u, t);
            } else {
                r = load_value(vm, e, NULL, 0, t, depth);
            }
            free(fn);
        }
        free(field);
        break;
    }
    case CXCursor_BinaryOperator:
        r = eval_binary(vm, e, t, depth);
        break;
    case CXCursor_UnaryOperator:
        r = eval_unary(vm, e, t, depth);
        break;
    case CXCursor_ConditionalOperator: {
        smt_id c = eval_truth(vm, ast_child(e, 0), t, depth + 1);
        smt_id x = eval(vm, ast_child(e, 1), t, depth + 1), y = eval(vm, ast_child(e, 2), t, depth + 1);
        if (x && y) {
            x = convert(vm, x, clang_getCursorType(ast_child(e, 1)), type);
            y = convert(vm, y, clang_getCursorType(ast_child(e, 2)), type);
        }
        r = smt_ite(vm->a, c, x, y);
        break;
    }
    case CXCursor_CallExpr:
        r = eval_call(vm, e, t, depth);
        break;
    default:
        break;
    }
    if (!r && type_modelled(type) && k != CXCursor_InitListExpr)
        r = is_memory_read(e) ? load_value(vm, e, NULL, 0, t, depth) : opaque(vm, e, NULL, 0, t);
    return r;
}

bool value_loop_counter(struct value_model *vm, CXCursor use, int t, smt_id *start, smt_id *step)
{
    CXCursor e = ast_strip(use);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return false;
    CXCursor decl = clang_getCursorReferenced(e);
    if (!is_local_var(vm, decl)) return false;
    struct def *d = def_get(vm, decl, NULL, false);
    if (!d || d->escaped || clang_Cursor_isNull(d->loop) || !inside(d->loop, e) || d->step_op != CXBinaryOperator_Add ||
        d->writes != (d->has_init ? 1u : 2u) || !type_signed(clang_getCursorType(decl)))
        return false;
    CXType vt = clang_getCursorType(decl);
    *start = convert(vm, eval(vm, d->loop_init, t, 1), clang_getCursorType(d->loop_init), vt);
    *step = clang_Cursor_isNull(d->step) ? smt_const(vm->a, type_width(vt), 1)
                                         : convert(vm, eval(vm, d->step, t, 1), clang_getCursorType(d->step), vt);
    return *start && *step;
}

smt_id value_expr(struct value_model *vm, CXCursor expr, int t)
{
    return eval(vm, expr, t, 0);
}

smt_id value_cond(struct value_model *vm, CXCursor expr, int t)
{
    return eval_truth(vm, expr, t, 0);
}
