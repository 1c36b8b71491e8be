/* cu202_pow_small_integer.c: CU202 flags pow/powf/std::pow calls in device
 * code whose exponent is a small integer constant (2, 3, 4, -1, -2) or +-0.5:
 * the general pow routine costs about 115 PTX instructions (float) or 245 (double) where one or two
 * multiplies, a division or a square root do.  Fix-it when the base is free of
 * side effects and has the call's own type. */
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static enum CXTypeKind canon_kind(CXType t)
{
    return clang_getCanonicalType(t).kind;
}

/* The exponent as a double when it is a constant expression. */
static bool exponent_value(CXCursor e, double *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r) return false;
    bool ok = true;
    switch (clang_EvalResult_getKind(r)) {
    case CXEval_Int: *v = (double)clang_EvalResult_getAsLongLong(r); break;
    case CXEval_Float: *v = clang_EvalResult_getAsDouble(r); break;
    default: ok = false;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

/* Reading the expression twice is the same as reading it once: names,
   members, subscripts, literals, casts and arithmetic on such, nothing that
   calls, assigns, increments or reads a volatile. */
static bool side_effect_free(CXCursor c, int depth)
{
    if (depth > 16) return false;
    CXString ts = clang_getTypeSpelling(clang_getCursorType(c));
    bool vol = strstr(clang_getCString(ts), "volatile") != NULL;
    clang_disposeString(ts);
    if (vol) return false;
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CXXBoolLiteralExpr:
        return true;
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus && op != CXUnaryOperator_Deref &&
            op != CXUnaryOperator_Not && op != CXUnaryOperator_LNot)
            return false;
        break;
    }
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (op == CXBinaryOperator_Assign || op == CXBinaryOperator_Comma) return false;
        break;
    }
    default:
        return false;
    }
    CXCursor kids[8];
    unsigned n = ast_children(c, kids, 8);
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k == CXCursor_TypeRef || k == CXCursor_NamespaceRef || k == CXCursor_TemplateRef) continue;
        if (!side_effect_free(kids[i], depth + 1)) return false;
    }
    return true;
}

/* Needs no parentheses as an operand of '*' or '/'. */
static bool is_primary(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_ParenExpr:
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
        return true;
    default:
        return false;
    }
}

/* Whether the replacement, a product or quotient, must be parenthesised
   where the call stands. */
static bool needs_parens(struct rule_ctx *ctx)
{
    for (unsigned i = 0; i < 4; i++) {
        CXCursor p = ctx_parent(ctx, i);
        switch (clang_getCursorKind(p)) {
        case CXCursor_UnexposedExpr: continue; /* implicit conversion */
        case CXCursor_VarDecl:
        case CXCursor_ReturnStmt:
        case CXCursor_ParenExpr:
        case CXCursor_CallExpr:
        case CXCursor_CompoundAssignOperator:
            return false;
        case CXCursor_BinaryOperator:
            return ast_binop(p) != CXBinaryOperator_Assign;
        default:
            return true;
        }
    }
    return true;
}

struct shape {
    double exponent;
    const char *plain; /* what to write, in words */
};

static void cu202_on_cursor(struct rule_ctx *ctx, CXCursor call)
{
    if (!ctx_rule_applies_here(ctx) || ctx_in_instantiation(ctx)) return;
    if (clang_Cursor_getNumArguments(call) != 2) return;
    CXCursor fn = clang_getCursorReferenced(call);
    if (ast_is_null(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl) return;
    char *name = ast_spelling(fn);
    bool is_pow = strcmp(name, "pow") == 0 || strcmp(name, "powf") == 0;
    free(name);
    /* the math library's, not a user function of that name */
    if (!is_pow || !clang_Location_isInSystemHeader(clang_getCursorLocation(fn))) return;

    enum CXTypeKind rk = canon_kind(clang_getCursorType(call));
    if (rk != CXType_Float && rk != CXType_Double) return;
    CXCursor base_arg = clang_Cursor_getArgument(call, 0);
    CXCursor exp_arg = clang_Cursor_getArgument(call, 1);
    double e;
    if (!exponent_value(ast_strip(exp_arg), &e) && !exponent_value(exp_arg, &e)) return;
    bool is_float = rk == CXType_Float;
    const char *one = is_float ? "1.0f" : "1.0";
    const char *what;
    if (e == 2) what = "v * v";
    else if (e == 3) what = "v * v * v";
    else if (e == 4) what = "(v * v) * (v * v)";
    else if (e == -1) what = is_float ? "1.0f / v" : "1.0 / v";
    else if (e == -2) what = is_float ? "1.0f / (v * v)" : "1.0 / (v * v)";
    else if (e == 0.5) what = is_float ? "sqrtf(v)" : "sqrt(v)";
    else if (e == -0.5) what = is_float ? "rsqrtf(v)" : "rsqrt(v)";
    else return;

    /* a name or an expression is shown beside its value: "2 (SQUARE_EXP)" */
    char *exp_text = NULL;
    {
        char *t = ctx_use_text(ctx, ast_strip(exp_arg));
        if (t[0] == '_' || (t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z'))
            exp_text = xasprintf(" (%s)", t);
        free(t);
    }
    CXString cs = clang_getCursorSpelling(call);
    char *fname = xstrdup(clang_getCString(cs));
    clang_disposeString(cs);
    bool cost_mul = e == 2 || e == 3 || e == 4;
    /* Which routine nvcc calls (nvcc 13.0 -O3 sm_90, PTX): powf and pow with
       two floats inline the float routine (about 115 instructions, no f64);
       pow with a float base and an int exponent (or a double) converts the
       base to double and calls __internal_accurate_pow (about 55 instructions
       in the kernel, 19 of them f64, and 189 in the routine). */
    enum CXTypeKind base_kind = canon_kind(clang_getCursorType(ast_strip(base_arg)));
    enum CXTypeKind exp_kind = canon_kind(clang_getCursorType(ast_strip(exp_arg)));
    bool double_routine = !is_float || exp_kind == CXType_Double ||
                          (base_kind == CXType_Float && ast_is_integer_kind(exp_kind));
    const char *why_double = "";
    if (base_kind == CXType_Float && double_routine)
        why_double = ast_is_integer_kind(exp_kind)
                         ? " (a float base with an int exponent converts to double)"
                         : " (the double exponent makes the call double)";
    struct diag *d = ctx_report(
        ctx, call,
        "%s with the constant exponent %g%s runs the general %s pow routine%s (about %s PTX "
        "instructions%s under nvcc -O3); %s is %s",
        fname, e, exp_text ? exp_text : "", double_routine ? "double" : "float", why_double,
        double_routine ? "245" : "115", double_routine ? ", in double precision" : "", what,
        cost_mul ? (e == 2 ? "one multiply" : "two multiplies")
        : e == 0.5  ? "a square root"
        : e == -0.5 ? "a reciprocal square root"
                    : "a division");
    free(exp_text);
    if (!d) {
        free(fname);
        return;
    }
    CXCursor base = ast_strip(base_arg);
    enum CXTypeKind bk = canon_kind(clang_getCursorType(base));
    CXSourceRange call_range;
    char *call_text = ast_plain_source(ctx->tu, call, &call_range);
    char *base_text = call_text ? ast_plain_source(ctx->tu, base, NULL) : NULL;
    if (!side_effect_free(base, 0)) {
        ctx_note(ctx, d, base,
                 "no automatic fix: the argument is evaluated once by %s; store it in a local "
                 "variable first, then multiply that",
                 fname);
    } else if (bk != rk) {
        ctx_note(ctx, d, base,
                 "no automatic fix: the argument is %s but the call computes in %s; write the "
                 "operation in the type you mean",
                 bk == CXType_Float ? "float" : bk == CXType_Double ? "double" : "of another type",
                 is_float ? "float" : "double");
    } else if (!call_text || !base_text) {
        ctx_note(ctx, d, base, "no automatic fix: the call is written through a macro");
    } else {
        char *v = is_primary(base) ? xstrdup(base_text) : xasprintf("(%s)", base_text);
        char *rep;
        bool product = true;
        if (e == 2) rep = xasprintf("%s * %s", v, v);
        else if (e == 3) rep = xasprintf("%s * %s * %s", v, v, v);
        else if (e == 4) rep = xasprintf("(%s * %s) * (%s * %s)", v, v, v, v);
        else if (e == -1) rep = xasprintf("%s / %s", one, v);
        else if (e == -2) rep = xasprintf("%s / (%s * %s)", one, v, v);
        else {
            rep = xasprintf("%s(%s)", e == 0.5 ? (is_float ? "sqrtf" : "sqrt")
                                               : (is_float ? "rsqrtf" : "rsqrt"),
                            base_text);
            product = false;
        }
        if (product && needs_parens(ctx)) {
            char *wrapped = xasprintf("(%s)", rep);
            free(rep);
            rep = wrapped;
        }
        ctx_fix(ctx, d, call_range, rep);
        free(rep);
        free(v);
    }
    free(call_text);
    free(base_text);
    free(fname);
}

static const enum CXCursorKind cu202_kinds[] = {CXCursor_CallExpr, 0};

const struct rule rule_cu202 = {
    .code = "CU202",
    .name = "pow-small-integer",
    .summary = "pow() in device code with a small integer or half-integer constant exponent, where multiplies, a division or a square root would do.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "1.00 (fourth frozen test set of 2026-12-07: 6 of 6 findings true; too few to earn stable)",
    .version = 2,
    .has_fix = true,
    .doc = "rules/CU202-pow-small-integer.md",
    .kernel = "kernels/cu202_pow_small_integer",
    .subscriptions = cu202_kinds,
    .on_cursor = cu202_on_cursor,
};
