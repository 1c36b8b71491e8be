/* coalesce.c: the global accesses of a kernel that the analysis can follow
 * to a pointer parameter, and the warp sector model (see coalesce.h). */
#include "analysis/coalesce.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- accesses of a kernel ---- */

struct collector {
    struct global_accesses *g;
    CXCursor kernel;
    CXCursor stack[256];
    unsigned depth;
};

static bool is_pointer(CXCursor c)
{
    return clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer;
}

static bool is_param_of(CXCursor decl, CXCursor kernel)
{
    if (clang_getCursorKind(decl) != CXCursor_ParmDecl || !is_pointer(decl)) return false;
    return clang_equalCursors(clang_getCursorSemanticParent(decl), kernel);
}

static CXCursor ref_decl(CXCursor e)
{
    e = ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    return clang_getCursorReferenced(e);
}

static void mark_written(struct global_accesses *g, CXCursor var)
{
    if (clang_Cursor_isNull(var)) return;
    if (g->n_written == g->cap_written) {
        g->cap_written = g->cap_written ? g->cap_written * 2 : 16;
        g->written = xrealloc(g->written, g->cap_written * sizeof *g->written);
    }
    g->written[g->n_written++] = clang_hashCursor(var);
}

bool global_accesses_has_view(const struct global_accesses *g, CXCursor param, long long size)
{
    unsigned h = clang_hashCursor(param);
    for (size_t i = 0; i < g->n_views; i++)
        if (g->view_param[i] == h && g->view_size[i] == size) return true;
    return false;
}

bool global_accesses_var_single_def(const struct global_accesses *g, CXCursor var)
{
    unsigned h = clang_hashCursor(var);
    for (size_t i = 0; i < g->n_written; i++)
        if (g->written[i] == h) return false;
    return true;
}

/* The pointer a subscript's base names, followed to the kernel's parameter:
   the parameter itself, or a local pointer whose initialiser is the
   parameter plus an integer, or &parameter[integer]. */
static bool follow_base(struct collector *col, CXCursor base, struct global_access *a)
{
    CXCursor d = ref_decl(base);
    if (clang_Cursor_isNull(d)) return false;
    a->pointer = d;
    a->offset = clang_getNullCursor();
    if (is_param_of(d, col->kernel)) {
        a->param = d;
        return true;
    }
    if (clang_getCursorKind(d) != CXCursor_VarDecl || !is_pointer(d)) return false;
    if (!clang_equalCursors(clang_getCursorSemanticParent(d), col->kernel)) return false;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (clang_Cursor_isNull(init)) return false;
    /* the same element type on both sides: no reinterpreting cast */
    CXType want = clang_getCanonicalType(clang_getPointeeType(clang_getCursorType(d)));
    CXCursor e = ast_strip(init);
    CXCursor p = clang_getNullCursor(), off = clang_getNullCursor();
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_DeclRefExpr) {
        p = clang_getCursorReferenced(e);
    } else if (k == CXCursor_BinaryOperator && ast_binop(e) == CXBinaryOperator_Add) {
        CXCursor l = ast_child(e, 0), r = ast_child(e, 1);
        if (is_pointer(ast_strip(l))) {
            p = ref_decl(l);
            off = r;
        } else if (is_pointer(ast_strip(r))) {
            p = ref_decl(r);
            off = l;
        }
    } else if (k == CXCursor_UnaryOperator && ast_unop(e) == CXUnaryOperator_AddrOf) {
        CXCursor s = ast_strip(ast_child(e, 0));
        if (clang_getCursorKind(s) == CXCursor_ArraySubscriptExpr) {
            p = ref_decl(ast_child(s, 0));
            off = ast_child(s, 1);
        }
    }
    if (clang_Cursor_isNull(p) || !is_param_of(p, col->kernel)) return false;
    CXType have = clang_getCanonicalType(clang_getPointeeType(clang_getCursorType(p)));
    /* const float * from float *: the same element size is enough */
    long long sw = clang_Type_getSizeOf(want), sh = clang_Type_getSizeOf(have);
    if (sw <= 0 || sw != sh) return false;
    a->param = p;
    a->offset = off;
    return true;
}

static bool same(CXCursor a, CXCursor b)
{
    return clang_equalCursors(ast_strip(a), ast_strip(b)) || clang_equalCursors(a, b);
}

/* What the code does with the lvalue at stack depth i (the access): load,
   store, both; false when it is not an access seen here (address taken,
   bound to a reference, an operand of sizeof). */
static bool classify(struct collector *col, unsigned i, CXCursor access, struct global_access *a)
{
    if (i == 0) return false;
    CXCursor p = col->stack[i - 1];
    switch (clang_getCursorKind(p)) {
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
        a->load = true;
        return true;
    case CXCursor_ParenExpr:
        return classify(col, i - 1, p, a);
    case CXCursor_CallExpr: {
        /* an overloaded assignment of a class element (__nv_bfloat16):
           x[i] = v, x[i] += v */
        CXString sp = clang_getCursorSpelling(p);
        const char *n = clang_getCString(sp);
        size_t len = n ? strlen(n) : 0;
        bool assign = len > 8 && strncmp(n, "operator", 8) == 0 && n[len - 1] == '=' &&
                      strcmp(n, "operator==") != 0 && strcmp(n, "operator!=") != 0 &&
                      strcmp(n, "operator<=") != 0 && strcmp(n, "operator>=") != 0;
        bool compound = assign && strcmp(n, "operator=") != 0;
        clang_disposeString(sp);
        if (assign && clang_Cursor_getNumArguments(p) >= 1 &&
            same(clang_Cursor_getArgument(p, 0), access)) {
            a->store = true;
            a->load = compound;
            return true;
        }
        return false; /* passed to a function: by reference or by value, not seen here */
    }
    case CXCursor_BinaryOperator:
        if (ast_binop(p) == CXBinaryOperator_Assign) {
            if (!same(ast_child(p, 0), access)) {
                a->load = true; /* x = p[i] of a class type goes through a call */
                return true;
            }
            a->store = true;
            return true;
        }
        a->load = true;
        return true;
    case CXCursor_CompoundAssignOperator:
        if (same(ast_child(p, 0), access)) a->store = true;
        a->load = true;
        return true;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(p);
        if (op == CXUnaryOperator_AddrOf) return false;
        if (ast_unop_is_incdec(op)) a->store = true;
        a->load = true;
        return true;
    }
    default:
        return false;
    }
}

static void on_subscript(struct collector *col, CXCursor c)
{
    CXCursor kids[2];
    if (ast_children(c, kids, 2) != 2) return;
    struct global_access a;
    memset(&a, 0, sizeof a);
    if (!follow_base(col, kids[0], &a)) return;
    /* the base must be the pointer, not the index (i[p] is legal C) */
    if (!is_pointer(ast_strip(kids[0]))) return;
    a.expr = c;
    a.index = kids[1];
    CXType et = clang_getCanonicalType(clang_getCursorType(c));
    if (et.kind == CXType_ConstantArray || et.kind == CXType_IncompleteArray) return;
    a.elem_size = clang_Type_getSizeOf(et);
    if (a.elem_size <= 0) return;
    a.width = a.elem_size;
    /* p[i].x: the member is what moves */
    unsigned at = col->depth; /* c is stack[depth - 1]: set by the caller */
    CXCursor access = c;
    unsigned i = at - 1;
    if (i > 0 && clang_getCursorKind(col->stack[i - 1]) == CXCursor_MemberRefExpr) {
        CXCursor m = col->stack[i - 1];
        CXCursor field = clang_getCursorReferenced(m);
        /* a data member of the element's own (complete) type: a method or
           a member of something else has no offset to ask for */
        if (clang_getCursorKind(field) != CXCursor_FieldDecl) return;
        CXCursor rec = clang_getCursorSemanticParent(field);
        if (clang_Type_getSizeOf(clang_getCursorType(rec)) != a.elem_size) return;
        long long bits = clang_Cursor_getOffsetOfField(field);
        long long w = clang_Type_getSizeOf(clang_getCursorType(m));
        if (bits < 0 || bits % 8 || w <= 0) return;
        a.field_off = bits / 8;
        a.width = w;
        access = m;
        i--;
    }
    if (!classify(col, i, access, &a)) return;
    struct global_accesses *g = col->g;
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 16;
        g->items = xrealloc(g->items, g->cap * sizeof *g->items);
    }
    g->items[g->n++] = a;
}

static void visit(struct collector *col, CXCursor c);

static enum CXChildVisitResult visit_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    visit(data, c);
    return CXChildVisit_Continue;
}

static void visit(struct collector *col, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (col->depth >= 256) return;
    col->stack[col->depth++] = c;
    switch (k) {
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind op = ast_binop(c);
        if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign)
            mark_written(col->g, ref_decl(ast_child(c, 0)));
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (ast_unop_is_incdec(op) || op == CXUnaryOperator_AddrOf)
            mark_written(col->g, ref_decl(ast_child(c, 0)));
        break;
    }
    case CXCursor_ArraySubscriptExpr:
        on_subscript(col, c);
        break;
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXStaticCastExpr: {
        /* (uint4 *)param: a vectorised view */
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        if (t.kind != CXType_Pointer) break;
        CXCursor kids[4];
        unsigned n = ast_children(c, kids, 4);
        CXCursor d = n ? ref_decl(kids[n - 1]) : clang_getNullCursor();
        if (clang_Cursor_isNull(d) || !is_param_of(d, col->kernel)) break;
        long long size = clang_Type_getSizeOf(clang_getPointeeType(t));
        if (size <= 0) break;
        struct global_accesses *g = col->g;
        if (g->n_views == g->cap_views) {
            g->cap_views = g->cap_views ? g->cap_views * 2 : 4;
            g->view_param = xrealloc(g->view_param, g->cap_views * sizeof *g->view_param);
            g->view_size = xrealloc(g->view_size, g->cap_views * sizeof *g->view_size);
        }
        g->view_param[g->n_views] = clang_hashCursor(d);
        g->view_size[g->n_views++] = size;
        break;
    }
    case CXCursor_LambdaExpr:
        /* a lambda's body is its own function */
        col->depth--;
        return;
    default:
        break;
    }
    clang_visitChildren(c, visit_child, col);
    col->depth--;
}

struct hash_pair {
    unsigned h;
    size_t i;
};

/* by hash, then by position: the lookup finds the first of equal hashes */
static int cmp_pair(const void *a, const void *b)
{
    const struct hash_pair *x = a, *y = b;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

struct global_accesses *global_accesses_new(CXTranslationUnit tu, CXCursor kernel)
{
    (void)tu;
    struct global_accesses *g = xcalloc(1, sizeof *g);
    if (clang_Cursor_isNull(kernel) || (ast_exec_space(kernel) & SPACE_GLOBAL) != SPACE_GLOBAL)
        return g;
    struct collector *col = xcalloc(1, sizeof *col);
    col->g = g;
    col->kernel = kernel;
    clang_visitChildren(kernel, visit_child, col);
    free(col);
    /* a local pointer moved after its initialisation is not followed */
    size_t keep = 0;
    for (size_t i = 0; i < g->n; i++) {
        struct global_access *a = &g->items[i];
        if (clang_getCursorKind(a->pointer) == CXCursor_VarDecl &&
            !global_accesses_var_single_def(g, a->pointer))
            continue;
        g->items[keep++] = *a;
    }
    g->n = keep;
    g->by_hash = xmalloc((g->n ? g->n : 1) * sizeof *g->by_hash);
    g->hashes = xmalloc((g->n ? g->n : 1) * sizeof *g->hashes);
    struct hash_pair *pairs = xmalloc((g->n ? g->n : 1) * sizeof *pairs);
    for (size_t i = 0; i < g->n; i++) {
        pairs[i].h = clang_hashCursor(g->items[i].expr);
        pairs[i].i = i;
    }
    qsort(pairs, g->n, sizeof *pairs, cmp_pair);
    for (size_t i = 0; i < g->n; i++) {
        g->hashes[i] = pairs[i].h;
        g->by_hash[i] = pairs[i].i;
    }
    free(pairs);
    return g;
}

void global_accesses_free(struct global_accesses *g)
{
    if (!g) return;
    free(g->by_hash);
    free(g->hashes);
    free(g->items);
    free(g->written);
    free(g->view_param);
    free(g->view_size);
    free(g);
}

const struct global_access *global_access_find(const struct global_accesses *g, CXCursor expr)
{
    /* the first entry with expr's hash, then the equal ones after it */
    unsigned h = clang_hashCursor(expr);
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->hashes[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    for (size_t k = lo; k < g->n && g->hashes[k] == h; k++)
        if (clang_equalCursors(g->items[g->by_hash[k]].expr, expr)) return &g->items[g->by_hash[k]];
    return NULL;
}

/* ---- the sector model ---- */

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

static long long floor_div(long long a, long long b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Distinct values of a sorted array. */
static unsigned distinct(long long *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_ll);
    unsigned d = 0;
    for (unsigned i = 0; i < n; i++)
        if (i == 0 || v[i] != v[i - 1]) d++;
    return d;
}

/* Thread index of lane l of warp w: with the x extent unknown, a warp is 32
   consecutive threadIdx.x of one row; else the linear id is split as the
   hardware does. */
static void lane_xyz(const struct coalesce_pattern *p, unsigned w, unsigned l, long long t[3])
{
    long long id = (long long)COALESCE_WARP * w + l;
    if (p->block[0] <= 0) {
        t[0] = id;
        t[1] = t[2] = 0;
        return;
    }
    t[0] = id % p->block[0];
    long long rest = id / p->block[0];
    long long by = p->block[1] > 0 ? p->block[1] : 1;
    t[1] = rest % by;
    t[2] = rest / by;
}

void coalesce_sectors(const struct coalesce_pattern *p, struct coalesce_result *out)
{
    memset(out, 0, sizeof *out);
    long long width = p->width > 0 ? p->width : 1;
    unsigned warps = 1, last_lanes = COALESCE_WARP;
    if (p->block[0] > 0) {
        long long threads = p->block[0] * (p->block[1] > 0 ? p->block[1] : 1) *
                            (p->block[2] > 0 ? p->block[2] : 1);
        warps = (unsigned)((threads + COALESCE_WARP - 1) / COALESCE_WARP);
        if (warps > 32) warps = 32;
        if (threads < COALESCE_WARP * (long long)warps && threads % COALESCE_WARP)
            last_lanes = (unsigned)(threads % COALESCE_WARP);
    }
    for (unsigned w = 0; w < warps; w++) {
        unsigned lanes = w + 1 == warps ? last_lanes : COALESCE_WARP;
        long long addr[COALESCE_WARP];
        for (unsigned l = 0; l < lanes; l++) {
            long long t[3];
            lane_xyz(p, w, l, t);
            addr[l] = p->tid_bytes[0] * t[0] + p->tid_bytes[1] * t[1] + p->tid_bytes[2] * t[2];
        }
        /* distinct bytes: lanes' ranges may overlap (broadcast) */
        long long bytes[COALESCE_WARP * 16];
        unsigned nb = 0;
        for (unsigned l = 0; l < lanes; l++)
            for (long long b = 0; b < width && b < 16; b++) bytes[nb++] = addr[l] + b;
        unsigned nbytes = distinct(bytes, nb);
        unsigned min_sectors = (nbytes + COALESCE_SECTOR - 1) / COALESCE_SECTOR;
        /* the array's alignment is not known: the best shift of the whole
           pattern within a sector */
        unsigned best = 0;
        for (long long s = 0; s < COALESCE_SECTOR; s++) {
            long long sec[COALESCE_WARP * 2];
            unsigned ns = 0;
            for (unsigned l = 0; l < lanes; l++) {
                long long first = floor_div(addr[l] + s, COALESCE_SECTOR);
                long long last = floor_div(addr[l] + s + width - 1, COALESCE_SECTOR);
                sec[ns++] = first;
                if (last != first) sec[ns++] = last;
            }
            unsigned n = distinct(sec, ns);
            if (s == 0 || n < best) best = n;
        }
        /* the warp with the largest excess over its minimum */
        if (w == 0 || (unsigned long long)best * out->min_sectors >
                          (unsigned long long)out->sectors * min_sectors) {
            out->sectors = best;
            out->min_sectors = min_sectors;
            out->lanes = lanes;
            long long w16 = width < 16 ? width : 16;
            out->unit_sectors = (unsigned)((lanes * w16 + COALESCE_SECTOR - 1) / COALESCE_SECTOR);
        }
    }
}

static void *coalesce_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    (void)deps;
    return global_accesses_new(tu, fn);
}

static void coalesce_release(void *p)
{
    global_accesses_free(p);
}

const struct analysis_kind coalesce_analysis = {
    .name = "coalesce",
    .build = coalesce_build,
    .free = coalesce_release,
};
