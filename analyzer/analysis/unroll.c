/* unroll.c: the unroll pragma before a loop and whether nvcc unrolls the
 * loop fully (see unroll.h).
 *
 * A pragma is not in libclang's AST, so it is read from the source text: the
 * lines right before the loop (blank and comment lines skipped), or a
 * _Pragma operator on the loop's own line.  A count written as a name is
 * looked up as a macro of the translation unit (a single integer token), a
 * const/constexpr variable of the function or the file, or left unknown. */
#include "analysis/unroll.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

struct lookup {
    const char *name;
    CXCursor found;
};

static enum CXChildVisitResult find_named(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct lookup *l = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_MacroDefinition || k == CXCursor_VarDecl) {
        CXString s = clang_getCursorSpelling(c);
        bool same = strcmp(clang_getCString(s), l->name) == 0;
        clang_disposeString(s);
        if (same) l->found = c; /* the last definition before use wins */
    }
    return k == CXCursor_MacroDefinition || k == CXCursor_VarDecl ? CXChildVisit_Continue
                                                                  : CXChildVisit_Recurse;
}

/* The value of a macro defined as one integer literal (parentheses allowed). */
static bool macro_value(CXTranslationUnit tu, CXCursor def, long long *v)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, &n);
    bool ok = false;
    unsigned lit = 0, found = 0;
    for (unsigned i = 1; i < n; i++) { /* toks[0] is the name */
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(s);
        if (clang_getTokenKind(toks[i]) == CXToken_Literal) {
            lit = i;
            found++;
        } else if (strcmp(t, "(") != 0 && strcmp(t, ")") != 0) {
            found = 99;
        }
        clang_disposeString(s);
    }
    if (found == 1) {
        CXString s = clang_getTokenSpelling(tu, toks[lit]);
        char *end;
        long long x = strtoll(clang_getCString(s), &end, 0);
        ok = end != clang_getCString(s) && strspn(end, "uUlL") == strlen(end);
        if (ok) *v = x;
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    return ok;
}

static bool name_value(CXTranslationUnit tu, CXCursor fn, const char *name, long long *v)
{
    struct lookup l = {name, clang_getNullCursor()};
    if (!clang_Cursor_isNull(fn)) clang_visitChildren(fn, find_named, &l);
    if (clang_Cursor_isNull(l.found)) {
        /* file scope: top-level declarations and macro definitions only */
        CXCursor tuc = clang_getTranslationUnitCursor(tu);
        struct lookup top = {name, clang_getNullCursor()};
        clang_visitChildren(tuc, find_named, &top);
        l.found = top.found;
    }
    if (clang_Cursor_isNull(l.found)) return false;
    if (clang_getCursorKind(l.found) == CXCursor_MacroDefinition) return macro_value(tu, l.found, v);
    if (!clang_isConstQualifiedType(clang_getCursorType(l.found))) return false;
    return ast_eval_int(l.found, v);
}

/* Reads "unroll", "unroll N", "unroll(N)", "unroll (N)" at p. */
static bool parse_unroll(CXTranslationUnit tu, CXCursor fn, const char *p, const char *end,
                         struct unroll_pragma *out)
{
    p = skip_space(p, end);
    if (end - p < 6 || strncmp(p, "unroll", 6) != 0) return false;
    p += 6;
    if (p < end && (isalnum((unsigned char)*p) || *p == '_')) return false; /* unroll_and_jam */
    p = skip_space(p, end);
    bool paren = p < end && *p == '(';
    if (paren) p = skip_space(p + 1, end);
    const char *w = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
    if (p == w) {
        out->hint = UNROLL_FULL;
        return true;
    }
    size_t len = (size_t)(p - w);
    if (isdigit((unsigned char)*w)) {
        char buf[32];
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, w, len);
        buf[len] = '\0';
        out->hint = UNROLL_COUNT;
        out->count = strtoll(buf, NULL, 0);
        return true;
    }
    if (len >= sizeof out->name) len = sizeof out->name - 1;
    memcpy(out->name, w, len);
    out->name[len] = '\0';
    const char *q = skip_space(p, end);
    bool simple = q >= end || *q == ')' || *q == '"' || *q == '/';
    out->hint = simple && name_value(tu, fn, out->name, &out->count) ? UNROLL_COUNT
                                                                     : UNROLL_COUNT_UNKNOWN;
    return true;
}

/* A _Pragma("unroll ...") operator between start and end. */
static bool find_pragma_operator(CXTranslationUnit tu, CXCursor fn, const char *start,
                                 const char *end, struct unroll_pragma *out)
{
    for (const char *p = start; p + 8 < end; p++) {
        if (strncmp(p, "_Pragma", 7) != 0) continue;
        const char *q = skip_space(p + 7, end);
        if (q >= end || *q != '(') continue;
        q = skip_space(q + 1, end);
        if (q >= end || *q != '"') continue;
        const char *close = memchr(q + 1, '"', (size_t)(end - q - 1));
        if (close && parse_unroll(tu, fn, q + 1, close, out)) return true;
    }
    return false;
}

void unroll_pragma_of(CXTranslationUnit tu, CXCursor fn, CXCursor loop, struct unroll_pragma *out)
{
    memset(out, 0, sizeof *out);
    out->hint = UNROLL_NONE;
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(loop)), &f, NULL, NULL, &off);
    if (!f) return;
    size_t size = 0;
    const char *txt = ast_file_contents(tu, f, &size);
    if (!txt || off > size) return;
    /* the loop's own line, before the loop: _Pragma("unroll") for (...) */
    long ls = (long)off;
    while (ls > 0 && txt[ls - 1] != '\n') ls--;
    if (find_pragma_operator(tu, fn, txt + ls, txt + off, out)) return;
    {
        const char *p = skip_space(txt + ls, txt + off);
        if (p != txt + off) return; /* something else precedes the loop on its line */
    }
    /* the lines above, skipping blank and comment lines */
    long end = ls - 1; /* the newline ending the previous line */
    for (int guard = 0; end > 0 && guard < 16; guard++) {
        long s = end;
        while (s > 0 && txt[s - 1] != '\n') s--;
        const char *p = skip_space(txt + s, txt + end);
        const char *e = txt + end;
        if (p == e || (e - p >= 2 && p[0] == '/' && p[1] == '/')) {
            end = s - 1;
            continue;
        }
        if (*p == '#') {
            p = skip_space(p + 1, e);
            if (e - p >= 6 && strncmp(p, "pragma", 6) == 0) {
                p += 6;
                /* "#pragma unroll", also "#pragma nv_unroll"? nvcc knows only unroll */
                parse_unroll(tu, fn, p, e, out);
            }
            return;
        }
        /* a line holding only _Pragma("unroll ...") */
        if (e - p > 7 && strncmp(p, "_Pragma", 7) == 0) {
            const char *close = memchr(p, ')', (size_t)(e - p));
            if (close && skip_space(close + 1, e) == e) find_pragma_operator(tu, fn, p, e, out);
        }
        return;
    }
}

/* ---- the trip count ---- */

static CXCursor ref_var(CXCursor e)
{
    e = ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    return clang_getCursorReferenced(e);
}

struct counter_writes {
    CXCursor var;
    CXCursor step;
    unsigned writes;
};

static enum CXChildVisitResult count_counter_writes(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct counter_writes *w = d;
    if (clang_equalCursors(c, w->step)) return CXChildVisit_Continue;
    CXCursor target = clang_getNullCursor();
    switch (clang_getCursorKind(c)) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign) target = ast_child(c, 0);
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (ast_unop_is_incdec(op) || op == CXUnaryOperator_AddrOf) target = ast_child(c, 0);
        break;
    }
    case CXCursor_CallExpr: {
        CXCursor kids[32];
        unsigned n = ast_children(c, kids, 32);
        for (unsigned i = 1; i < n; i++)
            if (clang_equalCursors(ref_var(kids[i]), w->var) &&
                clang_getCursorKind(kids[i]) == CXCursor_DeclRefExpr)
                w->writes++;
        break;
    }
    default:
        break;
    }
    if (!clang_Cursor_isNull(target) && clang_equalCursors(ref_var(target), w->var)) w->writes++;
    return CXChildVisit_Recurse;
}

bool unroll_counter_only_in_step(CXCursor loop, CXCursor var)
{
    CXCursor kids[4];
    if (clang_getCursorKind(loop) != CXCursor_ForStmt || ast_children(loop, kids, 4) != 4) return false;
    struct counter_writes w = {var, kids[2], 0};
    clang_visitChildren(kids[3], count_counter_writes, &w);
    return w.writes == 0;
}

/* The step of `k++`, `k--`, `k += s`, `k -= s`, `k = k + s`: +s or -s. */
static bool step_value(struct constprop *cp, CXCursor inc, CXCursor var, long long *step)
{
    inc = ast_strip(inc);
    enum CXCursorKind k = clang_getCursorKind(inc);
    struct constval v;
    if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = ast_unop(inc);
        if (!clang_equalCursors(ref_var(ast_child(inc, 0)), var)) return false;
        if (op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc) *step = 1;
        else if (op == CXUnaryOperator_PreDec || op == CXUnaryOperator_PostDec) *step = -1;
        else return false;
        return true;
    }
    if (k == CXCursor_CompoundAssignOperator) {
        enum CXBinaryOperatorKind op = ast_binop(inc);
        if (!clang_equalCursors(ref_var(ast_child(inc, 0)), var)) return false;
        if (op != CXBinaryOperator_AddAssign && op != CXBinaryOperator_SubAssign) return false;
        if (!constprop_value(cp, ast_child(inc, 1), &v) || v.kind != CONSTVAL_INT) return false;
        *step = op == CXBinaryOperator_AddAssign ? v.i : -v.i;
        return true;
    }
    if (k == CXCursor_BinaryOperator && ast_binop(inc) == CXBinaryOperator_Assign) {
        if (!clang_equalCursors(ref_var(ast_child(inc, 0)), var)) return false;
        CXCursor rhs = ast_strip(ast_child(inc, 1));
        if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator) return false;
        enum CXBinaryOperatorKind op = ast_binop(rhs);
        if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) return false;
        if (!clang_equalCursors(ref_var(ast_child(rhs, 0)), var)) return false;
        if (!constprop_value(cp, ast_child(rhs, 1), &v) || v.kind != CONSTVAL_INT) return false;
        *step = op == CXBinaryOperator_Add ? v.i : -v.i;
        return true;
    }
    return false;
}

/* Is e the counter var, or var + c, c + var or var - c with c an integer
   constant (*shift = +c or -c)? */
static bool counter_plus_constant(struct constprop *cp, CXCursor e, CXCursor var, long long *shift)
{
    *shift = 0;
    if (clang_equalCursors(ref_var(e), var)) return true;
    e = ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator) return false;
    enum CXBinaryOperatorKind op = ast_binop(e);
    if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) return false;
    CXCursor l = ast_child(e, 0), r = ast_child(e, 1);
    struct constval v;
    if (clang_equalCursors(ref_var(l), var) && constprop_value(cp, r, &v) && v.kind == CONSTVAL_INT) {
        *shift = op == CXBinaryOperator_Add ? v.i : -v.i;
        return true;
    }
    if (op == CXBinaryOperator_Add && clang_equalCursors(ref_var(r), var) && constprop_value(cp, l, &v) &&
        v.kind == CONSTVAL_INT) {
        *shift = v.i;
        return true;
    }
    return false;
}

/* Is e built from the counter var and compile-time constants only (some of
   a value this analysis does not know, a template parameter's)? */
static bool constant_but_counter(struct constprop *cp, CXCursor e, CXCursor var, int depth)
{
    if (depth > 16) return false;
    if (clang_equalCursors(ref_var(e), var)) return true;
    struct constval v;
    if (constprop_value(cp, e, &v)) return true;
    e = ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(e);
        if (op == CXBinaryOperator_Assign || op == CXBinaryOperator_Comma) return false;
        return constant_but_counter(cp, ast_child(e, 0), var, depth + 1) &&
               constant_but_counter(cp, ast_child(e, 1), var, depth + 1);
    }
    if (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXFunctionalCastExpr)
        return constant_but_counter(cp, ast_child(e, clang_getCursorKind(ast_child(e, 0)) == CXCursor_TypeRef),
                                    var, depth + 1);
    return false;
}

bool unroll_trip_is_constant(struct constprop *cp, CXCursor loop)
{
    if (clang_getCursorKind(loop) != CXCursor_ForStmt) return false;
    CXCursor kids[4];
    if (ast_children(loop, kids, 4) != 4 || clang_getCursorKind(kids[0]) != CXCursor_DeclStmt) return false;
    CXCursor vars[2];
    if (ast_children(kids[0], vars, 2) != 1 || clang_getCursorKind(vars[0]) != CXCursor_VarDecl) return false;
    CXCursor var = vars[0];
    CXCursor init = clang_Cursor_getVarDeclInitializer(var);
    struct constval v;
    if (clang_Cursor_isNull(init) || !constprop_value(cp, init, &v)) return false;
    /* the step: k++, k--, k += c, k -= c, k = k + c, c a constant */
    CXCursor inc = ast_strip(kids[2]);
    enum CXCursorKind ik = clang_getCursorKind(inc);
    bool step_ok = false;
    if (ik == CXCursor_UnaryOperator) {
        step_ok = clang_equalCursors(ref_var(ast_child(inc, 0)), var) && ast_unop_is_incdec(ast_unop(inc));
    } else if (ik == CXCursor_CompoundAssignOperator) {
        enum CXBinaryOperatorKind op = ast_binop(inc);
        step_ok = (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) &&
                  clang_equalCursors(ref_var(ast_child(inc, 0)), var) && constprop_value(cp, ast_child(inc, 1), &v);
    } else if (ik == CXCursor_BinaryOperator && ast_binop(inc) == CXBinaryOperator_Assign) {
        CXCursor rhs = ast_strip(ast_child(inc, 1));
        step_ok = clang_equalCursors(ref_var(ast_child(inc, 0)), var) &&
                  clang_getCursorKind(rhs) == CXCursor_BinaryOperator &&
                  (ast_binop(rhs) == CXBinaryOperator_Add || ast_binop(rhs) == CXBinaryOperator_Sub) &&
                  clang_equalCursors(ref_var(ast_child(rhs, 0)), var) && constprop_value(cp, ast_child(rhs, 1), &v);
    }
    if (!step_ok) return false;
    CXCursor cond = ast_strip(kids[1]);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator) return false;
    enum CXBinaryOperatorKind op = ast_binop(cond);
    if (op != CXBinaryOperator_LT && op != CXBinaryOperator_LE && op != CXBinaryOperator_GT &&
        op != CXBinaryOperator_GE && op != CXBinaryOperator_NE)
        return false;
    return constant_but_counter(cp, cond, var, 0) && unroll_counter_only_in_step(loop, var);
}

bool unroll_trip_count(struct constprop *cp, CXCursor loop, long long *trip)
{
    if (clang_getCursorKind(loop) != CXCursor_ForStmt) return false;
    CXCursor kids[4];
    if (ast_children(loop, kids, 4) != 4 || clang_getCursorKind(kids[0]) != CXCursor_DeclStmt)
        return false;
    CXCursor vars[2];
    if (ast_children(kids[0], vars, 2) != 1 || clang_getCursorKind(vars[0]) != CXCursor_VarDecl)
        return false;
    CXCursor var = vars[0];
    CXCursor init = clang_Cursor_getVarDeclInitializer(var);
    struct constval a, b;
    if (clang_Cursor_isNull(init) || !constprop_value(cp, init, &a) || a.kind != CONSTVAL_INT) return false;
    long long step;
    if (!step_value(cp, kids[2], var, &step) || step == 0) return false;
    CXCursor cond = ast_strip(kids[1]);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator) return false;
    enum CXBinaryOperatorKind op = ast_binop(cond);
    CXCursor l = ast_child(cond, 0), r = ast_child(cond, 1), bound;
    /* k + c OP b (for (k = 0; k + 32 <= 128; k += 32)) is k OP b - c */
    long long shift = 0;
    if (counter_plus_constant(cp, l, var, &shift)) bound = r;
    else if (counter_plus_constant(cp, r, var, &shift)) {
        bound = l;
        /* b > k is k < b */
        switch (op) {
        case CXBinaryOperator_LT: op = CXBinaryOperator_GT; break;
        case CXBinaryOperator_GT: op = CXBinaryOperator_LT; break;
        case CXBinaryOperator_LE: op = CXBinaryOperator_GE; break;
        case CXBinaryOperator_GE: op = CXBinaryOperator_LE; break;
        default: break;
        }
    } else return false;
    if (!constprop_value(cp, bound, &b) || b.kind != CONSTVAL_INT) return false;
    if (!unroll_counter_only_in_step(loop, var)) return false;
    long long n;
    long long start = a.i, stop = b.i - shift;
    switch (op) {
    case CXBinaryOperator_LT:
        if (step < 0) return false;
        n = stop > start ? (stop - start + step - 1) / step : 0;
        break;
    case CXBinaryOperator_LE:
        if (step < 0) return false;
        n = stop >= start ? (stop - start) / step + 1 : 0;
        break;
    case CXBinaryOperator_GT:
        if (step > 0) return false;
        n = start > stop ? (start - stop + (-step) - 1) / (-step) : 0;
        break;
    case CXBinaryOperator_GE:
        if (step > 0) return false;
        n = start >= stop ? (start - stop) / (-step) + 1 : 0;
        break;
    case CXBinaryOperator_NE:
        if ((stop - start) % step != 0 || (stop - start) / step < 0) return false;
        n = (stop - start) / step;
        break;
    default:
        return false;
    }
    *trip = n;
    return true;
}

/* The loop's bound is the pragma's count by name: for (int k = 0; k < N; ++k)
   under #pragma unroll N, whatever N is in each specialisation. */
static bool bound_is_count(CXCursor loop, const char *name)
{
    CXCursor kids[4];
    if (!name[0] || ast_children(loop, kids, 4) != 4) return false;
    CXCursor cond = ast_strip(kids[1]);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator || ast_binop(cond) != CXBinaryOperator_LT)
        return false;
    CXCursor b = ast_strip(ast_child(cond, 1));
    if (clang_getCursorKind(b) != CXCursor_DeclRefExpr) return false;
    char *s = ast_spelling(b);
    bool same = strcmp(s, name) == 0;
    free(s);
    if (!same) return false;
    CXCursor vars[2];
    if (clang_getCursorKind(kids[0]) != CXCursor_DeclStmt || ast_children(kids[0], vars, 2) != 1)
        return false;
    long long start;
    CXCursor init = clang_Cursor_getVarDeclInitializer(vars[0]);
    CXCursor inc = ast_strip(kids[2]);
    return !clang_Cursor_isNull(init) && ast_eval_int(init, &start) && start >= 0 &&
           clang_getCursorKind(inc) == CXCursor_UnaryOperator &&
           (ast_unop(inc) == CXUnaryOperator_PreInc || ast_unop(inc) == CXUnaryOperator_PostInc);
}

static enum CXChildVisitResult find_loop(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    return k == CXCursor_LambdaExpr ? CXChildVisit_Continue : CXChildVisit_Recurse;
}

enum unroll_verdict unroll_loop(CXTranslationUnit tu, CXCursor fn, struct constprop *cp, CXCursor loop)
{
    enum CXCursorKind k = clang_getCursorKind(loop);
    if (k != CXCursor_ForStmt) return k == CXCursor_WhileStmt || k == CXCursor_DoStmt ? UNROLL_KEPT
                                                                                       : UNROLL_CANNOT_TELL;
    struct unroll_pragma p;
    unroll_pragma_of(tu, fn, loop, &p);
    long long trip;
    struct constval cv;
    bool constant = unroll_trip_count(cp, loop, &trip);
    if (!constant) {
        if (p.hint == UNROLL_COUNT && p.count == 1) return UNROLL_KEPT;
        if (p.hint == UNROLL_COUNT_UNKNOWN && bound_is_count(loop, p.name)) return UNROLL_FULLY;
        if (p.hint == UNROLL_FULL) {
            /* a bound that is a constant of unknown value (a template
               parameter) is still a constant trip count */
            CXCursor kids[4];
            if (ast_children(loop, kids, 4) == 4 && clang_getCursorKind(ast_strip(kids[1])) ==
                                                       CXCursor_BinaryOperator &&
                constprop_value(cp, ast_child(ast_strip(kids[1]), 1), &cv) &&
                cv.kind == CONSTVAL_UNKNOWN_VALUE)
                return UNROLL_FULLY;
        }
        return UNROLL_CANNOT_TELL;
    }
    switch (p.hint) {
    case UNROLL_FULL: return UNROLL_FULLY;
    case UNROLL_COUNT:
        /* a count below the trip count: measured, `#pragma unroll 4` over 32
           trips still left a float[32] in registers; only 1 keeps the loop */
        if (trip <= p.count) return UNROLL_FULLY;
        return p.count <= 1 ? UNROLL_KEPT : UNROLL_CANNOT_TELL;
    case UNROLL_COUNT_UNKNOWN: return UNROLL_CANNOT_TELL;
    case UNROLL_NONE: break;
    }
    if (trip > NVCC_FULL_UNROLL_MAX_TRIP) return UNROLL_CANNOT_TELL;
    bool inner = false;
    clang_visitChildren(loop, find_loop, &inner);
    return inner ? UNROLL_CANNOT_TELL : UNROLL_FULLY;
}
