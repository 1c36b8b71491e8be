/* affine.c: affine views of index expressions in terms of threadIdx.x/y/z,
 * constants and uniform symbols, with a per-function table of variable
 * definitions so that locals defined once are substituted and uniform loop
 * counters become symbols.  Anything it cannot read exactly is "not affine":
 * callers stay silent then. */
#include "analysis/affine.h"
#include "clang/astutil.h"
#include "analysis/uniformity.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Substitution and recursion limits: deep chains of locals are rare, and a
   bound keeps pathological code (or a cycle we failed to see) cheap. */
#define MAX_DEPTH 24

/* ---- built-in index variables ---- */

/* Reads "ident . c" at a byte offset of a file's text; returns c or 0. */
static char member_after(const char *txt, size_t size, size_t off)
{
    size_t i = off;
    if (i >= size || !(isalpha((unsigned char)txt[i]) || txt[i] == '_')) return 0;
    while (i < size && (isalnum((unsigned char)txt[i]) || txt[i] == '_')) i++;
    while (i < size && (txt[i] == ' ' || txt[i] == '\t')) i++;
    if (i >= size || txt[i] != '.') return 0;
    i++;
    while (i < size && (txt[i] == ' ' || txt[i] == '\t')) i++;
    if (i >= size) return 0;
    char c = txt[i];
    if (c != 'x' && c != 'y' && c != 'z') return 0;
    if (i + 1 < size && (isalnum((unsigned char)txt[i + 1]) || txt[i + 1] == '_')) return 0;
    return c;
}

enum affine_builtin affine_builtin_member(CXTranslationUnit tu, CXCursor c, int *component)
{
    c = ast_strip(c);
    if (clang_getCursorKind(c) != CXCursor_MemberRefExpr) return AFFINE_NOT_BUILTIN;
    CXCursor base = ast_strip(ast_child(c, 0));
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return AFFINE_NOT_BUILTIN;
    char *bname = ast_spelling(base);
    enum affine_builtin which = AFFINE_NOT_BUILTIN;
    if (strcmp(bname, "threadIdx") == 0) which = AFFINE_THREADIDX;
    else if (strcmp(bname, "blockIdx") == 0) which = AFFINE_BLOCKIDX;
    else if (strcmp(bname, "blockDim") == 0) which = AFFINE_BLOCKDIM;
    else if (strcmp(bname, "gridDim") == 0) which = AFFINE_GRIDDIM;
    free(bname);
    if (which == AFFINE_NOT_BUILTIN) return which;
    /* A user variable that happens to be called threadIdx is not the builtin:
       the builtins are declared at file scope (clang: a special struct type
       with property members; a declarations header: a plain uint3). */
    CXCursor decl = clang_getCursorReferenced(base);
    CXCursor sem = clang_getCursorSemanticParent(decl);
    enum CXCursorKind sk = clang_getCursorKind(sem);
    if (!clang_Cursor_isNull(sem) && sk != CXCursor_TranslationUnit && sk != CXCursor_Namespace &&
        sk != CXCursor_LinkageSpec && sk != CXCursor_UnexposedDecl)
        return AFFINE_NOT_BUILTIN;

    /* Plain struct members carry their name; clang's builtin types expose x,
       y, z as properties whose member expression has an empty spelling, so
       the component is read from the source after "threadIdx .". */
    char *mname = ast_spelling(c);
    char comp = 0;
    if (mname[0] && !mname[1]) comp = mname[0];
    free(mname);
    if (!comp) {
        /* The member's own token, where it is spelled: in GID(y) with
           #define GID(x) (... threadIdx.x), the component is the argument
           y, not the parameter x written after "threadIdx." in the
           definition. */
        CXFile f = NULL;
        unsigned off;
        clang_getSpellingLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &f, NULL, NULL, &off);
        size_t size = 0;
        const char *txt = f ? ast_file_contents(tu, f, &size) : NULL;
        if (txt && off > 0 && off <= size) off--; /* the extent ends past the member's token */
        if (txt && off < size && (txt[off] == 'x' || txt[off] == 'y' || txt[off] == 'z') &&
            !(off + 1 < size && (isalnum((unsigned char)txt[off + 1]) || txt[off + 1] == '_')) &&
            !(off > 0 && (isalnum((unsigned char)txt[off - 1]) || txt[off - 1] == '_'))) {
            /* a macro argument spelled alone, or the token after "threadIdx." */
            comp = txt[off];
        }
    }
    if (!comp) {
        CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(c));
        for (int pass = 0; pass < 2 && !comp; pass++) {
            CXFile f = NULL;
            unsigned line, col, off;
            /* The spelling location finds "threadIdx.x" inside a macro
               definition; the expansion location finds "T.x" where T is a
               macro for threadIdx. */
            if (pass == 0) clang_getSpellingLocation(start, &f, &line, &col, &off);
            else clang_getExpansionLocation(start, &f, &line, &col, &off);
            if (!f) continue;
            size_t size = 0;
            const char *txt = ast_file_contents(tu, f, &size);
            if (txt) comp = member_after(txt, size, off);
        }
    }
    if (comp < 'x' || comp > 'z') return AFFINE_NOT_BUILTIN;
    *component = comp - 'x';
    return which;
}

/* ---- per-function table of variable definitions ---- */

struct var_info {
    CXCursor decl;
    unsigned hash;
    CXCursor for_stmt;    /* the for statement whose init declares it, or null */
    unsigned n_defs;      /* assignments and increments after the declaration */
    unsigned n_step_defs; /* of those, how many sit in for_stmt's step expression */
    bool escapes;         /* address taken or bound to a non-const reference */
    bool visiting;        /* recursion guard while folding its definitions */
    CXCursor *defs;       /* the assignment/increment cursors */
    unsigned defs_cap;
};

struct fn_defs {
    struct var_info *v;
    size_t n, cap;
};

struct for_frame {
    CXCursor stmt;
    unsigned step_begin, body_begin; /* file offsets of the step expression and the body */
};

struct defs_builder {
    struct fn_defs *t;
    CXTranslationUnit tu;
    CXCursor stack[256];
    unsigned depth;
    struct for_frame fors[64];
    unsigned n_fors;
};

static void fn_defs_free(void *p)
{
    struct fn_defs *t = p;
    for (size_t i = 0; i < t->n; i++) free(t->v[i].defs);
    free(t->v);
    free(t);
}

static struct var_info *var_find(struct fn_defs *t, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].hash == h && clang_equalCursors(t->v[i].decl, decl)) return &t->v[i];
    return NULL;
}

static struct var_info *var_add(struct fn_defs *t, CXCursor decl)
{
    struct var_info *v = var_find(t, decl);
    if (v) return v;
    XGROW(t->v, t->n, t->cap, 32);
    v = &t->v[t->n++];
    memset(v, 0, sizeof *v);
    v->decl = decl;
    v->hash = clang_hashCursor(decl);
    v->for_stmt = clang_getNullCursor();
    return v;
}

static unsigned offset_of(CXSourceLocation loc)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(loc, &f, &line, &col, &off);
    return off;
}

/* The variable a (stripped) lvalue expression names, or a null cursor. */
static CXCursor lvalue_var(CXCursor e)
{
    e = ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl) return clang_getNullCursor();
    return d;
}

static void record_def(struct defs_builder *b, CXCursor var, CXCursor def)
{
    struct var_info *v = var_add(b->t, var);
    XGROW(v->defs, v->n_defs, v->defs_cap, 4);
    v->defs[v->n_defs++] = def;
    /* Is it in the step expression of the innermost for whose header holds it? */
    unsigned off = offset_of(clang_getCursorLocation(def));
    for (unsigned i = b->n_fors; i-- > 0;) {
        struct for_frame *f = &b->fors[i];
        if (off >= f->step_begin && off < f->body_begin) {
            if (clang_equalCursors(f->stmt, v->for_stmt)) v->n_step_defs++;
            break;
        }
    }
}

/* Offsets of the step expression (after the header's second top-level ';')
   and of the body of a for statement; false when the header cannot be read
   (then no definition counts as a step). */
static bool for_header(CXTranslationUnit tu, CXCursor stmt, CXCursor body, unsigned *step_begin,
                       unsigned *body_begin)
{
    CXSourceRange r = clang_getRange(clang_getRangeStart(clang_getCursorExtent(stmt)),
                                     clang_getRangeStart(clang_getCursorExtent(body)));
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, r, &toks, &n);
    int paren = 0, semis = 0;
    bool ok = false;
    for (unsigned i = 0; i < n && !ok; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(s);
        if (strcmp(t, "(") == 0 || strcmp(t, "[") == 0 || strcmp(t, "{") == 0) paren++;
        else if (strcmp(t, ")") == 0 || strcmp(t, "]") == 0 || strcmp(t, "}") == 0) paren--;
        else if (strcmp(t, ";") == 0 && paren == 1 && ++semis == 2) {
            *step_begin = offset_of(clang_getRangeEnd(clang_getTokenExtent(tu, toks[i])));
            ok = true;
        }
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    *body_begin = offset_of(clang_getRangeStart(clang_getCursorExtent(body)));
    return ok;
}

static void build_visit(struct defs_builder *b, CXCursor c);

static enum CXChildVisitResult build_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    build_visit(data, c);
    return CXChildVisit_Continue;
}

static bool is_assign_op(enum CXBinaryOperatorKind op)
{
    return op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
}

static void build_visit(struct defs_builder *b, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor parent = b->depth ? b->stack[b->depth - 1] : clang_getNullCursor();
    bool pushed_for = false;

    switch (k) {
    case CXCursor_VarDecl:
    case CXCursor_ParmDecl: {
        struct var_info *v = var_add(b->t, c);
        /* A counter declared in a for's init: parent DeclStmt, grandparent ForStmt. */
        if (b->depth >= 2 && clang_getCursorKind(parent) == CXCursor_DeclStmt &&
            clang_getCursorKind(b->stack[b->depth - 2]) == CXCursor_ForStmt &&
            clang_equalCursors(ast_child(b->stack[b->depth - 2], 0), parent))
            v->for_stmt = b->stack[b->depth - 2];
        break;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        if (is_assign_op(ast_binop(c))) {
            CXCursor var = lvalue_var(ast_child(c, 0));
            if (!clang_Cursor_isNull(var)) record_def(b, var, c);
        }
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        CXCursor var = lvalue_var(ast_child(c, 0));
        if (clang_Cursor_isNull(var)) break;
        if (ast_unop_is_incdec(op)) record_def(b, var, c);
        else if (op == CXUnaryOperator_AddrOf)
            var_add(b->t, var)->escapes = true;
        break;
    }
    case CXCursor_CallExpr: {
        /* An argument passed by value is wrapped in an implicit
           lvalue-to-rvalue conversion; a bare variable is bound to a
           reference and may be written by the callee. */
        CXCursor kids[32];
        unsigned n = ast_children(c, kids, 32);
        for (unsigned i = 1; i < n; i++) {
            if (clang_getCursorKind(kids[i]) != CXCursor_DeclRefExpr) continue;
            CXCursor var = lvalue_var(kids[i]);
            if (!clang_Cursor_isNull(var)) var_add(b->t, var)->escapes = true;
        }
        break;
    }
    case CXCursor_ForStmt:
        if (b->n_fors < 64) {
            CXCursor kids[5];
            unsigned n = ast_children(c, kids, 5);
            unsigned sb, bb;
            if (n >= 1 && for_header(b->tu, c, kids[n - 1], &sb, &bb)) {
                b->fors[b->n_fors].stmt = c;
                b->fors[b->n_fors].step_begin = sb;
                b->fors[b->n_fors].body_begin = bb;
                b->n_fors++;
                pushed_for = true;
            }
        }
        break;
    default:
        break;
    }
    if (k == CXCursor_DeclRefExpr && b->depth &&
        (clang_getCursorKind(parent) == CXCursor_GCCAsmStmt ||
         clang_getCursorKind(parent) == CXCursor_LambdaExpr)) {
        /* Inline assembly outputs and lambda captures by reference may write
           any variable they name: give up on those variables. */
        CXCursor var = lvalue_var(c);
        if (!clang_Cursor_isNull(var)) var_add(b->t, var)->escapes = true;
    }

    if (b->depth < 256) {
        b->stack[b->depth++] = c;
        clang_visitChildren(c, build_child, b);
        b->depth--;
    }
    if (pushed_for) b->n_fors--;
}

static struct fn_defs *fn_defs_build(CXTranslationUnit tu, CXCursor fn)
{
    struct fn_defs *t = xcalloc(1, sizeof *t);
    struct defs_builder *b = xcalloc(1, sizeof *b);
    b->t = t;
    b->tu = tu;
    b->stack[b->depth++] = fn;
    clang_visitChildren(fn, build_child, b);
    free(b);
    return t;
}

/* The facts of one function: its table of definitions, and where its
   thread-dependence analysis comes from. */
struct affine_fn {
    CXTranslationUnit tu;
    CXCursor fn;
    struct fn_defs *defs;          /* NULL at file scope */
    struct analysis_cache *deps;   /* where the thread-dependence analysis comes from */
    struct uniformity *u;          /* asked for on first need */
    bool u_tried;
};

static void *affine_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    struct affine_fn *af = xcalloc(1, sizeof *af);
    af->tu = tu;
    af->fn = fn;
    af->deps = deps;
    if (!clang_Cursor_isNull(fn)) af->defs = fn_defs_build(tu, fn);
    return af;
}

static void affine_free(void *p)
{
    struct affine_fn *af = p;
    if (!af) return;
    if (af->defs) fn_defs_free(af->defs);
    free(af);
}

const struct analysis_kind affine_analysis = {
    .name = "affine",
    .build = affine_build,
    .free = affine_free,
};

/* ---- the forms ---- */

struct folder {
    struct affine_fn *af;
    struct fn_defs *defs;
    int depth;
};

static void aff_symbol(struct affine *a, CXCursor sym);

/* The thread-dependence analysis of the function, from the same cache
   (none when the facts were built without one). */
static struct uniformity *uni(struct folder *f)
{
    struct affine_fn *af = f->af;
    if (!af->u_tried) {
        af->u_tried = true;
        if (af->deps && !clang_Cursor_isNull(af->fn))
            af->u = analysis_get(af->deps, &uniformity_analysis, af->fn);
    }
    return af->u;
}

static enum CXChildVisitResult find_thread_index(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        char *name = ast_spelling(c);
        bool tid = strcmp(name, "threadIdx") == 0;
        free(name);
        if (tid) {
            *(bool *)d = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* An expression the affine folding cannot read (a load, a call, a struct
   field) that the thread-dependence analysis proves uniform becomes one
   opaque term.  That analysis answers "uniform" for what it never saw, so it
   is asked only about expressions of this function that do not name
   threadIdx themselves. */
static bool opaque_uniform(struct folder *f, CXCursor e, struct affine *out)
{
    struct uniformity *u = uni(f);
    if (!u) return false;
    if (clang_getCursorKind(e) == CXCursor_CallExpr) {
        /* Only a callee whose body the analysis has seen has a summary. */
        CXCursor callee = clang_getCursorReferenced(e);
        if (clang_Cursor_isNull(callee) || clang_Cursor_isNull(clang_getCursorDefinition(callee)))
            return false;
    }
    bool tid = false;
    clang_visitChildren(e, find_thread_index, &tid);
    if (tid || uniformity_expr_varies(u, e, NULL)) return false;
    aff_symbol(out, e);
    return true;
}

static bool fold(struct folder *f, CXCursor e, struct affine *out);

static void aff_zero(struct affine *a)
{
    memset(a, 0, sizeof *a);
}

static void aff_const(struct affine *a, long long v)
{
    aff_zero(a);
    a->constant = v;
}

static void aff_add_symbol(struct affine *a, CXCursor sym, long long k)
{
    if (k == 0) return;
    for (unsigned i = 0; i < a->n_symbols; i++)
        if (clang_equalCursors(a->symbol[i], sym)) {
            a->coeff[i] += k;
            return;
        }
    if (a->n_symbols == AFFINE_MAX_SYMBOLS) {
        a->more_uniform = true;
        return;
    }
    a->symbol[a->n_symbols] = sym;
    a->coeff[a->n_symbols] = k;
    a->n_symbols++;
}

static void aff_symbol(struct affine *a, CXCursor sym)
{
    aff_zero(a);
    aff_add_symbol(a, sym, 1);
}

/* a += k * b */
static void aff_axpy(struct affine *a, long long k, const struct affine *b)
{
    a->constant += k * b->constant;
    for (int i = 0; i < 3; i++) a->tid[i] += k * b->tid[i];
    for (unsigned i = 0; i < b->n_symbols; i++) aff_add_symbol(a, b->symbol[i], k * b->coeff[i]);
    a->more_uniform |= b->more_uniform && k != 0;
    a->warp_relative |= b->warp_relative;
}

static void aff_scale(struct affine *a, long long k)
{
    struct affine t = *a;
    aff_zero(a);
    aff_axpy(a, k, &t);
    a->warp_relative = t.warp_relative;
}

static bool aff_has_tid(const struct affine *a)
{
    return a->tid[0] || a->tid[1] || a->tid[2];
}

bool affine_has_symbols(const struct affine *a)
{
    if (a->more_uniform) return true;
    for (unsigned i = 0; i < a->n_symbols; i++)
        if (a->coeff[i]) return true;
    return false;
}

static bool aff_is_const(const struct affine *a, long long *v)
{
    if (aff_has_tid(a) || affine_has_symbols(a)) return false;
    *v = a->constant;
    return true;
}

/* Is the type an integer (or enum, or bool) type? */
static bool int_type(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Enum || t.kind == CXType_Bool) return true;
    return t.kind >= CXType_Char_U && t.kind <= CXType_Int128 && t.kind != CXType_Char16 &&
           t.kind != CXType_Char32;
}

static bool is_global_var(CXCursor decl)
{
    CXCursor sem = clang_getCursorSemanticParent(decl);
    enum CXCursorKind k = clang_getCursorKind(sem);
    return k == CXCursor_TranslationUnit || k == CXCursor_Namespace ||
           k == CXCursor_LinkageSpec || k == CXCursor_StructDecl ||
           k == CXCursor_ClassDecl || k == CXCursor_UnexposedDecl;
}

/* The initializer of a variable declaration, or a null cursor. */
static CXCursor var_init(CXCursor decl)
{
    CXCursor kids[16];
    unsigned n = ast_children(decl, kids, 16);
    if (n == 0) return clang_getNullCursor();
    CXCursor last = kids[n - 1];
    if (!clang_isExpression(clang_getCursorKind(last))) return clang_getNullCursor();
    /* An array declaration's children are its size expressions. */
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
        t.kind == CXType_DependentSizedArray || t.kind == CXType_VariableArray)
        return clang_getNullCursor();
    return last;
}

static bool aff_has_tid(const struct affine *a);

/* Is e uniform, folded within the same folder (shared recursion guards)? */
static bool fold_uniform(struct folder *f, CXCursor e)
{
    struct affine a;
    return fold(f, e, &a) && !aff_has_tid(&a);
}

/* A step of a loop counter: "i++", "i += u", "i <<= 1", "i = i + u".  Sets
   *additive for i++, i--, i += u, i -= u, i = i +/- u; false when the step
   is not a function of i and uniform values. */
static bool counter_step(struct folder *f, CXCursor var, CXCursor def, bool *additive)
{
    enum CXCursorKind k = clang_getCursorKind(def);
    if (k == CXCursor_UnaryOperator) {
        *additive = true;
        return true;
    }
    enum CXBinaryOperatorKind op = ast_binop(def);
    CXCursor rhs = ast_child(def, 1);
    if (k == CXCursor_CompoundAssignOperator) {
        *additive = op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign;
        return fold_uniform(f, rhs);
    }
    if (op != CXBinaryOperator_Assign) return false;
    /* i = i + u, i = u + i, i = i - u, i = i * u ... */
    rhs = ast_strip(rhs);
    if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator) return false;
    enum CXBinaryOperatorKind rop = ast_binop(rhs);
    CXCursor l = ast_child(rhs, 0), r = ast_child(rhs, 1);
    bool l_self = clang_equalCursors(lvalue_var(l), var);
    bool r_self = clang_equalCursors(lvalue_var(r), var);
    if (l_self == r_self) return false;
    CXCursor other = l_self ? r : l;
    if (!fold_uniform(f, other)) return false;
    *additive = rop == CXBinaryOperator_Add || (rop == CXBinaryOperator_Sub && l_self);
    return true;
}

/* The form of a variable's current value at a use. */
static bool fold_var(struct folder *f, CXCursor ref, CXCursor decl, struct affine *out)
{
    enum CXCursorKind dk = clang_getCursorKind(decl);
    if (dk == CXCursor_NonTypeTemplateParameter) {
        /* A template argument: constant per instantiation, unknown here. */
        aff_symbol(out, decl);
        return true;
    }
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) return false;
    if (!int_type(clang_getCursorType(decl))) return false;

    struct var_info *v = f->defs ? var_find(f->defs, decl) : NULL;
    if (!v) {
        /* Not declared in this function: a file-scope __constant__ or const
           variable is uniform; anything else may be written by any thread. */
        if (!is_global_var(decl)) return false;
        bool constant = ast_has_attr(decl, CXCursor_CUDAConstantAttr);
        CXType t = clang_getCursorType(decl);
        if (!constant && !clang_isConstQualifiedType(t)) return false;
        aff_symbol(out, decl);
        return true;
    }
    if (v->escapes || v->visiting) return false;
    (void)ref;

    bool ok = false;
    v->visiting = true;
    if (dk == CXCursor_ParmDecl) {
        /* Kernel and device-function parameters hold the same value in every
           thread of the block unless the function writes them. */
        if (v->n_defs == 0) {
            aff_symbol(out, decl);
            ok = true;
        }
    } else if (v->n_defs == 0) {
        /* Defined once: its value is its initializer's. */
        CXCursor init = var_init(decl);
        if (!clang_Cursor_isNull(init) && fold(f, init, out)) {
            /* A uniform initializer is better kept as the variable itself:
               its name reads better in messages and it is one symbol. */
            if (!aff_has_tid(out) && affine_has_symbols(out)) {
                bool wr = out->warp_relative;
                aff_symbol(out, decl);
                out->warp_relative = wr;
            }
            ok = true;
        }
    } else if (!clang_Cursor_isNull(v->for_stmt) && v->n_step_defs == v->n_defs) {
        /* A for counter changed only in its step: init plus uniform steps
           (the same for all lanes of a warp running the loop together). */
        CXCursor init = var_init(decl);
        struct affine a;
        if (!clang_Cursor_isNull(init) && fold(f, init, &a)) {
            bool all_additive = true, steps_ok = true;
            for (unsigned i = 0; i < v->n_defs && steps_ok; i++) {
                bool additive = false;
                steps_ok = counter_step(f, decl, v->defs[i], &additive);
                all_additive &= additive;
            }
            if (steps_ok && (all_additive || !aff_has_tid(&a))) {
                /* threadIdx part of init, plus the counter as a uniform term
                   standing for init's uniform part and the steps taken. */
                aff_zero(out);
                for (int i = 0; i < 3; i++) out->tid[i] = a.tid[i];
                out->warp_relative = a.warp_relative;
                aff_add_symbol(out, decl, 1);
                ok = true;
            }
        }
    }
    if (!ok && !v->escapes) {
        /* Written more than once: the thread-dependence analysis knows
           whether every thread holds the same value (it tracks stores under
           thread-dependent control, loads, calls). */
        struct uniformity *u = uni(f);
        if (u && !uniformity_var_varies(u, decl, NULL)) {
            aff_symbol(out, decl);
            ok = true;
        }
    }
    v->visiting = false;
    return ok;
}

/* Pure functions whose result is uniform when their arguments are. */
static bool pure_callee(const char *name)
{
    static const char *const names[] = {"min", "max", "umin", "umax", "llmin", "llmax", "abs",
                                        "__mul24", "__umul24", "__popc", "__clz", "__ffs",
                                        "__brev", "static_cast", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0) return true;
    return false;
}

static bool fold_uniform_call(struct folder *f, CXCursor c, struct affine *out)
{
    char *name = ast_spelling(c);
    bool pure = pure_callee(name);
    free(name);
    if (!pure) return false;
    CXCursor kids[16];
    unsigned n = ast_children(c, kids, 16);
    for (unsigned i = 1; i < n; i++) {
        struct affine a;
        if (!fold(f, kids[i], &a) || aff_has_tid(&a)) return false;
    }
    aff_symbol(out, c);
    return true;
}

/* Lane-wise readings that hold across one warp when blockDim.x is a multiple
   of 32: threadIdx.x % (32k) and threadIdx.x & (32k-1) are threadIdx.x minus
   a per-warp constant; threadIdx.x / (32k) and >> log2(32k) are per-warp
   constants.  Only for a plain threadIdx.x (plus a multiple of 32). */
static bool lane_operand(const struct affine *a)
{
    return a->tid[0] == 1 && a->tid[1] == 0 && a->tid[2] == 0 && !affine_has_symbols(a) &&
           a->constant % 32 == 0;
}

static bool fold_binary(struct folder *f, CXCursor c, struct affine *out)
{
    enum CXBinaryOperatorKind op = ast_binop(c);
    if (is_assign_op(op) || op == CXBinaryOperator_Comma) return false;
    struct affine a, b;
    if (!fold(f, ast_child(c, 0), &a) || !fold(f, ast_child(c, 1), &b)) return false;
    long long ka = 0, kb = 0;
    bool ca = aff_is_const(&a, &ka), cb = aff_is_const(&b, &kb);
    bool ua = !aff_has_tid(&a), ub = !aff_has_tid(&b);

    switch (op) {
    case CXBinaryOperator_Add:
        *out = a;
        aff_axpy(out, 1, &b);
        return true;
    case CXBinaryOperator_Sub:
        *out = a;
        aff_axpy(out, -1, &b);
        return true;
    case CXBinaryOperator_Mul:
        if (ca) {
            *out = b;
            aff_scale(out, ka);
            return true;
        }
        if (cb) {
            *out = a;
            aff_scale(out, kb);
            return true;
        }
        break;
    case CXBinaryOperator_Shl:
        if (cb && kb >= 0 && kb < 62) {
            *out = a;
            aff_scale(out, 1LL << kb);
            return true;
        }
        break;
    case CXBinaryOperator_Rem:
    case CXBinaryOperator_And:
        if (cb && kb > 0 && lane_operand(&a)) {
            long long m = op == CXBinaryOperator_Rem ? kb : kb + 1;
            bool pow2 = (m & (m - 1)) == 0;
            if (m % 32 == 0 && (op == CXBinaryOperator_Rem || pow2)) {
                aff_zero(out);
                out->tid[0] = 1;
                out->warp_relative = true;
                aff_add_symbol(out, c, 1); /* minus the warp's first threadIdx.x, mod m */
                return true;
            }
        }
        break;
    case CXBinaryOperator_Div:
    case CXBinaryOperator_Shr:
        if (cb && kb > 0 && lane_operand(&a)) {
            long long m = op == CXBinaryOperator_Div ? kb : (kb < 62 ? 1LL << kb : 0);
            if (m > 0 && m % 32 == 0) {
                aff_symbol(out, c);
                out->warp_relative = true;
                return true;
            }
        }
        break;
    default:
        break;
    }
    if (ua && ub) {
        /* Uniform but not affine (n / 2, a < b): one opaque uniform term. */
        aff_symbol(out, c);
        out->warp_relative = a.warp_relative || b.warp_relative;
        return true;
    }
    return false;
}

static bool fold(struct folder *f, CXCursor e, struct affine *out)
{
    if (++f->depth > MAX_DEPTH) {
        f->depth--;
        return false;
    }
    bool ok = false;
    e = ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    long long v;
    int comp;

    if (k != CXCursor_MemberRefExpr && k != CXCursor_CallExpr && ast_eval_int(e, &v)) {
        aff_const(out, v);
        ok = true;
        goto done;
    }
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
        /* Literals evaluate; reaching here means a dependent context. */
        break;
    case CXCursor_MemberRefExpr:
        switch (affine_builtin_member(f->af->tu, e, &comp)) {
        case AFFINE_THREADIDX:
            aff_zero(out);
            out->tid[comp] = 1;
            ok = true;
            break;
        case AFFINE_BLOCKIDX:
        case AFFINE_BLOCKDIM:
        case AFFINE_GRIDDIM:
            aff_symbol(out, e);
            ok = true;
            break;
        default:
            /* A struct field (params.n) or a scalar loaded through a pointer. */
            if (int_type(clang_getCursorType(e))) ok = opaque_uniform(f, e, out);
            break;
        }
        break;
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
            aff_const(out, clang_getEnumConstantDeclValue(d));
            ok = true;
        } else {
            ok = fold_var(f, e, d, out);
        }
        break;
    }
    case CXCursor_BinaryOperator:
        ok = fold_binary(f, e, out);
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(e);
        struct affine a;
        if (op == CXUnaryOperator_Plus || op == CXUnaryOperator_Minus) {
            if (fold(f, ast_child(e, 0), &a)) {
                *out = a;
                if (op == CXUnaryOperator_Minus) aff_scale(out, -1);
                ok = true;
            }
        } else if (op == CXUnaryOperator_Deref) {
            if (int_type(clang_getCursorType(e))) ok = opaque_uniform(f, e, out);
        } else if (op == CXUnaryOperator_Not || op == CXUnaryOperator_LNot) {
            if (fold(f, ast_child(e, 0), &a) && !aff_has_tid(&a)) {
                aff_symbol(out, e);
                ok = true;
            }
        }
        break;
    }
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        /* Integer conversions keep the value for index-sized numbers. */
        if (!int_type(clang_getCursorType(e))) break;
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        if (n) ok = fold(f, kids[n - 1], out);
        break;
    }
    case CXCursor_ConditionalOperator: {
        CXCursor kids[3];
        if (ast_children(e, kids, 3) != 3) break;
        struct affine c, a, b;
        if (!fold(f, kids[0], &c) || aff_has_tid(&c)) break;
        if (!fold(f, kids[1], &a) || !fold(f, kids[2], &b)) break;
        /* A uniform choice between forms with the same threadIdx part. */
        if (a.tid[0] != b.tid[0] || a.tid[1] != b.tid[1] || a.tid[2] != b.tid[2]) break;
        aff_zero(out);
        for (int i = 0; i < 3; i++) out->tid[i] = a.tid[i];
        out->warp_relative = a.warp_relative || b.warp_relative;
        aff_add_symbol(out, e, 1);
        ok = true;
        break;
    }
    case CXCursor_CallExpr:
        if (affine_builtin_member(f->af->tu, e, &comp) == AFFINE_NOT_BUILTIN)
            ok = fold_uniform_call(f, e, out) || opaque_uniform(f, e, out);
        break;
    case CXCursor_ArraySubscriptExpr:
        /* A load: uniform when its address is and nothing varying was
           stored there (the thread-dependence analysis decides). */
        if (int_type(clang_getCursorType(e))) ok = opaque_uniform(f, e, out);
        break;
    case CXCursor_UnaryExpr: /* sizeof, alignof of dependent types */
    case CXCursor_SizeOfPackExpr:
        aff_symbol(out, e);
        ok = true;
        break;
    default:
        break;
    }
done:
    f->depth--;
    return ok;
}

bool affine_of(struct affine_fn *af, CXCursor expr, struct affine *out)
{
    aff_zero(out);
    if (!af) return false;
    struct folder f = {af, af->defs, 0};
    bool ok = fold(&f, expr, out);
    if (!ok) aff_zero(out);
    return ok;
}

bool affine_is_uniform(struct affine_fn *af, CXCursor expr)
{
    struct affine a;
    return affine_of(af, expr, &a) && !aff_has_tid(&a);
}
