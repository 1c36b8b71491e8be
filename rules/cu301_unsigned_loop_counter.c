/* cu301_unsigned_loop_counter.c: CU301 flags 32-bit unsigned for-loop counters that feed 64-bit address arithmetic, and offers int when the loop shows it is safe. */
#include "analysis/constprop.h"
#include "analysis/unroll.h"
#include "clang/astutil.h"
#include "core/options.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Why only some loops: unsigned arithmetic wraps modulo 2^32 by definition,
 * so nvcc must recompute `base + k * stride` in 32 bits and zero-extend it
 * for every access; with a signed counter overflow is undefined and it can
 * keep a 64-bit pointer and add a constant.  Measured with nvcc -O3 on PTX,
 * that only changes code when, after the counter becomes int, the index
 * expression becomes signed: another unsigned operand (threadIdx.x,
 * blockDim.x, an unsigned parameter, sizeof) keeps it unsigned, and an
 * unsigned step (i += blockDim.x * gridDim.x) keeps the counter's own
 * arithmetic unsigned.  Indexes into __shared__ and local arrays use 32-bit
 * addresses and do not change at all.  So a loop is reported only when some
 * index would become signed. */

enum step { STEP_NONE, STEP_UP, STEP_DOWN, STEP_OTHER, STEP_UNSIGNED };

struct use_scan {
    struct rule_ctx *ctx;
    CXCursor var;
    CXCursor inc;          /* the for's increment, or null */
    CXCursor *stack;       /* cursors from the for statement down to the current one */
    unsigned depth, cap;
    bool init_const;       /* the start value is a constant ... */
    long long init_value;  /* ... this one */

    /* address uses: any, and one where the counter is part of a larger index */
    bool address, composite;
    CXCursor first_address;
    /* every composite index is X * C + k with C a constant power of two
       (low_bits_c: the smallest such C): k fills the low bits, no carry */
    bool all_low_bits;
    long long low_bits_c;
    /* a composite index where the counter is only added or scaled by
       constants on the way (r * K + k, r * K + 8 * k), not multiplied by a
       run-time value ((r + k) * K) */
    bool any_added;
    /* a composite index with a partner that is not a compile-time constant
       (r * K + k); with constants only (s[k + 5], K[16 + 16 * k]) every
       index of a fully unrolled loop is a constant */
    bool any_varying;
    /* why the int fix is not offered (the first reason found) */
    char *unsafe;
    CXCursor unsafe_at;
};

static enum CXTypeKind kind_of(CXCursor c)
{
    return clang_getCanonicalType(clang_getCursorType(c)).kind;
}

static bool is_signed_kind(enum CXTypeKind k)
{
    return k == CXType_Char_S || k == CXType_SChar || k == CXType_Short || k == CXType_Int ||
           k == CXType_Long || k == CXType_LongLong || k == CXType_Int128 || k == CXType_Enum;
}

static bool refers_to(CXCursor c, CXCursor var)
{
    c = ast_strip(c);
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(c), var);
}

/* Skips parentheses and implicit casts upward: the index of the first real
   parent in the stack above position i. */
static int real_parent(const struct use_scan *s, int i)
{
    int p = i - 1;
    while (p >= 0) {
        enum CXCursorKind k = clang_getCursorKind(s->stack[p]);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) break;
        p--;
    }
    return p;
}

/* Records why int is not safe; takes why. */
static void set_unsafe(struct use_scan *s, CXCursor at, char *why)
{
    if (s->unsafe) {
        free(why);
        return;
    }
    s->unsafe = why;
    s->unsafe_at = at;
}

/* Is a constant, or an expression of signed type (after stripping the
   implicit conversions the unsigned counter caused)? */
static bool signed_or_constant(CXCursor c)
{
    CXCursor s = ast_strip(c);
    if (is_signed_kind(kind_of(s))) return true;
    long long v;
    return ast_eval_int(s, &v) && v >= 0 && v <= INT_MAX && kind_of(s) != CXType_UInt &&
           kind_of(s) != CXType_ULong && kind_of(s) != CXType_ULongLong;
}

static CXCursor var_init(CXCursor var);

/* Does the pointer expression e derive from a __shared__ variable
   (tile, tile + off, &tile[i], or a local pointer initialised so)? */
static bool points_to_shared(CXCursor e, int depth)
{
    if (depth > 4) return false;
    e = ast_strip(e);
    CXCursor kids[2];
    switch (clang_getCursorKind(e)) {
    case CXCursor_DeclRefExpr: {
        CXCursor var = clang_getCursorReferenced(e);
        if (clang_getCursorKind(var) != CXCursor_VarDecl) return false;
        if (ast_has_attr(var, CXCursor_CUDASharedAttr)) return true;
        CXCursor init = var_init(var);
        return !clang_Cursor_isNull(init) && points_to_shared(init, depth + 1);
    }
    case CXCursor_BinaryOperator:
        if (ast_children(e, kids, 2) != 2) return false;
        return points_to_shared(kind_of(ast_strip(kids[0])) == CXType_Pointer ||
                                        kind_of(ast_strip(kids[0])) == CXType_ConstantArray ||
                                        kind_of(ast_strip(kids[0])) == CXType_IncompleteArray
                                    ? kids[0]
                                    : kids[1],
                                depth + 1);
    case CXCursor_UnaryOperator:
        return ast_unop(e) == CXUnaryOperator_AddrOf && points_to_shared(ast_child(e, 0), depth + 1);
    case CXCursor_ArraySubscriptExpr:
        return ast_children(e, kids, 2) == 2 && points_to_shared(kids[0], depth + 1);
    default: return false;
    }
}

/* Does an array subscript or pointer offset on base use 64-bit addresses
   computed per access?  Pointers do; so do arrays in global or constant
   memory.  __shared__ arrays and local arrays are addressed in 32 bits (or
   become registers once a loop is unrolled): the counter's type changes
   nothing there. */
static bool base_is_global_address(CXCursor base)
{
    CXCursor b = ast_strip(base);
    enum CXTypeKind t = kind_of(b);
    if (t == CXType_Pointer) {
        /* A pointer parameter may point anywhere: taken as global.  A local
           pointer set from a __shared__ array is shared. */
        return !points_to_shared(b, 0);
    }
    if (t != CXType_ConstantArray && t != CXType_IncompleteArray && t != CXType_DependentSizedArray)
        return false;
    if (clang_getCursorKind(b) != CXCursor_DeclRefExpr) return false;
    CXCursor var = clang_getCursorReferenced(b);
    if (clang_getCursorKind(var) != CXCursor_VarDecl) return false;
    if (ast_has_attr(var, CXCursor_CUDASharedAttr)) return false;
    /* A local array (not static): registers or local memory. */
    enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(var));
    bool local = pk == CXCursor_FunctionDecl || pk == CXCursor_CXXMethod ||
                 pk == CXCursor_FunctionTemplate || pk == CXCursor_LambdaExpr ||
                 pk == CXCursor_Constructor;
    if (local && clang_Cursor_getStorageClass(var) != CX_SC_Static) return false;
    return true;
}

static void record_address(struct use_scan *s, CXCursor at, bool composite, long long low_c, bool scaled,
                           bool varying)
{
    s->address = true;
    if (composite) {
        if (!scaled) s->any_added = true;
        if (varying) s->any_varying = true;
        if (low_c <= 0) s->all_low_bits = false;
        else if (s->low_bits_c == 0 || low_c < s->low_bits_c) s->low_bits_c = low_c;
    }
    if (composite && !s->composite) {
        s->composite = true;
        s->first_address = at;
    }
}

/* C when e is X * C or X << n (C = 2^n) with C a constant power of two,
   else 0. */
static long long power_of_two_factor(CXCursor e)
{
    e = ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator) return 0;
    CXCursor kids[2];
    if (ast_children(e, kids, 2) != 2) return 0;
    long long c;
    enum CXBinaryOperatorKind op = ast_binop(e);
    if (op == CXBinaryOperator_Shl && ast_eval_int(kids[1], &c) && c > 0 && c < 31) return 1LL << c;
    if (op != CXBinaryOperator_Mul) return 0;
    if (!ast_eval_int(kids[1], &c) && !ast_eval_int(kids[0], &c)) return 0;
    return c > 0 && (c & (c - 1)) == 0 ? c : 0;
}

/* Follows a use of the counter up through + - * with signed operands to a
   subscript or a pointer offset.  Sets address/composite. */
static void trace_address(struct use_scan *s, int ref)
{
    int cur = ref;
    bool composite = false;
    bool scaled = false;  /* multiplied by a run-time value on the way */
    bool varying = false; /* some partner on the way is not a constant */
    long long low_c = 0; /* C when the index so far is X * C + k */
    for (;;) {
        int p = real_parent(s, cur);
        if (p < 0) return;
        CXCursor pc = s->stack[p];
        /* the child on the path, as seen from p (implicit casts included) */
        CXCursor child = s->stack[p + 1];
        enum CXCursorKind pk = clang_getCursorKind(pc);
        if (pk == CXCursor_BinaryOperator) {
            enum CXBinaryOperatorKind op = ast_binop(pc);
            if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub && op != CXBinaryOperator_Mul)
                break;
            CXCursor kids[2];
            if (ast_children(pc, kids, 2) != 2) break;
            CXCursor other = clang_equalCursors(kids[0], child) ? kids[1] : kids[0];
            enum CXTypeKind ot = kind_of(ast_strip(other));
            if ((ot == CXType_Pointer || kind_of(pc) == CXType_Pointer) && op != CXBinaryOperator_Mul) {
                if (kind_of(pc) == CXType_Pointer && base_is_global_address(other))
                    record_address(s, pc, composite, low_c, scaled, varying);
                return;
            }
            /* Only signed partners keep the index signed once the counter is
               int; an unsigned one keeps the whole expression unsigned. */
            if (!ast_is_integer_kind(ot) || !signed_or_constant(other)) return;
            low_c = !composite && op == CXBinaryOperator_Add ? power_of_two_factor(other) : 0;
            long long factor;
            struct constval cv;
            if (!ast_eval_int(other, &factor) &&
                !constprop_value(ctx_analysis(s->ctx, &constprop_analysis), other, &cv)) {
                varying = true;
                if (op == CXBinaryOperator_Mul) scaled = true;
            }
            composite = true;
            cur = p;
            continue;
        }
        if (pk == CXCursor_ArraySubscriptExpr) {
            CXCursor kids[2];
            if (ast_children(pc, kids, 2) != 2 || !clang_equalCursors(kids[1], child)) return;
            if (base_is_global_address(kids[0])) record_address(s, pc, composite, low_c, scaled, varying);
            return;
        }
        if (pk == CXCursor_CompoundAssignOperator) {
            CXCursor kids[2];
            if (ast_children(pc, kids, 2) == 2 && clang_equalCursors(kids[1], child) &&
                kind_of(kids[0]) == CXType_Pointer && base_is_global_address(kids[0]))
                record_address(s, pc, composite, low_c, scaled, varying);
            return;
        }
        return;
    }
}

/* Does the value at stack position i end up as an index or pointer offset
   (through + - * and implicit conversions)? */
static bool feeds_index(const struct use_scan *s, int i)
{
    for (;;) {
        int p = real_parent(s, i);
        if (p < 0) return false;
        CXCursor pc = s->stack[p];
        enum CXCursorKind pk = clang_getCursorKind(pc);
        if (pk == CXCursor_ArraySubscriptExpr) {
            CXCursor kids[2];
            return ast_children(pc, kids, 2) == 2 && clang_equalCursors(kids[1], s->stack[p + 1]);
        }
        if (pk != CXCursor_BinaryOperator) return false;
        enum CXBinaryOperatorKind op = ast_binop(pc);
        if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub && op != CXBinaryOperator_Mul)
            return false;
        if (kind_of(pc) == CXType_Pointer) return true;
        i = p;
    }
}

/* Checks one use of the counter for what would make `int` unsafe. */
static void check_fix_safety(struct use_scan *s, int ref)
{
    int p = real_parent(s, ref);
    if (p < 0) return;
    CXCursor pc = s->stack[p];
    CXCursor child = s->stack[p + 1];
    enum CXCursorKind pk = clang_getCursorKind(pc);
    bool in_inc = false;
    for (unsigned i = 0; i < s->depth; i++)
        if (!clang_Cursor_isNull(s->inc) && clang_equalCursors(s->stack[i], s->inc)) in_inc = true;

    if (pk == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = ast_unop(pc);
        if (op == CXUnaryOperator_AddrOf) set_unsafe(s, pc, xstrdup("its address is taken"));
        else if (!in_inc && ast_unop_is_incdec(op))
            set_unsafe(s, pc, xstrdup("it is also changed in the loop body"));
        return;
    }
    if (pk == CXCursor_CompoundAssignOperator || (pk == CXCursor_BinaryOperator &&
                                                  ast_binop(pc) == CXBinaryOperator_Assign)) {
        CXCursor kids[2];
        if (ast_children(pc, kids, 2) == 2 && clang_equalCursors(kids[0], child) && !in_inc)
            set_unsafe(s, pc, xstrdup("it is also changed in the loop body"));
        return;
    }
    if (pk == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(pc);
        CXCursor kids[2];
        if (ast_children(pc, kids, 2) != 2) return;
        bool left = clang_equalCursors(kids[0], child);
        CXCursor other = left ? kids[1] : kids[0];
        if (op == CXBinaryOperator_LT || op == CXBinaryOperator_GT || op == CXBinaryOperator_LE ||
            op == CXBinaryOperator_GE || op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) {
            if (!signed_or_constant(other)) {
                char *t = ctx_use_text(s->ctx, ast_strip(other));
                set_unsafe(s, pc, xasprintf("it is compared with the unsigned value '%s'", t));
                free(t);
            }
            return;
        }
        if (op == CXBinaryOperator_Sub) {
            /* k - c stays non-negative when k starts at c or above.  A
               difference used as an index (a[n - 1 - k]) would have been out
               of bounds had it wrapped.  Anything else may go below zero,
               where unsigned wraps around and int does not. */
            long long c;
            bool ok = (left && s->init_const && ast_eval_int(other, &c) && c >= 0 &&
                       c <= s->init_value) || feeds_index(s, p);
            if (!ok) {
                char *t = ctx_use_text(s->ctx, pc);
                set_unsafe(s, pc, xasprintf("'%s' may go below zero, where unsigned arithmetic "
                                            "wraps around", t));
                free(t);
            }
        }
        return;
    }
    if (pk == CXCursor_CallExpr) {
        /* Passed without conversion, the counter's type picks the overload
           or the template argument (min(k, n)): int could change which
           function is called, or make the call ambiguous.  A converted
           argument (a float or size_t parameter) keeps its meaning. */
        if (kind_of(child) == CXType_UInt) {
            CXCursor fn = clang_getCursorReferenced(pc);
            char *name = ast_spelling(ast_is_null(fn) ? pc : fn);
            set_unsafe(s, pc, xasprintf("it is passed as unsigned to '%s'", name));
            free(name);
        }
        return;
    }
}

static enum CXChildVisitResult scan_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct use_scan *s = data;
    XGROW(s->stack, s->depth, s->cap, 32);
    s->stack[s->depth++] = c;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), s->var)) {
        trace_address(s, (int)s->depth - 1);
        check_fix_safety(s, (int)s->depth - 1);
    }
    /* Bounded like the walk itself (each level is stack in libclang). */
    if (s->depth < WALK_MAX_DEPTH) clang_visitChildren(c, scan_visit, s);
    s->depth--;
    return CXChildVisit_Continue;
}

/* How the increment expression changes var. */
static enum step step_of(CXCursor inc, CXCursor var)
{
    if (clang_Cursor_isNull(inc)) return STEP_NONE;
    CXCursor c = ast_strip(inc);
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor kids[2];
    if (k == CXCursor_BinaryOperator && ast_binop(c) == CXBinaryOperator_Comma) {
        if (ast_children(c, kids, 2) != 2) return STEP_OTHER;
        enum step a = step_of(kids[0], var), b = step_of(kids[1], var);
        if (a != STEP_NONE && b != STEP_NONE) return STEP_OTHER;
        return a != STEP_NONE ? a : b;
    }
    if (k == CXCursor_UnaryOperator) {
        if (!refers_to(ast_child(c, 0), var)) return STEP_NONE;
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc) return STEP_UP;
        if (op == CXUnaryOperator_PreDec || op == CXUnaryOperator_PostDec) return STEP_DOWN;
        return STEP_NONE;
    }
    if (k == CXCursor_CompoundAssignOperator) {
        if (ast_children(c, kids, 2) != 2 || !refers_to(kids[0], var)) return STEP_NONE;
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (op != CXBinaryOperator_AddAssign && op != CXBinaryOperator_SubAssign)
            return STEP_OTHER; /* s >>= 1, s *= 2: not a linear induction variable */
        /* k += blockDim.x * gridDim.x stays unsigned arithmetic even with an
           int counter: the change alone gains nothing. */
        if (!signed_or_constant(kids[1])) return STEP_UNSIGNED;
        return op == CXBinaryOperator_AddAssign ? STEP_UP : STEP_DOWN;
    }
    if (k == CXCursor_BinaryOperator && ast_binop(c) == CXBinaryOperator_Assign) {
        if (ast_children(c, kids, 2) != 2 || !refers_to(kids[0], var)) return STEP_NONE;
        CXCursor rhs = ast_strip(kids[1]), rk[2];
        if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator || ast_children(rhs, rk, 2) != 2)
            return STEP_OTHER;
        enum CXBinaryOperatorKind op = ast_binop(rhs);
        if (op == CXBinaryOperator_Add && (refers_to(rk[0], var) || refers_to(rk[1], var))) {
            CXCursor step = refers_to(rk[0], var) ? rk[1] : rk[0];
            return signed_or_constant(step) ? STEP_UP : STEP_UNSIGNED;
        }
        if (op == CXBinaryOperator_Sub && refers_to(rk[0], var))
            return signed_or_constant(rk[1]) ? STEP_DOWN : STEP_UNSIGNED;
        return STEP_OTHER;
    }
    return STEP_NONE;
}

/* The for statement's parts.  libclang omits absent parts from the children,
   so the header's top-level semicolons tell which child is which. */
struct for_parts {
    CXCursor loop, init, cond, inc, body;
    bool from_macro; /* the for statement is written inside a macro */
};

static bool split_for(struct rule_ctx *ctx, CXCursor loop, struct for_parts *fp)
{
    CXCursor kids[6];
    unsigned n = ast_children(loop, kids, 6);
    if (n < 2 || n > 4) return false;
    fp->loop = loop;
    fp->init = kids[0];
    fp->body = kids[n - 1];
    fp->cond = fp->inc = clang_getNullCursor();
    if (clang_getCursorKind(fp->init) != CXCursor_DeclStmt) return false;
    CXSourceRange ext = clang_getCursorExtent(loop);
    unsigned eo, so;
    clang_getExpansionLocation(clang_getRangeStart(ext), NULL, NULL, NULL, &eo);
    clang_getSpellingLocation(clang_getRangeStart(ext), NULL, NULL, NULL, &so);
    fp->from_macro = eo != so;
    if (fp->from_macro) {
        /* No tokens to look at: only a complete header is unambiguous. */
        if (n != 4) return false;
        fp->cond = kids[1];
        fp->inc = kids[2];
        return clang_getCursorKind(fp->cond) != CXCursor_DeclStmt;
    }
    CXSourceLocation body_start = clang_getRangeStart(clang_getCursorExtent(fp->body));
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(ctx->tu, clang_getRange(clang_getRangeStart(ext), body_start), &toks, &nt);
    unsigned semis[2] = {0, 0}, ns = 0;
    int depth = 0;
    for (unsigned i = 0; i < nt && ns < 2; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation) continue;
        CXString sp = clang_getTokenSpelling(ctx->tu, toks[i]);
        const char *t = clang_getCString(sp);
        if (strcmp(t, "(") == 0 || strcmp(t, "[") == 0 || strcmp(t, "{") == 0) depth++;
        else if (strcmp(t, ")") == 0 || strcmp(t, "]") == 0 || strcmp(t, "}") == 0) depth--;
        else if (strcmp(t, ";") == 0 && depth == 1) {
            unsigned off;
            clang_getExpansionLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL, NULL, NULL, &off);
            semis[ns++] = off;
        }
        clang_disposeString(sp);
    }
    clang_disposeTokens(ctx->tu, toks, nt);
    if (ns != 2) return false;
    for (unsigned i = 1; i + 1 < n; i++) {
        unsigned off;
        clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(kids[i])), NULL, NULL,
                                   NULL, &off);
        if (off < semis[1]) fp->cond = kids[i];
        else fp->inc = kids[i];
    }
    /* for (; int x = f(); ) puts a declaration in the condition. */
    if (!clang_Cursor_isNull(fp->cond) && clang_getCursorKind(fp->cond) == CXCursor_DeclStmt)
        return false;
    return true;
}

/* The initializer of a VarDecl, or a null cursor. */
static CXCursor var_init(CXCursor var)
{
    CXCursor kids[8];
    unsigned n = ast_children(var, kids, 8);
    for (unsigned i = n; i-- > 0;) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (clang_isExpression(k)) return kids[i];
    }
    return clang_getNullCursor();
}

/* Is e built from CUDA's thread/block indices and dimensions and small
   constants?  Those values fit in int for every launch the hardware allows
   below 2^31 threads, and CUDA's own examples hold them in int. */
static bool is_index_expr(struct rule_ctx *ctx, CXCursor e)
{
    e = ast_strip(e);
    long long v;
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(e);
        CXCursor kids[2];
        if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Mul) || ast_children(e, kids, 2) != 2)
            return false;
        return is_index_expr(ctx, kids[0]) && is_index_expr(ctx, kids[1]);
    }
    if (ast_eval_int(e, &v)) return v >= 0 && v <= INT_MAX;
    if (k == CXCursor_MemberRefExpr) {
        char *t = ctx_use_text(ctx, e);
        bool ok = str_starts_with(t, "threadIdx") || str_starts_with(t, "blockIdx") ||
                  str_starts_with(t, "blockDim") || str_starts_with(t, "gridDim");
        free(t);
        return ok;
    }
    if (k == CXCursor_DeclRefExpr) {
        char *t = ast_spelling(e);
        bool ok = strcmp(t, "warpSize") == 0;
        free(t);
        return ok;
    }
    return false;
}

/* Finds the bound: a comparison of the counter in the condition (possibly
   one operand of &&).  Returns the other operand, or a null cursor. */
static CXCursor find_bound(CXCursor cond, CXCursor var, bool *inclusive)
{
    CXCursor c = ast_strip(cond);
    CXCursor kids[2];
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator || ast_children(c, kids, 2) != 2)
        return clang_getNullCursor();
    enum CXBinaryOperatorKind op = ast_binop(c);
    if (op == CXBinaryOperator_LAnd) {
        CXCursor b = find_bound(kids[0], var, inclusive);
        return clang_Cursor_isNull(b) ? find_bound(kids[1], var, inclusive) : b;
    }
    bool l = refers_to(kids[0], var), r = refers_to(kids[1], var);
    if (l == r) return clang_getNullCursor();
    if ((l && (op == CXBinaryOperator_LT || op == CXBinaryOperator_NE)) ||
        (r && (op == CXBinaryOperator_GT || op == CXBinaryOperator_NE))) {
        *inclusive = false;
        return l ? kids[1] : kids[0];
    }
    if ((l && op == CXBinaryOperator_LE) || (r && op == CXBinaryOperator_GE)) {
        *inclusive = true;
        return l ? kids[1] : kids[0];
    }
    return clang_getNullCursor();
}

/* The tokens spelling the counter's type, from the declaration's start to
   its name: they become "int".  False when they cannot be rewritten safely
   (a macro, auto, qualifiers). */
static bool type_range(struct rule_ctx *ctx, CXCursor var, CXSourceRange *out)
{
    CXSourceRange ext = clang_getCursorExtent(var);
    CXSourceLocation name = clang_getCursorLocation(var);
    CXFile f1, f2;
    unsigned o1, o2, s1, s2;
    clang_getExpansionLocation(clang_getRangeStart(ext), &f1, NULL, NULL, &o1);
    clang_getSpellingLocation(clang_getRangeStart(ext), &f2, NULL, NULL, &s1);
    if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o1 != s1) return false; /* from a macro */
    clang_getExpansionLocation(name, NULL, NULL, NULL, &o2);
    clang_getSpellingLocation(name, NULL, NULL, NULL, &s2);
    if (o2 != s2 || o2 <= o1) return false;
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(ctx->tu, clang_getRange(clang_getRangeStart(ext), name), &toks, &n);
    bool ok = n > 0;
    CXSourceLocation end = clang_getRangeStart(ext);
    for (unsigned i = 0; i < n && ok; i++) {
        unsigned off;
        clang_getExpansionLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL, NULL, NULL, &off);
        if (off >= o2) break;
        CXString sp = clang_getTokenSpelling(ctx->tu, toks[i]);
        const char *t = clang_getCString(sp);
        enum CXTokenKind tk = clang_getTokenKind(toks[i]);
        if (tk == CXToken_Keyword) {
            ok = strcmp(t, "unsigned") == 0 || strcmp(t, "int") == 0;
        } else if (tk == CXToken_Punctuation) {
            ok = strcmp(t, "::") == 0;
        } else if (tk != CXToken_Identifier) {
            ok = false;
        }
        clang_disposeString(sp);
        end = clang_getRangeEnd(clang_getTokenExtent(ctx->tu, toks[i]));
    }
    clang_disposeTokens(ctx->tu, toks, n);
    if (!ok) return false;
    *out = clang_getRange(clang_getRangeStart(ext), end);
    return true;
}

/* Does nvcc unroll the loop fully, with the counter (counting up by one from
   start) staying below limit? */
static bool counter_below(struct rule_ctx *ctx, const struct for_parts *fp, long long start,
                          long long limit)
{
    CXCursor loop = fp->loop;
    if (clang_Cursor_isNull(ctx->function)) return false;
    struct constprop *cp = ctx_analysis(ctx, &constprop_analysis);
    long long trip;
    if (unroll_loop(ctx->tu, ctx->function, cp, loop) != UNROLL_FULLY ||
        !unroll_trip_count(cp, loop, &trip))
        return false;
    CXCursor kids[4];
    if (ast_children(loop, kids, 4) != 4) return false;
    CXCursor inc = ast_strip(kids[2]);
    if (clang_getCursorKind(inc) != CXCursor_UnaryOperator ||
        (ast_unop(inc) != CXUnaryOperator_PreInc && ast_unop(inc) != CXUnaryOperator_PostInc))
        return false;
    return start + trip <= limit;
}

/* Does the int counter change nvcc's code, as far as the trip count tells?
   A loop whose counter takes one value gains nothing.  A loop nvcc unrolls
   fully becomes copies with constant counters, and whether the signed
   copies save instructions depends on the index: measured with nvcc 13.0
   -O3 sm_90 (tests/unroll_threshold.py keeps the measurement), an index that
   adds the counter (r * K + k, r * K + 8 * k) saves from 2 trips on, but one
   that multiplies it by a run-time value ((r + k) * K, k * K) is the same
   code up to 2 trips, differs at 3 and 4 only with two or more such indexes,
   and saves from 5 trips on; so up to 4 trips it is not reported.  An index
   whose other operands are all constants (p[k + 5]) is a constant in every
   unrolled copy: identical PTX (the sixth set's four false alarms).  A trip
   count that is a constant of a value not known here (a template
   parameter's) may be 1, or small enough for full unrolling: it cannot be
   told, and nothing is said. */
static bool unrolled_copies_gain(struct rule_ctx *ctx, const struct for_parts *fp, const struct use_scan *s)
{
    if (clang_Cursor_isNull(ctx->function)) return true;
    struct constprop *cp = ctx_analysis(ctx, &constprop_analysis);
    long long trip;
    if (unroll_trip_count(cp, fp->loop, &trip)) {
        if (trip <= 1) return false;
        bool unrolled = unroll_loop(ctx->tu, ctx->function, cp, fp->loop) == UNROLL_FULLY;
        /* every unrolled index a constant: nothing left to compute */
        if (unrolled && !s->any_varying) return false;
        if (unrolled && !s->any_added && trip <= NVCC_SCALED_INDEX_SAME_MAX_TRIP) return false;
        return true;
    }
    return !unroll_trip_is_constant(cp, fp->loop);
}

static void check_counter(struct rule_ctx *ctx, const struct for_parts *fp, CXCursor var,
                          unsigned n_decls)
{
    enum step step = step_of(fp->inc, var);
    /* Not the induction variable, a shift- or multiply-controlled loop, or an
       unsigned step that an int counter would not change: nothing to gain. */
    if (step != STEP_UP && step != STEP_DOWN) return;

    struct use_scan s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.var = var;
    s.inc = fp->inc;
    s.first_address = clang_getNullCursor();
    s.unsafe_at = clang_getNullCursor();
    s.all_low_bits = true;
    CXCursor init = var_init(var);
    s.init_const = !clang_Cursor_isNull(init) && ast_eval_int(init, &s.init_value);

    CXCursor parts[3] = {fp->cond, fp->inc, fp->body};
    for (unsigned i = 0; i < 3; i++) {
        if (clang_Cursor_isNull(parts[i])) continue;
        s.depth = 0;
        /* scan_visit pushes children; push the part itself first. */
        scan_visit(parts[i], clang_getNullCursor(), &s);
    }
    /* A bare index (in[k], p + k) is not reported: nvcc proves that k + 1 ..
       k + 3 do not wrap in an unrolled body, so it costs one zero-extension
       per unrolled group, and nothing when p points to shared memory, which
       a pointer parameter does not tell. */
    if (!s.address || !s.composite) {
        free(s.stack);
        free(s.unsafe);
        return;
    }

    /* Fully unrolled, with every composite index X * C + k where k stays
       below the power of two C: nvcc 13.0 gives the same PTX instruction
       count as with int (A[col * 8 + k] over 8 trips: 34 and 34; with C = 4
       or 10, or 16 trips: 37, 43, 53 against 34, 34, 50). */
    if (s.all_low_bits && s.low_bits_c > 0 && s.init_const && s.init_value >= 0 &&
        counter_below(ctx, fp, s.init_value, s.low_bits_c)) {
        free(s.stack);
        free(s.unsafe);
        return;
    }

    if (!unrolled_copies_gain(ctx, fp, &s)) {
        free(s.stack);
        free(s.unsafe);
        return;
    }

    /* Reasons the loop itself gives against int. */
    char *reason = NULL;
    CXCursor reason_at = var;
    if (fp->from_macro) {
        reason = xstrdup("the loop is written inside a macro");
    } else if (n_decls > 1) {
        reason = xstrdup("the declaration also declares other variables");
    } else if (step == STEP_DOWN) {
        reason = xstrdup("it counts down, and the loop may rely on unsigned wraparound to stop");
    } else if (clang_Cursor_isNull(init)) {
        reason = xstrdup("it has no start value");
    } else if (!(s.init_const ? (s.init_value >= 0 && s.init_value <= INT_MAX)
                              : is_index_expr(ctx, init))) {
        char *t = ctx_use_text(ctx, ast_strip(init));
        reason = is_signed_kind(kind_of(ast_strip(init)))
                     ? xasprintf("its start value '%s' is not known to be non-negative", t)
                     : xasprintf("its start value '%s' is not known to fit in int", t);
        free(t);
        reason_at = init;
    } else {
        bool inclusive = false;
        CXCursor bound = clang_Cursor_isNull(fp->cond) ? clang_getNullCursor()
                                                       : find_bound(fp->cond, var, &inclusive);
        long long bv;
        if (clang_Cursor_isNull(bound)) {
            reason = xstrdup("the loop condition does not bound it with <, <= or !=");
        } else if (ast_eval_int(bound, &bv)) {
            if (bv < 0 || bv > INT_MAX || (inclusive && bv == INT_MAX)) {
                reason = xasprintf("its bound %lld does not fit in int", bv);
                reason_at = bound;
            }
        } else if (!is_signed_kind(kind_of(ast_strip(bound)))) {
            char *t = ctx_use_text(ctx, ast_strip(bound));
            reason = xasprintf("its bound '%s' is unsigned: an int counter would compare signed "
                               "with unsigned (make both int)", t);
            free(t);
            reason_at = bound;
        }
    }
    if (!reason && s.unsafe) {
        reason = s.unsafe;
        s.unsafe = NULL;
        reason_at = s.unsafe_at;
    }
    CXSourceRange tr;
    if (!reason && !type_range(ctx, var, &tr))
        reason = xstrdup("its type is not spelled as a plain type name here (a macro, auto or qualifiers)");

    char *name = ast_spelling(var);
    struct diag *d = ctx_report(ctx, var,
                                "unsigned loop counter '%s' feeds address arithmetic: its 32-bit "
                                "wraparound keeps nvcc from strength-reducing the address to a "
                                "pointer increment; use int", name);
    if (d) {
        ctx_note(ctx, d, s.first_address, "used in an address here");
        if (reason) ctx_note(ctx, d, reason_at, "no automatic fix: %s", reason);
        else ctx_fix(ctx, d, tr, "int");
    }
    free(name);
    free(reason);
    free(s.stack);
    free(s.unsafe);
}

static void cu301_on_cursor(struct rule_ctx *ctx, CXCursor loop)
{
    bool wanted = ctx_rule_applies_here(ctx);
    if (!wanted || ctx_in_instantiation(ctx)) return;
    struct for_parts fp;
    if (!split_for(ctx, loop, &fp)) return;
    /* A loop nvcc unrolls fully is still reported: with A[row * K + k] the
       unrolled unsigned loop recomputes and zero-extends every address (89
       PTX instructions against 58 with int at 8 trips, tests/unroll_threshold.py
       checks it for every trip count 2..64), because row * K + 3u may wrap
       where row * K + 3 may not. */
    CXCursor decls[8];
    unsigned n = ast_children(fp.init, decls, 8);
    for (unsigned i = 0; i < n; i++) {
        if (clang_getCursorKind(decls[i]) != CXCursor_VarDecl) continue;
        /* 32-bit unsigned: unsigned, unsigned int, uint32_t and typedefs of
           them.  size_t and other 64-bit counters have no zero-extension to
           pay; see the doc's Exceptions. */
        if (kind_of(decls[i]) != CXType_UInt) continue;
        check_counter(ctx, &fp, decls[i], n);
    }
}

static const enum CXCursorKind cu301_kinds[] = {CXCursor_ForStmt, 0};

const struct rule rule_cu301 = {
    .code = "CU301",
    .name = "unsigned-loop-counter",
    .summary = "A 32-bit unsigned loop counter used in address arithmetic blocks strength reduction.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "0.00 (sixth frozen test set of 2026-12-07: 0 of 4 findings true: fully unrolled loops whose indices are constants; the fifth set read 2 of 9)",
    .version = 3,
    .has_fix = true,
    .doc = "rules/CU301-unsigned-loop-counter.md",
    .kernel = "kernels/cu301_unsigned_loop_counter",
    .subscriptions = cu301_kinds,
    .on_cursor = cu301_on_cursor,
};
