/* value_memory.c: the values the value model does not compute
 * (value_internal.h): reads of memory and floating-point arithmetic as
 * symbols per thread, related across the pair by congruence; the addresses
 * that reads name (pointer arithmetic, fields, array elements), which the
 * congruence of a read compares.
 *
 * A read of memory, or arithmetic on floating-point values, is a symbol per
 * thread of the pair.  What still relates the two threads is that it is a
 * function of things the model does compute: the same address read where
 * the memory holds one value per address (uniformity_load_content_varies),
 * the same float operation on equal operands.  For two threads that is
 * Ackermann's reduction of an uninterpreted function: the fact "equal
 * arguments give equal results" for the one pair of applications. */
#include "analysis/value_internal.h"
#include "base/util.h"
#include "clang/astutil.h"

#include <stdio.h>

/* ---- congruence ---- */

static unsigned expr_key(CXCursor e, unsigned salt)
{
    return (vm_start_of(e) * 2654435761u ^ vm_end_of(e) ^ (unsigned)clang_getCursorKind(e) << 24) + salt * 40503u;
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
    vm_assume(vm, smt_bin(a, SMT_BOR, smt_un(a, SMT_BNOT, same), smt_bin(a, SMT_EQ, v1, v2)));
}

/* e's value in thread t as an uninterpreted function of the operands ops:
   one symbol per thread (shared when the pair shares e), with the fact that
   equal operands give equal values.  salt tells apart several questions
   about one expression (its value, its truth). */
smt_id vm_apply(struct value_model *vm, CXCursor e, unsigned salt, unsigned width, int t, const CXCursor *ops,
                unsigned n, int depth)
{
    char name[48];
    unsigned key = expr_key(e, salt);
    if (!t || vm_shared_in_pair(vm, e)) {
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
            x1[i] = vm_eval(vm, ops[i], 1, depth + 1);
            x2[i] = vm_eval(vm, ops[i], 2, depth + 1);
        }
        congruence_fact(vm, x1, x2, n, v[0], v[1]);
    }
    return v[t - 1];
}

/* ---- addresses ---- */

/* i (an integer of type it) as a 64-bit offset. */
static smt_id to_offset(struct value_model *vm, smt_id i, CXType it)
{
    if (!i) return 0;
    unsigned w = smt_width(vm->a, i);
    if (w == 64) return i;
    if (w == 0) return smt_ite(vm->a, i, smt_const(vm->a, 64, 1), smt_const(vm->a, 64, 0));
    return smt_ext(vm->a, vm_type_signed(it) ? SMT_SEXT : SMT_ZEXT, i, 64);
}

/* p + i elements of size bytes (C's pointer arithmetic). */
smt_id vm_pointer_offset(struct value_model *vm, smt_id p, smt_id i, CXType it, long long size, bool minus)
{
    smt_id off = to_offset(vm, i, it);
    if (!p || !off || size <= 0 || smt_width(vm->a, p) != 64) return 0;
    off = smt_bin(vm->a, SMT_MUL, off, smt_const(vm->a, 64, (uint64_t)size));
    return smt_bin(vm->a, minus ? SMT_SUB : SMT_ADD, p, off);
}

long long vm_pointee_size(CXType pointer)
{
    return clang_Type_getSizeOf(clang_getCanonicalType(clang_getPointeeType(clang_getCanonicalType(pointer))));
}

/* The address an lvalue expression names, in thread t (64 bits), or 0.
   Variables' own storage is a symbol the pair shares: a thread's local
   array and another's hold the same values where the uniformity analysis
   says what they hold does not vary, which is all a read compares. */
smt_id vm_eval_address(struct value_model *vm, CXCursor e, int t, int depth)
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
            struct def *df = vm_is_local_var(vm, d) ? vm_def_get(vm, d, NULL, false) : NULL;
            CXCursor init;
            if (df && df->writes == 0 && !df->escaped && df->has_init)
                return vm_eval_address(vm, df->init, t, depth + 1);
            if (!df && vm_is_local_var(vm, d) && vm_has_real_init(d, &init))
                return vm_eval_address(vm, init, t, depth + 1);
            return 0;
        }
        char name[64];
        snprintf(name, sizeof name, "$addr@%x", vm_start_of(d));
        return smt_sym(vm->a, 64, name);
    }
    case CXCursor_MemberRefExpr: {
        CXCursor field = clang_getCursorReferenced(s);
        if (clang_getCursorKind(field) != CXCursor_FieldDecl) return 0;
        long long bits = clang_Cursor_getOffsetOfField(field);
        CXCursor base = ast_child(s, 0);
        if (bits < 0 || bits % 8 || clang_Cursor_isNull(base)) return 0;
        smt_id b = vm_type_pointer(clang_getCursorType(base)) ? vm_eval(vm, base, t, depth + 1)
                                                             : vm_eval_address(vm, base, t, depth + 1);
        if (!b || smt_width(vm->a, b) != 64) return 0;
        return bits ? smt_bin(vm->a, SMT_ADD, b, smt_const(vm->a, 64, (uint64_t)(bits / 8))) : b;
    }
    case CXCursor_ArraySubscriptExpr: {
        CXCursor b = ast_child(s, 0), i = ast_child(s, 1);
        if (!vm_type_pointer(clang_getCursorType(b))) {
            CXCursor x = b;
            b = i;
            i = x;
        }
        if (!vm_type_pointer(clang_getCursorType(b)) || !vm_type_integer(clang_getCursorType(i))) return 0;
        return vm_pointer_offset(vm, vm_eval(vm, b, t, depth + 1), vm_eval(vm, i, t, depth + 1),
                                 clang_getCursorType(i),
                                 clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(s))), false);
    }
    case CXCursor_UnaryOperator: {
        if (ast_unop(s) != CXUnaryOperator_Deref) return 0;
        CXCursor p = ast_child(s, 0);
        return vm_type_pointer(clang_getCursorType(p)) ? vm_eval(vm, p, t, depth + 1) : 0;
    }
    default:
        return 0;
    }
}

/* ---- reads of memory, the truth of a float ---- */

/* Is e a read of memory (or of a variable's storage through an lvalue the
   definitions table does not follow)? */
bool vm_is_memory_read(CXCursor e)
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
   vm_opaque() names it), with the fact that the two threads read equal values
   at equal addresses where what the memory holds does not vary. */
smt_id vm_load_value(struct value_model *vm, CXCursor e, const char *name, unsigned key, int t, int depth)
{
    smt_id v = vm_opaque(vm, e, name, key, t);
    if (!v || !t || vm_shared_in_pair(vm, e) || !vm->u) return v;
    CXType type = clang_getCursorType(e);
    if (clang_isVolatileQualifiedType(type) || uniformity_load_content_varies(vm->u, e)) return v;
    if (congruence_seen(vm, expr_key(e, 7))) return v;
    smt_id a1 = vm_eval_address(vm, e, 1, depth + 1), a2 = vm_eval_address(vm, e, 2, depth + 1);
    if (!a1 || !a2) return v;
    congruence_fact(vm, &a1, &a2, 1, vm_opaque(vm, e, name, key, 1), vm_opaque(vm, e, name, key, 2));
    return v;
}

/* The truth of a floating-point value: a function of it (C's rule, where
   -0.0 is false, is not the bit pattern's). */
smt_id vm_float_truth(struct value_model *vm, CXCursor e, int t, int depth)
{
    return smt_bin(vm->a, SMT_EQ, vm_apply(vm, e, 1, 32, t, &e, 1, depth), smt_const(vm->a, 32, 1));
}
