/* astutil.c: libclang helpers shared by rules and analyses. */
#include "clang/astutil.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool ast_is_null(CXCursor c)
{
    return clang_Cursor_isNull(c) || clang_getCursorKind(c) == CXCursor_InvalidFile ||
           clang_getCursorKind(c) == CXCursor_NoDeclFound;
}

struct collect {
    CXCursor *out;
    unsigned max, n;
};

static enum CXChildVisitResult collect_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct collect *col = data;
    if (col->n < col->max) col->out[col->n] = c;
    col->n++;
    return CXChildVisit_Continue;
}

unsigned ast_children(CXCursor c, CXCursor *out, unsigned max)
{
    struct collect col = {out, max, 0};
    clang_visitChildren(c, collect_visit, &col);
    return col.n < max ? col.n : max;
}

CXCursor ast_child(CXCursor c, unsigned i)
{
    CXCursor kids[16];
    unsigned n = ast_children(c, kids, 16);
    if (i < n) return kids[i];
    return clang_getNullCursor();
}

CXCursor ast_strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return c;
        CXCursor kids[2];
        /* An implicit cast or a paren wraps exactly one expression. */
        if (ast_children(c, kids, 2) != 1) return c;
        c = kids[0];
    }
}

char *ast_cg_type_spelling(CXType t)
{
    if (t.kind == CXType_Invalid) return NULL;
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind == CXType_LValueReference || ct.kind == CXType_RValueReference || ct.kind == CXType_Pointer)
        ct = clang_getCanonicalType(clang_getPointeeType(ct));
    CXString s = clang_getTypeSpelling(ct);
    const char *sp = clang_getCString(s);
    char *r = sp && strstr(sp, "cooperative_groups") ? xstrdup(sp) : NULL;
    clang_disposeString(s);
    return r;
}

CXCursor ast_strip_casts(CXCursor c)
{
    c = ast_strip(c);
    for (int guard = 0; guard < 8; guard++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr && k != CXCursor_CXXReinterpretCastExpr &&
            k != CXCursor_CXXConstCastExpr && k != CXCursor_CXXFunctionalCastExpr)
            break;
        /* the operand is the last child (a type reference may come first) */
        CXCursor kids[3];
        unsigned n = ast_children(c, kids, 3);
        if (!n) break;
        c = ast_strip(kids[n - 1]);
    }
    return c;
}


enum CXBinaryOperatorKind ast_binop(CXCursor c)
{
    return clang_getCursorBinaryOperatorKind(c);
}

enum CXUnaryOperatorKind ast_unop(CXCursor c)
{
    return clang_getCursorUnaryOperatorKind(c);
}

char *ast_spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

char *ast_text(CXTranslationUnit tu, CXCursor c)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    struct strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        if (i) sb_addc(&sb, ' ');
        sb_add(&sb, clang_getCString(s));
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    return sb_detach(&sb);
}

static enum CXChildVisitResult space_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    unsigned *bits = data;
    switch (clang_getCursorKind(c)) {
    case CXCursor_CUDAGlobalAttr: *bits |= SPACE_GLOBAL; break;
    case CXCursor_CUDADeviceAttr: *bits |= SPACE_DEVICE; break;
    case CXCursor_CUDAHostAttr: *bits |= SPACE_HOST; break;
    default: break;
    }
    return CXChildVisit_Continue;
}

struct attr_find {
    enum CXCursorKind kind;
    bool found;
};

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct attr_find *f = data;
    if (clang_getCursorKind(c) != f->kind) return CXChildVisit_Continue;
    f->found = true;
    return CXChildVisit_Break;
}

bool ast_has_attr(CXCursor decl, enum CXCursorKind attr)
{
    struct attr_find f = {attr, false};
    clang_visitChildren(decl, attr_visit, &f);
    return f.found;
}

unsigned ast_exec_space(CXCursor fn)
{
    unsigned bits = 0;
    clang_visitChildren(fn, space_visit, &bits);
    /* Templates: the attributes sit on the templated declaration, which
       libclang exposes as the cursor itself; functions without any attribute
       are host functions. */
    if (bits == 0) bits = SPACE_HOST;
    return bits;
}

bool ast_eval_int(CXCursor c, long long *value)
{
    c = ast_strip(c);
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r) return false;
    bool ok = false;
    if (clang_EvalResult_getKind(r) == CXEval_Int) {
        *value = clang_EvalResult_getAsLongLong(r);
        ok = true;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

bool ast_is_integer_kind(enum CXTypeKind k)
{
    return (k >= CXType_Bool && k <= CXType_Int128) || k == CXType_Enum;
}

bool ast_stmt_leaves_block(CXCursor s)
{
    for (int depth = 0; depth < 64; depth++) {
        enum CXCursorKind k = clang_getCursorKind(s);
        if (k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt) return true;
        if (k != CXCursor_CompoundStmt) return false;
        CXCursor kids[256];
        unsigned n = ast_children(s, kids, 256);
        if (n == 0 || n == 256) return false;
        s = kids[n - 1];
    }
    return false;
}

bool ast_call_never_returns(CXCursor call)
{
    char *n = ast_spelling(clang_getCursorReferenced(call));
    bool r = !strcmp(n, "exit") || !strcmp(n, "_Exit") || !strcmp(n, "quick_exit") || !strcmp(n, "abort") ||
             !strcmp(n, "terminate") || !strncmp(n, "__assert", 8) || !strcmp(n, "_assert") || !strcmp(n, "_wassert");
    free(n);
    return r;
}

bool ast_unop_is_incdec(enum CXUnaryOperatorKind op)
{
    return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
           op == CXUnaryOperator_PreDec;
}

char *ast_plain_source(CXTranslationUnit tu, CXCursor c, CXSourceRange *range)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    CXSourceLocation b = clang_getRangeStart(ext), e = clang_getRangeEnd(ext);
    CXFile fs, fe, xs, xe;
    unsigned os, oe, xos, xoe;
    clang_getSpellingLocation(b, &fs, NULL, NULL, &os);
    clang_getSpellingLocation(e, &fe, NULL, NULL, &oe);
    clang_getExpansionLocation(b, &xs, NULL, NULL, &xos);
    clang_getExpansionLocation(e, &xe, NULL, NULL, &xoe);
    if (!fs || !fe || !xs || !xe || !clang_File_isEqual(fs, fe) || !clang_File_isEqual(fs, xs) ||
        !clang_File_isEqual(fe, xe) || os != xos || oe != xoe || oe <= os)
        return NULL;
    size_t size = 0;
    const char *text = ast_file_contents(tu, fs, &size);
    if (!text || oe > size) return NULL;
    if (range) *range = ext;
    return xstrndup(text + os, oe - os);
}

#define FILE_CACHE 16
static __thread struct {
    CXTranslationUnit tu;
    CXFile file;
    const char *text;
    size_t size;
} file_cache[FILE_CACHE];
static __thread unsigned file_cache_len, file_cache_next;

const char *ast_file_contents(CXTranslationUnit tu, CXFile f, size_t *size)
{
    *size = 0;
    if (!f) return NULL;
    for (unsigned i = 0; i < file_cache_len; i++)
        if (file_cache[i].tu == tu && clang_File_isEqual(file_cache[i].file, f)) {
            *size = file_cache[i].size;
            return file_cache[i].text;
        }
    size_t n = 0;
    const char *text = clang_getFileContents(tu, f, &n);
    unsigned slot = file_cache_len < FILE_CACHE ? file_cache_len++ : file_cache_next++ % FILE_CACHE;
    file_cache[slot].tu = tu;
    file_cache[slot].file = f;
    file_cache[slot].text = text;
    file_cache[slot].size = n;
    *size = n;
    return text;
}

void ast_file_contents_forget(void)
{
    file_cache_len = file_cache_next = 0;
}

char *ast_macro_spelled_text(CXTranslationUnit tu, CXCursor c, bool in_body)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    CXFile sf1, sf2, ef;
    unsigned so1, so2, eo, eo2;
    clang_getSpellingLocation(clang_getRangeStart(ext), &sf1, NULL, NULL, &so1);
    clang_getSpellingLocation(clang_getRangeEnd(ext), &sf2, NULL, NULL, &so2);
    clang_getExpansionLocation(clang_getRangeStart(ext), &ef, NULL, NULL, &eo);
    clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &eo2);
    if (!sf1 || !sf2 || !ef || !clang_File_isEqual(sf1, sf2) || so2 <= so1) return NULL;
    if (so1 == eo && clang_File_isEqual(sf1, ef)) return NULL; /* not from a macro */
    /* a macro is defined before it is used: a token spelled after the use's
       start in the same file is one of its arguments */
    bool arg = clang_File_isEqual(sf1, ef) && so1 > eo;
    if (!arg && !in_body) return NULL;
    (void)eo2;
    size_t size = 0;
    const char *txt = ast_file_contents(tu, sf1, &size);
    if (!txt || so2 > size || so2 - so1 > 200) return NULL;
    size_t n = 0;
    char *out = malloc(so2 - so1 + 1);
    if (!out) return NULL;
    for (unsigned i = so1; i < so2; i++) {
        char ch = txt[i] == '\n' || txt[i] == '\t' || txt[i] == '\r' || txt[i] == '\\' ? ' ' : txt[i];
        if (ch == ' ' && (n == 0 || out[n - 1] == ' ')) continue;
        out[n++] = ch;
    }
    while (n && out[n - 1] == ' ') n--;
    out[n] = '\0';
    if (!n) {
        free(out);
        return NULL;
    }
    return out;
}

bool ast_same_node(CXCursor a, CXCursor b)
{
    if (clang_getCursorKind(a) != clang_getCursorKind(b)) return false;
    if (clang_equalCursors(a, b)) return true;
    CXSourceRange ra = clang_getCursorExtent(a), rb = clang_getCursorExtent(b);
    CXFile fa, fb;
    unsigned sa, sb, ea, eb;
    clang_getExpansionLocation(clang_getRangeStart(ra), &fa, NULL, NULL, &sa);
    clang_getExpansionLocation(clang_getRangeStart(rb), &fb, NULL, NULL, &sb);
    clang_getExpansionLocation(clang_getRangeEnd(ra), NULL, NULL, NULL, &ea);
    clang_getExpansionLocation(clang_getRangeEnd(rb), NULL, NULL, NULL, &eb);
    return sa == sb && ea == eb && fa && fb && clang_File_isEqual(fa, fb);
}

static unsigned expansion_offset(CXSourceLocation l)
{
    unsigned off = 0;
    clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
    return off;
}

bool ast_inside(CXCursor outer, CXCursor c)
{
    CXSourceRange o = clang_getCursorExtent(outer), r = clang_getCursorExtent(c);
    return expansion_offset(clang_getRangeStart(r)) >= expansion_offset(clang_getRangeStart(o)) &&
           expansion_offset(clang_getRangeEnd(r)) <= expansion_offset(clang_getRangeEnd(o));
}

CXCursor ast_block_last_statement(CXCursor block)
{
    CXCursor k[256];
    unsigned n = ast_children(block, k, 256);
    if (n == 0 || n == 256) return clang_getNullCursor();
    unsigned last = n - 1;
    if (last > 0 && clang_getCursorKind(k[last]) == CXCursor_ReturnStmt && clang_Cursor_isNull(ast_child(k[last], 0)))
        last--;
    return k[last];
}

/* The component (x, y or z) a member of threadIdx/blockIdx/blockDim/gridDim
   names, 0 when it cannot be read. */
char ast_builtin_component(CXTranslationUnit tu, CXCursor member)
{
    CXString s = clang_getCursorSpelling(member);
    const char *nm = clang_getCString(s);
    char comp = 0;
    if (nm && nm[0] && !nm[1]) comp = nm[0];
    clang_disposeString(s);
    if (comp) return comp;
    /* The text after "threadIdx ." at the member's start: its spelling
       location finds threadIdx.x inside a macro definition, its expansion
       location finds "T.x" where T is a macro for threadIdx. */
    CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(member));
    for (int pass = 0; pass < 2 && !comp; pass++) {
        CXFile f = NULL;
        unsigned line, col, off;
        if (pass == 0) clang_getSpellingLocation(loc, &f, &line, &col, &off);
        else clang_getExpansionLocation(loc, &f, &line, &col, &off);
        if (!f) continue;
        size_t size = 0;
        const char *txt = ast_file_contents(tu, f, &size);
        if (!txt) continue;
        size_t i = off;
        while (i < size && (isalnum((unsigned char)txt[i]) || txt[i] == '_')) i++;
        while (i < size && isspace((unsigned char)txt[i])) i++;
        if (i >= size || txt[i] != '.') continue;
        i++;
        while (i < size && isspace((unsigned char)txt[i])) i++;
        if (i >= size) continue;
        char ch = txt[i];
        if ((ch == 'x' || ch == 'y' || ch == 'z') &&
            !(i + 1 < size && (isalnum((unsigned char)txt[i + 1]) || txt[i + 1] == '_')))
            comp = ch;
    }
    return comp;
}
