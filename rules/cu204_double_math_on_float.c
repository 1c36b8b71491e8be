/* cu204_double_math_on_float.c: CU204 flags a double-precision math-library
 * call in device code whose floating arguments are all float values
 * converted to double (`sin((double)x)`) and whose result is converted
 * straight back to float: the double routine's cost buys nothing.  CU201
 * covers the promotions caused by unsuffixed literals; this rule the casts.
 * Fix-it: the float function (`sinf(x)`), or for std::-qualified calls the
 * same name without the casts (the float overload). */
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

/* C math functions with a float version named NAMEf, callable in device code. */
static const char *const FLOAT_NAMES[] = {
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos",
    "cosh", "cospi", "erf", "erfc", "erfcinv", "erfcx", "erfinv", "exp", "exp10", "exp2", "expm1",
    "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "hypot", "ldexp", "lgamma", "log",
    "log10", "log1p", "log2", "logb", "nearbyint", "norm3d", "pow", "rcbrt", "remainder", "rhypot",
    "rint", "round", "rsqrt", "scalbn", "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tgamma",
    "trunc", NULL};

static bool has_float_version(const char *name)
{
    for (int i = 0; FLOAT_NAMES[i]; i++)
        if (strcmp(FLOAT_NAMES[i], name) == 0) return true;
    return false;
}

static enum CXTypeKind kind_of(CXCursor c)
{
    return clang_getCanonicalType(clang_getCursorType(c)).kind;
}

static bool is_cast_kind(enum CXCursorKind k)
{
    return k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
           k == CXCursor_CXXFunctionalCastExpr;
}

/* The float expression an argument converts to double, or a null cursor:
   an explicit cast of a float expression, or an implicit conversion of
   one.  *explicit_cast is set for a written cast. */
static CXCursor float_source(CXCursor arg, bool *explicit_cast)
{
    *explicit_cast = false;
    CXCursor c = arg;
    for (int i = 0; i < 6; i++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (is_cast_kind(k)) {
            CXCursor kids[4];
            unsigned n = ast_children(c, kids, 4);
            if (!n || kind_of(c) != CXType_Double) return clang_getNullCursor();
            CXCursor inner = ast_strip(kids[n - 1]);
            if (kind_of(inner) != CXType_Float) return clang_getNullCursor();
            *explicit_cast = true;
            return kids[n - 1];
        }
        if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr) {
            CXCursor inner = ast_child(c, 0);
            if (clang_Cursor_isNull(inner)) break;
            if (k == CXCursor_UnexposedExpr && kind_of(c) == CXType_Double &&
                kind_of(inner) == CXType_Float)
                return inner; /* an implicit float -> double conversion */
            c = inner;
            continue;
        }
        break;
    }
    return clang_getNullCursor();
}

/* Is the call's double result converted to float right away? */
static bool result_to_float(struct rule_ctx *ctx)
{
    for (unsigned i = 0; i < 4; i++) {
        CXCursor p = ctx_parent(ctx, i);
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_ParenExpr) continue;
        if (k == CXCursor_UnexposedExpr || is_cast_kind(k) || k == CXCursor_VarDecl) {
            if (kind_of(p) == CXType_Float) return true;
            if (k == CXCursor_UnexposedExpr && kind_of(p) == CXType_Double) continue;
            return false;
        }
        return false;
    }
    return false;
}

static void cu204_on_cursor(struct rule_ctx *ctx, CXCursor call)
{
    if (!ctx_rule_applies_here(ctx) || ctx_in_instantiation(ctx)) return;
    if (kind_of(call) != CXType_Double) return;
    CXCursor fn = clang_getCursorReferenced(call);
    if (ast_is_null(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl) return;
    if (!clang_Location_isInSystemHeader(clang_getCursorLocation(fn))) return;
    char *name = ast_spelling(fn);
    if (!has_float_version(name)) {
        free(name);
        return;
    }
    int na = clang_Cursor_getNumArguments(call);
    if (na < 1 || na > 3) {
        free(name);
        return;
    }
    /* every floating argument a float converted to double; at least one cast */
    CXCursor src[3];
    bool cast[3] = {false, false, false}, any_float = false;
    for (int i = 0; i < na; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        src[i] = clang_getNullCursor();
        enum CXTypeKind ak = kind_of(arg);
        if (ak != CXType_Double) {
            if (!ast_is_integer_kind(ak)) {
                free(name);
                return;
            }
            continue;
        }
        src[i] = float_source(arg, &cast[i]);
        if (clang_Cursor_isNull(src[i])) {
            free(name);
            return;
        }
        any_float = true;
    }
    if (!any_float || !result_to_float(ctx)) {
        free(name);
        return;
    }
    int fi = 0;
    while (fi < na && clang_Cursor_isNull(src[fi])) fi++;
    char *first = ctx_use_text(ctx, ast_strip(src[fi]));
    struct diag *d = ctx_report(
        ctx, call,
        "'%s' runs in double precision on the float value%s '%s'%s converted to double, and its "
        "result is rounded back to float: '%sf' computes the float result at single-precision "
        "cost",
        name, na > 1 ? "s" : "", first, na > 1 ? ", ..." : "", name);
    free(first);
    if (!d) {
        free(name);
        return;
    }
    /* fix-it: NAMEf(args without their double casts), or std::NAME(args) */
    char *call_text = ast_plain_source(ctx->tu, call, NULL);
    CXCursor callee_ref = ast_child(call, 0);
    char *callee_text = !clang_Cursor_isNull(callee_ref) ? ast_plain_source(ctx->tu, callee_ref, NULL) : NULL;
    bool ok = call_text && callee_text;
    struct strbuf rep;
    sb_init(&rep);
    if (ok) {
        bool qualified = strstr(callee_text, "::") != NULL;
        if (qualified && strncmp(callee_text, "std::", 5) != 0) ok = false;
        sb_addf(&rep, "%s%s(", qualified ? callee_text : name, qualified ? "" : "f");
    }
    for (int i = 0; ok && i < na; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        CXCursor use = clang_Cursor_isNull(src[i]) ? arg : src[i];
        /* (double)(x + y): the parentheses are the cast's, not needed in a call */
        if (cast[i]) {
            CXCursor inner = ast_strip(use);
            if (clang_getCursorKind(inner) != CXCursor_BinaryOperator ||
                ast_binop(inner) != CXBinaryOperator_Comma)
                use = inner;
        }
        char *t = ast_plain_source(ctx->tu, use, NULL);
        if (!t) {
            ok = false;
            break;
        }
        sb_addf(&rep, "%s%s", i ? ", " : "", t);
        free(t);
    }
    if (ok) {
        sb_add(&rep, ")");
        ctx_fix(ctx, d, clang_getCursorExtent(call), rep.buf);
    } else {
        ctx_note(ctx, d, call, "no automatic fix: the call is written through a macro; call '%sf' "
                               "on the float value",
                 name);
    }
    sb_release(&rep);
    free(call_text);
    free(callee_text);
    free(name);
}

static const enum CXCursorKind cu204_kinds[] = {CXCursor_CallExpr, 0};

const struct rule rule_cu204 = {
    .code = "CU204",
    .name = "double-math-on-float",
    .summary = "A double-precision math function is called on float values converted to double and its result rounded back to float.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "1.00 (fourth frozen test set of 2026-12-07: 1 of 1 finding true; too few)",
    .version = 1,
    .has_fix = true,
    .doc = "rules/CU204-double-math-on-float.md",
    .kernel = "kernels/cu204_double_math_on_float",
    .subscriptions = cu204_kinds,
    .on_cursor = cu204_on_cursor,
};
