/* value.c: the value model of device code (value.h): integer expressions of
 * a function as smt terms for one thread of a pair.  This file holds the
 * model's life cycle, types and conversions, symbols (builtins, opaque
 * values), the reads of locals and the evaluation of expressions, and the
 * public functions.  The table of the function's definitions (locals,
 * struct fields, loop counters), built once per model, is value_defs.c;
 * the values the model does not compute (reads of memory, float
 * arithmetic), value_memory.c; what the three share, value_internal.h. */
#include "analysis/value.h"
#include "analysis/value_internal.h"
#include "base/util.h"
#include "clang/astutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- source positions ---- */

static unsigned offset_of(CXSourceLocation l)
{
    unsigned off = 0;
    clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
    return off;
}

unsigned vm_start_of(CXCursor c)
{
    return offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
}

unsigned vm_end_of(CXCursor c)
{
    return offset_of(clang_getRangeEnd(clang_getCursorExtent(c)));
}

static bool inside(CXCursor outer, CXCursor c)
{
    return ast_inside(outer, c);
}

/* The position of a parameter of the function, or -1.  By position:
   cursors reached by different routes need not compare equal. */
int vm_param_index(struct value_model *vm, CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_ParmDecl || !inside(vm->fn, decl)) return -1;
    int n = clang_Cursor_getNumArguments(vm->fn);
    for (int i = 0; i < n && i < VALUE_MAX_PARAMS; i++)
        if (vm_start_of(clang_Cursor_getArgument(vm->fn, (unsigned)i)) == vm_start_of(decl)) return i;
    return -1;
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
    vm_scan(vm);
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
    int i = vm_param_index(vm, decl);
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

void vm_assume(struct value_model *vm, smt_id fact)
{
    if (fact) vm->assume = smt_bin(vm->a, SMT_BAND, vm->assume, fact);
}

/* ---- types ---- */

bool vm_type_integer(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    return ast_is_integer_kind(c.kind);
}

bool vm_type_pointer(CXType t)
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
    return vm_type_integer(t) || vm_type_pointer(t) || type_float(t);
}

static unsigned type_width(CXType t)
{
    long long s = clang_Type_getSizeOf(clang_getCanonicalType(t));
    return s == 8 ? 64 : 32;
}

bool vm_type_signed(CXType t)
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
    return convert_bits(vm, x, vm_type_signed(from), to);
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
bool vm_shared_in_pair(struct value_model *vm, CXCursor expr)
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
smt_id vm_opaque(struct value_model *vm, CXCursor expr, const char *name, unsigned key, int t)
{
    if (!type_modelled(clang_getCursorType(expr))) return 0;
    char buf[160];
    bool shared = vm_shared_in_pair(vm, expr);
    /* Keys are source offsets, the same in every parse pass of the file:
       the passes then ask the same formulas. */
    if (!name) key = vm_start_of(expr) * 2654435761u ^ vm_end_of(expr) ^ (unsigned)clang_getCursorKind(expr) << 24;
    opaque_name(buf, sizeof buf, name, key, shared ? 0 : t);
    return smt_sym(vm->a, type_width(clang_getCursorType(expr)), buf);
}

smt_id value_decl_symbol(struct value_model *vm, CXCursor decl)
{
    CXType t = clang_getCursorType(decl);
    if (!vm_type_integer(t)) return 0;
    char *name = ast_spelling(decl);
    char buf[160];
    /* The symbol vm_opaque() gives a read of decl that the pair shares. */
    opaque_name(buf, sizeof buf, name, vm_start_of(decl), 0);
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

static smt_id as_bool(struct value_model *vm, smt_id x);

/* The truth of a condition expression in thread t. */
static smt_id eval_truth(struct value_model *vm, CXCursor e, int t, int depth)
{
    if (type_float(clang_getCursorType(e))) return vm_float_truth(vm, e, t, depth);
    return as_bool(vm, vm_eval(vm, e, t, depth));
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
    int side0 = vm_arm_holding(vm, d, 0, &f0);
    if (!side0) return 0;
    CXCursor on_then, on_else;
    if (d->n_sites == 2 && !d->has_init) {
        int side1 = vm_arm_holding(vm, d, 1, &f1);
        if (side1 != -side0 || !clang_equalCursors(f0->stmt, f1->stmt)) return 0;
        on_then = side0 > 0 ? d->site_rhs[0] : d->site_rhs[1];
        on_else = side0 > 0 ? d->site_rhs[1] : d->site_rhs[0];
    } else if (d->n_sites == 1 && d->has_init) {
        /* The if statement runs whenever the declaration does. */
        if (vm_start_of(decl) >= vm_start_of(f0->stmt) || !vm_runs_with(vm, f0->stmt, decl)) return 0;
        on_then = side0 > 0 ? d->site_rhs[0] : d->init;
        on_else = side0 > 0 ? d->init : d->site_rhs[0];
    } else {
        return 0;
    }
    /* Read after the if statement, which runs whenever the read does. */
    if (vm_start_of(use) < vm_end_of(f0->stmt) || !vm_runs_with(vm, f0->stmt, use)) return 0;
    CXType vt = clang_getCursorType(decl);
    if (!vm_type_integer(vt)) return 0;
    smt_id c = vm_eval(vm, f0->cond, t, depth + 1);
    smt_id a = vm_eval(vm, on_then, t, depth + 1);
    smt_id b = vm_eval(vm, on_else, t, depth + 1);
    if (!c || !a || !b) return 0;
    a = convert(vm, a, clang_getCursorType(on_then), vt);
    b = convert(vm, b, clang_getCursorType(on_else), vt);
    return smt_ite(vm->a, as_bool(vm, c), a, b);
}

/* The value of a read of a local variable (or one field of it). */
static smt_id read_local(struct value_model *vm, CXCursor use, CXCursor decl, const char *field, int t, int depth)
{
    struct def *d = vm_def_get(vm, decl, field, false);
    struct def *whole = field ? vm_def_get(vm, decl, NULL, false) : d;
    if (!d || d->escaped || (whole && whole->escaped)) return 0;
    /* A field is defined by its own assignments only when the struct is not
       initialised or assigned as a whole. */
    if (field && whole && (whole->has_init || whole->writes)) return 0;
    if (!clang_Cursor_isNull(d->loop) && inside(d->loop, use) && d->writes == (d->has_init ? 1u : 2u)) {
        /* A loop counter: start + k*step (or start shifted k*step times),
           with k the iteration, shared by the pair. */
        smt_id start = vm_eval(vm, d->loop_init, t, depth + 1);
        CXType vt = clang_getCursorType(decl);
        if (!start || !vm_type_integer(vt)) return 0;
        start = convert(vm, start, clang_getCursorType(d->loop_init), vt);
        unsigned w = type_width(vt);
        smt_id step = clang_Cursor_isNull(d->step) ? smt_const(vm->a, w, 1) : vm_eval(vm, d->step, t, depth + 1);
        if (!step) return 0;
        step = convert(vm, step, clang_Cursor_isNull(d->step) ? vt : clang_getCursorType(d->step), vt);
        char name[48];
        if (d->step_op == CXBinaryOperator_Mul || d->step_op == CXBinaryOperator_Div) {
            /* i *= 2, i /= 2: start * step^k is not linear, but where the
               pair starts and steps alike the two threads hold the same
               value in the same iteration: one symbol of the iteration. */
            int o = t == 1 ? 2 : 1;
            smt_id start_o = vm_eval(vm, d->loop_init, o, depth + 1);
            smt_id step_o = vm_eval(vm, d->step, o, depth + 1);
            if (!start_o || !step_o) return 0;
            start_o = convert(vm, start_o, clang_getCursorType(d->loop_init), vt);
            step_o = convert(vm, step_o, clang_getCursorType(d->step), vt);
            if (start_o != start || step_o != step) return 0;
            snprintf(name, sizeof name, "$geo@%x", vm_start_of(d->loop));
            return smt_sym(vm->a, w, name);
        }
        snprintf(name, sizeof name, "$k@%x", vm_start_of(d->loop));
        smt_id k = smt_sym(vm->a, w, name);
        smt_id zero = smt_const(vm->a, w, 0);
        vm_assume(vm, smt_bin(vm->a, SMT_SLE, zero, k));
        if (d->step_op == CXBinaryOperator_Shl || d->step_op == CXBinaryOperator_Shr) {
            smt_id amount = smt_bin(vm->a, SMT_MUL, k, step);
            vm_assume(vm, smt_bin(vm->a, SMT_ULT, amount, smt_const(vm->a, w, w)));
            if (d->step_op == CXBinaryOperator_Shl) return smt_bin(vm->a, SMT_SHL, start, amount);
            return smt_bin(vm->a, vm_type_signed(vt) ? SMT_ASHR : SMT_LSHR, start, amount);
        }
        if (d->step_op == CXBinaryOperator_Sub && vm_type_signed(vt)) step = smt_un(vm->a, SMT_NEG, step);
        smt_id off = smt_bin(vm->a, SMT_MUL, k, step);
        smt_id value = d->step_op == CXBinaryOperator_Sub && !vm_type_signed(vt) ? smt_bin(vm->a, SMT_SUB, start, off)
                                                                                  : smt_bin(vm->a, SMT_ADD, start, off);
        /* The counter does not overflow (for signed counters C's rule). */
        if (vm_type_signed(vt)) {
            vm_assume(vm, smt_bin(vm->a, SMT_SMUL_OK, k, step));
            vm_assume(vm, smt_bin(vm->a, SMT_SADD_OK, start, off));
        } else {
            vm_assume(vm, smt_bin(vm->a, SMT_UMUL_OK, k, step));
            vm_assume(vm, d->step_op == CXBinaryOperator_Sub ? smt_bin(vm->a, SMT_ULE, value, start)
                                                              : smt_bin(vm->a, SMT_ULE, start, value));
        }
        return value;
    }
    if (d->writes == 0 && d->has_init && !field) {
        smt_id v = vm_eval(vm, d->init, t, depth + 1);
        return v ? convert(vm, v, clang_getCursorType(d->init), clang_getCursorType(decl)) : 0;
    }
    if (d->writes == 1 && !d->has_init && vm_assignment_reaches(vm, d, use)) {
        smt_id v = vm_eval(vm, d->assign_rhs, t, depth + 1);
        return v ? convert(vm, v, clang_getCursorType(d->assign_rhs), clang_getCursorType(use)) : 0;
    }
    CXCursor rhs = vm_straight_line_def(vm, d, use);
    if (!clang_Cursor_isNull(rhs)) {
        smt_id v = vm_eval(vm, rhs, t, depth + 1);
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
        int i = vm_param_index(vm, decl);
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
        else if (dk == CXCursor_ParmDecl && vm_type_integer(dt) && param_constant(vm, d, &v))
            r = smt_const(vm->a, type_width(clang_getCursorType(e)), (uint64_t)v);
        else if (dk == CXCursor_VarDecl && vm_is_local_var(vm, d))
            r = read_local(vm, e, d, NULL, t, depth);
        if (!r)
            r = vm->per_use && may_change(vm, d) ? vm_opaque(vm, e, NULL, 0, t)
                                                 : vm_opaque(vm, e, name, vm_start_of(d), t);
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
    if (op == CXBinaryOperator_Comma) return vm_eval(vm, r, t, depth + 1);
    if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
        smt_id x = eval_truth(vm, l, t, depth + 1), y = eval_truth(vm, r, t, depth + 1);
        return smt_bin(vm->a, op == CXBinaryOperator_LAnd ? SMT_BAND : SMT_BOR, x, y);
    }
    if (op >= CXBinaryOperator_Assign) return 0;
    /* Floating-point arithmetic and comparisons: functions of the operands. */
    if (type_float(lt) || type_float(rt) || type_float(clang_getCursorType(r))) {
        CXCursor ops[2] = {l, r};
        return type_modelled(rt) ? vm_apply(vm, e, 0, type_width(rt), t, ops, 2, depth) : 0;
    }
    /* Pointer arithmetic: p + i, i + p, p - i in elements; p - q in elements. */
    if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) &&
        (vm_type_pointer(lt) || vm_type_pointer(clang_getCursorType(r)))) {
        CXType qt = clang_getCursorType(r);
        if (vm_type_pointer(lt) && vm_type_pointer(qt)) {
            long long size = vm_pointee_size(lt);
            smt_id x = vm_eval(vm, l, t, depth + 1), y = vm_eval(vm, r, t, depth + 1);
            if (op != CXBinaryOperator_Sub || !x || !y || size <= 0 || smt_width(vm->a, x) != 64 ||
                smt_width(vm->a, y) != 64 || !vm_type_integer(rt))
                return 0;
            smt_id d = smt_bin(vm->a, SMT_SDIV, smt_bin(vm->a, SMT_SUB, x, y), smt_const(vm->a, 64, (uint64_t)size));
            return convert_bits(vm, d, true, rt);
        }
        CXCursor p = vm_type_pointer(lt) ? l : r, i = vm_type_pointer(lt) ? r : l;
        if (op == CXBinaryOperator_Sub && !vm_type_pointer(lt)) return 0;
        return vm_pointer_offset(vm, vm_eval(vm, p, t, depth + 1), vm_eval(vm, i, t, depth + 1),
                                 clang_getCursorType(i), vm_pointee_size(clang_getCursorType(p)),
                                 op == CXBinaryOperator_Sub);
    }
    smt_id x = vm_eval(vm, l, t, depth + 1), y = vm_eval(vm, r, t, depth + 1);
    if (!x || !y) return 0;
    if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE) {
        /* Both operands have one type after the usual conversions. */
        if (smt_width(vm->a, x) != smt_width(vm->a, y)) return 0;
        bool s = vm_type_signed(lt);
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
    enum smt_op so = arith_op(op, vm_type_signed(rt));
    if (so == SMT_CONST || !vm_type_integer(rt)) return 0;
    unsigned w = type_width(rt);
    if (op == CXBinaryOperator_Shl || op == CXBinaryOperator_Shr) {
        y = convert(vm, y, clang_getCursorType(r), rt);
        if (!y) return 0;
        /* C leaves shifts by the width or more undefined: assumed not to happen. */
        vm_assume(vm, smt_bin(vm->a, SMT_ULT, y, smt_const(vm->a, w, w)));
    }
    if (smt_width(vm->a, x) != w || smt_width(vm->a, y) != w) return 0;
    /* Signed overflow is undefined in C: the code is taken not to have it. */
    if (vm_type_signed(rt) && (so == SMT_ADD || so == SMT_SUB || so == SMT_MUL))
        vm_assume(vm, smt_bin(vm->a, so == SMT_ADD ? SMT_SADD_OK : so == SMT_SUB ? SMT_SSUB_OK : SMT_SMUL_OK, x, y));
    return smt_bin(vm->a, so, x, y);
}

static smt_id eval_unary(struct value_model *vm, CXCursor e, int t, int depth)
{
    enum CXUnaryOperatorKind op = ast_unop(e);
    CXCursor x = ast_child(e, 0);
    switch (op) {
    case CXUnaryOperator_Plus: return vm_eval(vm, x, t, depth + 1);
    case CXUnaryOperator_Minus:
        if (type_float(clang_getCursorType(e)))
            return vm_apply(vm, e, 0, type_width(clang_getCursorType(e)), t, &x, 1, depth);
        return smt_un(vm->a, SMT_NEG, vm_eval(vm, x, t, depth + 1));
    case CXUnaryOperator_Not: return smt_un(vm->a, SMT_NOT, vm_eval(vm, x, t, depth + 1));
    case CXUnaryOperator_LNot: return smt_un(vm->a, SMT_BNOT, eval_truth(vm, x, t, depth + 1));
    case CXUnaryOperator_AddrOf:
        return vm_type_pointer(clang_getCursorType(e)) ? vm_eval_address(vm, x, t, depth + 1) : 0;
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
    if ((is_min || is_max) && clang_Cursor_getNumArguments(e) == 2 && vm_type_integer(clang_getCursorType(e))) {
        CXCursor p = clang_Cursor_getArgument(e, 0), q = clang_Cursor_getArgument(e, 1);
        CXType rt = clang_getCursorType(e);
        smt_id x = convert(vm, vm_eval(vm, p, t, depth + 1), clang_getCursorType(p), rt);
        smt_id y = convert(vm, vm_eval(vm, q, t, depth + 1), clang_getCursorType(q), rt);
        if (x && y) {
            smt_id lt = smt_bin(vm->a, vm_type_signed(rt) ? SMT_SLT : SMT_ULT, x, y);
            r = is_min ? smt_ite(vm->a, lt, x, y) : smt_ite(vm->a, lt, y, x);
        }
    }
    free(name);
    return r;
}

smt_id vm_eval(struct value_model *vm, CXCursor e, int t, int depth)
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
        return vm_eval(vm, ast_child(e, 0), t, depth + 1);
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
        if (vm_type_pointer(type)) {
            /* Pointer to pointer: the same address; an array decays to its
               address; an integer (0, NULL) converts. */
            if (vm_type_pointer(it)) r = vm_eval(vm, inner, t, depth + 1);
            else if (clang_getCanonicalType(it).kind == CXType_ConstantArray ||
                     clang_getCanonicalType(it).kind == CXType_IncompleteArray)
                r = vm_eval_address(vm, inner, t, depth + 1);
            else if (vm_type_integer(it)) r = convert(vm, vm_eval(vm, inner, t, depth + 1), it, type);
            break;
        }
        if (type_float(type)) {
            /* A float read as itself (an lvalue read, a no-op cast) is that
               value; any conversion is a function of its operand. */
            if (clang_equalTypes(clang_getCanonicalType(it), clang_getCanonicalType(type)))
                r = vm_eval(vm, inner, t, depth + 1);
            else if (type_modelled(it))
                r = vm_apply(vm, e, 0, type_width(type), t, &inner, 1, depth);
            break;
        }
        if (!vm_type_integer(type)) break;
        if (vm_type_integer(it) || vm_type_pointer(it)) {
            r = convert(vm, vm_eval(vm, inner, t, depth + 1), it, type);
            break;
        }
        if (type_float(it)) {
            r = vm_apply(vm, e, 0, type_width(type), t, &inner, 1, depth);
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
        CXCursor d = vm_lvalue_target(vm, e, &field);
        if (!clang_Cursor_isNull(d) && field && vm_type_integer(type)) r = read_local(vm, e, d, field, t, depth);
        if (!r && field) {
            char name[96];
            char *vn = ast_spelling(d);
            snprintf(name, sizeof name, "%s.%s", vn, field);
            free(vn);
            /* p->f through a local pointer reads memory. */
            bool arrow = vm_type_pointer(clang_getCursorType(ast_child(e, 0)));
            unsigned key = vm_start_of(d) ^ (unsigned)strlen(field) * 40503u;
            if (arrow)
                r = vm->per_use ? vm_load_value(vm, e, NULL, 0, t, depth) : vm_load_value(vm, e, name, key, t, depth);
            else r = vm->per_use ? vm_opaque(vm, e, NULL, 0, t) : vm_opaque(vm, e, name, key, t);
        } else if (!r && vm->per_use && vm_type_integer(type)) {
            /* p.rows of a parameter the function never changes: one value
               at every read.  Anything else is read where it is. */
            CXCursor base = ast_strip(ast_child(e, 0));
            CXCursor bd = clang_getCursorKind(base) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(base)
                                                                             : clang_getNullCursor();
            char *fn = ast_spelling(e);
            if (!clang_Cursor_isNull(bd) && !may_change(vm, bd) && fn && *fn &&
                !vm_type_pointer(clang_getCursorType(base))) {
                char name[96];
                char *vn = ast_spelling(bd);
                snprintf(name, sizeof name, "%s.%s", vn, fn);
                free(vn);
                r = vm_opaque(vm, e, name, vm_start_of(bd) ^ (unsigned)strlen(fn) * 40503u, t);
            } else {
                r = vm_load_value(vm, e, NULL, 0, t, depth);
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
        smt_id x = vm_eval(vm, ast_child(e, 1), t, depth + 1), y = vm_eval(vm, ast_child(e, 2), t, depth + 1);
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
        r = vm_is_memory_read(e) ? vm_load_value(vm, e, NULL, 0, t, depth) : vm_opaque(vm, e, NULL, 0, t);
    return r;
}

bool value_loop_counter(struct value_model *vm, CXCursor use, int t, smt_id *start, smt_id *step)
{
    CXCursor e = ast_strip(use);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return false;
    CXCursor decl = clang_getCursorReferenced(e);
    if (!vm_is_local_var(vm, decl)) return false;
    struct def *d = vm_def_get(vm, decl, NULL, false);
    if (!d || d->escaped || clang_Cursor_isNull(d->loop) || !inside(d->loop, e) || d->step_op != CXBinaryOperator_Add ||
        d->writes != (d->has_init ? 1u : 2u) || !vm_type_signed(clang_getCursorType(decl)))
        return false;
    CXType vt = clang_getCursorType(decl);
    *start = convert(vm, vm_eval(vm, d->loop_init, t, 1), clang_getCursorType(d->loop_init), vt);
    *step = clang_Cursor_isNull(d->step) ? smt_const(vm->a, type_width(vt), 1)
                                         : convert(vm, vm_eval(vm, d->step, t, 1), clang_getCursorType(d->step), vt);
    return *start && *step;
}

smt_id value_expr(struct value_model *vm, CXCursor expr, int t)
{
    return vm_eval(vm, expr, t, 0);
}

smt_id value_cond(struct value_model *vm, CXCursor expr, int t)
{
    return eval_truth(vm, expr, t, 0);
}
