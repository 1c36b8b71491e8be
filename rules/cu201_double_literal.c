/* cu201_double_literal.c: CU201 flags unsuffixed floating literals that drag float arithmetic into double precision, graded by what nvcc leaves in double. */
#include "analysis/constprop.h"
#include "clang/astutil.h"
#include "core/options.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The rule looks at each double literal and finds the "double region" it
 * belongs to: the connected tree of double-typed operations (arithmetic,
 * comparisons, compound assignments, conditionals, math-library calls) around
 * it.  The region is float arithmetic promoted by the literal when it has at
 * least one float operand, no genuine double value (double variables, double
 * results of user functions, explicit casts to double) and its result goes
 * back to float, to an integer or to a comparison.  nvcc's measured behaviour
 * decides the grade: one operation with a float-exact constant, or a plain
 * select, is folded back to f32 (a note, only with the rule's folded option:
 * no double instruction is left); anything else keeps cvt.f64.f32 and f64
 * instructions (warning). */

struct region {
    unsigned ops;   /* double arithmetic, comparisons, compound assignments */
    unsigned conds; /* conditional operators selecting a double */
    unsigned calls; /* math-library calls resolved to a double overload */
    bool has_float; /* a float operand promoted to double */
    bool genuine;   /* a real double value takes part: intentional double code */
    bool unknown;   /* something not understood: say nothing */
    CXCursor call;  /* the first such call, named in the message */
    struct constprop *cp; /* constants after propagation are not float work */
};

static enum CXTypeKind kind_of(CXCursor c)
{
    return clang_getCanonicalType(clang_getCursorType(c)).kind;
}

static bool is_arith_op(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub ||
           op == CXBinaryOperator_Mul || op == CXBinaryOperator_Div;
}

static bool is_compare_op(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_LT || op == CXBinaryOperator_GT || op == CXBinaryOperator_LE ||
           op == CXBinaryOperator_GE || op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE;
}

static bool is_arith_assign_op(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign ||
           op == CXBinaryOperator_MulAssign || op == CXBinaryOperator_DivAssign;
}

/* A call the region extends through: a non-variadic function from a system
   or toolkit header (the math library) that returns double.  User functions
   taking double say double on purpose; variadic ones (printf) promote floats
   anyway. */
static bool is_math_call(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr || kind_of(c) != CXType_Double) return false;
    CXCursor fn = clang_getCursorReferenced(c);
    if (ast_is_null(fn)) return false;
    if (!clang_Location_isInSystemHeader(clang_getCursorLocation(fn))) return false;
    if (clang_isFunctionTypeVariadic(clang_getCursorType(fn))) return false;
    /* Only a call computing on double arguments is an operation of the
       region; __ldg(const double *) returns a genuine double value. */
    int na = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < na; i++)
        if (kind_of(clang_Cursor_getArgument(c, (unsigned)i)) == CXType_Double) return true;
    return false;
}

/* Is c an operation of a double region? */
static bool is_region_node(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (is_arith_op(op)) return kind_of(c) == CXType_Double;
        if (is_compare_op(op)) {
            CXCursor kids[2];
            return ast_children(c, kids, 2) == 2 && kind_of(kids[0]) == CXType_Double &&
                   kind_of(kids[1]) == CXType_Double;
        }
        return false;
    }
    case CXCursor_CompoundAssignOperator: {
        CXCursor kids[2];
        if (!is_arith_assign_op(ast_binop(c)) || ast_children(c, kids, 2) != 2) return false;
        enum CXTypeKind l = kind_of(kids[0]);
        return (l == CXType_Float || l == CXType_Double) && kind_of(kids[1]) == CXType_Double;
    }
    case CXCursor_ConditionalOperator: return kind_of(c) == CXType_Double;
    case CXCursor_CallExpr: return is_math_call(c);
    default: return false;
    }
}

static void explore(CXCursor node, struct region *r);

/* Is c a constant double expression (1.0 / 3.0)?  nvcc folds it, so it is
   one constant operand, not an operation. */
static bool double_constant(CXCursor c, double *v)
{
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator || kind_of(c) != CXType_Double) return false;
    CXEvalResult e = clang_Cursor_Evaluate(c);
    if (!e) return false;
    bool ok = clang_EvalResult_getKind(e) == CXEval_Float;
    if (ok && v) *v = clang_EvalResult_getAsDouble(e);
    clang_EvalResult_dispose(e);
    return ok;
}

/* c without parentheses, sign changes and no-op double wrappers. */
static CXCursor strip_exact(CXCursor c)
{
    for (int guard = 0; guard < 64; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_ParenExpr ||
            (k == CXCursor_UnaryOperator && kind_of(c) == CXType_Double &&
             (ast_unop(c) == CXUnaryOperator_Minus || ast_unop(c) == CXUnaryOperator_Plus))) {
            c = ast_child(c, 0);
            continue;
        }
        if (k == CXCursor_UnexposedExpr && kind_of(c) == CXType_Double) {
            CXCursor kids[2];
            if (ast_children(c, kids, 2) == 1 && kind_of(kids[0]) == CXType_Double) {
                c = kids[0];
                continue;
            }
        }
        break;
    }
    return c;
}

/* Classifies one operand of a region operation. */
static void classify_operand(CXCursor c, struct region *r)
{
    c = strip_exact(c); /* negation is exact: it neither adds nor folds work */
    enum CXCursorKind k = clang_getCursorKind(c);
    enum CXTypeKind t = kind_of(c);
    if (k == CXCursor_UnexposedExpr && t == CXType_Double) {
        CXCursor kids[2];
        if (ast_children(c, kids, 2) != 1) {
            r->unknown = true;
            return;
        }
        enum CXTypeKind ct = kind_of(kids[0]);
        if (ct == CXType_Float) {
            /* a float constant after propagation folds with the rest */
            if (!constprop_value(r->cp, kids[0], NULL)) r->has_float = true;
            return;
        }
        if (!ast_is_integer_kind(ct)) r->unknown = true; /* an integer converted to double: neutral */
        return;
    }
    if (k == CXCursor_FloatingLiteral && t == CXType_Double) return;
    if (double_constant(c, NULL)) return;
    if (is_region_node(c)) {
        explore(c, r);
        return;
    }
    if (t == CXType_Float) {
        if (!constprop_value(r->cp, c, NULL)) r->has_float = true;
    } else if (ast_is_integer_kind(t)) {
        /* neutral */
    } else if (t == CXType_Double || t == CXType_LongDouble) {
        r->genuine = true;
    } else {
        r->unknown = true;
    }
}

static void explore(CXCursor node, struct region *r)
{
    CXCursor kids[4];
    unsigned n;
    switch (clang_getCursorKind(node)) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        r->ops++;
        n = ast_children(node, kids, 4);
        if (n != 2) {
            r->unknown = true;
            return;
        }
        classify_operand(kids[0], r);
        classify_operand(kids[1], r);
        return;
    case CXCursor_ConditionalOperator:
        r->conds++;
        n = ast_children(node, kids, 4);
        if (n != 3) { /* the GNU a ?: b form */
            r->unknown = true;
            return;
        }
        classify_operand(kids[1], r);
        classify_operand(kids[2], r);
        return;
    case CXCursor_CallExpr: {
        if (r->calls++ == 0) r->call = node;
        int na = clang_Cursor_getNumArguments(node);
        for (int i = 0; i < na; i++) {
            CXCursor a = clang_Cursor_getArgument(node, (unsigned)i);
            enum CXTypeKind t = kind_of(a);
            if (t == CXType_Double) classify_operand(a, r);
            else if (t == CXType_Float && !constprop_value(r->cp, a, NULL)) r->has_float = true;
            /* integer exponents and the like are neutral */
        }
        return;
    }
    default: r->unknown = true; return;
    }
}

/* Is child a value operand of the region node parent (not a conditional's
   condition, not a call's callee)? */
static bool is_value_operand(CXCursor parent, CXCursor child)
{
    enum CXCursorKind k = clang_getCursorKind(parent);
    if (k == CXCursor_ConditionalOperator) {
        CXCursor kids[3];
        return ast_children(parent, kids, 3) == 3 &&
               (clang_equalCursors(kids[1], child) || clang_equalCursors(kids[2], child));
    }
    if (k == CXCursor_CallExpr) {
        int na = clang_Cursor_getNumArguments(parent);
        for (int i = 0; i < na; i++)
            if (clang_equalCursors(clang_Cursor_getArgument(parent, (unsigned)i), child)) return true;
        return false;
    }
    return true;
}

/* Where the value of a region's top node goes.  nvcc narrows a double
   operation back to f32 only when its result is rounded to float or compared;
   a conversion to an integer (or bool) keeps the double operation. */
enum dest { DEST_NONE, DEST_FLOAT, DEST_COMPARE, DEST_INT, DEST_DOUBLE };

static enum dest dest_of_type(enum CXTypeKind t)
{
    if (t == CXType_Float) return DEST_FLOAT;
    if (ast_is_integer_kind(t)) return DEST_INT;
    return DEST_DOUBLE;
}

static enum dest dest_of_parent(CXCursor p)
{
    switch (clang_getCursorKind(p)) {
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr: return dest_of_type(kind_of(p));
    default:
        /* A double variable, a double return, a double parameter of a user
           function, printf ...: double on purpose, or not understood. */
        return DEST_DOUBLE;
    }
}

enum verdict {
    V_NONE,      /* not in a double region, or intentional double: nothing */
    V_CONVERTED, /* converted to float at compile time (float y = 0.1;) */
    V_FLAG,      /* promotes float arithmetic: reported */
};

struct analysis {
    enum verdict verdict;
    enum dest dest;
    struct region r;
    CXCursor constant; /* the literal, or the constant expression it is part of */
};

static bool literal_value(CXCursor lit, double *v);

/* Is the literal's own operation (op, the first region node above it,
   reached through child) a comparison or a selection (?:, fmax, fmin, max,
   min) that is in double because of another operand, a double operation or
   call beside it?  `fmax(x - 1.0, 0.0)`: the 1.0 makes the selection double;
   suffixing the 0.0 alone changes no instruction, and once the 1.0 is
   fixed nvcc compares and selects in float against a constant that float
   holds exactly.  Then the other literal is the one to report.  (In
   arithmetic, `x * 0.999 + 0.001`, each literal keeps its own operation in
   double: both are reported.) */
static bool double_anyway(CXCursor op, CXCursor child, CXCursor lit)
{
    double v;
    if (!literal_value(lit, &v) || (double)(float)v != v) return false;
    CXCursor kids[8];
    unsigned n = 0;
    enum CXCursorKind k = clang_getCursorKind(op);
    if (k == CXCursor_BinaryOperator && !is_compare_op(ast_binop(op))) return false;
    if (k == CXCursor_CompoundAssignOperator) return false;
    if (k == CXCursor_CallExpr) {
        char *name = ast_spelling(clang_getCursorReferenced(op));
        bool select = !strcmp(name, "fmax") || !strcmp(name, "fmin") || !strcmp(name, "max") || !strcmp(name, "min");
        free(name);
        if (!select) return false;
        int na = clang_Cursor_getNumArguments(op);
        for (int i = 0; i < na && n < 8; i++) kids[n++] = clang_Cursor_getArgument(op, (unsigned)i);
    } else if (k == CXCursor_ConditionalOperator) {
        if (ast_children(op, kids, 3) != 3) return false;
        kids[0] = kids[2];
        n = 2;
    } else {
        n = ast_children(op, kids, 2);
    }
    for (unsigned i = 0; i < n; i++) {
        /* The same statement node (an extent inside a macro's expansion is
           the whole expansion, so extents cannot tell the operands apart). */
        if (clang_equalCursors(kids[i], child)) continue;
        CXCursor o = strip_exact(kids[i]);
        if (kind_of(o) == CXType_Double && is_region_node(o) && !double_constant(o, NULL)) return true;
    }
    return false;
}

static void analyse(struct rule_ctx *ctx, CXCursor lit, struct analysis *a)
{
    memset(a, 0, sizeof *a);
    CXCursor cur = lit, top = clang_getNullCursor();
    bool other_cause = false;
    a->constant = lit;
    enum dest dest = DEST_NONE;
    for (unsigned n = 0;; n++) {
        CXCursor p = ctx_parent(ctx, n);
        if (ast_is_null(p)) break;
        enum CXCursorKind pk = clang_getCursorKind(p);
        enum CXTypeKind pt = kind_of(p);
        if (ast_is_null(top) && double_constant(p, NULL)) {
            cur = a->constant = p;
            continue;
        }
        if (pk == CXCursor_ParenExpr) {
            cur = p;
            continue;
        }
        if (pk == CXCursor_UnaryOperator && pt == CXType_Double &&
            (ast_unop(p) == CXUnaryOperator_Minus || ast_unop(p) == CXUnaryOperator_Plus)) {
            cur = p;
            continue;
        }
        if (pk == CXCursor_UnexposedExpr) {
            if (pt == CXType_Double) {
                cur = p;
                continue;
            }
            if (ast_is_null(top)) {
                /* The literal itself is converted: float y = 0.1; f = 2.0;
                   sinf(0.5) ... cost nothing at run time. */
                if (pt == CXType_Float) a->verdict = V_CONVERTED;
                return;
            }
            dest = dest_of_type(pt);
            break;
        }
        if (is_region_node(p) && is_value_operand(p, cur)) {
            if (ast_is_null(top)) other_cause = double_anyway(p, cur, lit);
            top = p;
            cur = p;
            enum CXCursorKind k = clang_getCursorKind(p);
            /* A comparison yields bool; a compound assignment stores back
               into its float (or, intentionally, double) left side. */
            if (k == CXCursor_CompoundAssignOperator) {
                CXCursor lhs = ast_child(p, 0);
                dest = dest_of_type(kind_of(lhs));
                break;
            }
            if (k == CXCursor_BinaryOperator && is_compare_op(ast_binop(p))) {
                dest = DEST_COMPARE;
                break;
            }
            continue;
        }
        if (ast_is_null(top)) return;
        dest = dest_of_parent(p);
        break;
    }
    a->dest = dest;
    if (ast_is_null(top) || dest == DEST_NONE || dest == DEST_DOUBLE) return;
    a->r.cp = ctx_analysis(ctx, &constprop_analysis);
    explore(top, &a->r);
    if (a->r.has_float && !a->r.genuine && !a->r.unknown && !other_cause) a->verdict = V_FLAG;
}

/* ---- the literal's text, spelling and macro ---- */

struct spelled {
    char *text;           /* "0.5" */
    CXSourceRange range;  /* where the token is written (a file location) */
    CXFile file;          /* ... in this file, */
    unsigned offset;      /* ... at this offset */
    bool in_macro_body;   /* written in a #define body */
    bool from_macro_arg;  /* written at a use site, as a macro argument */
    CXCursor def;         /* the MacroDefinition holding it, when libclang tells */
    char *use_name;       /* the macro name written at the use site */
};

static char *token_at(struct rule_ctx *ctx, CXFile f, unsigned off, enum CXTokenKind kind,
                      CXSourceRange *range)
{
    CXSourceLocation start = clang_getLocationForOffset(ctx->tu, f, off);
    CXSourceLocation next = clang_getLocationForOffset(ctx->tu, f, off + 1);
    CXToken *toks = NULL;
    unsigned n = 0;
    char *text = NULL;
    clang_tokenize(ctx->tu, clang_getRange(start, next), &toks, &n);
    for (unsigned i = 0; i < n && !text; i++) {
        CXSourceRange tr = clang_getTokenExtent(ctx->tu, toks[i]);
        unsigned to;
        clang_getSpellingLocation(clang_getRangeStart(tr), NULL, NULL, NULL, &to);
        if (to != off || clang_getTokenKind(toks[i]) != kind) continue;
        CXString str = clang_getTokenSpelling(ctx->tu, toks[i]);
        text = xstrdup(clang_getCString(str));
        clang_disposeString(str);
        if (range) *range = tr;
    }
    clang_disposeTokens(ctx->tu, toks, n);
    return text;
}

static void spelled_release(struct spelled *s)
{
    free(s->text);
    free(s->use_name);
}

static bool spell_literal(struct rule_ctx *ctx, CXCursor lit, struct spelled *s)
{
    memset(s, 0, sizeof *s);
    s->def = clang_getNullCursor();
    CXSourceLocation loc = clang_getCursorLocation(lit);
    CXFile sf, ef;
    unsigned so, eo;
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    if (!sf || !ef) return false;
    s->text = token_at(ctx, sf, so, CXToken_Literal, &s->range);
    if (!s->text) return false;
    s->file = sf;
    s->offset = so;
    bool same_file = clang_File_isEqual(sf, ef);
    if (same_file && so == eo) return true;
    /* A macro is defined before it is used, so a token spelled after the
       macro's name in the same file is one of its arguments; anything else
       comes from a definition. */
    if (same_file && so > eo) {
        s->from_macro_arg = true;
        return true;
    }
    s->in_macro_body = true;
    s->use_name = token_at(ctx, ef, eo, CXToken_Identifier, NULL);
    CXCursor at = clang_getCursor(ctx->tu, clang_getRangeStart(s->range));
    if (clang_getCursorKind(at) == CXCursor_MacroDefinition) s->def = at;
    return true;
}

/* ---- per translation unit: literals spelled in macro definitions ---- */

/* A finding whose fix goes into a macro definition waits until the walk has
   seen every use of that literal in the translation unit: the definition is
   only rewritten when each use is float arithmetic or a conversion to float. */
struct pending {
    CXCursor lit, function;
    enum severity severity;
    char *message;
    unsigned macro;
    unsigned offset; /* of the macro's use */
};

/* One literal token of a macro definition. */
struct macro_info {
    CXFile file;
    unsigned offset;
    char *name;           /* the definition's name, else the name at the use */
    CXSourceRange value;  /* the literal token */
    bool fixable;         /* defined in the .cu being linted, as one literal */
    bool in_header;       /* defined in a header (or linting a header itself) */
    bool in_system;       /* defined in a system or toolkit header (M_PI) */
    bool other_use;       /* used where a double or an integer is meant */
    CXCursor other_at;
};

struct state {
    struct pending *pending;
    size_t n_pending, cap_pending;
    struct macro_info *macros;
    size_t n_macros, cap_macros;
};

static void *cu201_begin(struct rule_ctx *ctx)
{
    (void)ctx;
    return xcalloc(1, sizeof(struct state));
}

static bool file_is_main(struct rule_ctx *ctx, CXFile f)
{
    CXString name = clang_getFileName(f);
    char *abs = path_absolute(clang_getCString(name) ? clang_getCString(name) : "");
    char *main_abs = path_absolute(ctx->main_file);
    bool same = strcmp(abs, main_abs) == 0;
    free(abs);
    free(main_abs);
    clang_disposeString(name);
    return same;
}

static bool is_header_name(const char *path)
{
    static const char *const exts[] = {".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (str_ends_with(path, exts[i])) return true;
    return false;
}

static unsigned macro_index(struct rule_ctx *ctx, struct state *st, const struct spelled *sp)
{
    for (size_t i = 0; i < st->n_macros; i++)
        if (st->macros[i].offset == sp->offset && clang_File_isEqual(st->macros[i].file, sp->file))
            return (unsigned)i;
    XGROW(st->macros, st->n_macros, st->cap_macros, 8);
    struct macro_info *m = &st->macros[st->n_macros];
    memset(m, 0, sizeof *m);
    m->file = sp->file;
    m->offset = sp->offset;
    m->value = sp->range;
    m->name = !clang_Cursor_isNull(sp->def) ? ast_spelling(sp->def)
                                            : xstrdup(sp->use_name ? sp->use_name : "?");
    m->in_system = clang_Location_isInSystemHeader(clang_getRangeStart(sp->range));
    /* Only a definition in the .cu file being linted: a header's macro may be
       used in double code by other files this run never sees together (also
       when the header is linted on its own). */
    m->in_header = !m->in_system && (is_header_name(ctx->main_file) || !file_is_main(ctx, sp->file));
    CXSourceRange value;
    if (!m->in_system && !m->in_header && ctx_macro_single_token(ctx, m->name, sp->def, &value)) {
        /* The macro's single token must be this literal, not a
           redefinition's. */
        unsigned vo;
        clang_getSpellingLocation(clang_getRangeStart(value), NULL, NULL, NULL, &vo);
        m->fixable = vo == sp->offset;
    }
    return (unsigned)st->n_macros++;
}

static void cu201_end(struct rule_ctx *ctx, void *state)
{
    struct state *st = state;
    CXCursor saved = ctx->function;
    for (size_t i = 0; i < st->n_pending; i++) {
        struct pending *p = &st->pending[i];
        struct macro_info *m = &st->macros[p->macro];
        ctx->function = p->function;
        struct diag *d = ctx_report(ctx, p->lit, "%s", p->message);
        if (d) {
            d->severity = p->severity;
            ctx_note_range(ctx, d, m->value, "the literal comes from macro '%s', defined here",
                           m->name);
            if (m->in_system) {
                ctx_note_range(ctx, d, m->value,
                               "no automatic fix: '%s' comes from a system header; use a float "
                               "constant (a literal with the f suffix) in float code", m->name);
            } else if (m->in_header) {
                ctx_note_range(ctx, d, m->value,
                               "no automatic fix: '%s' is defined in a header, where other files "
                               "may use it in double code; add the f suffix there by hand if all "
                               "uses are float", m->name);
            } else if (!m->fixable) {
                ctx_note_range(ctx, d, m->value,
                               "no automatic fix: '%s' is not a single literal; add f suffixes to "
                               "its definition by hand", m->name);
            } else if (m->other_use) {
                ctx_note(ctx, d, m->other_at,
                         "no automatic fix: '%s' is also used here, where a double or an integer "
                         "is meant; use a separate float constant in float code", m->name);
            } else {
                char *text = token_at(ctx, m->file, m->offset, CXToken_Literal, NULL);
                if (text) {
                    char *rep = xasprintf("%sf", text);
                    ctx_fix(ctx, d, m->value, rep);
                    free(rep);
                    free(text);
                }
            }
        }
        free(p->message);
    }
    ctx->function = saved;
    for (size_t i = 0; i < st->n_macros; i++) free(st->macros[i].name);
    free(st->macros);
    free(st->pending);
    free(st);
}

/* ---- the rule ---- */

static bool literal_value(CXCursor lit, double *v)
{
    CXEvalResult e = clang_Cursor_Evaluate(lit);
    if (!e) return false;
    bool ok = clang_EvalResult_getKind(e) == CXEval_Float;
    if (ok) *v = clang_EvalResult_getAsDouble(e);
    clang_EvalResult_dispose(e);
    return ok;
}

static char *callee_name(CXCursor call)
{
    CXCursor fn = clang_getCursorReferenced(call);
    return ast_spelling(ast_is_null(fn) ? call : fn);
}

/* The math-library call whose argument holds the literal (exp(x * 2.0)), or
   a null cursor: that call resolves to its double overload because of it. */
static CXCursor call_of_argument(struct rule_ctx *ctx, CXCursor lit)
{
    CXCursor prev = lit;
    for (unsigned n = 0;; n++) {
        CXCursor p = ctx_parent(ctx, n);
        if (ast_is_null(p) || !clang_isExpression(clang_getCursorKind(p))) break;
        if (is_math_call(p) && is_value_operand(p, prev)) return p;
        prev = p;
    }
    return clang_getNullCursor();
}

static void cu201_on_cursor(struct rule_ctx *ctx, CXCursor lit)
{
    if (kind_of(lit) != CXType_Double) return; /* 0.5f, 0.5L */
    if (ctx_in_instantiation(ctx)) return;
    bool wanted = ctx_rule_applies_here(ctx);
    struct spelled sp;
    if (!spell_literal(ctx, lit, &sp)) return;
    struct state *st = ctx_rule_state(ctx);
    unsigned macro = 0;
    if (sp.in_macro_body && st) macro = macro_index(ctx, st, &sp);

    struct analysis a;
    analyse(ctx, lit, &a);
    double v = 0;
    bool is_lit = clang_equalCursors(a.constant, lit);
    bool has_value = is_lit ? literal_value(lit, &v) : double_constant(a.constant, &v);
    /* A literal beyond float's normal range needs double: 1e-40, 1e300. */
    bool in_range = has_value && isfinite(v) && (v == 0 || (fabs(v) >= FLT_MIN && fabs(v) <= FLT_MAX));
    if (a.verdict == V_FLAG && !in_range) a.verdict = V_NONE;

    if (sp.in_macro_body && st && a.verdict == V_NONE && !st->macros[macro].other_use) {
        st->macros[macro].other_use = true;
        st->macros[macro].other_at = lit;
    }
    if (a.verdict != V_FLAG || !wanted) {
        spelled_release(&sp);
        return;
    }

    bool exact = (double)(float)v == v;
    const struct region *r = &a.r;
    bool folded = r->calls == 0 && a.dest != DEST_INT &&
                  ((r->ops == 0 && r->conds > 0) || (r->ops == 1 && r->conds == 0 && exact));
    struct strbuf msg;
    sb_init(&msg);
    sb_addf(&msg, "unsuffixed literal %s", sp.text);
    if (sp.in_macro_body) sb_addf(&msg, " (macro '%s')", st ? st->macros[macro].name : "?");
    CXCursor own_call = call_of_argument(ctx, lit);
    if (!ast_is_null(own_call)) {
        char *fn = callee_name(own_call);
        sb_addf(&msg, " makes '%s' resolve to its double overload: the call runs in double precision", fn);
        free(fn);
    } else if (r->calls) {
        /* the call is double because of what its arguments hold, not
           because of this literal: the literal only adds to the double
           arithmetic around it */
        char *fn = callee_name(r->call);
        sb_addf(&msg, " takes part in double arithmetic with the double result of '%s' (a literal "
                      "in its arguments makes it double); suffix both to keep the line in float",
                fn);
        free(fn);
    } else if (folded) {
        sb_addf(&msg, " promotes a float operation to double; nvcc folds this one back to float, "
                      "but the f suffix says what is meant");
    } else if (a.dest == DEST_INT) {
        sb_addf(&msg, " promotes float arithmetic to double; its result is converted to an integer, "
                      "so the double operation survives compilation");
    } else if (r->ops + r->conds >= 2) {
        sb_addf(&msg, " promotes %u chained float operations to double; nvcc keeps them in double "
                      "precision", r->ops + r->conds);
    } else {
        char *ct = !is_lit ? ctx_use_text(ctx, a.constant)
                   : sp.in_macro_body && st ? xstrdup(st->macros[macro].name)
                                            : xstrdup(sp.text);
        sb_addf(&msg, " promotes float arithmetic to double; %s is not exact in float, so the "
                      "double operation survives compilation", ct);
        free(ct);
    }
    /* A single float-exact operation leaves no double instruction after
       nvcc: the suffix is style, not speed.  Silent unless the rule's
       folded option asks for it. */
    const char *want_folded = ctx->opts ? lint_rule_option(ctx->opts, ctx->rule, "folded") : NULL;
    if (folded && !(want_folded && strcmp(want_folded, "true") == 0)) {
        sb_release(&msg);
        spelled_release(&sp);
        return;
    }
    enum severity sev = folded ? SEV_NOTE : SEV_WARNING;

    if (sp.in_macro_body && st) {
        /* One finding per use of a macro, however many literals it holds. */
        unsigned off;
        clang_getExpansionLocation(clang_getCursorLocation(lit), NULL, NULL, NULL, &off);
        for (size_t i = 0; i < st->n_pending; i++) {
            if (st->pending[i].offset == off &&
                strcmp(st->macros[st->pending[i].macro].name, st->macros[macro].name) == 0) {
                sb_release(&msg);
                spelled_release(&sp);
                return;
            }
        }
        XGROW(st->pending, st->n_pending, st->cap_pending, 8);
        struct pending *p = &st->pending[st->n_pending++];
        p->lit = lit;
        p->function = ctx->function;
        p->severity = sev;
        p->message = sb_detach(&msg);
        p->macro = macro;
        p->offset = off;
        spelled_release(&sp);
        return;
    }
    /* A literal passed to a function-like macro is reported where it is
       written, not at the macro's name. */
    struct diag *d = sp.from_macro_arg ? ctx_report_range(ctx, sp.range, "%s", msg.buf)
                                       : ctx_report(ctx, lit, "%s", msg.buf);
    if (d) {
        d->severity = sev;
        char *rep = xasprintf("%sf", sp.text);
        /* sp.range is where the token is written: the line itself, or the
           argument of a function-like macro at its use. */
        ctx_fix(ctx, d, sp.range, rep);
        free(rep);
    }
    sb_release(&msg);
    spelled_release(&sp);
}

static const enum CXCursorKind cu201_kinds[] = {CXCursor_FloatingLiteral, 0};

const struct rule rule_cu201 = {
    .code = "CU201",
    .name = "double-literal",
    .summary = "An unsuffixed floating literal makes float arithmetic in device code run in double precision.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_STABLE,
    .precision = "1.00 (seventh frozen test set of 2026-12-08: 20 of 20 sampled findings true, of 450; the sixth, after the rule's last change, 20 of 20)",
    .version = 3,
    .has_fix = true,
    .doc = "rules/CU201-double-literal.md",
    .kernel = "kernels/cu201_double_literal",
    .subscriptions = cu201_kinds,
    .on_cursor = cu201_on_cursor,
    .tu_begin = cu201_begin,
    .tu_end = cu201_end,
};
