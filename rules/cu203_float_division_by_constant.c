/* cu203_float_division_by_constant.c: CU203 flags a float division by a
 * constant that is not a power of two in device code (`x / 3.0f`): nvcc keeps
 * an IEEE division (div.rn.f32, a multi-instruction sequence) because
 * multiplying by the reciprocal rounds differently.  Silent when the file is
 * compiled with -use_fast_math or -prec-div=false (the compile database's
 * command line; without one, any build file above the file that names the
 * flag), or linted with -D__USE_FAST_MATH__ after "--", where the division
 * is approximate anyway.  Fix-it: multiply by the reciprocal, written as a constant
 * expression (`x * (1.0f / 3.0f)`). */
#include "analysis/constprop.h"
#include "clang/astutil.h"
#include "core/options.h"
#include "core/rule.h"
#include "frontend/buildfiles.h"
#include "frontend/compile_args.h"
#include "base/util.h"
#include "engine/walk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct state {
    bool fast_math;     /* the unit's flags (or code) ask for fast math */
    bool no_command;    /* no compile command: the build files are read */
    /* headers the unit includes, judged by their build files and includers */
    struct strvec header;
    bool *header_fast;
};

static enum CXChildVisitResult find_fast_math(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_MacroDefinition) return CXChildVisit_Continue;
    /* clang's own CUDA wrapper header defines __USE_FAST_MATH__ to 0 (and
       briefly to 1 around the toolkit's math headers); a parse through a
       precompiled header never shows those definitions, a parse without one
       does: only the project's definitions speak for its build. */
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    const char *n = clang_getCString(s);
    if (n && (strcmp(n, "__USE_FAST_MATH__") == 0 || strcmp(n, "__CUDALINT_PREC_DIV_FALSE__") == 0 ||
              strcmp(n, "__FAST_MATH__") == 0)) {
        *(bool *)d = true;
        clang_disposeString(s);
        return CXChildVisit_Break;
    }
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

/* nvcc's -use_fast_math / -prec-div=false, clang's -ffast-math, in one
   command line. */
static bool args_fast_math(const struct strvec *argv)
{
    for (size_t i = 0; i < argv->len; i++) {
        const char *a = argv->items[i];
        if (a[0] == '-' && a[1] == '-') a++;
        if (!strcmp(a, "-use_fast_math") || !strcmp(a, "-ffast-math") ||
            !strcmp(a, "-prec-div=false") || !strcmp(a, "-D__USE_FAST_MATH__"))
            return true;
        if (!strcmp(a, "-prec-div") && i + 1 < argv->len && !strcmp(argv->items[i + 1], "false"))
            return true;
    }
    return false;
}

static void *cu203_begin(struct rule_ctx *ctx)
{
    struct state *st = xcalloc(1, sizeof *st);
    const struct lint_options *o = ctx->opts;
    if (o) {
        st->fast_math = args_fast_math(&o->extra_args);
        if (!st->fast_math && ctx->main_file) {
            char *abs = path_absolute(ctx->main_file);
            const struct compile_command *cc = o->compdb ? compdb_find(o->compdb, abs) : NULL;
            if (cc) st->fast_math = args_fast_math(&cc->argv);
            /* no compile command: the project's build files above the file
               may pass the flag (CMAKE_CUDA_FLAGS ... --use_fast_math); the
               rule cannot tell which targets get it, so it says nothing */
            else {
                st->no_command = true;
                st->fast_math = buildfiles_fast_math_through_includers(o, abs, NULL);
            }
            free(abs);
        }
    }
    /* a definition in the code or the predefines */
    if (!st->fast_math)
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_fast_math, &st->fast_math);
    return st;
}

static void cu203_end(struct rule_ctx *ctx, void *state)
{
    (void)ctx;
    struct state *st = state;
    if (st) {
        sv_release(&st->header);
        free(st->header_fast);
    }
    free(state);
}

/* A division written in a header of the project: compiled with the flags
   of whichever units include it, so fast math anywhere among them (the
   header's own build files, or an includer's) keeps the rule silent. */
static bool header_fast_math(struct rule_ctx *ctx, struct state *st, CXCursor op)
{
    if (!st->no_command) return false;
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(op), &f, NULL, NULL, NULL);
    if (!f || clang_Location_isFromMainFile(clang_getCursorLocation(op))) return false;
    CXString name = clang_getFileName(f);
    char *abs = path_absolute(clang_getCString(name) ? clang_getCString(name) : "");
    clang_disposeString(name);
    bool fast = false;
    size_t i = 0;
    while (i < st->header.len && strcmp(st->header.items[i], abs) != 0) i++;
    if (i < st->header.len) {
        fast = st->header_fast[i];
    } else {
        fast = buildfiles_fast_math_through_includers(ctx->opts, abs, NULL);
        sv_push(&st->header, abs);
        st->header_fast = xrealloc(st->header_fast, st->header.len * sizeof *st->header_fast);
        st->header_fast[st->header.len - 1] = fast;
    }
    free(abs);
    return fast;
}

static bool float_value(CXCursor e, double *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r) return false;
    bool ok = true;
    switch (clang_EvalResult_getKind(r)) {
    case CXEval_Float: *v = clang_EvalResult_getAsDouble(r); break;
    case CXEval_Int: *v = (double)clang_EvalResult_getAsLongLong(r); break;
    default: ok = false;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

static void cu203_on_cursor(struct rule_ctx *ctx, CXCursor op)
{
    if (!ctx_rule_applies_here(ctx) || ctx_in_instantiation(ctx)) return;
    struct state *st = ctx_rule_state(ctx);
    if (st && st->fast_math) return;
    enum CXBinaryOperatorKind bk = ast_binop(op);
    bool compound = clang_getCursorKind(op) == CXCursor_CompoundAssignOperator;
    if (bk != (compound ? CXBinaryOperator_DivAssign : CXBinaryOperator_Div)) return;
    CXCursor lhs = ast_child(op, 0), rhs = ast_child(op, 1);
    /* a float division: both operands float after conversions (a double
       literal divisor makes it a double division: CU201's) */
    if (clang_getCanonicalType(clang_getCursorType(op)).kind != CXType_Float) return;
    if (clang_getCanonicalType(clang_getCursorType(lhs)).kind != CXType_Float) return;
    CXCursor rs = ast_strip(rhs);
    if (clang_getCanonicalType(clang_getCursorType(rhs)).kind != CXType_Float) return;
    double c, lv;
    if (!float_value(rs, &c) && !float_value(rhs, &c)) return;
    /* constant / constant is folded at compile time: 1.0f / 3.0f, and a
       dividend that is a constant after propagation (a local given a
       literal, a parameter every caller passes the same constant) */
    if (float_value(ast_strip(lhs), &lv)) return;
    if (constprop_value(ctx_analysis(ctx, &constprop_analysis), lhs, NULL)) return;
    if (!isfinite(c) || c == 0) return;
    int e;
    double m = frexp(fabs(c), &e);
    if (m == 0.5) return; /* a power of two: nvcc multiplies already */
    float rc = (float)(1.0 / c);
    if (!isfinite(rc) || rc == 0 || fabsf(rc) < 1.17549435e-38f) return;
    if (st && header_fast_math(ctx, st, op)) return;

    char *ct = ctx_use_text(ctx, rs);
    struct diag *d = ctx_report(
        ctx, op,
        "float division by the constant %s compiles to an IEEE division (div.rn.f32, a "
        "multi-instruction sequence) because %s is not a power of two; multiplying by its "
        "reciprocal is one instruction",
        ct, ct);
    if (d) {
        CXSourceRange r;
        char *full = ast_plain_source(ctx->tu, op, &r);
        char *lt = full ? ast_plain_source(ctx->tu, lhs, NULL) : NULL;
        char *rt = full ? ast_plain_source(ctx->tu, rs, NULL) : NULL;
        enum CXCursorKind rk = clang_getCursorKind(rs);
        bool simple_rhs = rk == CXCursor_FloatingLiteral || rk == CXCursor_DeclRefExpr ||
                          rk == CXCursor_ParenExpr || rk == CXCursor_IntegerLiteral;
        if (full && lt && rt) {
            char *rep = compound
                            ? xasprintf("%s *= (1.0f / %s%s%s)", lt, simple_rhs ? "" : "(", rt,
                                        simple_rhs ? "" : ")")
                            : xasprintf("%s * (1.0f / %s%s%s)", lt, simple_rhs ? "" : "(", rt,
                                        simple_rhs ? "" : ")");
            ctx_fix(ctx, d, r, rep);
            free(rep);
        } else {
            ctx_note(ctx, d, op, "no automatic fix: the division is written through a macro");
        }
        ctx_note(ctx, d, rs,
                 "the product can differ from the quotient in the last bit (1.0f / %s is rounded "
                 "once, then the product); keep the division where results must be correctly "
                 "rounded",
                 ct);
        free(full);
        free(lt);
        free(rt);
    }
    free(ct);
}

static const enum CXCursorKind cu203_kinds[] = {CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator, 0};

const struct rule rule_cu203 = {
    .code = "CU203",
    .name = "float-division-by-constant",
    .summary = "A float division by a constant that is not a power of two, where a multiplication by the reciprocal would do.",
    .severity = SEV_NOTE,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "0.23 (sixth frozen test set of 2026-12-07, after the rule's last change: 3 of 13 findings true: fast math set in build files of sibling folders or of the library the header belongs to; 0 of 1 on the fifth)",
    .version = 4,
    .has_fix = true,
    .doc = "rules/CU203-float-division-by-constant.md",
    .kernel = "kernels/cu203_float_division_by_constant",
    .subscriptions = cu203_kinds,
    .on_cursor = cu203_on_cursor,
    .tu_begin = cu203_begin,
    .tu_end = cu203_end,
};
