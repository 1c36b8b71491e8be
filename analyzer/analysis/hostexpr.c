/* hostexpr.c: a launch's host side written as text (the grid and block
 * extents, the arguments, the conditions checked before the launch) and
 * read back as solver terms.  The text is an s-expression, so that the
 * project's launch table can keep it across translation units and runs:
 *
 *   rel   := (g E E E)(b E E E)(a E ...)(f B ...)
 *   E     := _ | (c W V) | (v W N:USR) | (OP W E E) | (neg W E) | (not W E)
 *          | (sx W E) | (zx W E) | (tr W E) | (ite W B E E)
 *   B     := (eq E E) | (ne E E) | (slt E E) | (sle E E) | (ult E E) | (ule E E)
 *          | (land B B) | (lor B B) | (lnot B) | (truth E)
 *
 * OP is add sub mul sdiv udiv srem urem shl lshr ashr and or xor; W a width in
 * bits (32 or 64); a host variable is named by its USR, written with its
 * length.  Only values that cannot change between the point they are read and
 * the launch are written: constants, parameters and locals of the launching
 * function that it never writes (a local is replaced by its initialiser),
 * and calls of functions whose body is one return statement (div_ceil).
 * Anything else makes the part "_" (a condition: left out), so a relation
 * only ever says less than the code. */
#include "analysis/hostexpr.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 24
#define MAX_TEXT 4096

/* ---- writing ---- */

struct out {
    char buf[MAX_TEXT];
    size_t len;
    bool overflow;
};

/* The caller's test of "a variable its function never writes" (the launch
   model's scan), for the one launch being written (per thread). */
static _Thread_local hostexpr_unchanged_fn *unchanged;

static void put(struct out *o, const char *s)
{
    size_t n = strlen(s);
    if (o->len + n + 1 > sizeof o->buf) {
        o->overflow = true;
        return;
    }
    memcpy(o->buf + o->len, s, n + 1);
    o->len += n;
}

#define PUTF(o, ...)                               \
    do {                                           \
        char tmp_[96];                             \
        snprintf(tmp_, sizeof tmp_, __VA_ARGS__);  \
        put(o, tmp_);                              \
    } while (0)

/* The parameters of a function being inlined, and the arguments of its call
   (read in the caller's environment). */
struct env {
    const struct env *up;
    unsigned n;
    unsigned parm_at[8];
    CXCursor arg[8];
};

static unsigned start_of(CXCursor c)
{
    unsigned off;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
    return off;
}

/* Width (32 or 64) and signedness of an integer type; false for others
   (bool included). */
static bool int_type(CXType t, unsigned *w, bool *is_signed)
{
    t = clang_getCanonicalType(t);
    if (!ast_is_integer_kind(t.kind) || t.kind == CXType_Bool) return false;
    long long size = clang_Type_getSizeOf(t);
    if (size != 4 && size != 8) return false;
    *w = (unsigned)size * 8;
    switch (t.kind) {
    case CXType_UInt: case CXType_ULong: case CXType_ULongLong: case CXType_UShort: case CXType_UChar:
    case CXType_Char_U: case CXType_UInt128:
        *is_signed = false;
        break;
    case CXType_Enum:
        *is_signed = true;
        break;
    default:
        *is_signed = true;
    }
    return true;
}

static bool is_bool(CXType t)
{
    return clang_getCanonicalType(t).kind == CXType_Bool;
}

static bool write_int(struct out *o, CXCursor e, const struct env *env, int depth);
static bool write_bool(struct out *o, CXCursor e, const struct env *env, int depth);

/* The one expression child of a cast or wrapper (type references skipped). */
static CXCursor operand(CXCursor e)
{
    CXCursor kids[4];
    unsigned n = ast_children(e, kids, 4), found = 0;
    CXCursor r = clang_getNullCursor();
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k == CXCursor_TypeRef || k == CXCursor_TemplateRef || k == CXCursor_NamespaceRef) continue;
        r = kids[i];
        found++;
    }
    return found == 1 ? r : clang_getNullCursor();
}

/* e, written at width w (its own type's width ow, signedness os). */
static bool write_converted(struct out *o, CXCursor e, unsigned w, const struct env *env, int depth)
{
    CXType t = clang_getCursorType(e);
    if (is_bool(t)) {
        PUTF(o, "(ite %u ", w);
        if (!write_bool(o, e, env, depth + 1)) return false;
        PUTF(o, " (c %u 1) (c %u 0))", w, w);
        return true;
    }
    unsigned ow;
    bool os;
    if (!int_type(t, &ow, &os)) return false;
    if (ow == w) return write_int(o, e, env, depth + 1);
    PUTF(o, ow < w ? (os ? "(sx %u " : "(zx %u ") : "(tr %u ", w);
    if (!write_int(o, e, env, depth + 1)) return false;
    put(o, ")");
    return true;
}

static bool write_var(struct out *o, CXCursor var, unsigned w, const struct env *env, int depth)
{
    enum CXCursorKind vk = clang_getCursorKind(var);
    if (vk == CXCursor_ParmDecl) {
        unsigned at = start_of(var);
        for (const struct env *x = env; x; x = x->up)
            for (unsigned i = 0; i < x->n; i++)
                if (x->parm_at[i] == at) return write_converted(o, x->arg[i], w, x->up, depth + 1);
    }
    if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl) return false;
    if (!unchanged(var)) return false;
    if (vk == CXCursor_VarDecl) {
        /* A local never written after its declaration is its initialiser. */
        CXCursor init = clang_Cursor_getVarDeclInitializer(var);
        if (clang_Cursor_isNull(init)) return false;
        return write_converted(o, init, w, env, depth + 1);
    }
    if (env) return false; /* a parameter of an inlined function not bound */
    CXString u = clang_getCursorUSR(var);
    const char *usr = clang_getCString(u);
    bool ok = usr && *usr && !strpbrk(usr, " ()");
    if (ok) {
        PUTF(o, "(v %u %zu:", w, strlen(usr));
        put(o, usr);
        put(o, ")");
    }
    clang_disposeString(u);
    return ok;
}

static const char *arith_name(enum CXBinaryOperatorKind op, bool s)
{
    switch (op) {
    case CXBinaryOperator_Add: return "add";
    case CXBinaryOperator_Sub: return "sub";
    case CXBinaryOperator_Mul: return "mul";
    case CXBinaryOperator_Div: return s ? "sdiv" : "udiv";
    case CXBinaryOperator_Rem: return s ? "srem" : "urem";
    case CXBinaryOperator_Shl: return "shl";
    case CXBinaryOperator_Shr: return s ? "ashr" : "lshr";
    case CXBinaryOperator_And: return "and";
    case CXBinaryOperator_Or: return "or";
    case CXBinaryOperator_Xor: return "xor";
    default: return NULL;
    }
}

/* A call of a function whose body is `return expr;`: expr, its parameters
   bound to the call's arguments. */
static bool write_inlined(struct out *o, CXCursor call, unsigned w, const struct env *env, int depth)
{
    CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(call));
    if (clang_Cursor_isNull(fn)) return false;
    CXCursor kids[16];
    unsigned nk = ast_children(fn, kids, 16);
    CXCursor body = clang_getNullCursor();
    struct env inner = {env, 0, {0}, {{0}}};
    int na = clang_Cursor_getNumArguments(call);
    unsigned np = 0;
    for (unsigned i = 0; i < nk; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k == CXCursor_ParmDecl) {
            if (np >= 8 || (int)np >= na) return false;
            inner.parm_at[np] = start_of(kids[i]);
            inner.arg[np] = clang_Cursor_getArgument(call, np);
            np++;
        } else if (k == CXCursor_CompoundStmt) {
            body = kids[i];
        }
    }
    if ((int)np != na || clang_Cursor_isNull(body)) return false;
    inner.n = np;
    CXCursor stmts[2];
    if (ast_children(body, stmts, 2) != 1 || clang_getCursorKind(stmts[0]) != CXCursor_ReturnStmt) return false;
    CXCursor ret = ast_child(stmts[0], 0);
    if (clang_Cursor_isNull(ret)) return false;
    /* The returned value converts to the call's type. */
    return write_converted(o, ret, w, &inner, depth + 1);
}

static bool write_int(struct out *o, CXCursor e, const struct env *env, int depth)
{
    if (depth > MAX_DEPTH || o->overflow) return false;
    unsigned w;
    bool s;
    if (!int_type(clang_getCursorType(e), &w, &s)) return false;
    long long v;
    if (ast_eval_int(e, &v)) {
        PUTF(o, "(c %u %lld)", w, v);
        return true;
    }
    enum CXCursorKind k = clang_getCursorKind(e);
    switch (k) {
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        CXCursor x = operand(e);
        return !clang_Cursor_isNull(x) && write_converted(o, x, w, env, depth);
    }
    case CXCursor_DeclRefExpr:
        return write_var(o, clang_getCursorReferenced(e), w, env, depth);
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(e);
        const char *name = arith_name(op, s);
        if (!name) return false;
        CXCursor l = ast_child(e, 0), r = ast_child(e, 1);
        put(o, "(");
        put(o, name);
        PUTF(o, " %u ", w);
        if (!write_converted(o, l, w, env, depth)) return false;
        put(o, " ");
        if (!write_converted(o, r, w, env, depth)) return false;
        put(o, ")");
        return true;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(e);
        CXCursor x = ast_child(e, 0);
        if (op == CXUnaryOperator_Plus) return write_converted(o, x, w, env, depth);
        if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Not) return false;
        PUTF(o, op == CXUnaryOperator_Minus ? "(neg %u " : "(not %u ", w);
        if (!write_converted(o, x, w, env, depth)) return false;
        put(o, ")");
        return true;
    }
    case CXCursor_ConditionalOperator: {
        CXCursor kids[3];
        if (ast_children(e, kids, 3) != 3) return false;
        PUTF(o, "(ite %u ", w);
        if (!write_bool(o, kids[0], env, depth + 1)) return false;
        put(o, " ");
        if (!write_converted(o, kids[1], w, env, depth)) return false;
        put(o, " ");
        if (!write_converted(o, kids[2], w, env, depth)) return false;
        put(o, ")");
        return true;
    }
    case CXCursor_CallExpr:
        return write_inlined(o, e, w, env, depth);
    default:
        return false;
    }
}

static bool write_bool(struct out *o, CXCursor e, const struct env *env, int depth)
{
    if (depth > MAX_DEPTH || o->overflow) return false;
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CXXBoolLiteralExpr || (is_bool(clang_getCursorType(e)) && k != CXCursor_BinaryOperator &&
                                             k != CXCursor_UnaryOperator)) {
        long long v;
        if (ast_eval_int(e, &v)) {
            put(o, v ? "(truth (c 32 1))" : "(truth (c 32 0))");
            return true;
        }
    }
    if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr || k == CXCursor_CXXStaticCastExpr ||
        k == CXCursor_CStyleCastExpr || k == CXCursor_CXXFunctionalCastExpr) {
        CXCursor x = operand(e);
        if (clang_Cursor_isNull(x)) return false;
        if (is_bool(clang_getCursorType(x))) return write_bool(o, x, env, depth + 1);
        unsigned w;
        bool s;
        if (!int_type(clang_getCursorType(x), &w, &s)) return false;
        put(o, "(truth ");
        if (!write_int(o, x, env, depth + 1)) return false;
        put(o, ")");
        return true;
    }
    if (k == CXCursor_UnaryOperator && ast_unop(e) == CXUnaryOperator_LNot) {
        put(o, "(lnot ");
        if (!write_bool(o, ast_child(e, 0), env, depth + 1)) return false;
        put(o, ")");
        return true;
    }
    if (k == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(e);
        CXCursor l = ast_child(e, 0), r = ast_child(e, 1);
        if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
            put(o, op == CXBinaryOperator_LAnd ? "(land " : "(lor ");
            if (!write_bool(o, l, env, depth + 1)) return false;
            put(o, " ");
            if (!write_bool(o, r, env, depth + 1)) return false;
            put(o, ")");
            return true;
        }
        unsigned w, w2;
        bool s, s2;
        if (!int_type(clang_getCursorType(l), &w, &s) || !int_type(clang_getCursorType(r), &w2, &s2) || w != w2)
            return false;
        const char *name;
        bool swap = false;
        switch (op) {
        case CXBinaryOperator_EQ: name = "eq"; break;
        case CXBinaryOperator_NE: name = "ne"; break;
        case CXBinaryOperator_LT: name = s ? "slt" : "ult"; break;
        case CXBinaryOperator_LE: name = s ? "sle" : "ule"; break;
        case CXBinaryOperator_GT: name = s ? "slt" : "ult"; swap = true; break;
        case CXBinaryOperator_GE: name = s ? "sle" : "ule"; swap = true; break;
        default: name = NULL;
        }
        if (!name) {
            if (!arith_name(op, s)) return false;
            put(o, "(truth ");
            if (!write_int(o, e, env, depth + 1)) return false;
            put(o, ")");
            return true;
        }
        put(o, "(");
        put(o, name);
        put(o, " ");
        if (!write_int(o, swap ? r : l, env, depth + 1)) return false;
        put(o, " ");
        if (!write_int(o, swap ? l : r, env, depth + 1)) return false;
        put(o, ")");
        return true;
    }
    unsigned w;
    bool s;
    if (!int_type(clang_getCursorType(e), &w, &s)) return false;
    put(o, "(truth ");
    if (!write_int(o, e, env, depth + 1)) return false;
    put(o, ")");
    return true;
}

/* Takes back what was written since mark (a part that could not be
   written whole). */
static void restore(struct out *o, size_t mark)
{
    o->len = mark;
    o->buf[mark] = 0;
    o->overflow = false;
}

/* One integer part (argument, extent) written at width w, or "_" when it
   cannot be. */
static void write_part(struct out *o, CXCursor e, unsigned w)
{
    size_t mark = o->len;
    if (clang_Cursor_isNull(e) || !write_converted(o, e, w, NULL, 0) || o->overflow) {
        restore(o, mark);
        put(o, "_");
    }
}

/* A condition that holds at the launch (negated: its opposite), as one
   more fact of the list; nothing when it cannot be written. */
static void write_condition(struct out *o, CXCursor cond, bool negated)
{
    size_t mark = o->len;
    put(o, negated ? " (lnot " : " ");
    bool ok = write_bool(o, cond, NULL, 0);
    if (negated) put(o, ")");
    if (!ok || o->overflow) restore(o, mark);
}

/* ---- the extents of a dim3 argument ---- */

bool hostexpr_is_dim3(CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(t));
    const char *n = clang_getCString(s);
    bool r = n && (strcmp(n, "dim3") == 0 || strcmp(n, "struct dim3") == 0 || strcmp(n, "const dim3") == 0 ||
                   strcmp(n, "const struct dim3") == 0 || strcmp(n, "uint3") == 0);
    clang_disposeString(s);
    return r;
}

static bool dim3_parts_at(CXCursor e, CXCursor part[3], hostexpr_unchanged_fn *is_unchanged, int depth);

/* ---- a dim3 set member by member: `dim3 b; b.x = 32; b.y = 8; k<<<g, b>>>()` ---- */

#define MEMBERS_MAX_DEPTH 96

/* The cursors from root down to the one holding target (target included);
   *n = 0 when root does not hold it. */
struct path_find {
    CXCursor target;
    CXCursor stack[MEMBERS_MAX_DEPTH];
    unsigned depth, n;
    CXCursor found[MEMBERS_MAX_DEPTH];
};

static enum CXChildVisitResult path_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct path_find *p = data;
    if (p->n) return CXChildVisit_Break;
    if (!ast_inside(c, p->target)) return CXChildVisit_Continue;
    if (p->depth >= MEMBERS_MAX_DEPTH) return CXChildVisit_Break;
    p->stack[p->depth++] = c;
    if (ast_same_node(c, p->target)) {
        p->n = p->depth;
        memcpy(p->found, p->stack, p->n * sizeof *p->stack);
        return CXChildVisit_Break;
    }
    clang_visitChildren(c, path_visit, p);
    p->depth--;
    return p->n ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* `var.m = value` (m one of x, y, z): the member's index, and the value; -1
   otherwise. */
static int member_assignment(CXCursor stmt, CXCursor var, CXCursor *value)
{
    stmt = ast_strip(stmt);
    CXCursor kids[2];
    if (clang_getCursorKind(stmt) == CXCursor_CallExpr) {
        /* an assignment operator of a class: not a dim3 member */
        return -1;
    }
    if (clang_getCursorKind(stmt) != CXCursor_BinaryOperator || ast_binop(stmt) != CXBinaryOperator_Assign ||
        ast_children(stmt, kids, 2) != 2)
        return -1;
    CXCursor lhs = ast_strip(kids[0]);
    if (clang_getCursorKind(lhs) != CXCursor_MemberRefExpr) return -1;
    CXCursor base = ast_strip(ast_child(lhs, 0));
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr || !clang_equalCursors(clang_getCursorReferenced(base), var))
        return -1;
    char *m = ast_spelling(lhs);
    int idx = !strcmp(m, "x") ? 0 : !strcmp(m, "y") ? 1 : !strcmp(m, "z") ? 2 : -1;
    free(m);
    *value = kids[1];
    return idx;
}

struct var_writes {
    CXCursor var;
    CXCursor stack[MEMBERS_MAX_DEPTH];
    unsigned depth;
    unsigned writes;    /* every write of var */
};

/* Counts the writes of var: an assignment (plain, compound, a class's
   operator=) or ++/--/& whose operand is var or a member of it. */
static enum CXChildVisitResult writes_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct var_writes *w = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->var)) {
        CXCursor cur = c;
        for (unsigned i = w->depth; i > 0; i--) {
            CXCursor p = w->stack[i - 1];
            enum CXCursorKind pk = clang_getCursorKind(p);
            if (pk == CXCursor_UnexposedExpr || pk == CXCursor_ParenExpr || pk == CXCursor_MemberRefExpr) {
                cur = p;
                continue;
            }
            bool first = ast_same_node(ast_strip(ast_child(p, 0)), ast_strip(cur)) || ast_same_node(ast_child(p, 0), cur);
            if (pk == CXCursor_UnaryOperator || ((pk == CXCursor_CompoundAssignOperator ||
                                                  (pk == CXCursor_BinaryOperator && ast_binop(p) == CXBinaryOperator_Assign)) &&
                                                 first))
                w->writes++;
            else if (pk == CXCursor_CallExpr && clang_Cursor_getNumArguments(p) >= 1) {
                char *name = ast_spelling(clang_getCursorReferenced(p));
                if (!strncmp(name, "operator", 8) && strcmp(name, "operator==") && strcmp(name, "operator!=") &&
                    (strchr(name + 8, '=') || strstr(name, "++") || strstr(name, "--")))
                    w->writes++;
                free(name);
            }
            break;
        }
        return CXChildVisit_Continue;
    }
    if (w->depth < MEMBERS_MAX_DEPTH) {
        w->stack[w->depth++] = c;
        clang_visitChildren(c, writes_visit, w);
        w->depth--;
    }
    return CXChildVisit_Continue;
}

/* var (a local dim3) as the launch's argument `use` sees it: its
   initialiser's parts, then the member assignments `var.x = e` written as
   statements of the block that holds the launch, before it; only when those
   are all the writes of var in its function and no loop holds that block
   (a later assignment could then come first). */
static bool member_assigned_parts(CXCursor var, CXCursor init, CXCursor use, CXCursor part[3],
                                  hostexpr_unchanged_fn *is_unchanged, int depth)
{
    CXCursor fn = clang_getCursorSemanticParent(var);
    enum CXCursorKind fk = clang_getCursorKind(fn);
    if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_FunctionTemplate) return false;
    struct path_find *pf = xcalloc(1, sizeof *pf);
    pf->target = use;
    clang_visitChildren(fn, path_visit, pf);
    bool ok = false;
    int block = -1;
    for (int i = (int)pf->n - 2; i >= 0 && block < 0; i--)
        if (clang_getCursorKind(pf->found[i]) == CXCursor_CompoundStmt) block = i;
    for (int i = 0; i < block; i++) {
        enum CXCursorKind k = clang_getCursorKind(pf->found[i]);
        if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_LambdaExpr)
            block = -1;
    }
    if (block >= 0) {
        CXCursor stmts[512];
        unsigned n = ast_children(pf->found[block], stmts, 512);
        CXCursor holder = pf->found[block + 1];
        CXCursor given[3] = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
        unsigned assigned = 0, before = 0;
        bool reached = false;
        for (unsigned i = 0; i < n && n < 512; i++) {
            if (ast_same_node(stmts[i], holder)) reached = true;
            CXCursor value;
            int m = member_assignment(stmts[i], var, &value);
            if (m < 0) continue;
            assigned++;
            if (!reached) {
                given[m] = value;
                before++;
            }
        }
        struct var_writes w = {.var = var};
        clang_visitChildren(fn, writes_visit, &w);
        if (reached && before > 0 && w.writes == assigned) {
            CXCursor base[3] = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
            /* `dim3 b;` (no initialiser written: 1, 1, 1) or its initialiser's parts */
            if (clang_Cursor_isNull(init)) {
                ok = true;
            } else {
                /* `dim3 b;` calls the default constructor: no argument */
                CXCursor kids[4];
                unsigned nk = ast_children(ast_strip(init), kids, 4), args = 0;
                for (unsigned i = 0; i < nk; i++) args += clang_getCursorKind(kids[i]) != CXCursor_TypeRef;
                ok = (clang_getCursorKind(ast_strip(init)) == CXCursor_CallExpr && args == 0) ||
                     dim3_parts_at(init, base, is_unchanged, depth + 1);
            }
            for (int i = 0; i < 3 && ok; i++) part[i] = !clang_Cursor_isNull(given[i]) ? given[i] : base[i];
        }
    }
    free(pf);
    return ok;
}

static bool dim3_parts_at(CXCursor e, CXCursor part[3], hostexpr_unchanged_fn *is_unchanged, int depth)
{
    if (depth > 8) return false;
    e = ast_strip(e);
    if (ast_is_integer_kind(clang_getCanonicalType(clang_getCursorType(e)).kind)) {
        part[0] = e;
        part[1] = part[2] = clang_getNullCursor();
        return true;
    }
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CXXFunctionalCastExpr || k == CXCursor_CStyleCastExpr) {
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        return n > 0 && dim3_parts_at(kids[n - 1], part, is_unchanged, depth + 1);
    }
    if (k == CXCursor_CallExpr) {
        /* A dim3 constructor: the arguments written (dim3's defaults are 1),
           or a copy of another dim3. */
        CXCursor kids[4], args[3];
        unsigned n = 0, all = ast_children(e, kids, 4);
        for (unsigned i = 0; i < all; i++) {
            if (clang_getCursorKind(kids[i]) == CXCursor_TypeRef) continue;
            if (n == 3) return false;
            args[n++] = kids[i];
        }
        if (n == 1 && hostexpr_is_dim3(clang_getCursorType(ast_strip(args[0]))))
            return dim3_parts_at(args[0], part, is_unchanged, depth + 1);
        for (unsigned i = 0; i < 3; i++) part[i] = i < n ? args[i] : clang_getNullCursor();
        return n > 0;
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor var = clang_getCursorReferenced(e);
        if (clang_getCursorKind(var) != CXCursor_VarDecl) return false;
        CXCursor init = clang_Cursor_getVarDeclInitializer(var);
        if (!is_unchanged(var))
            return hostexpr_is_dim3(clang_getCursorType(var)) &&
                   member_assigned_parts(var, init, e, part, is_unchanged, depth);
        if (clang_Cursor_isNull(init)) return false;
        return dim3_parts_at(init, part, is_unchanged, depth + 1);
    }
    return false;
}

bool hostexpr_dim3_parts(CXCursor e, CXCursor part[3], hostexpr_unchanged_fn *is_unchanged)
{
    return dim3_parts_at(e, part, is_unchanged, 0);
}

static void write_dim3(struct out *o, const char *tag, CXCursor e)
{
    CXCursor part[3];
    bool ok = !clang_Cursor_isNull(e) && hostexpr_dim3_parts(e, part, unchanged);
    put(o, "(");
    put(o, tag);
    for (int i = 0; i < 3; i++) {
        put(o, " ");
        if (!ok) put(o, "_");
        else if (clang_Cursor_isNull(part[i])) put(o, "(c 32 1)");
        else write_part(o, part[i], 32);
    }
    put(o, ")");
}

/* ---- conditions the host checks before the launch ---- */

/* Does statement s (the branch of an if) always leave: return, throw, a
   call of exit/abort/an assertion failure, or a block ending in one? */
static bool leaves(CXCursor s, int depth)
{
    if (depth > 4) return false;
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_ReturnStmt || k == CXCursor_CXXThrowExpr) return true;
    if (k == CXCursor_CallExpr) return ast_call_never_returns(s);
    if (k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr) {
        CXCursor x = operand(s);
        return !clang_Cursor_isNull(x) && leaves(x, depth + 1);
    }
    if (k == CXCursor_CompoundStmt) {
        CXCursor kids[64];
        unsigned n = ast_children(s, kids, 64);
        return n > 0 && n < 64 && leaves(kids[n - 1], depth + 1);
    }
    return false;
}

/* The fact a statement before the launch establishes (written into o), if
   it is an assert or an if without else whose branch leaves. */
static void write_fact(struct out *o, CXCursor s, int depth)
{
    if (depth > 6) return;
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_IfStmt) {
        CXCursor kids[4];
        unsigned n = ast_children(s, kids, 4);
        /* `if (c) ...leave` (no else): afterwards !c.  `if (c) ; else
           leave` (an assert's expansion): afterwards c. */
        if (n == 2 && leaves(kids[1], 0)) write_condition(o, kids[0], true);
        else if (n == 3 && clang_getCursorKind(kids[1]) == CXCursor_NullStmt && leaves(kids[2], 0))
            write_condition(o, kids[0], false);
        return;
    }
    if (k == CXCursor_ConditionalOperator) {
        /* assert(c): (c ? (void)0 : __assert_fail(...)). */
        CXCursor kids[3];
        if (ast_children(s, kids, 3) == 3 && leaves(kids[2], 0)) write_condition(o, kids[0], false);
        return;
    }
    /* Wrappers of an assert's expansion: casts to void, a statement
       expression, a block of one statement, do { } while (0). */
    if (k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr || k == CXCursor_ParenExpr ||
        k == CXCursor_StmtExpr || k == CXCursor_CompoundStmt || k == CXCursor_DoStmt) {
        CXCursor kids[2];
        unsigned n = ast_children(s, kids, 2);
        if (k == CXCursor_DoStmt) {
            long long v;
            if (n != 2 || !ast_eval_int(kids[1], &v) || v != 0) return;
            n = 1;
        }
        if (n == 1) write_fact(o, kids[0], depth + 1);
    }
}

struct find {
    CXCursor target;
    CXCursor path[64];
    unsigned depth, found_depth;
    bool found;
};

static enum CXChildVisitResult find_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct find *f = data;
    if (f->found) return CXChildVisit_Break;
    if (ast_same_node(c, f->target)) {
        f->found = true;
        f->found_depth = f->depth;
        return CXChildVisit_Break;
    }
    if (f->depth >= 64) return CXChildVisit_Continue;
    f->path[f->depth++] = c;
    clang_visitChildren(c, find_visit, f);
    if (!f->found) f->depth--;
    return f->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The facts of the statements that run before call in its function: the
   earlier statements of each enclosing block. */
static void write_facts(struct out *o, CXCursor fn, CXCursor call)
{
    put(o, "(f");
    if (!clang_Cursor_isNull(fn)) {
        struct find f;
        memset(&f, 0, sizeof f);
        f.target = call;
        clang_visitChildren(fn, find_visit, &f);
        for (unsigned d = 0; f.found && d < f.depth; d++) {
            if (clang_getCursorKind(f.path[d]) != CXCursor_CompoundStmt) continue;
            CXCursor next = d + 1 < f.depth ? f.path[d + 1] : call;
            CXCursor kids[512];
            unsigned n = ast_children(f.path[d], kids, 512);
            for (unsigned i = 0; i < n && !ast_same_node(kids[i], next); i++) write_fact(o, kids[i], 0);
        }
    }
    put(o, ")");
}

char *hostexpr_launch(CXCursor scope, CXCursor call, CXCursor cfg, hostexpr_unchanged_fn *is_unchanged)
{
    unchanged = is_unchanged;
    struct out *o = xcalloc(1, sizeof *o);
    int nc = clang_Cursor_getNumArguments(cfg);
    write_dim3(o, "g", nc >= 1 ? clang_Cursor_getArgument(cfg, 0) : clang_getNullCursor());
    write_dim3(o, "b", nc >= 2 ? clang_Cursor_getArgument(cfg, 1) : clang_getNullCursor());
    put(o, "(a");
    int na = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < na; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        unsigned w;
        bool s;
        put(o, " ");
        if (int_type(clang_getCursorType(arg), &w, &s)) write_part(o, arg, w);
        else put(o, "_");
    }
    put(o, ")");
    write_facts(o, scope, call);
    char *r = o->overflow ? NULL : xstrdup(o->buf);
    free(o);
    return r;
}

/* ---- reading ---- */

struct in {
    const char *p;
    struct smt_arena *a;
    bool bad;
};

static void skip_ws(struct in *r)
{
    while (*r->p == ' ') r->p++;
}

static bool expect(struct in *r, char c)
{
    skip_ws(r);
    if (*r->p != c) {
        r->bad = true;
        return false;
    }
    r->p++;
    return true;
}

static void word(struct in *r, char *buf, size_t size)
{
    skip_ws(r);
    size_t n = 0;
    while (r->p[n] && r->p[n] != ' ' && r->p[n] != '(' && r->p[n] != ')') n++;
    if (n + 1 > size) {
        r->bad = true;
        n = size - 1;
    }
    memcpy(buf, r->p, n);
    buf[n] = 0;
    r->p += n;
}

static long long number(struct in *r)
{
    skip_ws(r);
    char *end;
    long long v = strtoll(r->p, &end, 10);
    if (end == r->p) r->bad = true;
    r->p = end;
    return v;
}

static smt_id read_int(struct in *r);
static smt_id read_bool(struct in *r);

/* Skips one balanced term ("_" or a parenthesised one). */
static void skip_term(struct in *r)
{
    skip_ws(r);
    if (*r->p == '_') {
        r->p++;
        return;
    }
    int depth = 0;
    do {
        if (!*r->p) {
            r->bad = true;
            return;
        }
        if (*r->p == '(') depth++;
        else if (*r->p == ')') depth--;
        r->p++;
    } while (depth > 0);
}

static enum smt_op bin_op(const char *w)
{
    static const struct {
        const char *name;
        enum smt_op op;
    } ops[] = {{"add", SMT_ADD},   {"sub", SMT_SUB},   {"mul", SMT_MUL},   {"sdiv", SMT_SDIV}, {"udiv", SMT_UDIV},
               {"srem", SMT_SREM}, {"urem", SMT_UREM}, {"shl", SMT_SHL},   {"lshr", SMT_LSHR}, {"ashr", SMT_ASHR},
               {"and", SMT_AND},   {"or", SMT_OR},     {"xor", SMT_XOR}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(w, ops[i].name)) return ops[i].op;
    return SMT_CONST;
}

static smt_id read_int(struct in *r)
{
    skip_ws(r);
    if (*r->p == '_') {
        r->p++;
        return 0;
    }
    if (!expect(r, '(')) return 0;
    char w[8];
    word(r, w, sizeof w);
    unsigned width = (unsigned)number(r);
    if (width != 32 && width != 64) r->bad = true;
    smt_id x = 0;
    if (!strcmp(w, "c")) {
        uint64_t v = (uint64_t)number(r);
        x = smt_const(r->a, width, width == 32 ? v & 0xffffffffu : v);
    } else if (!strcmp(w, "v")) {
        long long n = number(r);
        if (!expect(r, ':') || n <= 0 || n > 1000 || (long long)strlen(r->p) < n) {
            r->bad = true;
            return 0;
        }
        /* "$": a symbol a witness does not name (value.h). */
        char *name = xmalloc((size_t)n + 4);
        memcpy(name, "$h:", 3);
        memcpy(name + 3, r->p, (size_t)n);
        name[n + 3] = 0;
        r->p += n;
        x = smt_sym(r->a, width, name);
        free(name);
    } else if (!strcmp(w, "neg") || !strcmp(w, "not")) {
        x = smt_un(r->a, w[1] == 'e' ? SMT_NEG : SMT_NOT, read_int(r));
    } else if (!strcmp(w, "sx") || !strcmp(w, "zx") || !strcmp(w, "tr")) {
        x = smt_ext(r->a, w[0] == 's' ? SMT_SEXT : w[0] == 'z' ? SMT_ZEXT : SMT_TRUNC, read_int(r), width);
    } else if (!strcmp(w, "ite")) {
        smt_id c = read_bool(r), t = read_int(r), e = read_int(r);
        x = c && t && e ? smt_ite(r->a, c, t, e) : 0;
    } else {
        enum smt_op op = bin_op(w);
        if (op == SMT_CONST) {
            r->bad = true;
            return 0;
        }
        smt_id l = read_int(r), rr = read_int(r);
        x = l && rr ? smt_bin(r->a, op, l, rr) : 0;
    }
    expect(r, ')');
    if (x && smt_width(r->a, x) != width) x = 0;
    return r->bad ? 0 : x;
}

static smt_id read_bool(struct in *r)
{
    if (!expect(r, '(')) return 0;
    char w[8];
    word(r, w, sizeof w);
    smt_id x = 0;
    if (!strcmp(w, "land") || !strcmp(w, "lor")) {
        smt_id l = read_bool(r), rr = read_bool(r);
        x = l && rr ? smt_bin(r->a, w[1] == 'a' ? SMT_BAND : SMT_BOR, l, rr) : 0;
    } else if (!strcmp(w, "lnot")) {
        smt_id l = read_bool(r);
        x = l ? smt_un(r->a, SMT_BNOT, l) : 0;
    } else if (!strcmp(w, "truth")) {
        smt_id l = read_int(r);
        x = l ? smt_truth(r->a, l) : 0;
    } else {
        smt_id l = read_int(r), rr = read_int(r);
        if (l && rr) {
            if (!strcmp(w, "eq")) x = smt_bin(r->a, SMT_EQ, l, rr);
            else if (!strcmp(w, "ne")) x = smt_ne(r->a, l, rr);
            else if (!strcmp(w, "slt")) x = smt_bin(r->a, SMT_SLT, l, rr);
            else if (!strcmp(w, "sle")) x = smt_bin(r->a, SMT_SLE, l, rr);
            else if (!strcmp(w, "ult")) x = smt_bin(r->a, SMT_ULT, l, rr);
            else if (!strcmp(w, "ule")) x = smt_bin(r->a, SMT_ULE, l, rr);
            else r->bad = true;
        }
    }
    expect(r, ')');
    return r->bad ? 0 : x;
}

/* and, where either side may be 0 (nothing known). */
static smt_id and_known(struct smt_arena *a, smt_id x, smt_id y)
{
    if (!x) return y;
    if (!y) return x;
    return smt_bin(a, SMT_BAND, x, y);
}

static smt_id equal(struct smt_arena *a, smt_id k, smt_id h)
{
    if (!k || !h || smt_width(a, k) != smt_width(a, h)) return 0;
    return smt_bin(a, SMT_EQ, k, h);
}

/* One term of a list read with reader, or 0 with the term skipped when
   this reader does not know it (the rest of the list is still read). */
static smt_id read_or_skip(struct in *r, smt_id (*reader)(struct in *))
{
    struct in save = *r;
    smt_id x = reader(r);
    if (!r->bad) return x;
    *r = save;
    r->bad = false;
    skip_term(r);
    return 0;
}

/* Is the list being read at its end (the closing parenthesis next)? */
static bool list_end(struct in *r)
{
    skip_ws(r);
    return *r->p == ')';
}

smt_id hostexpr_site_facts(struct smt_arena *a, const char *rel, const struct hostexpr_kernel *k)
{
    smt_id all = 0;
    if (!rel) return smt_bool(a, true);
    struct in r = {rel, a, false};
    char tag[4];
    for (int part = 0; part < 4 && !r.bad; part++) {
        if (!expect(&r, '(')) break;
        word(&r, tag, sizeof tag);
        if (!strcmp(tag, "g") || !strcmp(tag, "b")) {
            const smt_id *kern = tag[0] == 'g' ? k->grid : k->block;
            for (int i = 0; i < 3 && !r.bad; i++) all = and_known(a, all, equal(a, kern[i], read_or_skip(&r, read_int)));
        } else if (!strcmp(tag, "a")) {
            for (unsigned i = 0; !r.bad && !list_end(&r); i++) {
                smt_id h = read_or_skip(&r, read_int);
                if (i < k->n_params) all = and_known(a, all, equal(a, k->param[i], h));
            }
        } else if (!strcmp(tag, "f")) {
            while (!r.bad && !list_end(&r)) all = and_known(a, all, read_or_skip(&r, read_bool));
        } else {
            r.bad = true;
        }
        expect(&r, ')');
    }
    return all ? all : smt_bool(a, true);
}
