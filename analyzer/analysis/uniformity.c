/* uniformity.c: the thread-dependence analysis: which values, conditions and
 * statements of a function may differ between the threads of a block.
 *
 * Design.  The function body is copied once into a small tree of nodes (so the
 * fixed point does not re-visit libclang cursors) and interpreted abstractly:
 * every value is a bit mask of what it depends on, bit 0 being "varies between
 * threads" and bit 1+k "depends on parameter k".  Parameters are uniform when
 * the function is linted on its own; their bits make the same run serve as the
 * summary callers use (which parameters make the result vary, which make a
 * barrier inside divergent, what is stored through pointer parameters).
 *
 * Local scalars are tracked flow-sensitively (strong updates, joins at merges,
 * loops iterated to a fixed point).  Local arrays and structs are one value
 * each (weak updates).  Shared and global memory is one value per object,
 * flow-insensitive: a load varies when its address varies, or when the object
 * is written with varying values (or addresses, or under varying control) and
 * no barrier precedes the load.  That last rule keeps the broadcast idiom
 * (`if (tid == 0) s = x; __syncthreads(); use(s)`) uniform.
 *
 * Control: a varying if/switch/loop condition puts what it guards under
 * varying control; return/break/continue/goto taken under varying control put
 * the rest of the function/loop body/iteration/jumped-over code there.  A
 * store to a variable under control that varies more than where the variable
 * was declared makes it vary.  Loops whose counter starts at threadIdx.x plus
 * a uniform value, steps by (a multiple of) blockDim.x and is bounded by a
 * provable multiple of the step run the same number of iterations everywhere
 * (CUDA C Best Practices Guide, "Synchronizing Divergent Threads in a Loop").
 *
 * When the analysis cannot tell, it errs towards "uniform": callers are lint
 * rules whose findings must be worth a user's time. */
#include "analysis/uniformity.h"
#include "analysis/launch.h"
#include "clang/astutil.h"
#include "base/util.h"
#include "base/report.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t vmask;
#define VM_THREAD ((vmask)1)
#define VM_PARAMS (~(vmask)1)
#define MAX_PARAM_BITS 62

static vmask param_bit(unsigned k)
{
    return (vmask)1 << (1 + (k < MAX_PARAM_BITS ? k : MAX_PARAM_BITS));
}

/* A value: what it depends on, and the reason (index into the reason table,
   -1 for none) explaining its thread dependence. */
struct vinfo {
    vmask m;
    int why;
    /* When not 0 (and m has VM_THREAD): the value is tx * threadIdx.x plus a
       value the same in all threads, and that term is its only thread
       dependence.  Integer sums keep it, so that tid - threadIdx.x, with tid
       = threadIdx.x + blockIdx.x * blockDim.x stepped by a uniform stride,
       is uniform again. */
    int tx;
};
static const struct vinfo VNONE = {0, -1, 0};

/* Control in force at a point: its mask, the reason, and how many varying
   constructs enclose the point (to tell whether a store happens under more
   varying control than the variable's declaration). */
struct ctl {
    vmask m;
    int why;
    unsigned depth;
};

struct reason {
    enum divergence_kind kind;
    CXCursor at;
    char *what;  /* ORIGIN: "threadIdx.x"; CALL_ARG: the parameter name */
    int inner;   /* the reason this one's condition/value varies, -1 none */
};

enum var_class {
    V_LOCAL,    /* automatic variable of the function (or of an enclosing one) */
    V_PARAM,
    V_SHARED,   /* __shared__, in the function or at file scope */
    V_GLOBAL,   /* __device__ or static storage: memory */
    V_CONST,    /* __constant__, constexpr, const with constant initialiser */
    V_TID,      /* the threadIdx builtin */
    V_UNIFORM,  /* blockIdx, blockDim, gridDim, warpSize */
};

struct var {
    CXCursor decl;
    unsigned hash;
    enum var_class cls;
    bool aggregate;   /* array or record: weak updates */
    bool pointer;     /* pointer-typed: loads through it read memory */
    bool reference;
    bool file_scope;
    int param;        /* index for V_PARAM, else -1 */
    char *name;
    /* Where a local pointer (or reference) points: a variable's own storage
       or another pointer's pointee; tgt_var -1 none seen, -2 several. */
    int tgt_var;
    bool tgt_pointee;
    /* Every target was the start of an object or of an element of it (not
       a field inside one): field paths through it still apply. */
    bool tgt_at_start;
    unsigned decl_depth;
    /* Definitions, for loop-counter and single-definition reasoning. */
    unsigned n_defs;
    struct node *def; /* the initialiser when it is the only definition */
    bool escapes;     /* address taken */
};

enum call_class {
    CC_UNKNOWN = 0, CC_PLAIN, CC_BARRIER, CC_BARRIER_VALUE, CC_THREAD, CC_ATOMIC,
    CC_ASSIGN, CC_COMPOUND_ASSIGN, CC_SUBSCRIPT, CC_UNIFORM, CC_SUMMARY,
};

struct summary;

struct node {
    CXCursor c;
    enum CXCursorKind kind;
    struct node **kid;
    unsigned nkid;
    struct node *parent;
    unsigned off;          /* expansion offset in the file, for ordering */
    int var;               /* DeclRefExpr / VarDecl / ParmDecl: variable index */
    /* Statement roles (if/for/while/do/switch). */
    struct node *init, *cond, *inc, *body, *then_, *else_;
    /* Results, joined over every visit of the fixed point. */
    struct vinfo val;      /* the value of an expression */
    struct vinfo ctl;      /* the control under which it runs */
    struct vinfo argctl;   /* calls: divergence coming from varying arguments */
    bool seen;
    bool content_varies;   /* loads: what the memory holds varies (uniformity_load_content_varies) */
    /* Caches. */
    int origin_reason, cond_reason, exit_reason;
    bool has_label;        /* the subtree holds a label, case or default */
    bool loop_has_barrier; /* loops: the body reaches a barrier */
    signed char after_barrier; /* -1 not computed */
    /* Calls. */
    bool call_done;
    enum call_class cc;
    const char *barrier_name; /* "__syncthreads()", "block.sync()" ... */
    char *callee_name;
    struct summary *sum;
    struct node **args;
    unsigned nargs;
};

struct gpend {
    CXCursor label;
    struct vinfo v;
};
#define MAX_GOTOS 8

struct state {
    struct vinfo *env;
    bool dead;
    struct vinfo ret, brk, cont; /* sticky control from exits taken by some threads */
    struct gpend g[MAX_GOTOS];
    unsigned ng;
};

/* Break/continue targets: the environments flowing to the loop exit / back
   edge, and the control masks of the exits. */
struct frame {
    bool is_switch;
    struct state brk_acc, cont_acc;
    struct vinfo brk_mask;
    struct state *dispatch; /* switch: the state at the jump to a case */
    struct frame *up;
};

struct fnan {
    struct uniformity *u;
    CXTranslationUnit tu;
    CXCursor fn;
    char *fn_name;
    struct node *root;
    struct node **all;
    size_t n_all, cap_all;
    struct node **map;
    size_t map_cap;
    struct var *vars;
    unsigned n_vars, cap_vars;
    struct vinfo *mem;     /* per variable: what its memory (or pointee) is written with */
    struct vinfo *any;     /* per variable: the join of every value it held */
    unsigned n_params;
    int this_var;
    struct reason *reasons;
    unsigned n_reasons, cap_reasons;
    unsigned *bar_off;
    unsigned n_bar, cap_bar;
    struct frame *frame;
    bool changed;
    unsigned budget;       /* statement visits left, against pathological inputs */
    unsigned build_depth;  /* nesting of build_node(), bounded by MAX_BUILD_DEPTH */
    bool too_deep;         /* the body nests deeper: no facts for this function */
    /* Summary results. */
    struct vinfo ret;
    bool has_barrier;
    vmask barrier_ctl;
    struct node *first_barrier;
    struct vinfo *out;     /* per parameter: stored through it */
    struct gwrite *gw;
    unsigned n_gw, cap_gw;
    /* Stores into memory (shared, global, through pointers) with a value,
       address or control that is not uniform: where they are, for ordering
       loads before them through barriers. */
    struct mstore *ms;
    unsigned n_ms, cap_ms;
    /* Every store into memory, by variable and field path: what a load of
       one field is judged by (the join over the paths it overlaps). */
    struct mfield *mf;
    unsigned n_mf, cap_mf;
    char **strs;
    unsigned n_strs, cap_strs;
};

struct gwrite {
    CXCursor decl;
    struct vinfo v;
};

/* Where in a variable's memory an access lands, as the chain of struct
   fields from the variable (or its pointee) down: `s.a.b` is [a, b], `p->c`
   and `arr[i].c` are [c].  Two accesses can overlap only when one chain is a
   prefix of the other; the empty chain (the whole object, or a path the
   analysis does not follow: casts, pointer arithmetic, unions) overlaps
   every access. */
#define FPATH_MAX 4
struct fpath {
    unsigned n;
    unsigned id[FPATH_MAX];
    bool lost; /* where within the object is not known: stays empty */
};
#define FPATH_WHOLE {0, {0}, false}

struct mstore {
    int var;
    struct fpath path;
    struct node *at;
};

struct mfield {
    int var;
    struct fpath path;
    struct vinfo v;
};

struct summary {
    CXCursor def;
    unsigned hash;
    bool busy;
    struct fnan *an;  /* NULL while busy or when it could not be analysed */
    struct summary *next;
};

struct uniformity {
    struct fnan *top;
    /* While the top function is analysed: where its launch model comes from
       (the cache it is built by), and the function. */
    struct analysis_cache *deps;
    CXCursor fn;
    struct summary *sums;
    unsigned depth;   /* nesting of summary computations */
    unsigned n_sums;
    /* Conditions of the top function proved the same in every thread by the
       divergence queries (uniformity_new_assuming): their values count as
       uniform. */
    CXCursor *assumed;
    unsigned n_assumed;
};

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

static char *an_keep(struct fnan *a, char *s)
{
    XGROW(a->strs, a->n_strs, a->cap_strs, 16);
    a->strs[a->n_strs++] = s;
    return s;
}

static struct vinfo vjoin(struct vinfo a, struct vinfo b)
{
    struct vinfo r;
    r.m = a.m | b.m;
    r.tx = 0;
    /* Keep the reason that explains the thread dependence, first seen first. */
    if (a.why >= 0 && (a.m & VM_THREAD)) r.why = a.why;
    else if (b.why >= 0 && (b.m & VM_THREAD)) r.why = b.why;
    else r.why = a.why >= 0 ? a.why : b.why;
    return r;
}

static struct vinfo vmk(vmask m, int why)
{
    struct vinfo v = {m, m ? why : -1, 0};
    return v;
}

static bool vjoin_into(struct vinfo *dst, struct vinfo src)
{
    struct vinfo j = vjoin(*dst, src);
    bool ch = j.m != dst->m || (dst->why < 0 && j.why >= 0);
    *dst = j;
    return ch;
}

/* a, with b's dependences added but a's threadIdx.x term kept when b is
   the same in all threads (a local read at a uniform address, stored under
   uniform control). */
static struct vinfo vjoin_keep(struct vinfo a, struct vinfo b)
{
    struct vinfo r = vjoin(a, b);
    if (!(b.m & VM_THREAD)) r.tx = a.tx;
    return r;
}

/* The value of a variable where two paths meet: the same threadIdx.x term
   on both stays one. */
static bool vjoin_phi_into(struct vinfo *dst, struct vinfo src)
{
    int tx = (dst->m & VM_THREAD) && (src.m & VM_THREAD) && dst->tx == src.tx ? dst->tx : 0;
    int old_tx = dst->tx;
    /* vjoin_into drops the threadIdx.x term; compare with the term before
       the join, or a term both paths keep reads as a change on every visit
       and a loop never reaches its fixpoint (nested loops then multiply). */
    bool ch = vjoin_into(dst, src);
    dst->tx = tx;
    return ch || old_tx != tx;
}

/* l + sign * r for integer sums (sign 0: any other combination): the
   threadIdx.x terms add up, and cancel. */
static struct vinfo vlin(struct vinfo l, struct vinfo r, int sign)
{
    struct vinfo j = vjoin(l, r);
    if (!sign) return j;
    bool lt = (l.m & VM_THREAD) != 0, rt = (r.m & VM_THREAD) != 0;
    if ((lt && !l.tx) || (rt && !r.tx)) return j;
    if (!lt && !rt) return j;
    long long tx = (lt ? l.tx : 0) + (long long)sign * (rt ? r.tx : 0);
    if (tx == 0) {
        j.m &= ~VM_THREAD;
        j.why = -1;
        return j;
    }
    if (tx > 1 << 20 || tx < -(1 << 20)) return j;
    j.tx = (int)tx;
    return j;
}

static unsigned loc_offset(CXCursor c)
{
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    return off;
}

static bool is_array_type(CXType t)
{
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
    case CXType_DependentSizedArray: return true;
    default: return false;
    }
}

static bool is_pointer_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer;
}

static bool is_reference_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

static bool is_record_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Record;
}

static int add_reason(struct fnan *a, enum divergence_kind k, CXCursor at, char *what, int inner)
{
    XGROW(a->reasons, a->n_reasons, a->cap_reasons, 32);
    struct reason *r = &a->reasons[a->n_reasons];
    r->kind = k;
    r->at = at;
    r->what = what;
    r->inner = inner;
    return (int)a->n_reasons++;
}

/* The origin reason of node n, created once. */
static int origin(struct fnan *a, struct node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int origin(struct fnan *a, struct node *n, const char *fmt, ...)
{
    if (n->origin_reason < 0) {
        va_list ap;
        va_start(ap, fmt);
        struct strbuf sb;
        sb_init(&sb);
        sb_vaddf(&sb, fmt, ap);
        va_end(ap);
        char *w = an_keep(a, sb_detach(&sb));
        n->origin_reason = add_reason(a, DIV_ORIGIN, n->c, w, -1);
    }
    return n->origin_reason;
}

static int cond_reason(struct fnan *a, struct node *n, enum divergence_kind k, int inner)
{
    if (n->cond_reason < 0) n->cond_reason = add_reason(a, k, n->c, NULL, inner);
    else if (a->reasons[n->cond_reason].inner < 0) a->reasons[n->cond_reason].inner = inner;
    return n->cond_reason;
}

static int exit_reason(struct fnan *a, struct node *n, enum divergence_kind k, int inner)
{
    if (n->exit_reason < 0) n->exit_reason = add_reason(a, k, n->c, NULL, inner);
    else if (a->reasons[n->exit_reason].inner < 0) a->reasons[n->exit_reason].inner = inner;
    return n->exit_reason;
}

/* ------------------------------------------------------------------ */
/* the node tree                                                       */

static void map_put(struct fnan *a, struct node *n)
{
    if ((a->n_all + 1) * 2 > a->map_cap) {
        size_t cap = a->map_cap ? a->map_cap * 2 : 256;
        struct node **m = xcalloc(cap, sizeof *m);
        for (size_t i = 0; i < a->map_cap; i++) {
            struct node *x = a->map[i];
            if (!x) continue;
            size_t h = clang_hashCursor(x->c) & (cap - 1);
            while (m[h]) h = (h + 1) & (cap - 1);
            m[h] = x;
        }
        free(a->map);
        a->map = m;
        a->map_cap = cap;
    }
    size_t h = clang_hashCursor(n->c) & (a->map_cap - 1);
    while (a->map[h]) h = (h + 1) & (a->map_cap - 1);
    a->map[h] = n;
}

/* The same AST node?  clang_equalCursors also compares the declaration a
   statement cursor was reached from, which differs between a walk from the
   translation unit and one from the function (and for cursors that
   clang_Cursor_getArgument makes); the statement itself is what counts. */
static bool same_node(CXCursor x, CXCursor y)
{
    if (x.kind != y.kind) return false;
    if (clang_isExpression(x.kind) || clang_isStatement(x.kind)) return x.data[1] == y.data[1];
    return clang_equalCursors(x, y);
}

static struct node *map_get(struct fnan *a, CXCursor c)
{
    if (!a->map_cap || clang_Cursor_isNull(c)) return NULL;
    size_t h = clang_hashCursor(c) & (a->map_cap - 1);
    while (a->map[h]) {
        if (same_node(a->map[h]->c, c)) return a->map[h];
        h = (h + 1) & (a->map_cap - 1);
    }
    return NULL;
}

struct build {
    struct fnan *a;
    struct node *parent;
    struct node **kids;
    unsigned n, cap;
};

static struct node *build_node(struct fnan *a, CXCursor c, struct node *parent);

static enum CXChildVisitResult build_visit(CXCursor c, CXCursor p, CXClientData data)
{
    (void)p;
    struct build *b = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* Attributes, type references and nested declarations of types carry no
       run-time value. */
    if (clang_isAttribute(k) || k == CXCursor_TypeRef || k == CXCursor_TemplateRef ||
        k == CXCursor_NamespaceRef || k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
        k == CXCursor_UnionDecl || k == CXCursor_TypedefDecl || k == CXCursor_TypeAliasDecl ||
        k == CXCursor_EnumDecl || k == CXCursor_UsingDeclaration || k == CXCursor_UsingDirective ||
        k == CXCursor_StaticAssert || k == CXCursor_NamespaceAlias)
        return CXChildVisit_Continue;
    struct node *n = build_node(b->a, c, b->parent);
    XGROW(b->kids, b->n, b->cap, 4);
    b->kids[b->n++] = n;
    return CXChildVisit_Continue;
}

/* The node tree, and every recursion over it, is as deep as the function's
   syntax: beyond this the function is not analysed (no facts, as for a
   function without a body), rather than recursing without bound. */
#define MAX_BUILD_DEPTH 2048

static struct node *build_node(struct fnan *a, CXCursor c, struct node *parent)
{
    struct node *n = xcalloc(1, sizeof *n);
    n->c = c;
    n->kind = clang_getCursorKind(c);
    n->parent = parent;
    n->off = loc_offset(c);
    n->var = -1;
    n->val = VNONE;
    n->ctl = VNONE;
    n->argctl = VNONE;
    n->origin_reason = n->cond_reason = n->exit_reason = -1;
    n->after_barrier = -1;
    XGROW(a->all, a->n_all, a->cap_all, 256);
    a->all[a->n_all++] = n;
    map_put(a, n);
    /* Lambdas are functions of their own (analysed when linted). */
    if (n->kind == CXCursor_LambdaExpr) return n;
    struct build b = {a, n, NULL, 0, 0};
    if (a->build_depth >= MAX_BUILD_DEPTH) {
        a->too_deep = true;
        return n;
    }
    a->build_depth++;
    clang_visitChildren(c, build_visit, &b);
    a->build_depth--;
    n->kid = b.kids;
    n->nkid = b.n;
    for (unsigned i = 0; i < n->nkid; i++)
        if (n->kid[i]->has_label) n->has_label = true;
    if (n->kind == CXCursor_LabelStmt || n->kind == CXCursor_CaseStmt ||
        n->kind == CXCursor_DefaultStmt)
        n->has_label = true;
    return n;
}

static bool is_decl_kind(enum CXCursorKind k)
{
    return clang_isDeclaration(k) || k == CXCursor_DeclStmt;
}

static bool type_is_bool(struct node *n)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(n->c));
    return t.kind == CXType_Bool;
}

static bool is_assignment_like(struct node *n)
{
    CXCursor s = ast_strip(n->c);
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_CompoundAssignOperator) return true;
    if (k == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(s);
        return op == CXBinaryOperator_Assign || op == CXBinaryOperator_Comma;
    }
    if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = ast_unop(s);
        return ast_unop_is_incdec(op);
    }
    return false;
}

/* Assigns the roles of statement children: libclang lists only the parts
   present, so `for (;;)` has one child and `for (i = 0; i < n;)` two. */
static void assign_roles(struct node *n)
{
    unsigned k = n->nkid;
    switch (n->kind) {
    case CXCursor_IfStmt: {
        /* [init statement] [condition variable] condition then [else] */
        unsigned i = 0;
        while (i + 2 <= k && is_decl_kind(n->kid[i]->kind)) i++;
        if (i > 0) n->init = n->kid[0];
        if (i < k) n->cond = n->kid[i];
        if (i + 1 < k) n->then_ = n->kid[i + 1];
        if (i + 2 < k) n->else_ = n->kid[i + 2];
        break;
    }
    case CXCursor_ForStmt: {
        if (k == 0) break;
        n->body = n->kid[k - 1];
        struct node *rest[3];
        unsigned r = 0;
        for (unsigned i = 0; i + 1 < k && r < 3; i++) rest[r++] = n->kid[i];
        if (r == 3) {
            n->init = rest[0];
            n->cond = rest[1];
            n->inc = rest[2];
        } else {
            int ci = -1;
            for (unsigned i = 0; i < r; i++)
                if (!is_decl_kind(rest[i]->kind) && type_is_bool(rest[i]) &&
                    !is_assignment_like(rest[i])) {
                    ci = (int)i;
                    break;
                }
            if (ci >= 0) {
                n->cond = rest[ci];
                if (ci > 0) n->init = rest[0];
                if ((unsigned)ci + 1 < r) n->inc = rest[ci + 1];
            } else if (r == 2) {
                n->init = rest[0];
                n->inc = rest[1];
            } else if (r == 1) {
                if (is_decl_kind(rest[0]->kind)) n->init = rest[0];
                else {
                    CXCursor s = ast_strip(rest[0]->c);
                    bool step = clang_getCursorKind(s) == CXCursor_CompoundAssignOperator ||
                                clang_getCursorKind(s) == CXCursor_UnaryOperator;
                    if (step) n->inc = rest[0];
                    else n->init = rest[0];
                }
            }
        }
        break;
    }
    case CXCursor_WhileStmt:
        if (k >= 2) {
            n->body = n->kid[k - 1];
            n->cond = n->kid[k - 2];
            if (k >= 3) n->init = n->kid[0]; /* condition variable */
        }
        break;
    case CXCursor_DoStmt:
        if (k >= 2) {
            n->body = n->kid[0];
            n->cond = n->kid[k - 1];
        }
        break;
    case CXCursor_SwitchStmt:
        if (k >= 2) {
            n->body = n->kid[k - 1];
            n->cond = n->kid[k - 2];
            if (k >= 3) n->init = n->kid[0];
        }
        break;
    case CXCursor_CXXForRangeStmt:
        if (k >= 1) {
            n->body = n->kid[k - 1];
            if (k >= 2) n->cond = n->kid[k - 2]; /* the range expression */
            if (k >= 3) n->init = n->kid[0];
        }
        break;
    default: break;
    }
}

/* ------------------------------------------------------------------ */
/* variables                                                           */

static bool decl_is_file_scope(CXCursor decl)
{
    CXCursor sem = clang_getCursorSemanticParent(decl);
    enum CXCursorKind sk = clang_getCursorKind(sem);
    return clang_Cursor_isNull(sem) || sk == CXCursor_TranslationUnit || sk == CXCursor_Namespace ||
           sk == CXCursor_LinkageSpec || sk == CXCursor_UnexposedDecl ||
           sk == CXCursor_StructDecl || sk == CXCursor_ClassDecl;
}

static int var_index(struct fnan *a, CXCursor decl)
{
    decl = clang_getCanonicalCursor(decl);
    unsigned h = clang_hashCursor(decl);
    for (unsigned i = 0; i < a->n_vars; i++)
        if (a->vars[i].hash == h && clang_equalCursors(a->vars[i].decl, decl)) return (int)i;
    return -1;
}

/* Registers a variable (VarDecl/ParmDecl) and classifies it. */
static int var_add(struct fnan *a, CXCursor decl)
{
    int have = var_index(a, decl);
    if (have >= 0) return have;
    CXCursor canon = clang_getCanonicalCursor(decl);
    if (a->n_vars == a->cap_vars) {
        unsigned cap = a->cap_vars ? a->cap_vars * 2 : 32;
        a->vars = xrealloc(a->vars, cap * sizeof *a->vars);
        a->mem = xrealloc(a->mem, cap * sizeof *a->mem);
        a->any = xrealloc(a->any, cap * sizeof *a->any);
        a->cap_vars = cap;
    }
    unsigned i = a->n_vars++;
    struct var *v = &a->vars[i];
    memset(v, 0, sizeof *v);
    a->mem[i] = VNONE;
    a->any[i] = VNONE;
    v->decl = canon;
    v->hash = clang_hashCursor(canon);
    v->name = an_keep(a, ast_spelling(decl));
    v->param = -1;
    v->tgt_var = -1;
    CXType t = clang_getCursorType(decl);
    v->aggregate = is_array_type(t) || is_record_type(t);
    v->pointer = is_pointer_type(t);
    v->reference = is_reference_type(t);
    enum CXCursorKind k = clang_getCursorKind(decl);
    v->file_scope = k == CXCursor_VarDecl && decl_is_file_scope(decl);
    if (k == CXCursor_ParmDecl) {
        /* analyse_function() marks the function's own parameters; any other
           is a parameter of an enclosing function seen from a lambda. */
        v->cls = V_LOCAL;
        return (int)i;
    }
    if (v->file_scope) {
        const char *nm = v->name;
        bool builtin_name = strcmp(nm, "threadIdx") == 0;
        bool uniform_name = strcmp(nm, "blockIdx") == 0 || strcmp(nm, "blockDim") == 0 ||
                            strcmp(nm, "gridDim") == 0 || strcmp(nm, "warpSize") == 0;
        if (builtin_name) { v->cls = V_TID; return (int)i; }
        if (uniform_name) { v->cls = V_UNIFORM; return (int)i; }
    }
    if (ast_has_attr(decl, CXCursor_CUDASharedAttr)) v->cls = V_SHARED;
    else if (ast_has_attr(decl, CXCursor_CUDAConstantAttr)) v->cls = V_CONST;
    else if (v->file_scope) {
        CXType ct = clang_getCanonicalType(t);
        bool is_const = clang_isConstQualifiedType(ct) ||
                        (is_array_type(ct) && clang_isConstQualifiedType(clang_getArrayElementType(ct)));
        v->cls = is_const ? V_CONST : V_GLOBAL;
    } else if (clang_Cursor_getStorageClass(decl) == CX_SC_Static ||
               clang_Cursor_getStorageClass(decl) == CX_SC_Extern) {
        v->cls = V_GLOBAL;
    } else {
        v->cls = V_LOCAL;
    }
    return (int)i;
}

static bool var_is_local_storage(const struct var *v)
{
    return v->cls == V_LOCAL || v->cls == V_PARAM;
}

/* ------------------------------------------------------------------ */
/* recognising builtins and intrinsics                                 */

/* threadIdx.x -> 'x' (0 when not readable), through the member's spelling or,
   for clang's property members, the source text after the dot. */
static char builtin_component(struct fnan *a, CXCursor member)
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
        const char *txt = ast_file_contents(a->tu, f, &size);
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

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0) return true;
    return false;
}

static bool name_has_prefix(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strncmp(name, *list, strlen(*list)) == 0) return true;
    return false;
}

/* Calls whose result differs between threads however uniform the arguments. */
static const char *const thread_result_names[] = {
    "clock", "clock64", "__clock", "__clock64", "__globaltimer", "__activemask", "__lanemask_lt",
    "__lanemask_le", "__lanemask_eq", "__lanemask_ge", "__lanemask_gt", "__laneid", "__warpid",
    "__smid", "LaneId", "WarpId", "__nvvm_read_ptx_sreg_tid_x", "__nvvm_read_ptx_sreg_tid_y",
    "__nvvm_read_ptx_sreg_tid_z", "__nvvm_read_ptx_sreg_laneid", "__nvvm_read_ptx_sreg_warpid",
    "__nvvm_read_ptx_sreg_clock", "__nvvm_read_ptx_sreg_clock64", "__nvvm_read_ptx_sreg_smid",
    "__nvvm_read_ptx_sreg_globaltimer", "curand", "curand_uniform", "curand_normal",
    NULL};
static const char *const thread_result_prefixes[] = {
    "__shfl", "__ballot", "__any", "__all", "__match", "__reduce_", "__nvvm_shfl",
    "__nvvm_vote", "__nvvm_read_ptx_sreg_lanemask", NULL};
static const char *const atomic_prefixes[] = {"atomic", "__atomic", "__nv_atomic", "__nvvm_atom", NULL};
/* cooperative_groups members whose result is per thread.  Not block_rank(),
   block_index(), cluster_rank() or cluster_index() of a grid or cluster
   group: they name the calling block (or its cluster), the same for every
   thread of a block, as blockIdx is. */
static const char *const cg_thread_methods[] = {
    "thread_rank", "thread_index", "meta_group_rank", "shfl", "shfl_down", "shfl_up", "shfl_xor",
    "any", "all", "ballot", "match_any", "match_all", NULL};

int uniformity_collective_value_arg(const char *name)
{
    static const char *const with_mask[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                            "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
                                            "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
                                            "__all_sync", "__any_sync", "__uni_sync", NULL};
    static const char *const legacy[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__all", "__any", NULL};
    if (!name) return -1;
    if (name_in(name, with_mask)) return 1;
    if (name_in(name, legacy)) return 0;
    return -1;
}

static bool type_spelled_like(CXType t, const char *part)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(t));
    const char *sp = clang_getCString(s);
    bool r = sp && strstr(sp, part) != NULL;
    clang_disposeString(s);
    return r;
}

/* Which barrier a cooperative group's type synchronises: "block", "grid",
   "cluster", or NULL for warp-sized tiles and unknown groups. */
static const char *cg_group_scope(CXType t)
{
    char *sp = ast_cg_type_spelling(t);
    const char *r = NULL;
    if (sp) {
        if (strstr(sp, "thread_block_tile") || strstr(sp, "coalesced_group") ||
            strstr(sp, "thread_group"))
            r = NULL;
        else if (strstr(sp, "multi_grid_group")) r = "multi-grid";
        else if (strstr(sp, "grid_group")) r = "grid";
        else if (strstr(sp, "cluster_group")) r = "cluster";
        else if (strstr(sp, "thread_block")) r = "block";
    }
    free(sp);
    return r;
}

/* Source text of an expression without the spaces libclang's tokens put
   between punctuation: "block.sync()". */
static char *compact_text(CXTranslationUnit tu, CXCursor c)
{
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    struct strbuf sb;
    sb_init(&sb);
    bool prev_word = false;
    for (unsigned i = 0; i < n && sb.len < 80; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(s);
        bool word = t && (isalnum((unsigned char)t[0]) || t[0] == '_');
        if (word && prev_word) sb_addc(&sb, ' ');
        sb_add(&sb, t ? t : "");
        prev_word = word;
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    return sb_detach(&sb);
}

/* ------------------------------------------------------------------ */
/* call classification and summaries                                   */

static struct fnan *analyse_function(struct uniformity *u, CXTranslationUnit tu, CXCursor fn);
static void fnan_free(struct fnan *a);

/* The callee's declaration, through overload sets in templates (only when
   one candidate fits). */
static CXCursor callee_decl(struct node *call)
{
    CXCursor ref = clang_getCursorReferenced(call->c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (!clang_Cursor_isNull(ref) && (rk == CXCursor_FunctionDecl || rk == CXCursor_CXXMethod ||
                                      rk == CXCursor_FunctionTemplate || rk == CXCursor_Constructor ||
                                      rk == CXCursor_ConversionFunction))
        return ref;
    /* Dependent call in a template: find the OverloadedDeclRef under the callee. */
    if (call->nkid == 0) return clang_getNullCursor();
    struct node *c = call->kid[0];
    for (int depth = 0; c && depth < 4; depth++) {
        if (c->kind == CXCursor_OverloadedDeclRef) {
            unsigned n = clang_getNumOverloadedDecls(c->c);
            CXCursor pick = clang_getNullCursor();
            unsigned nargs = call->nkid > 0 ? call->nkid - 1 : 0;
            unsigned fits = 0;
            for (unsigned i = 0; i < n; i++) {
                CXCursor d = clang_getOverloadedDecl(c->c, i);
                CXCursor def = clang_getCursorDefinition(d);
                if (clang_Cursor_isNull(def)) continue;
                int np = clang_Cursor_getNumArguments(def);
                if (np >= 0 && (unsigned)np != nargs) continue;
                pick = d;
                fits++;
            }
            return fits == 1 ? pick : clang_getNullCursor();
        }
        if (c->nkid == 0) break;
        c = c->kid[0];
    }
    return clang_getNullCursor();
}

static char *callee_name_of(struct node *call, CXCursor decl)
{
    if (!clang_Cursor_isNull(decl)) return ast_spelling(decl);
    char *s = ast_spelling(call->c);
    if (*s) return s;
    free(s);
    struct node *c = call->nkid ? call->kid[0] : NULL;
    for (int depth = 0; c && depth < 4; depth++) {
        if (c->kind == CXCursor_OverloadedDeclRef || c->kind == CXCursor_MemberRefExpr ||
            c->kind == CXCursor_DeclRefExpr) {
            char *t = ast_spelling(c->c);
            if (*t) return t;
            free(t);
        }
        if (c->nkid == 0) break;
        c = c->kid[0];
    }
    return xstrdup("");
}

/* The object a member call is made on (its MemberRefExpr's base), or NULL. */
static struct node *member_call_base(struct node *call)
{
    if (call->nkid == 0) return NULL;
    struct node *c = call->kid[0];
    while (c && (c->kind == CXCursor_UnexposedExpr || c->kind == CXCursor_ParenExpr) && c->nkid == 1)
        c = c->kid[0];
    if (c && c->kind == CXCursor_MemberRefExpr && c->nkid >= 1) return c->kid[0];
    return NULL;
}

static struct summary *summary_get(struct uniformity *u, CXTranslationUnit tu, CXCursor decl)
{
    CXCursor def = clang_getCursorDefinition(decl);
    CXCursor tmpl = clang_getSpecializedCursorTemplate(clang_Cursor_isNull(def) ? decl : def);
    if (!clang_Cursor_isNull(tmpl)) {
        CXCursor tdef = clang_getCursorDefinition(tmpl);
        if (!clang_Cursor_isNull(tdef)) def = tdef;
    }
    if (clang_Cursor_isNull(def) || ast_is_null(def)) return NULL;
    /* Functions of system and toolkit headers are not analysed: the rules
       only speak about user code, and those bodies are large. */
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(def))) return NULL;
    unsigned h = clang_hashCursor(def);
    for (struct summary *s = u->sums; s; s = s->next)
        if (s->hash == h && clang_equalCursors(s->def, def)) return s->busy ? NULL : s;
    if (u->depth >= 12 || u->n_sums >= 512) return NULL;
    struct summary *s = xcalloc(1, sizeof *s);
    s->def = def;
    s->hash = h;
    s->busy = true;
    s->next = u->sums;
    u->sums = s;
    u->n_sums++;
    u->depth++;
    s->an = analyse_function(u, tu, def);
    u->depth--;
    s->busy = false;
    return s->an ? s : NULL;
}

static void classify_call(struct fnan *a, struct node *n)
{
    if (n->call_done) return;
    n->call_done = true;
    n->cc = CC_PLAIN;
    CXCursor decl = callee_decl(n);
    char *name = callee_name_of(n, decl);
    n->callee_name = an_keep(a, name);
    if (strcmp(name, "operator()") == 0 && n->nkid >= 1) {
        /* A lambda or functor call: name it by its object ("lam"). */
        struct node *obj = member_call_base(n);
        if (!obj) obj = n->kid[0];
        char *t = compact_text(a->tu, obj->c);
        if (*t && strlen(t) < 40) n->callee_name = an_keep(a, t);
        else free(t);
    }
    /* Arguments as nodes. */
    int na = clang_Cursor_getNumArguments(n->c);
    if (na > 0) {
        n->args = xcalloc((size_t)na, sizeof *n->args);
        for (int i = 0; i < na; i++) {
            struct node *an = map_get(a, clang_Cursor_getArgument(n->c, (unsigned)i));
            n->args[n->nargs++] = an;
        }
    } else if (na < 0 && clang_Cursor_isNull(clang_getCursorReferenced(n->c)) && n->nkid > 1) {
        /* Dependent calls: children after the callee are the arguments. */
        n->args = xcalloc(n->nkid - 1, sizeof *n->args);
        for (unsigned i = 1; i < n->nkid; i++) n->args[n->nargs++] = n->kid[i];
    }

    static const char *const sync_names[] = {"__syncthreads", "__barrier_sync", NULL};
    static const char *const sync_value_names[] = {"__syncthreads_count", "__syncthreads_and",
                                                   "__syncthreads_or", NULL};
    if (name_in(name, sync_names)) {
        n->cc = CC_BARRIER;
        n->barrier_name = strcmp(name, "__syncthreads") == 0 ? "__syncthreads()" : "__barrier_sync()";
        return;
    }
    if (name_in(name, sync_value_names)) {
        n->cc = CC_BARRIER_VALUE;
        n->barrier_name = an_keep(a, xasprintf("%s()", name));
        return;
    }
    struct node *base = member_call_base(n);
    if (strcmp(name, "sync") == 0) {
        /* cooperative groups: g.sync() or cg::sync(g). */
        CXType t = base ? clang_getCursorType(ast_strip(base->c))
                        : (n->nargs >= 1 && n->args[0] ? clang_getCursorType(ast_strip(n->args[0]->c))
                                                       : clang_getCursorType(clang_getNullCursor()));
        const char *scope = cg_group_scope(t);
        if (scope) {
            n->cc = CC_BARRIER;
            n->barrier_name = an_keep(a, compact_text(a->tu, n->c));
            return;
        }
        if (base || n->nargs) {
            n->cc = CC_PLAIN;
            return;
        }
    }
    if (base && name_in(name, cg_thread_methods)) {
        CXType bt = clang_getCursorType(ast_strip(base->c));
        if (type_spelled_like(bt, "cooperative_groups")) {
            n->cc = CC_THREAD;
            return;
        }
    }
    if (name_in(name, thread_result_names) || name_has_prefix(name, thread_result_prefixes)) {
        n->cc = CC_THREAD;
        return;
    }
    if (name_has_prefix(name, atomic_prefixes) && strcmp(name, "atomic_thread_fence") != 0) {
        n->cc = CC_ATOMIC;
        return;
    }
    if (strncmp(name, "operator", 8) == 0) {
        const char *op = name + 8;
        size_t ol = strlen(op);
        if (strcmp(op, "=") == 0) { n->cc = CC_ASSIGN; return; }
        if (strcmp(op, "[]") == 0) { n->cc = CC_SUBSCRIPT; return; }
        if (ol >= 2 && op[ol - 1] == '=' && strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 &&
            strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0 && strcmp(op, "<=>") != 0) {
            n->cc = CC_COMPOUND_ASSIGN;
            return;
        }
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) { n->cc = CC_COMPOUND_ASSIGN; return; }
    }
    /* A __global__ callee is a launch (device-side `k<<<...>>>`): the new
       grid's barriers synchronise its own blocks, not this thread's. */
    if (!clang_Cursor_isNull(decl) && (ast_exec_space(decl) & SPACE_GLOBAL) == SPACE_GLOBAL) {
        n->cc = CC_PLAIN;
        return;
    }
    if (!clang_Cursor_isNull(decl)) {
        struct summary *s = summary_get(a->u, a->tu, decl);
        if (s) {
            n->sum = s;
            n->cc = CC_SUMMARY;
            return;
        }
    }
    n->cc = CC_PLAIN;
}

/* ------------------------------------------------------------------ */
/* barriers in source order (for the broadcast rule)                   */

static bool node_is_barrier(struct node *n)
{
    return n->cc == CC_BARRIER || n->cc == CC_BARRIER_VALUE ||
           (n->cc == CC_SUMMARY && n->sum && n->sum->an && n->sum->an->has_barrier);
}

static bool is_loop_kind(enum CXCursorKind k)
{
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
           k == CXCursor_CXXForRangeStmt;
}

static void prepass(struct fnan *a)
{
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *n = a->all[i];
        assign_roles(n);
        if (n->kind == CXCursor_CallExpr) classify_call(a, n);
    }
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *n = a->all[i];
        if (n->kind != CXCursor_CallExpr || !node_is_barrier(n)) continue;
        XGROW(a->bar_off, a->n_bar, a->cap_bar, 8);
        a->bar_off[a->n_bar++] = n->off;
        for (struct node *p = n->parent; p; p = p->parent)
            if (is_loop_kind(p->kind)) p->loop_has_barrier = true;
    }
}

/* Does a barrier precede n in source order, or sit in a loop around n (then
   it separates the previous iteration's writes from this read)? */
static bool after_barrier(struct fnan *a, struct node *n)
{
    if (n->after_barrier >= 0) return n->after_barrier;
    bool r = false;
    for (unsigned i = 0; i < a->n_bar && !r; i++)
        if (a->bar_off[i] < n->off) r = true;
    for (struct node *p = n->parent; p && !r; p = p->parent)
        if (p->loop_has_barrier) r = true;
    n->after_barrier = r;
    return r;
}

/* ------------------------------------------------------------------ */
/* states                                                              */

static void state_init(struct fnan *a, struct state *s)
{
    memset(s, 0, sizeof *s);
    s->env = xcalloc(a->cap_vars ? a->cap_vars : 1, sizeof *s->env);
    for (unsigned i = 0; i < a->cap_vars; i++) s->env[i] = VNONE;
    s->ret = s->brk = s->cont = VNONE;
}

static void state_copy(struct fnan *a, struct state *dst, const struct state *src)
{
    struct vinfo *env = dst->env;
    *dst = *src;
    dst->env = env;
    memcpy(dst->env, src->env, a->n_vars * sizeof *env);
}

static void state_dup(struct fnan *a, struct state *dst, const struct state *src)
{
    state_init(a, dst);
    state_copy(a, dst, src);
}

static void state_free(struct state *s)
{
    free(s->env);
    s->env = NULL;
}

/* dst := dst joined with src; returns whether dst changed. */
static bool state_join(struct fnan *a, struct state *dst, const struct state *src)
{
    bool ch = false;
    if (!src->dead) {
        if (dst->dead) {
            memcpy(dst->env, src->env, a->n_vars * sizeof *dst->env);
            dst->dead = false;
            ch = true;
        } else {
            for (unsigned i = 0; i < a->n_vars; i++) ch |= vjoin_phi_into(&dst->env[i], src->env[i]);
        }
    }
    ch |= vjoin_into(&dst->ret, src->ret);
    ch |= vjoin_into(&dst->brk, src->brk);
    ch |= vjoin_into(&dst->cont, src->cont);
    for (unsigned i = 0; i < src->ng; i++) {
        unsigned j;
        for (j = 0; j < dst->ng; j++)
            if (clang_equalCursors(dst->g[j].label, src->g[i].label)) break;
        if (j == dst->ng) {
            if (dst->ng == MAX_GOTOS) continue;
            dst->g[dst->ng].label = src->g[i].label;
            dst->g[dst->ng].v = VNONE;
            dst->ng++;
            ch = true;
        }
        ch |= vjoin_into(&dst->g[j].v, src->g[i].v);
    }
    return ch;
}

/* The control in force: the enclosing conditions and the exits some threads
   have taken. */
static struct ctl effective(const struct state *st, struct ctl scoped)
{
    struct vinfo v = vmk(scoped.m, scoped.why);
    unsigned d = scoped.depth;
    if (st->ret.m) { v = vjoin(v, st->ret); d++; }
    if (st->brk.m) { v = vjoin(v, st->brk); d++; }
    if (st->cont.m) { v = vjoin(v, st->cont); d++; }
    for (unsigned i = 0; i < st->ng; i++)
        if (st->g[i].v.m) { v = vjoin(v, st->g[i].v); d++; }
    struct ctl r = {v.m, v.why, d};
    return r;
}

static struct ctl ctl_push(struct ctl c, struct vinfo add)
{
    if (!add.m) return c;
    struct vinfo j = vjoin(vmk(c.m, c.why), add);
    /* The newest varying construct explains best why the code under it
       diverges: prefer its reason when it carries thread dependence. */
    if ((add.m & VM_THREAD) && add.why >= 0) j.why = add.why;
    struct ctl r = {j.m, j.why, c.depth + 1};
    return r;
}

/* ------------------------------------------------------------------ */
/* evaluation                                                          */

struct lval {
    int var;        /* -1: unknown storage */
    bool pointee;   /* the memory var points to, not var itself */
    struct vinfo addr;
    struct fpath path; /* the fields accessed within it (empty: all of it) */
};

static struct vinfo eval(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);
static bool tid_against_extent(struct fnan *a, struct node *cmp);
static void exec(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);

static struct node *strip_node(struct node *n)
{
    while (n && (n->kind == CXCursor_UnexposedExpr || n->kind == CXCursor_ParenExpr) && n->nkid == 1)
        n = n->kid[0];
    return n;
}

/* Through casts too (for structural matching). */
static struct node *strip_casts(struct node *n)
{
    for (;;) {
        n = strip_node(n);
        if (!n) return n;
        if ((n->kind == CXCursor_CStyleCastExpr || n->kind == CXCursor_CXXStaticCastExpr ||
             n->kind == CXCursor_CXXFunctionalCastExpr) && n->nkid >= 1) {
            n = n->kid[n->nkid - 1];
            continue;
        }
        return n;
    }
}

static int node_var(struct fnan *a, struct node *n)
{
    if (n->var >= 0) return n->var;
    if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_VarDecl || n->kind == CXCursor_ParmDecl) {
        CXCursor d = n->kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(n->c) : n->c;
        enum CXCursorKind dk = clang_getCursorKind(d);
        if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) n->var = var_add(a, d);
    }
    return n->var;
}

/* Where a pointer expression points: a variable's own storage (an array, or
   &x) or the pointee of a pointer variable.  Pure: evaluates nothing. */
static struct lval root_of(struct fnan *a, struct node *n, int depth)
{
    struct lval none = {-1, false, VNONE, FPATH_WHOLE};
    n = strip_casts(n);
    if (!n || depth > 8) return none;
    switch (n->kind) {
    case CXCursor_DeclRefExpr: {
        int v = node_var(a, n);
        if (v < 0) return none;
        /* A reference stands for what it is bound to, as in lvalue(). */
        struct var *var = &a->vars[v];
        if (var->reference && var->cls == V_LOCAL && var->tgt_var >= 0) {
            struct lval r = {var->tgt_var, var->tgt_pointee, VNONE, FPATH_WHOLE};
            return r;
        }
        struct lval r = {v, !is_array_type(clang_getCursorType(n->c)), VNONE, FPATH_WHOLE};
        return r;
    }
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(n->c);
        if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && n->nkid == 2) {
            for (unsigned i = 0; i < 2; i++) {
                CXType t = clang_getCursorType(n->kid[i]->c);
                if (is_pointer_type(t) || is_array_type(t)) return root_of(a, n->kid[i], depth + 1);
            }
        }
        if (op == CXBinaryOperator_Comma && n->nkid == 2) return root_of(a, n->kid[1], depth + 1);
        return none;
    }
    case CXCursor_UnaryOperator:
        if (ast_unop(n->c) == CXUnaryOperator_AddrOf && n->nkid == 1) {
            struct node *x = strip_casts(n->kid[0]);
            /* &a[i], &s.f, &x: the storage of the root. */
            while (x && (x->kind == CXCursor_ArraySubscriptExpr || x->kind == CXCursor_MemberRefExpr) &&
                   x->nkid >= 1) {
                struct node *b = strip_casts(x->kid[0]);
                if (is_pointer_type(clang_getCursorType(b->c)) ||
                    (x->kind == CXCursor_MemberRefExpr && is_pointer_type(clang_getCursorType(x->kid[0]->c))))
                    return root_of(a, b, depth + 1);
                x = b;
            }
            if (x && x->kind == CXCursor_DeclRefExpr) {
                int v = node_var(a, x);
                if (v >= 0) {
                    struct lval r = {v, false, VNONE, FPATH_WHOLE};
                    struct var *var = &a->vars[v];
                    if (var->reference && var->cls == V_LOCAL && var->tgt_var >= 0) {
                        r.var = var->tgt_var;
                        r.pointee = var->tgt_pointee;
                    }
                    return r;
                }
            }
            if (x && x->kind == CXCursor_UnaryOperator && ast_unop(x->c) == CXUnaryOperator_Deref && x->nkid == 1)
                return root_of(a, x->kid[0], depth + 1);
        }
        return none;
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr:
        /* An array-typed element or field decays to its own storage. */
        if (is_array_type(clang_getCursorType(n->c)) && n->kind == CXCursor_MemberRefExpr && n->nkid == 0) {
            struct lval r = {a->this_var, true, VNONE, FPATH_WHOLE};
            return r;
        }
        if (is_array_type(clang_getCursorType(n->c)) && n->nkid >= 1) {
            struct node *b = strip_casts(n->kid[0]);
            if (n->kind == CXCursor_ArraySubscriptExpr && is_pointer_type(clang_getCursorType(b->c)))
                return root_of(a, b, depth + 1);
            struct lval r = root_of(a, b, depth + 1);
            if (r.var >= 0 && !is_pointer_type(clang_getCursorType(b->c))) r.pointee = false;
            return r;
        }
        /* A pointer field points at memory of its own, which is not tracked
           (not the object's storage): unknown. */
        return none;
    default: return none;
    }
}

/* ---- field paths ---- */

static bool fpath_overlap(const struct fpath *p, const struct fpath *q)
{
    unsigned k = p->n < q->n ? p->n : q->n;
    for (unsigned i = 0; i < k; i++)
        if (p->id[i] != q->id[i]) return false;
    return true;
}

static bool fpath_equal(const struct fpath *p, const struct fpath *q)
{
    return p->n == q->n && fpath_overlap(p, q);
}

static struct fpath ptr_path(struct fnan *a, struct node *n, int depth);

/* The field chain of an lvalue expression, relative to the variable that
   root_of()/lvalue() find for it. */
static struct fpath expr_path(struct fnan *a, struct node *n, int depth)
{
    struct fpath whole = {0, {0}, false}, lost = {0, {0}, true};
    n = strip_node(n);
    if (!n || depth > 8) return lost;
    switch (n->kind) {
    case CXCursor_DeclRefExpr: {
        /* A reference bound to part of another variable stands for that
           variable (lvalue()): where within it is not known. */
        int v = node_var(a, n);
        if (v >= 0 && a->vars[v].reference && a->vars[v].tgt_var >= 0 && !a->vars[v].tgt_at_start) return lost;
        return whole;
    }
    case CXCursor_MemberRefExpr: {
        CXCursor field = clang_getCursorReferenced(n->c);
        if (clang_getCursorKind(field) != CXCursor_FieldDecl) return lost;
        struct fpath p = whole;
        if (n->nkid >= 1) {
            struct node *b = n->kid[0];
            p = is_pointer_type(clang_getCursorType(b->c)) ? ptr_path(a, b, depth + 1) : expr_path(a, b, depth + 1);
        }
        /* The members of a union share their storage. */
        if (p.lost || clang_getCursorKind(clang_getCursorSemanticParent(field)) == CXCursor_UnionDecl) return p;
        if (p.n < FPATH_MAX) p.id[p.n++] = clang_hashCursor(clang_getCanonicalCursor(field)) | 1u;
        return p;
    }
    case CXCursor_ArraySubscriptExpr: {
        if (n->nkid < 2) return lost;
        struct node *b = strip_node(n->kid[0]);
        if (b && is_array_type(clang_getCursorType(b->c))) return expr_path(a, b, depth + 1);
        return ptr_path(a, n->kid[0], depth + 1);
    }
    case CXCursor_UnaryOperator:
        if (ast_unop(n->c) == CXUnaryOperator_Deref && n->nkid == 1) return ptr_path(a, n->kid[0], depth + 1);
        return lost;
    default:
        return lost;
    }
}

/* The field chain of what a pointer expression points at: `&s.f` is [f], a
   pointer variable the whole of what it points at.  Casts (another type's
   fields) and arithmetic on a pointer into a field (past it) lose it. */
static struct fpath ptr_path(struct fnan *a, struct node *n, int depth)
{
    struct fpath whole = {0, {0}, false}, lost = {0, {0}, true};
    n = strip_node(n);
    if (!n || depth > 8) return lost;
    switch (n->kind) {
    case CXCursor_DeclRefExpr:
        return is_pointer_type(clang_getCursorType(n->c)) ? whole : lost;
    case CXCursor_UnaryOperator:
        if (ast_unop(n->c) == CXUnaryOperator_AddrOf && n->nkid == 1) return expr_path(a, n->kid[0], depth + 1);
        return lost;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(n->c);
        if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) || n->nkid != 2) return lost;
        for (unsigned i = 0; i < 2; i++)
            if (is_pointer_type(clang_getCursorType(n->kid[i]->c))) {
                struct fpath p = ptr_path(a, n->kid[i], depth + 1);
                return p.n == 0 ? p : lost;
            }
        return lost;
    }
    default:
        if (is_array_type(clang_getCursorType(n->c))) return expr_path(a, n, depth + 1);
        return lost;
    }
}

/* Follows a local pointer (or reference) to what it was set to point at.
   The field path was relative to the pointer's target: it still applies to
   the variable found only when every target was the start of an object or
   element (not a field inside one). */
static struct lval resolve(struct fnan *a, struct lval lv)
{
    for (int i = 0; i < 4 && lv.var >= 0 && lv.pointee; i++) {
        struct var *v = &a->vars[lv.var];
        if (v->cls != V_LOCAL || v->tgt_var < 0) break;
        lv.var = v->tgt_var;
        lv.pointee = v->tgt_pointee;
        if (!v->tgt_at_start) lv.path.n = 0;
    }
    return lv;
}

static void set_target(struct fnan *a, int var, struct lval r)
{
    struct var *v = &a->vars[var];
    if (v->cls != V_LOCAL || !(v->pointer || v->reference)) return;
    if (r.var < 0 || r.var == var) {
        v->tgt_var = -2;
        return;
    }
    bool at_start = r.path.n == 0 && !r.path.lost;
    if (v->tgt_var == -1) {
        v->tgt_var = r.var;
        v->tgt_pointee = r.pointee;
        v->tgt_at_start = at_start;
    } else if (v->tgt_var != r.var || v->tgt_pointee != r.pointee) {
        v->tgt_var = -2;
    } else {
        v->tgt_at_start = v->tgt_at_start && at_start;
    }
}

static void note_gwrite(struct fnan *a, int var, struct vinfo v)
{
    CXCursor d = a->vars[var].decl;
    for (unsigned i = 0; i < a->n_gw; i++)
        if (clang_equalCursors(a->gw[i].decl, d)) {
            if (vjoin_into(&a->gw[i].v, v)) a->changed = true;
            return;
        }
    XGROW(a->gw, a->n_gw, a->cap_gw, 4);
    a->gw[a->n_gw].decl = d;
    a->gw[a->n_gw].v = v;
    a->n_gw++;
    a->changed = true;
}

static void note_mstore(struct fnan *a, int var, const struct fpath *path, struct node *at)
{
    if (!at) return;
    for (unsigned i = 0; i < a->n_ms; i++)
        if (a->ms[i].var == var && a->ms[i].at == at && fpath_equal(&a->ms[i].path, path)) return;
    XGROW(a->ms, a->n_ms, a->cap_ms, 8);
    a->ms[a->n_ms].var = var;
    a->ms[a->n_ms].path = *path;
    a->ms[a->n_ms].at = at;
    a->n_ms++;
    /* Loads judged before this store was known are judged again. */
    a->changed = true;
}

static void note_mfield(struct fnan *a, int var, const struct fpath *path, struct vinfo x)
{
    for (unsigned i = 0; i < a->n_mf; i++)
        if (a->mf[i].var == var && fpath_equal(&a->mf[i].path, path)) {
            if (vjoin_into(&a->mf[i].v, x)) a->changed = true;
            return;
        }
    XGROW(a->mf, a->n_mf, a->cap_mf, 8);
    a->mf[a->n_mf].var = var;
    a->mf[a->n_mf].path = *path;
    a->mf[a->n_mf].v = x;
    a->n_mf++;
    a->changed = true;
}

/* What the stores into var that may overlap an access along path wrote. */
static struct vinfo mem_at(struct fnan *a, int var, const struct fpath *path)
{
    if (path->n == 0) return a->mem[var];
    struct vinfo m = VNONE;
    for (unsigned i = 0; i < a->n_mf; i++)
        if (a->mf[i].var == var && fpath_overlap(&a->mf[i].path, path)) m = vjoin(m, a->mf[i].v);
    return m;
}

/* Stores val into lv.  strong: a plain assignment of a whole scalar.  at:
   the expression that stores (for memory, where the store happens). */
static void store(struct fnan *a, struct state *st, struct lval lv, struct vinfo val, struct ctl c,
                  bool strong, struct node *at)
{
    if (lv.var < 0) return;
    lv = resolve(a, lv);
    struct var *v = &a->vars[lv.var];
    if (!lv.pointee && var_is_local_storage(v) && !v->reference) {
        struct vinfo x = vjoin_keep(val, lv.addr);
        /* Under more varying control than the declaration: threads that did
           not run the store keep the old value. */
        if (c.m && c.depth > v->decl_depth) x = vjoin_keep(x, vmk(c.m, c.why));
        if (strong && !v->aggregate && !lv.addr.m) st->env[lv.var] = x;
        else vjoin_into(&st->env[lv.var], x);
        vjoin_into(&a->any[lv.var], st->env[lv.var]);
        return;
    }
    /* Memory, or what a pointer/reference parameter refers to. */
    struct vinfo x = vjoin(vjoin(val, lv.addr), vmk(c.m, c.why));
    if (x.m) note_mstore(a, lv.var, &lv.path, at);
    if (vjoin_into(&a->mem[lv.var], x)) a->changed = true;
    if (x.m) note_mfield(a, lv.var, &lv.path, x);
    if (v->cls == V_PARAM && v->param >= 0 && a->out && (unsigned)v->param < a->n_params) {
        if (vjoin_into(&a->out[v->param], x)) a->changed = true;
        if (v->reference) vjoin_into(&st->env[lv.var], x);
    }
    if (v->file_scope && (v->cls == V_SHARED || v->cls == V_GLOBAL)) note_gwrite(a, lv.var, x);
}

/* The child of compound statement c that holds n, or -1. */
static int child_holding(struct node *c, struct node *n)
{
    for (; n && n->parent != c; n = n->parent) {}
    if (!n) return -1;
    for (unsigned i = 0; i < c->nkid; i++)
        if (c->kid[i] == n) return (int)i;
    return -1;
}

/* Does every path from `from` to `to` pass a block-wide barrier, and no path
   lead from `to` back to `from`?  Read off the structure: both sit in one
   compound statement, `from` in an earlier statement than `to`, a barrier
   statement between them, and no loop around that compound (its back edge
   would bring `to` before `from` again).  Gotos make the structure say
   nothing. */
static bool barrier_orders(struct fnan *a, struct node *from, struct node *to)
{
    if (a->root->has_label) return false;
    struct node *lca = NULL;
    for (struct node *p = to->parent; p && !lca; p = p->parent)
        for (struct node *q = from->parent; q; q = q->parent)
            if (q == p) {
                lca = p;
                break;
            }
    if (!lca || lca->kind != CXCursor_CompoundStmt) return false;
    for (struct node *p = lca; p; p = p->parent)
        if (is_loop_kind(p->kind)) return false;
    int i = child_holding(lca, from), j = child_holding(lca, to);
    if (i < 0 || j < 0 || i >= j) return false;
    for (int k = i + 1; k < j; k++) {
        struct node *b = strip_node(lca->kid[k]);
        if (b && b->kind == CXCursor_CallExpr && node_is_barrier(b)) return true;
    }
    return false;
}

/* A load that comes before a barrier that comes before every store into its
   memory (and no store can come back round to it) reads what the memory
   held when the block reached it: the same value in every thread when the
   address is the same.  `if (lut[blockIdx.x] < 0) return; ... __syncthreads();
   if (threadIdx.x == 0) lut[blockIdx.x] = best;` reads one value. */
static bool load_before_stores(struct fnan *a, struct node *n, int var, const struct fpath *path)
{
    bool any = false;
    for (unsigned i = 0; i < a->n_ms; i++) {
        if (a->ms[i].var != var || !fpath_overlap(&a->ms[i].path, path)) continue;
        if (!barrier_orders(a, n, a->ms[i].at)) return false;
        any = true;
    }
    return any;
}

/* The value read from memory object var at address addr. */
static struct vinfo mem_load(struct fnan *a, struct node *n, int var, struct vinfo addr, const struct fpath *path)
{
    struct vinfo r = addr;
    struct vinfo m = mem_at(a, var, path);
    if (m.m && !after_barrier(a, n) && !load_before_stores(a, n, var, path)) {
        int why = -1;
        if (m.m & VM_THREAD) n->content_varies = true;
        if (m.m & VM_THREAD)
            why = origin(a, n, "'%s', which other threads write without a barrier before this read",
                         a->vars[var].name);
        r = vjoin(r, vmk(m.m, why));
    }
    return r;
}

static struct vinfo load(struct fnan *a, struct state *st, struct node *n, struct lval lv)
{
    if (lv.var < 0) return lv.addr;
    lv = resolve(a, lv);
    struct var *v = &a->vars[lv.var];
    if (!lv.pointee) {
        switch (v->cls) {
        case V_LOCAL:
        case V_PARAM: {
            struct vinfo r = vjoin_keep(st->env[lv.var], lv.addr);
            bool held_varies = st->env[lv.var].m & VM_THREAD;
            if (v->reference) {
                struct vinfo m = mem_at(a, lv.var, &lv.path);
                r = vjoin(r, m);
                held_varies = held_varies || (m.m & VM_THREAD);
            }
            if (held_varies) n->content_varies = true;
            return r;
        }
        case V_CONST:
        case V_UNIFORM: return lv.addr;
        case V_TID:
            n->content_varies = true;
            return vjoin(lv.addr, vmk(VM_THREAD, origin(a, n, "threadIdx")));
        default: return mem_load(a, n, lv.var, lv.addr, &lv.path);
        }
    }
    /* Through a pointer: the pointer's own value is part of the address. */
    return mem_load(a, n, lv.var, lv.addr, &lv.path);
}

static struct lval lvalue(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);

static struct vinfo eval_kids(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct vinfo r = VNONE;
    for (unsigned i = 0; i < n->nkid; i++) {
        struct node *k = n->kid[i];
        if (clang_isExpression(k->kind)) r = vjoin(r, eval(a, st, k, scoped));
        else if (clang_isStatement(k->kind) || clang_isDeclaration(k->kind)) exec(a, st, k, scoped);
    }
    return r;
}

static bool is_builtin_member(struct fnan *a, struct node *n, enum var_class *cls)
{
    struct node *s = strip_node(n);
    if (!s || s->kind != CXCursor_MemberRefExpr || s->nkid < 1) return false;
    struct node *b = strip_node(s->kid[0]);
    if (!b || b->kind != CXCursor_DeclRefExpr) return false;
    int v = node_var(a, b);
    if (v < 0) return false;
    if (a->vars[v].cls == V_TID || a->vars[v].cls == V_UNIFORM) {
        *cls = a->vars[v].cls;
        return true;
    }
    return false;
}

/* The storage an lvalue expression names (lvalue() adds its field path). */
static struct lval lvalue_storage(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct lval none = {-1, false, VNONE, FPATH_WHOLE};
    struct node *s = strip_node(n);
    if (!s) return none;
    switch (s->kind) {
    case CXCursor_DeclRefExpr: {
        int v = node_var(a, s);
        if (v < 0) return none;
        struct var *var = &a->vars[v];
        s->seen = true;
        if (var->reference && var->cls == V_LOCAL && var->tgt_var >= 0) {
            struct lval r = {var->tgt_var, var->tgt_pointee, VNONE, FPATH_WHOLE};
            return r;
        }
        struct lval r = {v, false, VNONE, FPATH_WHOLE};
        return r;
    }
    case CXCursor_ArraySubscriptExpr: {
        if (s->nkid < 2) break;
        struct node *base = s->kid[0], *idx = s->kid[1];
        struct vinfo vi = eval(a, st, idx, scoped);
        struct node *bs = strip_casts(base);
        if (bs && is_array_type(clang_getCursorType(bs->c))) {
            struct lval r = lvalue_storage(a, st, bs, scoped);
            r.addr = vjoin(r.addr, vi);
            return r;
        }
        struct vinfo vb = eval(a, st, base, scoped);
        struct lval r = root_of(a, base, 0);
        r.addr = vjoin(vb, vi);
        return r;
    }
    case CXCursor_MemberRefExpr: {
        if (s->nkid == 0) {
            if (a->this_var < 0) break;
            struct lval r = {a->this_var, true, VNONE, FPATH_WHOLE};
            return r;
        }
        struct node *base = s->kid[0];
        if (is_pointer_type(clang_getCursorType(base->c))) {
            struct vinfo vb = eval(a, st, base, scoped);
            struct lval r = root_of(a, base, 0);
            r.addr = vjoin(r.addr, vb);
            return r;
        }
        return lvalue_storage(a, st, base, scoped);
    }
    case CXCursor_UnaryOperator:
        if (ast_unop(s->c) == CXUnaryOperator_Deref && s->nkid == 1) {
            struct vinfo vb = eval(a, st, s->kid[0], scoped);
            struct lval r = root_of(a, s->kid[0], 0);
            r.addr = vjoin(r.addr, vb);
            return r;
        }
        none.addr = eval(a, st, n, scoped);
        return none;
    case CXCursor_CallExpr:
        classify_call(a, s);
        if (s->cc == CC_SUBSCRIPT && s->nargs == 2 && s->args[0] && s->args[1]) {
            struct vinfo vi = eval(a, st, s->args[1], scoped);
            struct lval r = lvalue_storage(a, st, s->args[0], scoped);
            r.addr = vjoin(r.addr, vi);
            return r;
        }
        if (s->cc != CC_SUBSCRIPT) {
            none.addr = eval(a, st, n, scoped);
            return none;
        }
        break;
    default:
        none.addr = eval(a, st, n, scoped);
        return none;
    }
    /* Unknown storage: only what the address is computed from (eval() of
       these kinds would come back here). */
    none.addr = eval_kids(a, st, s, scoped);
    return none;
}

static struct lval lvalue(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct lval r = lvalue_storage(a, st, n, scoped);
    if (r.var >= 0) r.path = expr_path(a, n, 0);
    return r;
}

/* lhs = rhs, or for compound assignments lhs op= rhs; sign: +1 for += and
   ++, -1 for -= and -- on integers (the threadIdx.x terms add up), else 0. */
static struct vinfo eval_assign(struct fnan *a, struct state *st, struct node *lhs, struct vinfo rhs,
                                struct ctl scoped, bool compound, int sign)
{
    struct ctl c = effective(st, scoped);
    struct lval lv = lvalue(a, st, lhs, scoped);
    struct vinfo val = rhs;
    if (compound) val = vlin(load(a, st, strip_node(lhs), lv), rhs, sign);
    /* x += k replaces x as much as x = x + k does. */
    store(a, st, lv, val, c, !compound || sign != 0, lhs);
    return val;
}

/* Is the expression of an integer type (where sums of threadIdx.x terms are
   exact)? */
static bool node_is_integer(struct node *n)
{
    return ast_is_integer_kind(clang_getCanonicalType(clang_getCursorType(n->c)).kind);
}

static bool is_comparison(enum CXBinaryOperatorKind op)
{
    return op == CXBinaryOperator_LT || op == CXBinaryOperator_GT || op == CXBinaryOperator_LE ||
           op == CXBinaryOperator_GE || op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE;
}

/* Pointer assignment bookkeeping: p = expr records where p points. */
static void track_pointer(struct fnan *a, struct node *lhs, struct node *rhs)
{
    struct node *l = strip_node(lhs);
    if (!l || l->kind != CXCursor_DeclRefExpr) return;
    int v = node_var(a, l);
    if (v < 0 || !a->vars[v].pointer) return;
    struct lval r = root_of(a, rhs, 0);
    r.path = ptr_path(a, rhs, 0);
    set_target(a, v, r);
}

static struct vinfo translate(struct fnan *a, struct node *call, struct fnan *callee, struct vinfo m,
                              const struct vinfo *args, unsigned nargs)
{
    struct vinfo r = VNONE;
    if (m.m & VM_THREAD) {
        const char *w = "a value";
        for (int i = m.why, guard = 0; i >= 0 && guard < 16; guard++) {
            struct reason *rr = &callee->reasons[i];
            if (rr->kind == DIV_ORIGIN) {
                w = rr->what;
                break;
            }
            i = rr->inner;
        }
        if (call->origin_reason < 0) {
            char *what = an_keep(a, xasprintf("%s (inside '%s')", w, callee->fn_name));
            call->origin_reason = add_reason(a, DIV_ORIGIN, call->c, what, -1);
        }
        r = vmk(VM_THREAD, call->origin_reason);
    }
    for (unsigned k = 0; k < nargs; k++)
        if (m.m & param_bit(k)) r = vjoin(r, args[k]);
    return r;
}

/* Parameter k of an analysed function, also of a function template (whose
   cursor clang_Cursor_getArgument does not answer for). */
static CXCursor param_decl(const struct fnan *f, unsigned k)
{
    for (unsigned v = 0; v < f->n_vars; v++)
        if (f->vars[v].cls == V_PARAM && f->vars[v].param == (int)k) return f->vars[v].decl;
    return clang_getNullCursor();
}

static struct vinfo eval_call(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    classify_call(a, n);
    struct ctl c = effective(st, scoped);
    /* Evaluate the children in order (callee, object, arguments), keeping
       each argument's value. */
    struct vinfo all = VNONE;
    struct vinfo argv_small[16];
    struct vinfo *argv = n->nargs <= 16 ? argv_small : xcalloc(n->nargs, sizeof *argv);
    for (unsigned i = 0; i < n->nargs; i++) argv[i] = VNONE;
    for (unsigned i = 0; i < n->nkid; i++) {
        struct node *k = n->kid[i];
        if (!clang_isExpression(k->kind)) continue;
        struct vinfo v = eval(a, st, k, scoped);
        all = vjoin(all, v);
        for (unsigned j = 0; j < n->nargs; j++)
            if (n->args[j] == k) argv[j] = v;
    }
    for (unsigned j = 0; j < n->nargs; j++)
        if (n->args[j] && !n->args[j]->seen) argv[j] = eval(a, st, n->args[j], scoped);

    struct vinfo r = all;
    switch (n->cc) {
    case CC_BARRIER:
    case CC_BARRIER_VALUE:
        a->has_barrier = true;
        a->barrier_ctl |= c.m;
        if (!a->first_barrier) a->first_barrier = n;
        /* __syncthreads_count/and/or return the same value in every thread. */
        r = VNONE;
        break;
    case CC_THREAD: {
        /* A shuffle hands each lane another lane's value, a reduction or a
           vote combines them: of a value the same in every thread (and a
           mask the same), every lane gets that same value back. */
        int data = uniformity_collective_value_arg(n->callee_name);
        if (data >= 0 && (unsigned)data < n->nargs && n->args[data] && !(argv[data].m & VM_THREAD) &&
            (data == 0 || !n->args[0] || !(argv[0].m & VM_THREAD))) {
            r = data == 0 ? argv[0] : vjoin(argv[0], argv[data]);
            break;
        }
        r = vmk(VM_THREAD, origin(a, n, "the result of %s()", n->callee_name));
        break;
    }
    case CC_ATOMIC: {
        r = vmk(VM_THREAD, origin(a, n, "the result of %s()", n->callee_name));
        if (n->nargs >= 1 && n->args[0]) {
            struct lval lv = root_of(a, n->args[0], 0);
            lv.addr = argv[0];
            lv.path = ptr_path(a, n->args[0], 0);
            store(a, st, lv, vjoin(r, all), c, false, n);
        }
        break;
    }
    case CC_ASSIGN:
    case CC_COMPOUND_ASSIGN:
        if (n->nargs >= 1 && n->args[0]) {
            struct vinfo rhs = VNONE;
            for (unsigned j = 1; j < n->nargs; j++) rhs = vjoin(rhs, argv[j]);
            r = eval_assign(a, st, n->args[0], rhs, scoped, n->cc == CC_COMPOUND_ASSIGN, 0);
            if (n->cc == CC_ASSIGN && n->nargs == 2 && n->args[1]) track_pointer(a, n->args[0], n->args[1]);
        }
        break;
    case CC_SUBSCRIPT: {
        struct lval lv = lvalue(a, st, n, scoped);
        r = vjoin(load(a, st, n, lv), all);
        break;
    }
    case CC_SUMMARY: {
        struct fnan *cal = n->sum->an;
        r = translate(a, n, cal, cal->ret, argv, n->nargs);
        /* The object of a member call counts as an argument of its own. */
        struct node *base = member_call_base(n);
        if (base) r = vjoin(r, base->val);
        /* Stores through pointer and reference parameters. */
        for (unsigned k = 0; k < n->nargs && k < cal->n_params; k++) {
            if (!cal->out[k].m || !n->args[k]) continue;
            struct vinfo x = translate(a, n, cal, cal->out[k], argv, n->nargs);
            CXType pt = clang_getCursorType(param_decl(cal, k));
            struct lval lv;
            if (is_reference_type(pt)) lv = lvalue(a, st, n->args[k], scoped);
            else lv = root_of(a, n->args[k], 0);
            store(a, st, lv, x, c, false, n);
        }
        for (unsigned g = 0; g < cal->n_gw; g++) {
            int v = var_add(a, cal->gw[g].decl);
            struct lval lv = {v, false, VNONE, FPATH_WHOLE};
            store(a, st, lv, translate(a, n, cal, cal->gw[g].v, argv, n->nargs), c, false, n);
        }
        if (cal->has_barrier) {
            struct vinfo argdep = VNONE;
            for (unsigned k = 0; k < n->nargs && k < cal->n_params; k++) {
                if (!(cal->barrier_ctl & param_bit(k))) continue;
                if (!(argv[k].m & VM_THREAD) || !n->args[k]) {
                    argdep = vjoin(argdep, vmk(argv[k].m, -1));
                    continue;
                }
                struct node *arg = n->args[k];
                if (arg->exit_reason < 0) {
                    CXCursor p = param_decl(cal, k);
                    char *pname = an_keep(a, ast_spelling(p));
                    arg->exit_reason = add_reason(a, DIV_CALL_ARG, arg->c, pname, argv[k].why);
                }
                argdep = vjoin(argdep, vmk(argv[k].m, arg->exit_reason));
            }
            vjoin_into(&n->argctl, argdep);
            a->has_barrier = true;
            a->barrier_ctl |= c.m | argdep.m;
            if (!a->first_barrier) a->first_barrier = n;
        }
        break;
    }
    default:
        /* Unknown callee: the result depends on the arguments; &x passed to it
           may be written with them. */
        for (unsigned j = 0; j < n->nargs; j++) {
            struct node *arg = n->args[j] ? strip_node(n->args[j]) : NULL;
            if (!arg || arg->kind != CXCursor_UnaryOperator || ast_unop(arg->c) != CXUnaryOperator_AddrOf)
                continue;
            struct lval lv = root_of(a, arg, 0);
            if (lv.var >= 0 && var_is_local_storage(&a->vars[lv.var]) && !lv.pointee)
                store(a, st, lv, all, c, false, n);
        }
        break;
    }
    if (argv != argv_small) free(argv);
    return r;
}

static struct vinfo eval_asm(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct ctl c = effective(st, scoped);
    CXString tmpl = clang_Cursor_getGCCAssemblyTemplate(n->c);
    const char *t = clang_getCString(tmpl);
    static const char *const varying[] = {"%tid", "%laneid", "%warpid", "%clock", "%globaltimer",
                                          "%lanemask", "%smid", "atom.", "shfl.", "vote.", "match.",
                                          "activemask", "redux.", NULL};
    bool thread = false;
    for (const char *const *p = varying; t && *p; p++)
        if (strstr(t, *p)) thread = true;
    clang_disposeString(tmpl);
    struct vinfo in = VNONE;
    unsigned ni = clang_Cursor_getGCCAssemblyNumInputs(n->c);
    for (unsigned i = 0; i < ni; i++) {
        CXString con;
        CXCursor e;
        if (!clang_Cursor_getGCCAssemblyInput(n->c, i, &con, &e)) continue;
        clang_disposeString(con);
        struct node *en = map_get(a, e);
        if (en) in = vjoin(in, eval(a, st, en, scoped));
    }
    struct vinfo val = in;
    if (thread) val = vjoin(val, vmk(VM_THREAD, origin(a, n, "the result of inline assembly")));
    unsigned no = clang_Cursor_getGCCAssemblyNumOutputs(n->c);
    for (unsigned i = 0; i < no; i++) {
        CXString con;
        CXCursor e;
        if (!clang_Cursor_getGCCAssemblyOutput(n->c, i, &con, &e)) continue;
        bool rw = clang_getCString(con) && strchr(clang_getCString(con), '+');
        clang_disposeString(con);
        struct node *en = map_get(a, e);
        if (!en) continue;
        struct lval lv = lvalue(a, st, en, scoped);
        struct vinfo v = val;
        if (rw) v = vjoin(v, load(a, st, strip_node(en), lv));
        store(a, st, lv, v, c, !rw, en);
    }
    return VNONE;
}

static struct vinfo eval(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    if (!n) return VNONE;
    struct ctl c = effective(st, scoped);
    vjoin_into(&n->ctl, vmk(c.m, c.why));
    n->seen = true;
    struct vinfo r = VNONE;
    switch (n->kind) {
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_ImaginaryLiteral:
    case CXCursor_StringLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_CXXNullPtrLiteralExpr:
    case CXCursor_UnaryExpr: /* sizeof, alignof */
    case CXCursor_LambdaExpr:
    case CXCursor_CXXThisExpr:
    case CXCursor_SizeOfPackExpr:
    case CXCursor_CXXTypeidExpr:
        break;
    case CXCursor_DeclRefExpr: {
        int v = node_var(a, n);
        if (v < 0) break; /* enumerators, template parameters, functions */
        /* An array names its address (it decays), not its contents. */
        if (is_array_type(clang_getCursorType(n->c))) break;
        struct lval lv = {v, false, VNONE, FPATH_WHOLE};
        if (a->vars[v].reference && a->vars[v].cls == V_LOCAL && a->vars[v].tgt_var >= 0) {
            lv.var = a->vars[v].tgt_var;
            lv.pointee = a->vars[v].tgt_pointee;
        }
        r = load(a, st, n, lv);
        break;
    }
    case CXCursor_MemberRefExpr: {
        enum var_class cls;
        if (is_builtin_member(a, n, &cls)) {
            if (cls == V_TID) {
                char comp = builtin_component(a, n->c);
                char buf[16];
                snprintf(buf, sizeof buf, comp ? "threadIdx.%c" : "threadIdx", comp);
                r = vmk(VM_THREAD, origin(a, n, "%s", buf));
                if (comp == 'x') r.tx = 1;
            }
            for (unsigned i = 0; i < n->nkid; i++) n->kid[i]->seen = true;
            break;
        }
        struct lval lv = lvalue(a, st, n, scoped);
        r = is_array_type(clang_getCursorType(n->c)) ? lv.addr : load(a, st, n, lv);
        break;
    }
    case CXCursor_ArraySubscriptExpr: {
        struct lval lv = lvalue(a, st, n, scoped);
        r = is_array_type(clang_getCursorType(n->c)) ? lv.addr : load(a, st, n, lv);
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(n->c);
        if (n->nkid < 1) break;
        if (ast_unop_is_incdec(op)) {
            bool inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
            r = eval_assign(a, st, n->kid[0], VNONE, scoped, true,
                            node_is_integer(n->kid[0]) ? (inc ? 1 : -1) : 0);
        } else if (op == CXUnaryOperator_Deref) {
            struct lval lv = lvalue(a, st, n, scoped);
            r = load(a, st, n, lv);
        } else if (op == CXUnaryOperator_AddrOf) {
            struct lval lv = lvalue(a, st, n->kid[0], scoped);
            r = lv.addr;
            if (lv.var >= 0) a->vars[lv.var].escapes = true;
        } else {
            r = eval(a, st, n->kid[0], scoped);
            if (op == CXUnaryOperator_Minus && node_is_integer(n)) r.tx = -r.tx;
            else if (op != CXUnaryOperator_Plus || !node_is_integer(n)) r.tx = 0;
        }
        break;
    }
    case CXCursor_BinaryOperator: {
        if (n->nkid < 2) {
            r = eval_kids(a, st, n, scoped);
            break;
        }
        enum CXBinaryOperatorKind op = ast_binop(n->c);
        if (op == CXBinaryOperator_Assign) {
            struct vinfo rhs = eval(a, st, n->kid[1], scoped);
            r = eval_assign(a, st, n->kid[0], rhs, scoped, false, 0);
            track_pointer(a, n->kid[0], n->kid[1]);
        } else if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
            struct vinfo l = eval(a, st, n->kid[0], scoped);
            struct ctl inner = scoped;
            if (l.m) {
                int why = cond_reason(a, n->kid[0], op == CXBinaryOperator_LAnd ? DIV_AND : DIV_OR, l.why);
                inner = ctl_push(scoped, vmk(l.m, (l.m & VM_THREAD) ? why : -1));
            }
            struct vinfo rv = eval(a, st, n->kid[1], inner);
            r = vjoin(l, rv);
        } else if (op == CXBinaryOperator_Comma) {
            eval(a, st, n->kid[0], scoped);
            r = eval(a, st, n->kid[1], scoped);
        } else {
            struct vinfo l = eval(a, st, n->kid[0], scoped);
            struct vinfo rv = eval(a, st, n->kid[1], scoped);
            int sign = 0;
            /* An integer result: pointer differences are too, but a pointer's
               value never carries a threadIdx.x term. */
            if (node_is_integer(n)) sign = op == CXBinaryOperator_Add ? 1 : op == CXBinaryOperator_Sub ? -1 : 0;
            r = vlin(l, rv, sign);
            /* A comparison of two integers with the same threadIdx.x term
               compares what is left, the same in every thread:
               `t < end + threadIdx.x` with `t = start + threadIdx.x` stepped
               by a uniform stride.  (The bool keeps no term itself.) */
            if (is_comparison(op) && node_is_integer(n->kid[0]) && node_is_integer(n->kid[1])) {
                r = vlin(l, rv, -1);
                r.tx = 0;
            }
            if (is_comparison(op) && (r.m & VM_THREAD) && tid_against_extent(a, n)) {
                r.m &= ~VM_THREAD;
                r.why = -1;
                r.tx = 0;
            }
        }
        break;
    }
    case CXCursor_CompoundAssignOperator:
        if (n->nkid == 2) {
            struct vinfo rhs = eval(a, st, n->kid[1], scoped);
            enum CXBinaryOperatorKind op = ast_binop(n->c);
            /* (threadIdx.x's property reference has no integer type of its
               own: the integer left side is what counts.) */
            int sign = !node_is_integer(n->kid[0]) ? 0
                       : op == CXBinaryOperator_AddAssign ? 1 : op == CXBinaryOperator_SubAssign ? -1 : 0;
            r = eval_assign(a, st, n->kid[0], rhs, scoped, true, sign);
        }
        break;
    case CXCursor_ConditionalOperator:
        if (n->nkid == 3) {
            struct vinfo cv = eval(a, st, n->kid[0], scoped);
            struct ctl inner = scoped;
            if (cv.m) {
                int why = cond_reason(a, n->kid[0], DIV_TERNARY, cv.why);
                inner = ctl_push(scoped, vmk(cv.m, (cv.m & VM_THREAD) ? why : -1));
            }
            struct vinfo t = eval(a, st, n->kid[1], inner);
            struct vinfo e = eval(a, st, n->kid[2], inner);
            r = vjoin(cv, vjoin(t, e));
        } else {
            r = eval_kids(a, st, n, scoped);
        }
        break;
    case CXCursor_CallExpr:
        r = eval_call(a, st, n, scoped);
        break;
    case CXCursor_GCCAsmStmt:
        r = eval_asm(a, st, n, scoped);
        break;
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
        /* Implicit conversions, parentheses and integer casts keep a
           threadIdx.x term. */
        if (n->nkid == 1 && clang_isExpression(n->kid[0]->kind)) {
            r = eval(a, st, n->kid[0], scoped);
            /* (A term is only ever built by integer sums and threadIdx.x,
               whose property reference has no integer type of its own.) */
            if (!node_is_integer(n)) r.tx = 0;
        } else {
            r = eval_kids(a, st, n, scoped);
        }
        break;
    default:
        r = eval_kids(a, st, n, scoped);
        break;
    }
    if ((r.m & VM_THREAD) && a->u->n_assumed && clang_equalCursors(a->fn, a->u->fn)) {
        for (unsigned i = 0; i < a->u->n_assumed; i++)
            if (ast_same_node(a->u->assumed[i], n->c)) {
                r.m &= ~VM_THREAD;
                break;
            }
    }
    vjoin_into(&n->val, r);
    return r;
}

/* ------------------------------------------------------------------ */
/* loops: the guide's uniform-trip-count idiom                         */

static struct node *single_def(struct fnan *a, struct node *n)
{
    n = strip_casts(n);
    if (!n || n->kind != CXCursor_DeclRefExpr) return NULL;
    int v = node_var(a, n);
    if (v < 0) return NULL;
    struct var *var = &a->vars[v];
    if (var->cls != V_LOCAL || var->n_defs != 1 || var->escapes || !var->def) return NULL;
    return var->def;
}

static bool same_expr(struct fnan *a, struct node *x, struct node *y, int depth)
{
    x = strip_casts(x);
    y = strip_casts(y);
    if (!x || !y || depth > 8) return false;
    struct node *dx = single_def(a, x), *dy = single_def(a, y);
    if (dx) return same_expr(a, dx, y, depth + 1);
    if (dy) return same_expr(a, x, dy, depth + 1);
    long long vx, vy;
    if (ast_eval_int(x->c, &vx) && ast_eval_int(y->c, &vy)) return vx == vy;
    if (x->kind != y->kind) return false;
    switch (x->kind) {
    case CXCursor_DeclRefExpr:
        return clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(x->c)),
                                  clang_getCanonicalCursor(clang_getCursorReferenced(y->c)));
    case CXCursor_MemberRefExpr: {
        enum var_class cx, cy;
        if (is_builtin_member(a, x, &cx) && is_builtin_member(a, y, &cy)) {
            struct node *bx = strip_node(x->kid[0]), *by = strip_node(y->kid[0]);
            return builtin_component(a, x->c) == builtin_component(a, y->c) &&
                   strcmp(a->vars[node_var(a, bx)].name, a->vars[node_var(a, by)].name) == 0;
        }
        return false;
    }
    case CXCursor_BinaryOperator:
        if (x->nkid != 2 || y->nkid != 2 || ast_binop(x->c) != ast_binop(y->c)) return false;
        if (same_expr(a, x->kid[0], y->kid[0], depth + 1) && same_expr(a, x->kid[1], y->kid[1], depth + 1))
            return true;
        if (ast_binop(x->c) == CXBinaryOperator_Mul || ast_binop(x->c) == CXBinaryOperator_Add)
            return same_expr(a, x->kid[0], y->kid[1], depth + 1) &&
                   same_expr(a, x->kid[1], y->kid[0], depth + 1);
        return false;
    default: return false;
    }
}

/* Is x provably a multiple of s? */
static bool multiple_of(struct fnan *a, struct node *x, struct node *s, int depth)
{
    x = strip_casts(x);
    s = strip_casts(s);
    if (!x || !s || depth > 8) return false;
    long long vx, vs;
    bool cx = ast_eval_int(x->c, &vx), cs = ast_eval_int(s->c, &vs);
    if (cx && vx == 0) return true;
    if (cx && cs) return vs != 0 && vx % vs == 0;
    if (same_expr(a, x, s, 0)) return true;
    struct node *dx = single_def(a, x);
    if (dx) return multiple_of(a, dx, s, depth + 1);
    if (x->kind == CXCursor_BinaryOperator && x->nkid == 2) {
        enum CXBinaryOperatorKind op = ast_binop(x->c);
        if (op == CXBinaryOperator_Mul)
            return multiple_of(a, x->kid[0], s, depth + 1) || multiple_of(a, x->kid[1], s, depth + 1);
        if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)
            return multiple_of(a, x->kid[0], s, depth + 1) && multiple_of(a, x->kid[1], s, depth + 1);
        if (op == CXBinaryOperator_Shl) return multiple_of(a, x->kid[0], s, depth + 1);
        /* n & ~(S - 1) with S a power of two: the low bits cleared. */
        long long mask;
        if (op == CXBinaryOperator_And && cs && vs > 0 && (vs & (vs - 1)) == 0)
            for (unsigned i = 0; i < 2; i++)
                if (ast_eval_int(strip_casts(x->kid[i])->c, &mask) && (mask & (vs - 1)) == 0) return true;
    }
    /* s = p * q and x a multiple of both factors' product written the other
       way round is covered by same_expr; a product step s = p * k with x a
       multiple of p only is not enough. */
    return false;
}

/* threadIdx.x, or a local defined once as threadIdx.x. */
static bool is_tid_x(struct fnan *a, struct node *n, int depth)
{
    n = strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (is_builtin_member(a, n, &cls)) return cls == V_TID && builtin_component(a, n->c) == 'x';
    struct node *d = single_def(a, n);
    return d && is_tid_x(a, d, depth + 1);
}

static bool is_blockdim_x(struct fnan *a, struct node *n, int depth)
{
    n = strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (is_builtin_member(a, n, &cls)) {
        struct node *b = strip_node(n->kid[0]);
        return cls == V_UNIFORM && strcmp(a->vars[node_var(a, b)].name, "blockDim") == 0 &&
               builtin_component(a, n->c) == 'x';
    }
    struct node *d = single_def(a, n);
    return d && is_blockdim_x(a, d, depth + 1);
}

/* threadIdx.<comp> itself, or a local defined once as it. */
static bool is_tid_comp(struct fnan *a, struct node *n, char comp, int depth)
{
    n = strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (is_builtin_member(a, n, &cls)) return cls == V_TID && builtin_component(a, n->c) == comp;
    struct node *d = single_def(a, n);
    return d && is_tid_comp(a, d, comp, depth + 1);
}

static struct launch_model *launch_of(struct fnan *a);

/* blockDim.<comp>, a local defined once as it, or a parameter of the kernel
   that no statement changes and that every launch site in the file passes
   the block's <comp> (`dim3 block(n); k<<<g, block>>>(x, n)`). */
static bool is_blockdim_comp(struct fnan *a, struct node *n, char comp, int depth)
{
    n = strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (is_builtin_member(a, n, &cls)) {
        struct node *b = strip_node(n->kid[0]);
        return cls == V_UNIFORM && strcmp(a->vars[node_var(a, b)].name, "blockDim") == 0 &&
               builtin_component(a, n->c) == comp;
    }
    if (n->kind == CXCursor_DeclRefExpr) {
        int v = node_var(a, n);
        if (v >= 0 && a->vars[v].cls == V_PARAM && a->vars[v].param >= 0 && a->vars[v].n_defs == 0 &&
            !a->vars[v].escapes && !a->vars[v].reference) {
            struct launch_model *m = launch_of(a);
            return m && launch_param_is_block_dim(m, a->fn, (unsigned)a->vars[v].param, (unsigned)(comp - 'x'));
        }
    }
    struct node *d = single_def(a, n);
    return d && is_blockdim_comp(a, d, comp, depth + 1);
}

/* A comparison of threadIdx.<c> with blockDim.<c> (or a kernel parameter
   that equals it at every launch site) has the same outcome in every
   thread: every thread index is below the block's extent.
   `if (col >= ncols_pad) return;` with the block launched ncols_pad wide. */
static bool tid_against_extent(struct fnan *a, struct node *cmp)
{
    if (cmp->nkid != 2) return false;
    for (char comp = 'x'; comp <= 'z'; comp++)
        for (int i = 0; i < 2; i++)
            if (is_tid_comp(a, cmp->kid[i], comp, 0) && is_blockdim_comp(a, cmp->kid[1 - i], comp, 0)) return true;
    return false;
}

/* The launch model of the translation unit, when a is the function being
   analysed (callees are analysed for their summaries, without a block shape). */
static struct launch_model *launch_of(struct fnan *a)
{
    struct uniformity *u = a->u;
    if (!u->deps || !clang_equalCursors(u->fn, a->fn)) return NULL;
    return analysis_get(u->deps, &launch_analysis, clang_getNullCursor());
}

/* The position of template parameter decl among fn's template parameters. */
static int tparam_index(CXCursor fn, CXCursor decl)
{
    CXCursor kids[64];
    unsigned n = ast_children(fn, kids, 64);
    int k = 0;
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind ck = clang_getCursorKind(kids[i]);
        if (ck != CXCursor_TemplateTypeParameter && ck != CXCursor_NonTypeTemplateParameter &&
            ck != CXCursor_TemplateTemplateParameter)
            continue;
        if (clang_equalCursors(kids[i], decl)) return k;
        k++;
    }
    return -1;
}

/* Does a step of s cover the block: is every threadIdx.x below it?  Then a
   counter threadIdx.x + u (u a multiple of s) below a bound that is a
   multiple of s runs the same number of iterations in every thread.  A
   constant, or a template parameter, is taken as the block size unless the
   launch sites in this file show a wider block (k<<<g, 256>>> for a step of
   128 leaves threads 128..255 one iteration short). */
static bool covers_block(struct fnan *a, struct node *s, int depth)
{
    s = strip_casts(s);
    if (!s || depth > 4) return false;
    /* A template parameter first: in a template with several
       instantiations libclang may evaluate it to one of their values. */
    if (s->kind == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s->c);
        if (clang_getCursorKind(d) == CXCursor_NonTypeTemplateParameter) {
            int k = tparam_index(a->fn, d);
            struct launch_model *m = launch_of(a);
            if (k < 0) return false;
            return !m || launch_tparam_covers_block_x(m, a->fn, (unsigned)k);
        }
    }
    long long v;
    if (ast_eval_int(s->c, &v)) {
        if (v <= 0) return false;
        struct launch_model *m = launch_of(a);
        return !m || launch_block_x_at_most(m, a->fn, v);
    }
    if (is_blockdim_x(a, s, 0)) return true;
    if (s->kind == CXCursor_BinaryOperator && s->nkid == 2 && ast_binop(s->c) == CXBinaryOperator_Mul)
        return covers_block(a, s->kid[0], depth + 1) || covers_block(a, s->kid[1], depth + 1);
    struct node *d = single_def(a, s);
    return d && covers_block(a, d, depth + 1);
}

static bool refers_to(struct fnan *a, struct node *n, int var)
{
    n = strip_casts(n);
    return n && n->kind == CXCursor_DeclRefExpr && node_var(a, n) == var;
}

/* The guide's idiom: for (i = threadIdx.x + u; i < bound; i += step) with a
   step covering the block and (bound - u) a multiple of the step: every
   thread runs the same number of iterations.  Returns true and the mask of
   what the trip count does depend on. */
static bool uniform_trip_idiom(struct fnan *a, struct node *loop, struct vinfo *dep)
{
    if (loop->kind != CXCursor_ForStmt || !loop->cond || !loop->inc || !loop->init) return false;
    struct node *c = strip_casts(loop->cond);
    if (!c || c->kind != CXCursor_BinaryOperator || c->nkid != 2) return false;
    enum CXBinaryOperatorKind op = ast_binop(c->c);
    struct node *iv, *bound;
    if (op == CXBinaryOperator_LT) { iv = c->kid[0]; bound = c->kid[1]; }
    else if (op == CXBinaryOperator_GT) { iv = c->kid[1]; bound = c->kid[0]; }
    else return false;
    iv = strip_casts(iv);
    if (!iv || iv->kind != CXCursor_DeclRefExpr) return false;
    int v = node_var(a, iv);
    if (v < 0 || a->vars[v].cls != V_LOCAL || a->vars[v].escapes) return false;
    /* The counter is defined by the init and the step only. */
    if (a->vars[v].n_defs != 2) return false;
    struct node *start = NULL;
    struct node *in = strip_node(loop->init);
    if (in->kind == CXCursor_DeclStmt && in->nkid == 1 && in->kid[0]->kind == CXCursor_VarDecl &&
        node_var(a, in->kid[0]) == v) {
        start = map_get(a, clang_Cursor_getVarDeclInitializer(in->kid[0]->c));
    } else if (in->kind == CXCursor_BinaryOperator && ast_binop(in->c) == CXBinaryOperator_Assign &&
               in->nkid == 2 && refers_to(a, in->kid[0], v)) {
        start = in->kid[1];
    }
    if (!start) return false;
    struct node *step = NULL;
    struct node *inc = strip_node(loop->inc);
    if (inc->kind == CXCursor_CompoundAssignOperator && ast_binop(inc->c) == CXBinaryOperator_AddAssign &&
        inc->nkid == 2 && refers_to(a, inc->kid[0], v)) {
        step = inc->kid[1];
    } else if (inc->kind == CXCursor_BinaryOperator && ast_binop(inc->c) == CXBinaryOperator_Assign &&
               inc->nkid == 2 && refers_to(a, inc->kid[0], v)) {
        struct node *rhs = strip_casts(inc->kid[1]);
        if (rhs && rhs->kind == CXCursor_BinaryOperator && ast_binop(rhs->c) == CXBinaryOperator_Add &&
            rhs->nkid == 2) {
            if (refers_to(a, rhs->kid[0], v)) step = rhs->kid[1];
            else if (refers_to(a, rhs->kid[1], v)) step = rhs->kid[0];
        }
    }
    if (!step) return false;
    /* start = tid (+ u) */
    struct node *s = strip_casts(start), *u = NULL;
    if (!is_tid_x(a, s, 0)) {
        if (!s || s->kind != CXCursor_BinaryOperator || ast_binop(s->c) != CXBinaryOperator_Add || s->nkid != 2)
            return false;
        if (is_tid_x(a, s->kid[0], 0)) u = s->kid[1];
        else if (is_tid_x(a, s->kid[1], 0)) u = s->kid[0];
        else return false;
    }
    if ((bound->val.m | step->val.m | (u ? u->val.m : 0)) & VM_THREAD) return false;
    if (!covers_block(a, step, 0)) return false;
    if (!multiple_of(a, bound, step, 0)) return false;
    if (u && !multiple_of(a, u, step, 0)) return false;
    *dep = vmk(bound->val.m | step->val.m | (u ? u->val.m : 0), -1);
    return true;
}

/* ------------------------------------------------------------------ */
/* statements                                                          */

static void exec_children(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    for (unsigned i = 0; i < n->nkid; i++) {
        struct node *k = n->kid[i];
        /* Code after an exit is reached only through a label. */
        if (st->dead && !k->has_label) continue;
        if (clang_isExpression(k->kind)) eval(a, st, k, scoped);
        else exec(a, st, k, scoped);
    }
}

static void exec_vardecl(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    int v = node_var(a, n);
    struct ctl c = effective(st, scoped);
    CXCursor ic = clang_Cursor_getVarDeclInitializer(n->c);
    struct node *init = clang_Cursor_isNull(ic) ? NULL : map_get(a, ic);
    if (v < 0) {
        for (unsigned i = 0; i < n->nkid; i++)
            if (clang_isExpression(n->kid[i]->kind)) eval(a, st, n->kid[i], scoped);
        return;
    }
    struct var *var = &a->vars[v];
    var->decl_depth = c.depth;
    /* Array bounds and other expression children that are not the initialiser. */
    for (unsigned i = 0; i < n->nkid; i++)
        if (n->kid[i] != init && clang_isExpression(n->kid[i]->kind)) eval(a, st, n->kid[i], scoped);
    if (var->cls != V_LOCAL) {
        if (init && var->cls != V_SHARED) {
            struct vinfo x = eval(a, st, init, scoped);
            struct lval lv = {v, false, VNONE, FPATH_WHOLE};
            if (var->cls == V_GLOBAL) store(a, st, lv, x, c, true, n);
        }
        return;
    }
    if (!init) {
        st->env[v] = VNONE;
        return;
    }
    if (var->reference) {
        struct lval lv = lvalue(a, st, init, scoped);
        if (lv.var >= 0) {
            set_target(a, v, lv);
            st->env[v] = lv.addr;
        } else {
            st->env[v] = lv.addr;
        }
        vjoin_into(&a->any[v], st->env[v]);
        return;
    }
    struct vinfo x = eval(a, st, init, scoped);
    st->env[v] = x;
    vjoin_into(&a->any[v], x);
    if (var->pointer) {
        struct lval r = root_of(a, init, 0);
        r.path = ptr_path(a, init, 0);
        set_target(a, v, r);
    }
}

static void exec_if(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    for (unsigned i = 0; i < n->nkid && n->kid[i] != n->cond; i++) exec(a, st, n->kid[i], scoped);
    struct vinfo c = n->cond ? eval(a, st, n->cond, scoped) : VNONE;
    struct ctl inner = scoped;
    if (c.m) {
        int why = (c.m & VM_THREAD) ? cond_reason(a, n->cond, DIV_IF, c.why) : -1;
        inner = ctl_push(scoped, vmk(c.m, why));
    }
    struct state els;
    state_dup(a, &els, st);
    struct vinfo pre_ret = st->ret, pre_brk = st->brk, pre_cont = st->cont;
    if (n->then_) exec(a, st, n->then_, inner);
    if (n->else_) exec(a, &els, n->else_, inner);
    /* Under a condition the same in all threads, either every thread or none
       takes a branch.  A branch that ends in an exit for all who took it
       (`if (!ids) { if (i > max) return; ...; return; }`) leaves no thread
       behind: the exits some of them took earlier in it do not concern the
       code after the if, which only threads of the other branch reach.
       (What they carried to a loop's break or continue went there with
       them.)  A condition on parameters still leaves the code after it to
       the threads whose arguments took the other branch. */
    if (!(c.m & VM_THREAD)) {
        struct state *br[2] = {st, &els};
        for (int i = 0; i < 2; i++)
            if (br[i]->dead) {
                br[i]->ret = vjoin(pre_ret, vmk(c.m, -1));
                br[i]->brk = pre_brk;
                br[i]->cont = pre_cont;
            }
    }
    state_join(a, st, &els);
    state_free(&els);
}

static void exec_loop(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    bool is_do = n->kind == CXCursor_DoStmt;
    if (n->init) exec(a, st, n->init, scoped);
    struct vinfo saved_brk = st->brk, saved_cont = st->cont;
    struct frame f;
    memset(&f, 0, sizeof f);
    f.up = a->frame;
    state_init(a, &f.brk_acc);
    state_init(a, &f.cont_acc);
    f.brk_acc.dead = f.cont_acc.dead = true;
    f.brk_mask = VNONE;
    a->frame = &f;

    struct state head, cur;
    state_dup(a, &head, st);
    state_init(a, &cur);
    struct vinfo do_cond = VNONE;
    for (int iter = 0; iter < 24 && a->budget; iter++) {
        state_copy(a, &cur, &head);
        cur.brk = VNONE;
        cur.cont = VNONE;
        struct vinfo c = VNONE;
        if (!is_do && n->cond) c = eval(a, &cur, n->cond, scoped);
        if (is_do) c = do_cond;
        struct vinfo dep;
        if ((c.m & VM_THREAD) && uniform_trip_idiom(a, n, &dep)) c = dep;
        struct ctl body = scoped;
        if (c.m) {
            struct node *at = n->cond ? n->cond : n;
            int why = (c.m & VM_THREAD) ? cond_reason(a, at, DIV_LOOP, c.why) : -1;
            body = ctl_push(body, vmk(c.m, why));
        }
        if (f.brk_mask.m) body = ctl_push(body, f.brk_mask);
        vjoin_into(&n->ctl, vmk(body.m, body.why));
        if (n->body) exec(a, &cur, n->body, body);
        state_join(a, &cur, &f.cont_acc);
        cur.cont = VNONE;
        if (!cur.dead) {
            if (n->inc) eval(a, &cur, n->inc, body);
            if (is_do && n->cond) do_cond = eval(a, &cur, n->cond, body);
        }
        cur.brk = VNONE;
        vmask before = f.brk_mask.m;
        bool ch = state_join(a, &head, &cur);
        if (!ch && before == f.brk_mask.m && iter > 0) break;
    }
    a->frame = f.up;
    /* Leaves through the condition (when there is one) or a break. */
    struct state out;
    state_dup(a, &out, &head);
    if (!n->cond && n->kind != CXCursor_CXXForRangeStmt) out.dead = true;
    state_join(a, &out, &f.brk_acc);
    state_copy(a, st, &out);
    st->brk = saved_brk;
    st->cont = saved_cont;
    state_free(&out);
    state_free(&head);
    state_free(&cur);
    state_free(&f.brk_acc);
    state_free(&f.cont_acc);
}

static void exec_switch(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    if (n->init) exec(a, st, n->init, scoped);
    struct vinfo c = n->cond ? eval(a, st, n->cond, scoped) : VNONE;
    struct ctl inner = scoped;
    if (c.m) {
        int why = (c.m & VM_THREAD) ? cond_reason(a, n->cond, DIV_SWITCH, c.why) : -1;
        inner = ctl_push(scoped, vmk(c.m, why));
    }
    struct vinfo saved_brk = st->brk;
    struct frame f;
    memset(&f, 0, sizeof f);
    f.is_switch = true;
    f.up = a->frame;
    state_init(a, &f.brk_acc);
    f.brk_acc.dead = true;
    state_init(a, &f.cont_acc);
    f.cont_acc.dead = true;
    struct state dispatch;
    state_dup(a, &dispatch, st);
    dispatch.brk = VNONE;
    f.dispatch = &dispatch;
    a->frame = &f;
    st->brk = VNONE;
    st->dead = true; /* nothing runs before the first case label */
    if (n->body) exec(a, st, n->body, inner);
    a->frame = f.up;
    /* Without a default, threads may skip the whole body. */
    state_join(a, st, &dispatch);
    state_join(a, st, &f.brk_acc);
    st->brk = saved_brk;
    state_free(&dispatch);
    state_free(&f.brk_acc);
    state_free(&f.cont_acc);
}

static struct frame *loop_frame(struct fnan *a)
{
    for (struct frame *f = a->frame; f; f = f->up)
        if (!f->is_switch) return f;
    return NULL;
}

static void exec(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    if (!n) return;
    if (a->budget == 0) return;
    a->budget--;
    if (clang_isExpression(n->kind)) {
        eval(a, st, n, scoped);
        return;
    }
    struct ctl c = effective(st, scoped);
    vjoin_into(&n->ctl, vmk(c.m, c.why));
    n->seen = true;
    switch (n->kind) {
    case CXCursor_VarDecl: exec_vardecl(a, st, n, scoped); break;
    case CXCursor_IfStmt: exec_if(a, st, n, scoped); break;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt: exec_loop(a, st, n, scoped); break;
    case CXCursor_SwitchStmt: exec_switch(a, st, n, scoped); break;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: {
        /* A case label is reached from the dispatch (and by fall-through). */
        struct frame *f = a->frame;
        while (f && !f->is_switch) f = f->up;
        if (f && f->dispatch) state_join(a, st, f->dispatch);
        for (unsigned i = 0; i < n->nkid; i++) {
            struct node *k = n->kid[i];
            if (n->kind == CXCursor_CaseStmt && i + 1 < n->nkid && clang_isExpression(k->kind)) continue;
            if (clang_isExpression(k->kind)) eval(a, st, k, scoped);
            else exec(a, st, k, scoped);
        }
        break;
    }
    case CXCursor_ReturnStmt: {
        struct vinfo v = VNONE;
        for (unsigned i = 0; i < n->nkid; i++)
            if (clang_isExpression(n->kid[i]->kind)) v = vjoin(v, eval(a, st, n->kid[i], scoped));
        struct ctl e = effective(st, scoped);
        if (vjoin_into(&a->ret, vjoin(v, vmk(e.m, e.why)))) a->changed = true;
        if (e.m) vjoin_into(&st->ret, vmk(e.m, exit_reason(a, n, DIV_RETURN, e.why)));
        st->dead = true;
        break;
    }
    case CXCursor_BreakStmt: {
        struct ctl e = effective(st, scoped);
        struct vinfo m = e.m ? vmk(e.m, exit_reason(a, n, DIV_BREAK, e.why)) : VNONE;
        vjoin_into(&st->brk, m);
        if (a->frame) {
            if (!a->frame->is_switch) vjoin_into(&a->frame->brk_mask, m);
            state_join(a, &a->frame->brk_acc, st);
        }
        st->dead = true;
        break;
    }
    case CXCursor_ContinueStmt: {
        struct ctl e = effective(st, scoped);
        struct vinfo m = e.m ? vmk(e.m, exit_reason(a, n, DIV_CONTINUE, e.why)) : VNONE;
        vjoin_into(&st->cont, m);
        struct frame *f = loop_frame(a);
        if (f) state_join(a, &f->cont_acc, st);
        st->dead = true;
        break;
    }
    case CXCursor_GotoStmt: {
        CXCursor label = clang_getCursorReferenced(n->c);
        if (!clang_Cursor_isNull(label) && loc_offset(label) > n->off) {
            struct ctl e = effective(st, scoped);
            if (e.m && st->ng < MAX_GOTOS) {
                st->g[st->ng].label = label;
                st->g[st->ng].v = vmk(e.m, exit_reason(a, n, DIV_GOTO, e.why));
                st->ng++;
            }
        }
        st->dead = true;
        break;
    }
    case CXCursor_LabelStmt: {
        /* Threads that jumped here and those that fell through meet again. */
        unsigned j = 0;
        for (unsigned i = 0; i < st->ng; i++)
            if (!clang_equalCursors(st->g[i].label, n->c)) st->g[j++] = st->g[i];
        st->ng = j;
        st->dead = false;
        exec_children(a, st, n, scoped);
        break;
    }
    case CXCursor_GCCAsmStmt: eval_asm(a, st, n, scoped); break;
    case CXCursor_LambdaExpr:
    case CXCursor_NullStmt: break;
    default:
        if (clang_isStatement(n->kind) || n->kind == CXCursor_DeclStmt) exec_children(a, st, n, scoped);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* driving one function                                                */

static struct node *function_body(struct fnan *a, CXCursor fn)
{
    CXCursor kids[64];
    unsigned n = ast_children(fn, kids, 64);
    for (unsigned i = n; i-- > 0;)
        if (clang_getCursorKind(kids[i]) == CXCursor_CompoundStmt) return build_node(a, kids[i], NULL);
    return NULL;
}

/* Counts the definitions of every local: initialisers, assignments,
   increments (for loop counters and single-definition reasoning). */
static void count_defs(struct fnan *a)
{
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *n = a->all[i];
        struct node *target = NULL;
        switch (n->kind) {
        case CXCursor_VarDecl: {
            int v = node_var(a, n);
            if (v < 0) break;
            CXCursor ic = clang_Cursor_getVarDeclInitializer(n->c);
            if (!clang_Cursor_isNull(ic)) {
                a->vars[v].n_defs++;
                a->vars[v].def = map_get(a, ic);
            }
            break;
        }
        case CXCursor_BinaryOperator:
            if (ast_binop(n->c) == CXBinaryOperator_Assign && n->nkid == 2) target = n->kid[0];
            break;
        case CXCursor_CompoundAssignOperator:
            if (n->nkid == 2) target = n->kid[0];
            break;
        case CXCursor_UnaryOperator: {
            enum CXUnaryOperatorKind op = ast_unop(n->c);
            if (n->nkid == 1 && ast_unop_is_incdec(op))
                target = n->kid[0];
            if (n->nkid == 1 && op == CXUnaryOperator_AddrOf) {
                struct node *x = strip_casts(n->kid[0]);
                if (x && x->kind == CXCursor_DeclRefExpr && node_var(a, x) >= 0)
                    a->vars[node_var(a, x)].escapes = true;
            }
            break;
        }
        case CXCursor_CallExpr:
            classify_call(a, n);
            if ((n->cc == CC_ASSIGN || n->cc == CC_COMPOUND_ASSIGN) && n->nargs >= 1) target = n->args[0];
            /* Non-const reference arguments may be written by the callee. */
            for (unsigned j = 0; j < n->nargs; j++) {
                struct node *x = n->args[j] ? strip_node(n->args[j]) : NULL;
                if (x && x->kind == CXCursor_DeclRefExpr && node_var(a, x) >= 0 &&
                    n->cc != CC_ASSIGN && n->cc != CC_COMPOUND_ASSIGN) {
                    CXCursor ref = clang_getCursorReferenced(n->c);
                    int np = clang_Cursor_getNumArguments(ref);
                    if (np > (int)j) {
                        CXType pt = clang_getCursorType(clang_Cursor_getArgument(ref, j));
                        if (pt.kind == CXType_LValueReference &&
                            !clang_isConstQualifiedType(clang_getPointeeType(pt)))
                            a->vars[node_var(a, x)].escapes = true;
                    }
                }
            }
            break;
        case CXCursor_GCCAsmStmt: {
            unsigned no = clang_Cursor_getGCCAssemblyNumOutputs(n->c);
            for (unsigned j = 0; j < no; j++) {
                CXString con;
                CXCursor e;
                if (!clang_Cursor_getGCCAssemblyOutput(n->c, j, &con, &e)) continue;
                clang_disposeString(con);
                struct node *en = map_get(a, e);
                struct node *x = en ? strip_casts(en) : NULL;
                if (x && x->kind == CXCursor_DeclRefExpr && node_var(a, x) >= 0)
                    a->vars[node_var(a, x)].n_defs += 2;
            }
            break;
        }
        default: break;
        }
        if (target) {
            struct node *x = strip_casts(target);
            if (x && x->kind == CXCursor_DeclRefExpr) {
                int v = node_var(a, x);
                if (v >= 0) a->vars[v].n_defs++;
            }
        }
    }
    for (unsigned v = 0; v < a->n_vars; v++)
        if (a->vars[v].n_defs != 1) a->vars[v].def = NULL;
}

/* Functions whose walk ran out of its statement budget (this process). */
static atomic_ulong st_budget_exhausted;

void uniformity_stats_report(void)
{
    unsigned long n = atomic_load(&st_budget_exhausted);
    if (n) report_info("uniformity: %lu function%s too large for the walk's budget (nothing reported in them)", n, n == 1 ? "" : "s");
}

static struct fnan *analyse_function(struct uniformity *u, CXTranslationUnit tu, CXCursor fn)
{
    struct fnan *a = xcalloc(1, sizeof *a);
    a->u = u;
    a->tu = tu;
    a->fn = fn;
    a->fn_name = an_keep(a, ast_spelling(fn));
    a->this_var = -1;
    a->ret = VNONE;
    a->budget = 400000;
    a->root = function_body(a, fn);
    if (!a->root || a->too_deep) {
        fnan_free(a);
        return NULL;
    }
    /* Parameters first, so their indices match their positions. */
    CXCursor kids[64];
    unsigned nk = ast_children(fn, kids, 64);
    unsigned np = 0;
    for (unsigned i = 0; i < nk; i++) {
        if (clang_getCursorKind(kids[i]) != CXCursor_ParmDecl) continue;
        int v = var_add(a, kids[i]);
        a->vars[v].cls = V_PARAM;
        a->vars[v].param = (int)np++;
    }
    a->n_params = np;
    a->out = xcalloc(np ? np : 1, sizeof *a->out);
    for (unsigned i = 0; i < np; i++) a->out[i] = VNONE;
    enum CXCursorKind fk = clang_getCursorKind(fn);
    if (fk == CXCursor_CXXMethod || fk == CXCursor_Constructor || fk == CXCursor_Destructor ||
        fk == CXCursor_ConversionFunction ||
        (fk == CXCursor_FunctionTemplate && !decl_is_file_scope(fn))) {
        /* Member functions read fields through this: a pseudo-variable. */
        a->this_var = var_add(a, fn);
        a->vars[a->this_var].cls = V_PARAM;
        a->vars[a->this_var].param = -1;
        a->vars[a->this_var].pointer = true;
        a->vars[a->this_var].name = "this";
    }
    /* Register every variable the body mentions before states are sized. */
    for (size_t i = 0; i < a->n_all; i++) node_var(a, a->all[i]);
    prepass(a);
    count_defs(a);
    for (size_t i = 0; i < a->n_all; i++) node_var(a, a->all[i]);
    /* Summaries of callees may name file-scope variables they write. */
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *n = a->all[i];
        if (n->cc == CC_SUMMARY && n->sum && n->sum->an)
            for (unsigned g = 0; g < n->sum->an->n_gw; g++) var_add(a, n->sum->an->gw[g].decl);
    }
    for (int pass = 0; pass < 8; pass++) {
        a->changed = false;
        struct state st;
        state_init(a, &st);
        for (unsigned v = 0; v < a->n_vars; v++)
            if (a->vars[v].cls == V_PARAM && a->vars[v].param >= 0) st.env[v] = vmk(param_bit((unsigned)a->vars[v].param), -1);
        struct ctl none = {0, -1, 0};
        a->frame = NULL;
        exec(a, &st, a->root, none);
        state_free(&st);
        if (!a->changed) break;
    }
    if (a->budget == 0) {
        /* Cut short: statements left unvisited and loops not at their
           fixpoint would read as uniform.  Nothing is known of this
           function (its rules stay silent); --statistics counts it. */
        atomic_fetch_add(&st_budget_exhausted, 1);
        fnan_free(a);
        return NULL;
    }
    return a;
}

static void fnan_free(struct fnan *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->n_all; i++) {
        free(a->all[i]->kid);
        free(a->all[i]->args);
        free(a->all[i]);
    }
    free(a->all);
    free(a->map);
    free(a->vars);
    free(a->mem);
    free(a->any);
    free(a->reasons);
    free(a->bar_off);
    free(a->out);
    free(a->gw);
    free(a->ms);
    free(a->mf);
    for (unsigned i = 0; i < a->n_strs; i++) free(a->strs[i]);
    free(a->strs);
    free(a);
}

static void uniformity_free(void *p)
{
    struct uniformity *u = p;
    if (!u) return;
    fnan_free(u->top);
    free(u->assumed);
    while (u->sums) {
        struct summary *s = u->sums;
        u->sums = s->next;
        fnan_free(s->an);
        free(s);
    }
    free(u);
}

/* ------------------------------------------------------------------ */
/* the public interface                                                */

static void *uniformity_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    if (clang_Cursor_isNull(fn)) return NULL;
    struct uniformity *u = xcalloc(1, sizeof *u);
    /* A lambda is analysed like a function: its parameters and body are the
       LambdaExpr's children; what it captures counts as uniform. */
    u->deps = deps;
    u->fn = fn;
    u->top = analyse_function(u, tu, fn);
    u->deps = NULL;
    return u;
}

struct uniformity *uniformity_new_assuming(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps,
                                           const CXCursor *uniform, unsigned n)
{
    if (clang_Cursor_isNull(fn)) return NULL;
    struct uniformity *u = xcalloc(1, sizeof *u);
    u->assumed = xcalloc(n ? n : 1, sizeof *u->assumed);
    memcpy(u->assumed, uniform, n * sizeof *uniform);
    u->n_assumed = n;
    u->deps = deps;
    u->fn = fn;
    u->top = analyse_function(u, tu, fn);
    u->deps = NULL;
    return u;
}

void uniformity_release(struct uniformity *u)
{
    uniformity_free(u);
}

const struct analysis_kind uniformity_analysis = {
    .name = "uniformity",
    .build = uniformity_build,
    .free = uniformity_free,
};

/* The last reason of a chain: what the variation comes from. */
static const struct reason *chain_origin(const struct fnan *a, int why)
{
    const struct reason *last = NULL;
    for (int guard = 0; why >= 0 && guard < 32; guard++) {
        last = &a->reasons[why];
        if (last->kind == DIV_ORIGIN) return last;
        why = last->inner;
    }
    return last && last->kind == DIV_ORIGIN ? last : NULL;
}

static bool fill_reason(struct fnan *a, int why, CXCursor fallback, struct variance_reason *out)
{
    if (!out) return true;
    const struct reason *o = chain_origin(a, why);
    if (o) {
        out->origin = o->at;
        out->why = o->what;
    } else {
        out->origin = fallback;
        out->why = "the thread index";
    }
    return true;
}

/* For an expression the interpretation never evaluated (unreachable code,
   an unevaluated operand): does it read anything that varies anywhere? */
static bool unseen_varies(struct fnan *a, struct node *n, int *why, int depth)
{
    if (!n || depth > 64) return false;
    if (n->seen) {
        if (n->val.m & VM_THREAD) *why = n->val.why;
        return (n->val.m & VM_THREAD) != 0;
    }
    enum var_class cls;
    if (n->kind == CXCursor_MemberRefExpr && is_builtin_member(a, n, &cls)) return cls == V_TID;
    if (n->kind == CXCursor_DeclRefExpr && n->var >= 0) {
        struct var *v = &a->vars[n->var];
        struct vinfo x = var_is_local_storage(v) ? a->any[n->var] : a->mem[n->var];
        if (v->cls == V_TID || (x.m & VM_THREAD)) {
            *why = x.why;
            return true;
        }
    }
    if (n->kind == CXCursor_CallExpr && (n->cc == CC_THREAD || n->cc == CC_ATOMIC)) return true;
    for (unsigned i = 0; i < n->nkid; i++)
        if (unseen_varies(a, n->kid[i], why, depth + 1)) return true;
    return false;
}

bool uniformity_expr_varies(struct uniformity *u, CXCursor expr, struct variance_reason *why)
{
    if (!u || !u->top) return false;
    struct node *n = map_get(u->top, expr);
    if (!n) n = map_get(u->top, ast_strip(expr));
    if (!n) return false;
    if (!n->seen) {
        int w = -1;
        if (!unseen_varies(u->top, n, &w, 0)) return false;
        return fill_reason(u->top, w, expr, why);
    }
    if (!(n->val.m & VM_THREAD)) return false;
    return fill_reason(u->top, n->val.why, expr, why);
}

bool uniformity_load_content_varies(struct uniformity *u, CXCursor expr)
{
    if (!u || !u->top) return true;
    struct node *n = map_get(u->top, expr);
    if (!n) n = map_get(u->top, ast_strip(expr));
    return !n || !n->seen || n->content_varies;
}

bool uniformity_expr_known(struct uniformity *u, CXCursor expr)
{
    if (!u || !u->top) return false;
    struct node *n = map_get(u->top, expr);
    if (!n) n = map_get(u->top, ast_strip(expr));
    return n != NULL;
}

bool uniformity_var_varies(struct uniformity *u, CXCursor decl, struct variance_reason *why)
{
    if (!u || !u->top) return false;
    int v = var_index(u->top, decl);
    if (v < 0) return false;
    struct fnan *a = u->top;
    struct vinfo x = a->any[v];
    if (!var_is_local_storage(&a->vars[v])) x = a->mem[v];
    if (a->vars[v].cls == V_TID) x = vmk(VM_THREAD, -1);
    if (!(x.m & VM_THREAD)) return false;
    return fill_reason(a, x.why, decl, why);
}

bool uniformity_control_varies(struct uniformity *u, CXCursor stmt, struct variance_reason *why)
{
    if (!u || !u->top) return false;
    struct node *n = map_get(u->top, stmt);
    if (!n) return false;
    if (!(n->ctl.m & VM_THREAD)) return false;
    return fill_reason(u->top, n->ctl.why, stmt, why);
}

/* ---- barriers and explanations (CU101) ---- */

bool uniformity_call_barrier(struct uniformity *u, CXCursor call, struct barrier_info *out)
{
    if (!u || !u->top) return false;
    struct node *n = map_get(u->top, call);
    if (!n || n->kind != CXCursor_CallExpr) return false;
    classify_call(u->top, n);

    memset(out, 0, sizeof *out);
    if (n->cc == CC_BARRIER || n->cc == CC_BARRIER_VALUE) {
        out->name = n->barrier_name;
        out->inner = clang_getNullCursor();
        out->callee = NULL;
        return true;
    }
    if (n->cc == CC_SUMMARY && n->sum && n->sum->an && n->sum->an->has_barrier) {
        struct fnan *cal = n->sum->an;
        /* Follow nested calls down to the barrier itself for the note. */
        struct node *b = cal->first_barrier;
        struct fnan *at = cal;
        for (int guard = 0; b && b->cc == CC_SUMMARY && guard < 12; guard++) {
            if (!b->sum || !b->sum->an || !b->sum->an->first_barrier) break;
            at = b->sum->an;
            b = at->first_barrier;
        }
        out->callee = n->callee_name;
        out->inner = b ? b->c : clang_getNullCursor();
        out->inner_function = at->fn_name;
        out->name = b && b->barrier_name ? b->barrier_name : "a barrier";
        return true;
    }
    return false;
}

/* The first variable a varying condition reads, for "through 'tid'". */
static const char *through_var(struct fnan *a, struct node *n, int depth)
{
    if (!n || depth > 12) return NULL;
    if (n->kind == CXCursor_DeclRefExpr && (n->val.m & VM_THREAD) && n->var >= 0) {
        struct var *v = &a->vars[n->var];
        if (v->cls == V_LOCAL || v->cls == V_PARAM || v->cls == V_SHARED || v->cls == V_GLOBAL) return v->name;
    }
    for (unsigned i = 0; i < n->nkid; i++) {
        if (!(n->kid[i]->val.m & VM_THREAD)) continue;
        const char *r = through_var(a, n->kid[i], depth + 1);
        if (r) return r;
    }
    return NULL;
}

/* The chain of reasons from why down to the origin of the variation. */
static void explain_chain(struct fnan *a, int why, struct divergence *d)
{
    const struct reason *o = chain_origin(a, why);
    d->origin = o ? o->what : NULL;
    d->n_steps = 0;
    for (int i = why, guard = 0; i >= 0 && guard < DIVERGENCE_MAX_STEPS; guard++) {
        const struct reason *r = &a->reasons[i];
        struct node *rn = map_get(a, r->at);
        struct divergence_step *st = &d->steps[d->n_steps++];
        st->kind = r->kind;
        st->at = r->at;
        st->what = r->kind == DIV_ORIGIN || r->kind == DIV_CALL_ARG ? r->what : NULL;
        st->via = rn ? through_var(a, rn, 0) : NULL;
        i = r->inner;
    }
}

/* Barriers made divergent by the same construct (one early return before
   five barriers): which of them this one is, in source order, and how many. */
static void same_cause(struct fnan *a, struct node *n, struct divergence *out)
{
    out->same_cause_index = 0;
    out->same_cause_count = 1;
    out->same_cause_next = clang_getNullCursor();
    if (n->ctl.why < 0) return;
    unsigned idx = 0, count = 0;
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *b = a->all[i];
        if (b->kind != CXCursor_CallExpr || !node_is_barrier(b)) continue;
        if (!(b->ctl.m & VM_THREAD) || b->ctl.why != n->ctl.why) continue;
        if (b == n) idx = count;
        if (count == idx + 1 && clang_Cursor_isNull(out->same_cause_next)) out->same_cause_next = b->c;
        count++;
    }
    out->same_cause_index = idx;
    out->same_cause_count = count ? count : 1;
}

bool uniformity_barrier_divergent(struct uniformity *u, CXCursor call, struct divergence *out)
{
    if (!u || !u->top) return false;
    struct fnan *a = u->top;
    struct node *n = map_get(a, call);
    if (!n) return false;
    memset(out, 0, sizeof *out);
    if (n->ctl.m & VM_THREAD) {
        out->from_argument = false;
        explain_chain(a, n->ctl.why, out);
        same_cause(a, n, out);
        return true;
    }
    if (n->argctl.m & VM_THREAD) {
        out->from_argument = true;
        explain_chain(a, n->argctl.why, out);
        return true;
    }
    return false;
}
