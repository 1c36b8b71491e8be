/* cu401_shared_bank_conflict.c: the CU401 shared-bank-conflict rule: finds
 * __shared__ arrays whose accesses put several lanes of a warp in one bank.
 *
 * Per translation unit: each __shared__ array is registered at its
 * declaration; each use of it in device code is followed up the parent chain
 * to the full subscript, whose indices are read as affine forms (affine.h).
 * For each access the lanes of one warp are enumerated and the conflict
 * degree computed; at the end of the unit each array with a conflict is
 * reported at its declaration with a note per conflicting access and, for
 * multi-dimensional arrays, the smallest padding of the last dimension that
 * removes every conflict.  The block shapes, the active lanes and the bank
 * model come from analysis/ (blockshape, lanes, banks); this file finds the
 * accesses, picks the fix and words the finding. */
#include "analysis/affine.h"
#include "analysis/banks.h"
#include "analysis/blockshape.h"
#include "analysis/lanes.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMS 4
/* Static shared memory a block may declare without opting in (bytes). */
#define STATIC_SHARED_LIMIT (48 * 1024)
/* Paddings tried for the fix-it, in elements. */
#define MAX_PAD 32

struct shared_array {
    CXCursor decl;
    unsigned hash;
    char *name;
    unsigned ndims;
    long long dims[MAX_DIMS]; /* dims[0] is -1 for extern s[] */
    long long elem_size;      /* bytes */
    bool is_extern;
    long long align;          /* bytes: __align__(N), else the element's alignment; 16 for extern */
    bool other_use;           /* used other than through full subscripts */
    bool analyzable;          /* known element size and inner extents */
};

struct access {
    size_t array;
    CXCursor cursor;           /* the outermost subscript (or member) expression */
    const char *what;          /* "read", "write", "read-modify-write" */
    long long ct[MAX_DIMS][3]; /* per index: threadIdx.x, .y, .z coefficients */
    long long c0[MAX_DIMS];    /* per index: constant part */
    bool symbols;              /* uniform terms of unknown value */
    unsigned width;            /* bytes each lane moves */
    long long field_off;       /* bytes into the element */
    struct block_shape shape;  /* of the enclosing function */
    uint32_t masks[WARP_LANES];      /* active lanes of warp w (threads 32w .. 32w+31) */
    int degree;
    /* where it stands, for fusing neighbours into one vector access: the
       statement holding it, the compound statement around that, and its
       place there */
    CXCursor stmt, block;
    int stmt_index;
    bool has_barrier;          /* its statement calls __syncthreads (or another barrier) */
};

struct state {
    struct shared_array *arrays;
    size_t n_arrays, cap_arrays;
    struct access *acc;
    size_t n_acc, cap_acc;
};

/* ---- the degree model ---- */

/* The degree of an access if the array had extents dims: the index
   flattened to elements, then the bank model. */
static int degree_with(const struct shared_array *arr, const long long *dims,
                       const struct access *a, struct bank_degree *info)
{
    struct bank_access b = {{0, 0, 0}, 0, arr->elem_size, a->field_off, a->width, &a->shape, a->masks};
    long long stride = 1;
    for (unsigned d = arr->ndims; d-- > 0;) {
        for (int i = 0; i < 3; i++) b.ct[i] += a->ct[d][i] * stride;
        b.c0 += a->c0[d] * stride;
        if (d > 0) stride *= dims[d];
    }
    return bank_degree(&b, info);
}

/* ---- registration of arrays ---- */

/* Arrays are keyed by the declaration a use names, not the canonical one:
   "extern __shared__ float s[];" repeated in several kernels is one entity,
   but each kernel's own declaration is where its finding belongs. */
static struct shared_array *array_find(struct state *st, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = 0; i < st->n_arrays; i++)
        if (st->arrays[i].hash == h && clang_equalCursors(st->arrays[i].decl, decl))
            return &st->arrays[i];
    return NULL;
}

static enum CXChildVisitResult find_aligned(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_AlignedAttr) {
        *(CXCursor *)d = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* N of an __align__(N) / __attribute__((aligned(N))) on the declaration, or 0. */
static long long declared_alignment(CXTranslationUnit tu, CXCursor decl)
{
    CXCursor attr = clang_getNullCursor();
    clang_visitChildren(decl, find_aligned, &attr);
    if (clang_Cursor_isNull(attr)) return 0;
    /* Read where it is written (through __align__, the extent lies in the
       macro's definition, whose argument is a name): from the expansion's
       start to the first closing parenthesis. */
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(attr)), &f, NULL, NULL, &off);
    if (!f) return 0;
    size_t size = 0;
    if (!clang_getFileContents(tu, f, &size) || off >= size) return 0;
    unsigned end = off + 64 < size ? off + 64 : (unsigned)size;
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, f, off),
                                      clang_getLocationForOffset(tu, f, end)), &toks, &n);
    long long v = 0;
    for (unsigned i = 0; i < n && !v; i++) {
        CXString ps = clang_getTokenSpelling(tu, toks[i]);
        bool close = strcmp(clang_getCString(ps), ")") == 0;
        clang_disposeString(ps);
        if (close) break;
        if (clang_getTokenKind(toks[i]) != CXToken_Literal) continue;
        CXString sp = clang_getTokenSpelling(tu, toks[i]);
        v = strtoll(clang_getCString(sp), NULL, 0);
        clang_disposeString(sp);
    }
    clang_disposeTokens(tu, toks, n);
    return v > 0 && (v & (v - 1)) == 0 ? v : 0;
}

static void register_array(struct state *st, CXTranslationUnit tu, CXCursor decl)
{
    if (!ast_has_attr(decl, CXCursor_CUDASharedAttr)) return;
    CXType t = clang_getCursorType(decl);
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    if (k != CXType_ConstantArray && k != CXType_IncompleteArray &&
        k != CXType_DependentSizedArray && k != CXType_VariableArray)
        return;
    if (array_find(st, decl)) return;
    XGROW(st->arrays, st->n_arrays, st->cap_arrays, 8);
    struct shared_array *a = &st->arrays[st->n_arrays++];
    memset(a, 0, sizeof *a);
    a->decl = decl;
    a->hash = clang_hashCursor(decl);
    a->name = ast_spelling(decl);
    a->is_extern = clang_getCursorLinkage(decl) != CXLinkage_NoLinkage &&
                   clang_Cursor_getStorageClass(decl) == CX_SC_Extern;
    a->analyzable = true;
    CXType cur = clang_getCanonicalType(t);
    while (cur.kind == CXType_ConstantArray || cur.kind == CXType_IncompleteArray ||
           cur.kind == CXType_DependentSizedArray || cur.kind == CXType_VariableArray) {
        if (a->ndims == MAX_DIMS) {
            a->analyzable = false;
            break;
        }
        long long n = cur.kind == CXType_ConstantArray ? clang_getArraySize(cur) : -1;
        /* Only the outermost extent may be unknown (extern s[]); a dependent
           inner extent (a template parameter) leaves the layout unknown. */
        if (n < 0 && (a->ndims > 0 || cur.kind != CXType_IncompleteArray)) a->analyzable = false;
        a->dims[a->ndims++] = n;
        cur = clang_getCanonicalType(clang_getArrayElementType(cur));
    }
    long long es = clang_Type_getSizeOf(cur);
    if (es <= 0) a->analyzable = false;
    a->elem_size = es;
    a->align = clang_Type_getAlignOf(cur);
    long long declared = declared_alignment(tu, decl);
    if (declared > a->align) a->align = declared;
    /* nvcc places dynamic shared memory at the start of the window, 16-byte
       aligned in practice (DESIGN.md: fused into ld.shared.v2.f32) */
    if (a->is_extern && a->align < 16) a->align = 16;
}

/* ---- accesses ---- */

static int child_index(CXCursor p, CXCursor c);

static enum CXChildVisitResult find_barrier(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        char *name = ast_spelling(c);
        bool barrier = strncmp(name, "__syncthreads", 13) == 0 || strncmp(name, "__syncwarp", 10) == 0 ||
                       strcmp(name, "sync") == 0 || strncmp(name, "__threadfence", 13) == 0;
        free(name);
        if (barrier) {
            *(bool *)d = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The statement holding the access: the child of the nearest compound
   statement above it, and its place there. */
static void locate_statement(struct rule_ctx *ctx, struct access *a)
{
    a->stmt = a->block = clang_getNullCursor();
    a->stmt_index = -1;
    CXCursor below = a->cursor;
    for (unsigned k = 0;; k++) {
        CXCursor p = ctx_parent(ctx, k);
        if (clang_Cursor_isNull(p)) return;
        if (clang_getCursorKind(p) == CXCursor_CompoundStmt) {
            if (clang_equalCursors(below, a->cursor)) return; /* not a statement of its own */
            a->stmt = below;
            a->block = p;
            a->stmt_index = child_index(p, below);
            a->has_barrier = false;
            clang_visitChildren(below, find_barrier, &a->has_barrier);
            return;
        }
        enum CXCursorKind pk = clang_getCursorKind(p);
        if (pk == CXCursor_IfStmt || pk == CXCursor_ForStmt || pk == CXCursor_WhileStmt ||
            pk == CXCursor_DoStmt || pk == CXCursor_SwitchStmt || pk == CXCursor_CaseStmt ||
            pk == CXCursor_DefaultStmt)
            return; /* a control statement's part: no neighbours to fuse with */
        below = p;
    }
}

static bool is_implicit_wrapper(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr;
}

/* Which child of p is c (by equality), or -1. */
static int child_index(CXCursor p, CXCursor c)
{
    CXCursor kids[8];
    unsigned n = ast_children(p, kids, 8);
    for (unsigned i = 0; i < n; i++)
        if (clang_equalCursors(kids[i], c)) return (int)i;
    return -1;
}

static bool access_with_shape(struct rule_ctx *ctx, struct state *st, const struct shared_array *arr,
                              const CXCursor *idx, struct access *ap);

/* Follows a use of array up to its full subscript and records the access. */
static void on_array_use(struct rule_ctx *ctx, struct state *st, size_t ai, CXCursor ref)
{
    struct shared_array *arr = &st->arrays[ai];
    /* Climb: ref <- [decay] <- subscript(base, idx) <- [decay] <- ... */
    CXCursor idx[MAX_DIMS];
    unsigned levels = 0, up = 0;
    CXCursor cur = ref;
    while (levels < arr->ndims) {
        CXCursor p = ctx_parent(ctx, up);
        if (clang_Cursor_isNull(p)) break;
        if (is_implicit_wrapper(p)) {
            up++;
            cur = p;
            continue;
        }
        if (clang_getCursorKind(p) == CXCursor_ArraySubscriptExpr && child_index(p, cur) == 0) {
            idx[levels++] = ast_child(p, 1);
            up++;
            cur = p;
            continue;
        }
        break;
    }
    if (levels < arr->ndims) {
        /* The array (or a row of it) is used as a pointer, passed on, or
           measured: its shape matters to that code, so the padding fix
           is unsafe, and the access itself is not visible. */
        arr->other_use = true;
        return;
    }
    /* cur is the full subscript; the parent above it (past implicit casts)
       tells what the access does. */
    CXCursor full = cur;
    unsigned width = (unsigned)arr->elem_size;
    long long field_off = 0;
    CXType elem = clang_getCanonicalType(clang_getCursorType(full));
    if (elem.kind == CXType_Record) {
        /* A whole struct moves in pieces of its alignment. */
        long long al = clang_Type_getAlignOf(elem);
        if (al > 0 && al < width) width = (unsigned)al;
    }
    unsigned k = up;
    const char *what = NULL;
    while (!what) {
        CXCursor p = ctx_parent(ctx, k);
        if (clang_Cursor_isNull(p)) return;
        enum CXCursorKind pk = clang_getCursorKind(p);
        int at = child_index(p, cur);
        if (pk == CXCursor_ParenExpr) {
            cur = p;
            k++;
            continue;
        }
        if (pk == CXCursor_MemberRefExpr && at == 0) {
            CXCursor field = clang_getCursorReferenced(p);
            if (clang_getCursorKind(field) != CXCursor_FieldDecl) return; /* a method */
            long long off = clang_Cursor_getOffsetOfField(field);
            long long sz = clang_Type_getSizeOf(clang_getCursorType(field));
            if (off < 0 || off % 8 || sz <= 0) return;
            field_off += off / 8;
            width = (unsigned)sz;
            CXType ft = clang_getCanonicalType(clang_getCursorType(field));
            if (ft.kind == CXType_Record) {
                long long al = clang_Type_getAlignOf(ft);
                if (al > 0 && al < width) width = (unsigned)al;
            }
            cur = p;
            k++;
            continue;
        }
        switch (pk) {
        case CXCursor_UnexposedExpr:
            /* An implicit conversion (lvalue-to-rvalue, or to const for a
               struct's copy): a load. */
            what = "read";
            break;
        case CXCursor_UnaryOperator: {
            enum CXUnaryOperatorKind op = ast_unop(p);
            if (op == CXUnaryOperator_AddrOf) {
                /* &tile[i][j]: a pointer into the array escapes. */
                arr->other_use = true;
                return;
            }
            what = ast_unop_is_incdec(op) ? "read-modify-write" : "read";
            break;
        }
        case CXCursor_BinaryOperator:
        case CXCursor_CompoundAssignOperator: {
            enum CXBinaryOperatorKind op = ast_binop(p);
            if (at == 0 && op == CXBinaryOperator_Assign) what = "write";
            else if (at == 0 && op >= CXBinaryOperator_MulAssign && op <= CXBinaryOperator_OrAssign)
                what = "read-modify-write";
            else what = "read";
            break;
        }
        case CXCursor_CallExpr: {
            /* Struct assignment is a call of operator=; other operators
               take the element by const reference.  A plain function
               taking it by reference may do anything with it. */
            char *name = ast_spelling(p);
            if (strncmp(name, "operator", 8) == 0) {
                const char *o = name + 8;
                size_t ol = strlen(o);
                if (at == 0 && strcmp(o, "=") == 0) what = "write";
                else if (at == 0 && ol >= 2 && o[ol - 1] == '=' && strcmp(o, "==") != 0 &&
                         strcmp(o, "<=") != 0 && strcmp(o, ">=") != 0 && strcmp(o, "!=") != 0)
                    what = "read-modify-write";
                else what = "read";
            }
            free(name);
            if (!what) return;
            break;
        }
        default:
            /* Bound to a reference, or inside sizeof/decltype: not a load
               or store seen here. */
            return;
        }
    }

    if (!arr->analyzable || !ctx->in_device_code) return;

    struct access a;
    memset(&a, 0, sizeof a);
    a.array = ai;
    a.cursor = full;
    a.what = what;
    a.width = width;
    a.field_off = field_off;
    locate_statement(ctx, &a);
    /* An asserted shape, else each shape the launch sites use (the worst
       counts), else blockDim.x taken as a multiple of 32. */
    const struct block_shapes *shapes = ctx_analysis(ctx, &blockshape_analysis);
    struct access best;
    bool have = false;
    for (unsigned i = 0; i < shapes->n; i++) {
        a.shape = shapes->shape[i];
        if (!access_with_shape(ctx, st, arr, idx, &a)) continue;
        if (!have || a.degree > best.degree) best = a;
        have = true;
    }
    if (!have) return;
    XGROW(st->acc, st->n_acc, st->cap_acc, 16);
    st->acc[st->n_acc++] = best;
}

/* Reads the indices of an access for the block shape in a->shape and
   computes its degree; false when the access cannot be judged. */
static bool access_with_shape(struct rule_ctx *ctx, struct state *st, const struct shared_array *arr,
                              const CXCursor *idx, struct access *ap)
{
    (void)st;
    struct access a = *ap;
    memset(a.ct, 0, sizeof a.ct);
    memset(a.c0, 0, sizeof a.c0);
    a.symbols = false;
    bool known = block_shape_known(&a.shape);
    struct affine_fn *af = ctx_analysis(ctx, &affine_analysis);
    /* idx[0] is the first dimension's index: the innermost subscript
       expression, met first on the way up. */
    bool varies = false;
    for (unsigned d = 0; d < arr->ndims; d++) {
        struct affine f;
        if (!affine_of(af, idx[d], &f)) return false;
        for (int i = 0; i < 3; i++) a.ct[d][i] = f.tid[i];
        a.c0[d] = f.constant;
        /* Without a stated shape, threadIdx.y/z are the same across a warp
           (blockDim.x a multiple of 32): they join the uniform terms. */
        if (affine_has_symbols(&f) || f.warp_relative || (!known && (f.tid[1] || f.tid[2])))
            a.symbols = true;
        if (f.warp_relative && known && a.shape.b[0] % 32 != 0) return false;
        if (f.tid[0] || (known && (f.tid[1] || f.tid[2]))) varies = true;
        /* 32 consecutive threadIdx.x would run past this extent: the block
           must be narrower than a warp, whose shape is unknown here. */
        long long ext = arr->dims[d];
        long long span = (f.tid[0] < 0 ? -f.tid[0] : f.tid[0]) * (WARP_LANES - 1);
        if (!known && ext > 0 && span >= ext) return false;
    }
    if (!varies) return false; /* one address per warp: a broadcast */
    if (!known) {
        /* The same check for the flattened extent (s[threadIdx.x * 64] in
           a 1-D array of 1024 elements cannot hold 32 lanes either). */
        long long total = 1, stride = 1, cx = 0;
        bool sized = true;
        for (unsigned d = arr->ndims; d-- > 0;) {
            cx += a.ct[d][0] * stride;
            if (arr->dims[d] < 0) sized = false;
            else total *= arr->dims[d];
            if (d > 0) stride *= arr->dims[d];
        }
        if (sized && (cx < 0 ? -cx : cx) * (WARP_LANES - 1) >= total) return false;
    }

    struct lanes ln;
    if (!lanes_reaching(af, &a.shape, ctx->function, ctx->parents, ctx->depth, &ln)) return false;
    bool any = false;
    for (int w = 0; w < WARP_LANES; w++) any |= ln.m[w] != 0;
    lanes_clip_to_block(&ln, &a.shape);
    for (int w = 0; w < WARP_LANES; w++) a.masks[w] = ln.m[w];
    if (!any) return false;
    a.degree = degree_with(arr, arr->dims, &a, NULL);
    *ap = a;
    return true;
}

static const enum CXCursorKind subscriptions[] = {CXCursor_VarDecl, CXCursor_DeclRefExpr, 0};

static void on_cursor(struct rule_ctx *ctx, CXCursor c)
{
    /* Shared memory exists on the device: the device passes see the code
       as it runs there (host passes would only repeat the findings). */
    if (!ctx->pass_is_device) return;
    struct state *st = ctx_rule_state(ctx);
    if (!st) return;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_VarDecl) {
        register_array(st, ctx->tu, c);
        return;
    }
    if (st->n_arrays == 0) return;
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_VarDecl) return;
    struct shared_array *arr = array_find(st, d);
    if (!arr) return;
    on_array_use(ctx, st, (size_t)(arr - st->arrays), c);
}

static void *tu_begin(struct rule_ctx *ctx)
{
    (void)ctx;
    return xcalloc(1, sizeof(struct state));
}

/* ---- reporting ---- */

static void describe(struct strbuf *sb, const struct shared_array *arr, const struct access *a)
{
    struct bank_degree info;
    degree_with(arr, arr->dims, a, &info);
    long long stride = 1, cx = 0;
    for (unsigned d = arr->ndims; d-- > 0;) {
        cx += a->ct[d][0] * stride;
        if (d > 0) stride *= arr->dims[d];
    }
    long long step = cx * arr->elem_size; /* bytes between consecutive threadIdx.x */
    if (step < 0) step = -step;
    sb_addf(sb, "%d-way bank conflict in this %s: ", info.degree, a->what);
    if (block_shape_known(&a->shape) && a->shape.from_launch) {
        sb_addf(sb, "with the %lldx%lldx%lld blocks it is launched with", a->shape.b[0], a->shape.b[1],
                a->shape.b[2]);
        if (a->shape.n_launch > 1)
            sb_addf(sb, " (the worst of the %u block shapes of its launch sites)", a->shape.n_launch);
    } else if (block_shape_known(&a->shape)) {
        sb_addf(sb, "with the block shape the kernel asserts (blockDim.x == %lld", a->shape.b[0]);
        if (a->shape.b[1] > 0) sb_addf(sb, ", blockDim.y == %lld", a->shape.b[1]);
        sb_add(sb, ")");
    } else {
        sb_add(sb, "consecutive threadIdx.x are ");
        if (step % 4 == 0) sb_addf(sb, "%lld words (%lld bytes) apart", step / 4, step);
        else sb_addf(sb, "%lld bytes apart", step);
    }
    const char *group = info.phase_lanes == 32 ? "warp" : info.phase_lanes == 16 ? "half-warp" : "quarter-warp";
    sb_addf(sb, ", so the %u active lanes of a %s", info.active, group);
    if (info.phase_lanes < 32)
        sb_addf(sb, " (%u-byte accesses are served a %s at a time)", a->width, group);
    sb_addf(sb, " use %u of the %d banks", info.banks_used, BANK_COUNT);
}

/* Expansion offsets of an expression, and whether it sits alone between
   '[' and ']' in its file (not inside a macro invocation). */
static bool dim_text_range(CXTranslationUnit tu, CXCursor e, CXSourceRange *range,
                           char **text)
{
    CXSourceRange r = clang_getCursorExtent(e);
    CXFile f1, f2;
    unsigned l1, c1, o1, l2, c2, o2;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, &l1, &c1, &o1);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, &l2, &c2, &o2);
    if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 <= o1) return false;
    size_t size = 0;
    const char *txt = clang_getFileContents(tu, f1, &size);
    if (!txt || o2 > size) return false;
    size_t b = o1, e2 = o2;
    while (b > 0 && (txt[b - 1] == ' ' || txt[b - 1] == '\t')) b--;
    while (e2 < size && (txt[e2] == ' ' || txt[e2] == '\t')) e2++;
    if (b == 0 || txt[b - 1] != '[' || e2 >= size || txt[e2] != ']') return false;
    *range = clang_getRange(clang_getLocationForOffset(tu, f1, o1),
                            clang_getLocationForOffset(tu, f1, o2));
    *text = xstrndup(txt + o1, o2 - o1);
    return true;
}

/* The last dimension's size expression: libclang visits an array
   declarator's extents innermost first. */
static CXCursor last_dim_expr(CXCursor decl)
{
    CXCursor kids[16];
    unsigned n = ast_children(decl, kids, 16);
    for (unsigned i = 0; i < n; i++)
        if (clang_isExpression(clang_getCursorKind(kids[i]))) return kids[i];
    return clang_getNullCursor();
}

static bool simple_token(const char *s)
{
    if (!*s) return false;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return false;
    return true;
}

static void report_array(struct rule_ctx *ctx, struct state *st, size_t ai)
{
    struct shared_array *arr = &st->arrays[ai];
    int worst = 1;
    unsigned n_conf = 0, n_all = 0;
    for (size_t i = 0; i < st->n_acc; i++) {
        if (st->acc[i].array != ai) continue;
        n_all++;
        if (st->acc[i].degree > 1) n_conf++;
        if (st->acc[i].degree > worst) worst = st->acc[i].degree;
    }
    if (worst < 2) return;

    /* The fix: the smallest padding of the last dimension after which no
       access conflicts, for arrays whose shape no other code relies on. */
    long long pad = 0;
    bool multi = arr->ndims >= 2;
    CXSourceRange dim_range;
    char *dim_text = NULL;
    bool can_fix = multi && !arr->is_extern && !arr->other_use && arr->dims[0] > 0;
    if (can_fix) {
        CXCursor e = last_dim_expr(arr->decl);
        can_fix = !clang_Cursor_isNull(e) && dim_text_range(ctx->tu, e, &dim_range, &dim_text);
    }
    long long dims[MAX_DIMS];
    memcpy(dims, arr->dims, sizeof dims);
    /* Failing that, the padding that helps most, for the note. */
    long long best_pad = 0;
    int best_degree = worst;
    if (multi) {
        for (long long p = 1; p <= MAX_PAD && !pad; p++) {
            dims[arr->ndims - 1] = arr->dims[arr->ndims - 1] + p;
            int deg = 1;
            for (size_t i = 0; i < st->n_acc; i++)
                if (st->acc[i].array == ai) {
                    int di = degree_with(arr, dims, &st->acc[i], NULL);
                    if (di > deg) deg = di;
                }
            long long bytes = arr->elem_size;
            for (unsigned d = 0; d < arr->ndims; d++) bytes *= dims[d];
            if (bytes > STATIC_SHARED_LIMIT) break;
            if (deg == 1) pad = p;
            else if (deg < best_degree) {
                best_degree = deg;
                best_pad = p;
            }
        }
    }

    struct strbuf msg;
    sb_init(&msg);
    sb_addf(&msg, "__shared__ array '%s' is accessed with a %d-way bank conflict (%u of %u accesses)",
            arr->name, worst, n_conf, n_all);
    /* The launch shape the worst degree comes from, when the sites give it. */
    for (size_t i = 0; i < st->n_acc; i++) {
        const struct block_shape *sh = &st->acc[i].shape;
        if (st->acc[i].array != ai || st->acc[i].degree != worst || !sh->from_launch) continue;
        if (sh->n_launch > 1)
            sb_addf(&msg, " in %lldx%lldx%lld blocks, the worst of the %u block shapes it is launched with",
                    sh->b[0], sh->b[1], sh->b[2], sh->n_launch);
        else
            sb_addf(&msg, " in the %lldx%lldx%lld blocks it is launched with", sh->b[0], sh->b[1], sh->b[2]);
        break;
    }
    long long last = arr->dims[arr->ndims - 1];
    if (multi && pad)
        sb_addf(&msg, "; padding its last dimension from %lld to %lld elements removes it", last, last + pad);
    /* At the declarator's name: in "float a[N][N], b[N][N];" the second
       declaration's extent starts at the shared type. */
    CXSourceRange at = clang_getRange(clang_getCursorLocation(arr->decl),
                                      clang_getRangeEnd(clang_getCursorExtent(arr->decl)));
    struct diag *d = ctx_report_range(ctx, at, "%s", msg.buf);
    sb_release(&msg);
    if (!d) {
        free(dim_text);
        return;
    }
    for (size_t i = 0; i < st->n_acc; i++) {
        struct access *a = &st->acc[i];
        if (a->array != ai || a->degree < 2) continue;
        struct strbuf sb;
        sb_init(&sb);
        describe(&sb, arr, a);
        ctx_note(ctx, d, a->cursor, "%s", sb.buf);
        sb_release(&sb);
    }
    if (multi && pad && can_fix) {
        char *rep;
        long long v;
        char *end = NULL;
        v = strtoll(dim_text, &end, 10);
        if (end && *end == 0 && end != dim_text && v == last)
            rep = xasprintf("%lld", last + pad);
        else if (simple_token(dim_text))
            rep = xasprintf("%s + %lld", dim_text, pad);
        else
            rep = xasprintf("(%s) + %lld", dim_text, pad);
        ctx_fix(ctx, d, dim_range, rep);
        ctx_note(ctx, d, arr->decl, "fix: declare the last dimension as [%s] (rows of %lld x %lld = %lld "
                 "bytes), so that consecutive rows start in different banks", rep, last + pad,
                 arr->elem_size, (last + pad) * arr->elem_size);
        free(rep);
    } else if (multi && pad) {
        ctx_note(ctx, d, arr->decl, "no fix-it: %s; pad the last dimension by hand to %lld elements",
                 arr->is_extern ? "the array is extern" :
                 arr->other_use ? "code elsewhere relies on the array's shape (pointer, sizeof or a row passed on)" :
                 "its last dimension is not spelled in this declaration", last + pad);
    } else if (multi && best_pad) {
        ctx_note(ctx, d, arr->decl, "no padding of the last dimension up to %d elements removes every "
                 "conflict; padding it from %lld to %lld elements lowers the worst to %d-way",
                 MAX_PAD, last, last + best_pad, best_degree);
    } else if (multi) {
        ctx_note(ctx, d, arr->decl, "no padding of the last dimension up to %d elements removes every "
                 "conflict: change the access pattern instead", MAX_PAD);
    } else {
        /* Flattened: suggest the row stride that breaks the conflict. */
        long long best = 0, cx = 0;
        bool field = false;
        for (size_t i = 0; i < st->n_acc; i++)
            if (st->acc[i].array == ai && st->acc[i].degree > 1) {
                cx = st->acc[i].ct[0][0];
                field = st->acc[i].width < arr->elem_size;
                break;
            }
        if (cx < 0) cx = -cx;
        if (field && cx == 1) {
            ctx_note(ctx, d, arr->decl, "no fix-it: the stride is the %lld-byte element read one field at a "
                     "time; keep each field in its own array (structure of arrays) or load whole elements",
                     arr->elem_size);
            free(dim_text);
            return;
        }
        for (long long s = cx + 1; s <= cx + MAX_PAD && !best; s++) {
            bool ok = true;
            for (size_t i = 0; i < st->n_acc && ok; i++) {
                struct access t = st->acc[i];
                if (t.array != ai) continue;
                long long c = t.ct[0][0] < 0 ? -t.ct[0][0] : t.ct[0][0];
                if (c == cx) t.ct[0][0] = t.ct[0][0] < 0 ? -s : s;
                if (degree_with(arr, arr->dims, &t, NULL) > 1) ok = false;
            }
            if (ok) best = s;
        }
        if (best)
            ctx_note(ctx, d, arr->decl, "no fix-it for a flattened array: make the stride between "
                     "consecutive threadIdx.x %lld elements instead of %lld (a padded row) in every index "
                     "that uses it, and enlarge the array to match", best, cx);
        else
            ctx_note(ctx, d, arr->decl, "no fix-it for a flattened array: change the index so that "
                     "consecutive threadIdx.x fall in different banks");
    }
    free(dim_text);
}

/* The element index of an access, flattened: per threadIdx component and
   the constant part. */
static void flat_index(const struct shared_array *arr, const struct access *a, long long ct[3],
                       long long *c0)
{
    long long stride = 1;
    ct[0] = ct[1] = ct[2] = 0;
    *c0 = 0;
    for (unsigned d = arr->ndims; d-- > 0;) {
        for (int i = 0; i < 3; i++) ct[i] += a->ct[d][i] * stride;
        *c0 += a->c0[d] * stride;
        if (d > 0) stride *= arr->dims[d];
    }
}

/* Are a and b the two halves of one 8-byte access per lane: s[2*t] and
   s[2*t + 1] of 4-byte elements, both loads or both stores, in the same
   statement or in adjacent ones with no barrier in either, with the pair's
   address 8-byte aligned for every lane? */
static bool fusable(const struct shared_array *arr, const struct access *a, const struct access *b)
{
    if (a->array != b->array || arr->elem_size != 4 || a->width != 4 || b->width != 4) return false;
    if (arr->align < 8 || a->symbols || b->symbols || strcmp(a->what, b->what) != 0 ||
        strcmp(a->what, "read-modify-write") == 0)
        return false;
    if (clang_Cursor_isNull(a->block) || !clang_equalCursors(a->block, b->block)) return false;
    int gap = a->stmt_index - b->stmt_index;
    if (gap < -1 || gap > 1 || a->has_barrier || b->has_barrier) return false;
    if (memcmp(&a->shape, &b->shape, sizeof a->shape) != 0 ||
        memcmp(a->masks, b->masks, sizeof a->masks) != 0)
        return false;
    long long ca[3], cb[3], oa, ob;
    flat_index(arr, a, ca, &oa);
    flat_index(arr, b, cb, &ob);
    if (ca[0] != cb[0] || ca[1] != cb[1] || ca[2] != cb[2] || ob != oa + 1) return false;
    /* 8-byte aligned for every thread: even coefficients, even start */
    if (ca[0] % 2 || ca[1] % 2 || ca[2] % 2 || oa % 2) return false;
    /* ... and with a 2-D block, a row of threads must not start mid-pair */
    return true;
}

/* nvcc fuses such a pair into one ld.shared.v2 / st.shared.v2 (DESIGN.md:
   from extern __shared__ float s[], not from a 4-byte-aligned static
   array): the bank model sees one 8-byte access per lane, served a
   half-warp at a time.  The lower half becomes that access; the upper half
   is dropped. */
static void fuse_pairs(struct state *st)
{
    for (size_t i = 0; i < st->n_acc; i++) {
        struct access *a = &st->acc[i];
        for (size_t j = 0; j < st->n_acc; j++) {
            struct access *b = &st->acc[j];
            if (i == j || a->array == SIZE_MAX || b->array == SIZE_MAX ||
                !fusable(&st->arrays[a->array], a, b))
                continue;
            a->width = 8;
            a->degree = degree_with(&st->arrays[a->array], st->arrays[a->array].dims, a, NULL);
            b->array = SIZE_MAX; /* dropped below */
            break;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < st->n_acc; i++)
        if (st->acc[i].array != SIZE_MAX) st->acc[kept++] = st->acc[i];
    st->n_acc = kept;
}

static void tu_end(struct rule_ctx *ctx, void *p)
{
    struct state *st = p;
    if (!st) return;
    fuse_pairs(st);
    for (size_t i = 0; i < st->n_arrays; i++) report_array(ctx, st, i);
    for (size_t i = 0; i < st->n_arrays; i++) free(st->arrays[i].name);
    free(st->arrays);
    free(st->acc);
    free(st);
}

const struct rule rule_cu401 = {
    .code = "CU401",
    .name = "shared-bank-conflict",
    .summary = "A shared-memory array is accessed with a stride that puts several lanes of a warp in one bank.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_KERNEL,
    .status = STATUS_PREVIEW,
    .precision = "0.75 (seventh frozen test set of 2026-12-08: 3 of 4 findings true: in the declarations mode only, field reads of a float4 that nvcc fuses into one vector load were counted as scalar loads; 7 of 7 on the sixth, 1 of 1 on the fifth, 2 of 2 on the fourth, 5 of 5 on the second)",
    .version = 2,
    .has_fix = true,
    .doc = "rules/CU401-shared-bank-conflict.md",
    .kernel = "kernels/cu401_shared_bank_conflict",
    .subscriptions = subscriptions,
    .on_cursor = on_cursor,
    .tu_begin = tu_begin,
    .tu_end = tu_end,
};
