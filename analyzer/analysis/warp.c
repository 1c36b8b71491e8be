/* warp.c: the warp-level view of thread dependence (see warp.h).
 *
 * One pass over the function records every node with its parent (for the
 * control questions) and every definition of a local variable (initialiser,
 * assignment, compound assignment, increment).  Values are classified on
 * demand: an affine-like form a*threadIdx.x + R + c, where R collects terms
 * that are the same in a warp and remembers whether they are multiples of
 * 32, decides divisions, shifts, masks and comparisons; everything else is
 * the worst class of its operands. */
#include "analysis/warp.h"
#include "analysis/affine.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 24

struct node {
    CXCursor c;
    int parent;
    unsigned hash;
    unsigned offset;
};

struct def {
    CXCursor var;   /* canonical VarDecl */
    CXCursor rhs;   /* the value assigned, or null for ++/-- */
    int node;       /* the defining node (for its control) */
    bool compound;  /* x op= e, ++x: the old value flows in */
};

struct var_state {
    CXCursor var;
    unsigned hash;
    int state;      /* 0 unknown, 1 in progress, 2 done */
    enum warp_class cls;
    bool opaque;    /* address taken */
    int ndefs;
};

struct warp_view {
    CXTranslationUnit tu;
    CXCursor fn;
    struct uniformity *u;
    bool aligned;       /* warps are 32 aligned threadIdx.x runs of one row */
    bool x_mult32;      /* blockDim.x known to be a multiple of 32 (or assumed) */
    struct node *nodes;
    size_t n_nodes, cap_nodes;
    int *table;         /* open addressing over nodes by hash */
    size_t table_size;
    struct def *defs;
    size_t n_defs, cap_defs;
    struct var_state *vars;
    size_t n_vars, cap_vars;
    struct strvec strings; /* owned texts handed out */
    int depth;
    /* Conditions proved the same in every lane of a warp (by the divergence
       queries): classified warp-uniform. */
    CXCursor *assumed;
    unsigned n_assumed;
    /* fn's returns end the thread: it is a kernel, or every call of it in
       the unit is a kernel's last statement (-1: not yet asked) */
    int returns_exit;
};

/* ------------------------------------------------------------ the pass */

struct visit {
    struct warp_view *w;
    int parent;
};

static int add_node(struct warp_view *w, CXCursor c, int parent)
{
    if (w->n_nodes == w->cap_nodes) {
        w->cap_nodes = w->cap_nodes ? 2 * w->cap_nodes : 256;
        w->nodes = xrealloc(w->nodes, w->cap_nodes * sizeof *w->nodes);
    }
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    w->nodes[w->n_nodes] = (struct node){c, parent, clang_hashCursor(c), off};
    return (int)w->n_nodes++;
}

static struct var_state *var_of(struct warp_view *w, CXCursor var, bool create)
{
    CXCursor canon = clang_getCanonicalCursor(var);
    unsigned h = clang_hashCursor(canon);
    for (size_t i = 0; i < w->n_vars; i++)
        if (w->vars[i].hash == h && clang_equalCursors(w->vars[i].var, canon)) return &w->vars[i];
    if (!create) return NULL;
    if (w->n_vars == w->cap_vars) {
        w->cap_vars = w->cap_vars ? 2 * w->cap_vars : 32;
        w->vars = xrealloc(w->vars, w->cap_vars * sizeof *w->vars);
    }
    w->vars[w->n_vars] = (struct var_state){.var = canon, .hash = h};
    return &w->vars[w->n_vars++];
}

static bool is_local_var(CXCursor decl)
{
    if (decl.kind != CXCursor_VarDecl && decl.kind != CXCursor_ParmDecl) return false;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    if (sc == CX_SC_Static || sc == CX_SC_Extern) return false;
    /* A local: its semantic parent is a function, method or lambda. */
    CXCursor p = clang_getCursorSemanticParent(decl);
    switch (p.kind) {
    case CXCursor_FunctionDecl:
    case CXCursor_CXXMethod:
    case CXCursor_FunctionTemplate:
    case CXCursor_Constructor:
    case CXCursor_LambdaExpr:
        break;
    default:
        return false;
    }
    /* __shared__ locals are memory, not registers. */
    CXCursor kids[8];
    unsigned n = ast_children(decl, kids, 8);
    for (unsigned i = 0; i < n; i++)
        if (kids[i].kind == CXCursor_CUDASharedAttr) return false;
    return true;
}

static void add_def(struct warp_view *w, CXCursor var, CXCursor rhs, int node, bool compound)
{
    if (!is_local_var(var)) return;
    if (w->n_defs == w->cap_defs) {
        w->cap_defs = w->cap_defs ? 2 * w->cap_defs : 64;
        w->defs = xrealloc(w->defs, w->cap_defs * sizeof *w->defs);
    }
    struct var_state *vs = var_of(w, var, true);
    vs->ndefs++;
    w->defs[w->n_defs++] = (struct def){clang_getCanonicalCursor(var), rhs, node, compound};
}

static CXCursor ref_var(CXCursor e)
{
    e = ast_strip(e);
    if (e.kind != CXCursor_DeclRefExpr) return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(e);
    return (d.kind == CXCursor_VarDecl || d.kind == CXCursor_ParmDecl) ? d : clang_getNullCursor();
}

static enum CXChildVisitResult visit_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct visit *v = data;
    struct warp_view *w = v->w;
    int me = add_node(w, c, v->parent);
    switch (c.kind) {
    case CXCursor_VarDecl: {
        CXCursor init = clang_Cursor_getVarDeclInitializer(c);
        add_def(w, c, init, me, false);
        /* References and pointers to a local make it opaque only when
           they take its address: handled at '&'. */
        break;
    }
    case CXCursor_BinaryOperator:
        if (ast_binop(c) == CXBinaryOperator_Assign) {
            CXCursor var = ref_var(ast_child(c, 0));
            if (!clang_Cursor_isNull(var)) add_def(w, var, ast_child(c, 1), me, false);
        }
        break;
    case CXCursor_CompoundAssignOperator: {
        CXCursor var = ref_var(ast_child(c, 0));
        if (!clang_Cursor_isNull(var)) add_def(w, var, ast_child(c, 1), me, true);
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind k = ast_unop(c);
        CXCursor var = ref_var(ast_child(c, 0));
        if (clang_Cursor_isNull(var)) break;
        if (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec ||
            k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec)
            add_def(w, var, clang_getNullCursor(), me, true);
        else if (k == CXUnaryOperator_AddrOf && is_local_var(var))
            var_of(w, var, true)->opaque = true;
        break;
    }
    default:
        break;
    }
    struct visit inner = {w, me};
    clang_visitChildren(c, visit_cb, &inner);
    return CXChildVisit_Continue;
}

static void build_table(struct warp_view *w)
{
    w->table_size = 16;
    while (w->table_size < 2 * w->n_nodes + 16) w->table_size *= 2;
    w->table = xmalloc(w->table_size * sizeof *w->table);
    for (size_t i = 0; i < w->table_size; i++) w->table[i] = -1;
    for (size_t i = 0; i < w->n_nodes; i++) {
        size_t s = w->nodes[i].hash & (w->table_size - 1);
        while (w->table[s] >= 0) s = (s + 1) & (w->table_size - 1);
        w->table[s] = (int)i;
    }
}

static int find_node(const struct warp_view *w, CXCursor c)
{
    if (!w->table) return -1;
    unsigned h = clang_hashCursor(c);
    size_t s = h & (w->table_size - 1);
    while (w->table[s] >= 0) {
        const struct node *n = &w->nodes[w->table[s]];
        if (n->hash == h && clang_equalCursors(n->c, c)) return w->table[s];
        s = (s + 1) & (w->table_size - 1);
    }
    return -1;
}

/* ---- functions whose return ends the thread ---- */

struct tail_calls {
    CXCursor fn;       /* the function (or function template) asked about */
    unsigned calls;    /* its calls found */
    unsigned tail;     /* of them, a kernel's last statement */
    CXCursor kernel_last; /* while visiting a kernel: its body's last statement */
    bool in_kernel;
};

/* Does the call name fn (a specialisation of the template fn too)? */
static bool calls_function(CXCursor call, CXCursor fn)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref)) return false;
    if (clang_equalCursors(clang_getCanonicalCursor(ref), clang_getCanonicalCursor(fn))) return true;
    CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
    return !clang_Cursor_isNull(tmpl) && clang_equalCursors(clang_getCanonicalCursor(tmpl), clang_getCanonicalCursor(fn));
}

static enum CXChildVisitResult tail_call_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct tail_calls *t = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr && calls_function(c, t->fn)) {
        t->calls++;
        if (t->in_kernel && !clang_Cursor_isNull(t->kernel_last) &&
            (ast_same_node(c, t->kernel_last) || ast_same_node(ast_strip(t->kernel_last), c)))
            t->tail++;
    }
    if (k == CXCursor_DeclRefExpr && !t->in_kernel) {
        /* its address taken, or named outside a call: not known */
        CXCursor ref = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(ref) && clang_equalCursors(clang_getCanonicalCursor(ref), clang_getCanonicalCursor(t->fn)) &&
            clang_getCursorKind(parent) != CXCursor_CallExpr && clang_getCursorKind(parent) != CXCursor_UnexposedExpr)
            t->calls++;
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult tail_fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct tail_calls *t = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* the toolkit's and the system's headers call no function of the project */
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) return CXChildVisit_Recurse;
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_CXXMethod) return CXChildVisit_Continue;
    if (!clang_isCursorDefinition(c)) return CXChildVisit_Continue;
    CXCursor kids[64];
    unsigned n = ast_children(c, kids, 64);
    if (!n || clang_getCursorKind(kids[n - 1]) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
    t->in_kernel = (ast_exec_space(c) & SPACE_GLOBAL) == SPACE_GLOBAL;
    t->kernel_last = t->in_kernel ? ast_block_last_statement(kids[n - 1]) : clang_getNullCursor();
    clang_visitChildren(kids[n - 1], tail_call_visit, t);
    return CXChildVisit_Continue;
}

/* Does a return from w->fn end the thread: fn is a kernel, or a device
   function (template) that the unit calls only as the last statement of
   kernels (`__global__ void k(P p) { k_impl<true>(p); }`), so that a lane
   returning from it goes straight to the kernel's end? */
static bool returns_end_thread(struct warp_view *w)
{
    if (w->returns_exit >= 0) return w->returns_exit;
    CXCursor fn = w->fn;
    enum CXCursorKind fk = clang_getCursorKind(fn);
    bool r = false;
    if ((fk == CXCursor_FunctionDecl || fk == CXCursor_FunctionTemplate) &&
        (ast_exec_space(fn) & SPACE_GLOBAL) == SPACE_GLOBAL) {
        r = true;
    } else if (fk == CXCursor_FunctionDecl || fk == CXCursor_FunctionTemplate) {
        struct tail_calls t = {.fn = fn};
        clang_visitChildren(clang_getTranslationUnitCursor(w->tu), tail_fn_visit, &t);
        r = t.calls > 0 && t.tail == t.calls;
    }
    w->returns_exit = r;
    return r;
}

struct warp_view *warp_view_new(CXTranslationUnit tu, CXCursor fn, struct uniformity *u,
                                const struct launch_info *li)
{
    struct warp_view *w = xcalloc(1, sizeof *w);
    w->tu = tu;
    w->fn = fn;
    w->u = u;
    w->returns_exit = -1;
    w->aligned = true;
    w->x_mult32 = true;
    if (li && li->known && li->n_shapes > 0) {
        for (unsigned i = 0; i < li->n_shapes; i++) {
            const struct launch_shape *s = &li->shape[i];
            if (s->b[0] % 32 != 0) {
                w->x_mult32 = false;
                if (s->b[1] > 1 || s->b[2] > 1) w->aligned = false;
            }
        }
    }
    int root = add_node(w, fn, -1);
    struct visit v = {w, root};
    clang_visitChildren(fn, visit_cb, &v);
    build_table(w);
    return w;
}

void warp_view_assume_uniform(struct warp_view *w, const CXCursor *conds, unsigned n)
{
    free(w->assumed);
    w->assumed = xcalloc(n ? n : 1, sizeof *w->assumed);
    memcpy(w->assumed, conds, n * sizeof *conds);
    w->n_assumed = n;
}

void warp_view_free(struct warp_view *w)
{
    if (!w) return;
    free(w->assumed);
    free(w->nodes);
    free(w->table);
    free(w->defs);
    free(w->vars);
    sv_release(&w->strings);
    free(w);
}

bool warp_layout_aligned(const struct warp_view *w)
{
    return w->aligned;
}

/* ------------------------------------------------------- classification */

/* a*threadIdx.x + R + c, R the same within a warp. */
struct lin {
    bool ok;
    long long a, c;
    bool has_r;
    bool r_mult32;     /* R is a multiple of 32 */
    enum warp_class r_cls;
};

static struct lin lin_none(void)
{
    return (struct lin){.ok = false};
}

static struct lin lin_const(long long v)
{
    return (struct lin){.ok = true, .c = v, .r_mult32 = true};
}

static struct lin lin_uniform(enum warp_class cls, bool mult32)
{
    return (struct lin){.ok = true, .has_r = true, .r_mult32 = mult32, .r_cls = cls};
}

static bool lin_mult32(const struct lin *l)
{
    return l->ok && l->a == 0 && (!l->has_r || l->r_mult32) && l->c % 32 == 0;
}

static enum warp_class maxc(enum warp_class a, enum warp_class b)
{
    return a > b ? a : b;
}

static enum warp_class classify(struct warp_view *w, CXCursor e, struct lin *out);

static enum warp_class lin_class(const struct lin *l)
{
    if (!l->ok) return WARP_LANE_VARIES;
    if (l->a != 0) return WARP_LANE_VARIES;
    return l->has_r ? l->r_cls : WARP_BLOCK_UNIFORM;
}

static bool mentions_blockdim(CXTranslationUnit tu, CXCursor e, int depth)
{
    if (depth > 8) return false;
    int comp;
    if (affine_builtin_member(tu, e, &comp) == AFFINE_BLOCKDIM) return comp == 0;
    CXCursor kids[4];
    unsigned n = ast_children(ast_strip(e), kids, 4);
    for (unsigned i = 0; i < n; i++)
        if (mentions_blockdim(tu, kids[i], depth + 1)) return true;
    return false;
}

static bool mentions_blockdim_any(CXTranslationUnit tu, CXCursor e, int depth)
{
    if (depth > 8) return false;
    int comp;
    if (affine_builtin_member(tu, e, &comp) == AFFINE_BLOCKDIM) return true;
    CXCursor kids[4];
    unsigned n = ast_children(ast_strip(e), kids, 4);
    for (unsigned i = 0; i < n; i++)
        if (mentions_blockdim_any(tu, kids[i], depth + 1)) return true;
    return false;
}

static const char *callee_name(CXCursor call, char **owned)
{
    *owned = ast_spelling(call);
    return *owned;
}

/* Warp collectives and what their result is. */
static bool starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* A warp vote or reduction: its result is the same in every lane, whatever
   its arguments. */
static bool is_vote_name(const char *name)
{
    return !strcmp(name, "__ballot_sync") || !strcmp(name, "__any_sync") || !strcmp(name, "__all_sync") ||
           !strcmp(name, "__activemask") || !strcmp(name, "__ballot") || !strcmp(name, "__any") ||
           !strcmp(name, "__all") || starts_with(name, "__reduce_") || !strcmp(name, "__match_all_sync");
}

/* Is e (casts and parentheses aside) a call of a warp vote? */
static bool is_vote_call(CXCursor e)
{
    e = ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_CallExpr) return false;
    char *owned;
    const char *name = callee_name(e, &owned);
    bool r = is_vote_name(name);
    free(owned);
    return r;
}

static enum warp_class classify_call(struct warp_view *w, CXCursor call)
{
    char *owned;
    const char *name = callee_name(call, &owned);
    enum warp_class cls = WARP_BLOCK_UNIFORM;
    bool done = true;
    int value_arg = uniformity_collective_value_arg(name);
    int n_args = clang_Cursor_getNumArguments(call);
    enum warp_class value_cls = WARP_LANE_VARIES;
    if (value_arg >= 0 && value_arg < n_args) {
        value_cls = classify(w, clang_Cursor_getArgument(call, value_arg), NULL);
        if (value_arg == 1) value_cls = maxc(value_cls, classify(w, clang_Cursor_getArgument(call, 0), NULL));
    }
    if (value_cls != WARP_LANE_VARIES) {
        /* Every lane gets back the value they all hold. */
        cls = value_cls;
    } else if (is_vote_name(name)) {
        cls = WARP_WARP_UNIFORM;
    } else if (!strcmp(name, "__syncthreads_or") || !strcmp(name, "__syncthreads_and") ||
               !strcmp(name, "__syncthreads_count")) {
        cls = WARP_BLOCK_UNIFORM;
    } else if (!strcmp(name, "__shfl_sync") || !strcmp(name, "__shfl")) {
        /* A broadcast when the source lane is the same in every lane. */
        int nargs = clang_Cursor_getNumArguments(call);
        int src = !strcmp(name, "__shfl") ? 1 : 2;
        if (nargs > src) {
            enum warp_class s = classify(w, clang_Cursor_getArgument(call, src), NULL);
            cls = s == WARP_LANE_VARIES ? WARP_LANE_VARIES : WARP_WARP_UNIFORM;
            /* width < 32 broadcasts per segment: lane-dependent. */
            if (nargs > src + 1) {
                long long width;
                if (!ast_eval_int(clang_Cursor_getArgument(call, src + 1), &width) || width < 32)
                    cls = WARP_LANE_VARIES;
            }
        } else {
            cls = WARP_LANE_VARIES;
        }
    } else if (starts_with(name, "__shfl") || starts_with(name, "__match_any")) {
        cls = WARP_LANE_VARIES;
    } else {
        done = false;
    }
    free(owned);
    if (done) return cls;
    /* Other calls: a function whose body is one return statement is read
       through; otherwise the worst of the arguments, and lane-dependent when
       the block-level analysis says the result varies for reasons of its
       own. */
    struct variance_reason why;
    if (!uniformity_expr_varies(w->u, call, &why)) return WARP_BLOCK_UNIFORM;
    CXCursor callee = clang_getCursorReferenced(call);
    CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    cls = WARP_BLOCK_UNIFORM;
    int nargs = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < nargs; i++) cls = maxc(cls, classify(w, clang_Cursor_getArgument(call, i), NULL));
    if (!clang_Cursor_isNull(def)) {
        CXCursor kids[16];
        unsigned n = ast_children(def, kids, 16);
        CXCursor body = n ? kids[n - 1] : clang_getNullCursor();
        if (body.kind == CXCursor_CompoundStmt) {
            CXCursor stmts[2];
            unsigned ns = ast_children(body, stmts, 2);
            if (ns == 1 && stmts[0].kind == CXCursor_ReturnStmt) {
                CXCursor rv = ast_child(stmts[0], 0);
                /* A wrapper of a vote (`bool any(bool p) { return
                   __any_sync(FULL, p); }`): warp-uniform, whatever the
                   arguments. */
                if (!clang_Cursor_isNull(rv) && is_vote_call(rv)) return WARP_WARP_UNIFORM;
                if (!clang_Cursor_isNull(rv)) {
                    /* Judged structurally: threadIdx and constants. */
                    struct lin l;
                    enum warp_class in = classify(w, rv, &l);
                    return maxc(cls, in);
                }
            }
        }
    }
    return nargs > 0 && cls < WARP_LANE_VARIES ? cls : WARP_LANE_VARIES;
}

static enum warp_class classify_var(struct warp_view *w, CXCursor decl, struct lin *out);

static bool is_increment(CXCursor e);
static bool path_divergent(struct warp_view *w, int node, int stop, struct warp_divergence *out);
static int enclosing_function(const struct warp_view *w, int node);

static enum warp_class classify_inner(struct warp_view *w, CXCursor e, struct lin *l)
{
    *l = lin_none();
    e = ast_strip(e);
    if (clang_Cursor_isNull(e)) return WARP_BLOCK_UNIFORM;
    long long v;
    if (clang_isExpression(e.kind) && e.kind != CXCursor_CallExpr && ast_eval_int(e, &v)) {
        *l = lin_const(v);
        return WARP_BLOCK_UNIFORM;
    }
    int comp;
    enum affine_builtin b = affine_builtin_member(w->tu, e, &comp);
    if (b == AFFINE_THREADIDX) {
        if (comp == 0) {
            *l = (struct lin){.ok = true, .a = 1, .r_mult32 = true};
            return WARP_LANE_VARIES;
        }
        enum warp_class c = w->aligned ? WARP_WARP_UNIFORM : WARP_LANE_VARIES;
        *l = c == WARP_LANE_VARIES ? lin_none() : lin_uniform(c, false);
        return c;
    }
    if (b == AFFINE_BLOCKDIM) {
        *l = lin_uniform(WARP_BLOCK_UNIFORM, comp == 0 && w->x_mult32);
        return WARP_BLOCK_UNIFORM;
    }
    if (b == AFFINE_BLOCKIDX || b == AFFINE_GRIDDIM) {
        *l = lin_uniform(WARP_BLOCK_UNIFORM, false);
        return WARP_BLOCK_UNIFORM;
    }
    struct variance_reason why;
    bool known = uniformity_expr_known(w->u, e);
    bool varies = uniformity_expr_varies(w->u, e, &why);
    switch (e.kind) {
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        if (is_local_var(d)) return classify_var(w, d, l);
        /* a constant (static constexpr el_w = N / warp_size): its initialiser */
        if (d.kind == CXCursor_VarDecl && clang_isConstQualifiedType(clang_getCursorType(d))) {
            CXCursor init = clang_Cursor_getVarDeclInitializer(d);
            if (!clang_Cursor_isNull(init)) return classify(w, init, l);
        }
        if (!varies) {
            *l = lin_uniform(WARP_BLOCK_UNIFORM, false);
            return WARP_BLOCK_UNIFORM;
        }
        return WARP_LANE_VARIES;
    }
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(e);
        struct lin x, y;
        enum warp_class cx = classify(w, ast_child(e, 0), &x);
        enum warp_class cy = classify(w, ast_child(e, 1), &y);
        enum warp_class worst = maxc(cx, cy);
        switch (op) {
        case CXBinaryOperator_Add:
        case CXBinaryOperator_Sub: {
            if (!x.ok || !y.ok) return worst;
            long long s = op == CXBinaryOperator_Add ? 1 : -1;
            *l = (struct lin){.ok = true,
                              .a = x.a + s * y.a,
                              .c = x.c + s * y.c,
                              .has_r = x.has_r || y.has_r,
                              .r_mult32 = (!x.has_r || x.r_mult32) && (!y.has_r || y.r_mult32),
                              .r_cls = maxc(x.has_r ? x.r_cls : WARP_BLOCK_UNIFORM,
                                            y.has_r ? y.r_cls : WARP_BLOCK_UNIFORM)};
            return lin_class(l);
        }
        case CXBinaryOperator_Mul: {
            if (!x.ok || !y.ok) return worst;
            struct lin *k = NULL, *o = NULL;
            if (!x.has_r && x.a == 0) k = &x, o = &y;
            else if (!y.has_r && y.a == 0) k = &y, o = &x;
            if (k) {
                long long m = k->c;
                *l = (struct lin){.ok = true,
                                  .a = o->a * m,
                                  .c = o->c * m,
                                  .has_r = o->has_r && m != 0,
                                  .r_mult32 = o->r_mult32 || m % 32 == 0,
                                  .r_cls = o->r_cls};
                return lin_class(l);
            }
            if (x.a == 0 && y.a == 0) {
                *l = lin_uniform(worst, lin_mult32(&x) || lin_mult32(&y));
                return worst;
            }
            return worst;
        }
        case CXBinaryOperator_Div:
        case CXBinaryOperator_Shr: {
            long long k;
            if (!y.ok || y.has_r || y.a != 0) return worst;
            k = y.c;
            if (op == CXBinaryOperator_Shr) {
                if (k < 0 || k > 30) return worst;
                k = 1LL << k;
            }
            if (k <= 0) return worst;
            if (!x.ok) return worst;
            if (x.a == 0) {
                /* A uniform value divided: a multiple of 32 only for blockDim
                   (the usual halving of the block). */
                *l = lin_uniform(cx, mentions_blockdim(w->tu, ast_child(e, 0), 0) && w->x_mult32 &&
                                         !(x.c % 32));
                return cx;
            }
            /* (threadIdx.x + R + c) / K with K a multiple of 32 and R + c a
               multiple of 32: one value per warp. */
            if (x.a == 1 && k % 32 == 0 && (!x.has_r || x.r_mult32) && x.c % 32 == 0 && w->aligned) {
                enum warp_class rc = x.has_r ? x.r_cls : WARP_BLOCK_UNIFORM;
                *l = lin_uniform(maxc(rc, WARP_WARP_UNIFORM), false);
                return l->r_cls;
            }
            return WARP_LANE_VARIES;
        }
        case CXBinaryOperator_And: {
            /* x & ~31 (a mask with the low five bits clear) keeps the warp. */
            long long m;
            if (y.ok && !y.has_r && y.a == 0) m = y.c;
            else return worst;
            if (x.ok && x.a == 0) {
                *l = lin_uniform(cx, (m & 31) == 0);
                return cx;
            }
            if (x.ok && x.a == 1 && (m & 31) == 0 && (!x.has_r || x.r_mult32) && x.c % 32 == 0 &&
                w->aligned) {
                *l = lin_uniform(maxc(x.has_r ? x.r_cls : WARP_BLOCK_UNIFORM, WARP_WARP_UNIFORM), true);
                return l->r_cls;
            }
            return worst;
        }
        case CXBinaryOperator_LT:
        case CXBinaryOperator_GT:
        case CXBinaryOperator_LE:
        case CXBinaryOperator_GE: {
            if (worst < WARP_LANE_VARIES) return worst;
            if (!x.ok || !y.ok) return worst;
            struct lin d = {.ok = true,
                            .a = x.a - y.a,
                            .c = x.c - y.c,
                            .has_r = x.has_r || y.has_r,
                            .r_mult32 = (!x.has_r || x.r_mult32) && (!y.has_r || y.r_mult32),
                            .r_cls = maxc(x.has_r ? x.r_cls : WARP_BLOCK_UNIFORM,
                                          y.has_r ? y.r_cls : WARP_BLOCK_UNIFORM)};
            if (d.a == 0) return lin_class(&d);
            /* threadIdx.x against a bound that is a multiple of 32: the
               boundary falls between warps.  < and >= split at the bound;
               <= and > at the bound plus one. */
            long long adj = (op == CXBinaryOperator_LE && d.a > 0) || (op == CXBinaryOperator_GT && d.a > 0) ||
                                    (op == CXBinaryOperator_GE && d.a < 0) ||
                                    (op == CXBinaryOperator_LT && d.a < 0)
                                ? 1
                                : 0;
            if ((d.a == 1 || d.a == -1) && (!d.has_r || d.r_mult32) && (d.c - d.a * adj) % 32 == 0 &&
                w->aligned) {
                /* (d.c - adj*a) tests the boundary x < K form after moving
                   the constant across. */
                return maxc(d.has_r ? d.r_cls : WARP_BLOCK_UNIFORM, WARP_WARP_UNIFORM);
            }
            return WARP_LANE_VARIES;
        }
        case CXBinaryOperator_Comma:
            *l = y;
            return cy;
        default:
            return worst;
        }
    }
    case CXCursor_UnaryOperator: {
        struct lin x;
        enum warp_class c = classify(w, ast_child(e, 0), &x);
        enum CXUnaryOperatorKind op = ast_unop(e);
        if (op == CXUnaryOperator_Minus && x.ok) {
            *l = x;
            l->a = -x.a;
            l->c = -x.c;
        } else if (op == CXUnaryOperator_Plus) {
            *l = x;
        } else if (op == CXUnaryOperator_Deref) {
            /* *p: the class of the address */
            if (!varies) return WARP_BLOCK_UNIFORM;
            return c;
        }
        return c;
    }
    case CXCursor_ConditionalOperator: {
        enum warp_class c = WARP_BLOCK_UNIFORM;
        CXCursor kids[3];
        unsigned n = ast_children(e, kids, 3);
        for (unsigned i = 0; i < n; i++) c = maxc(c, classify(w, kids[i], NULL));
        return c;
    }
    case CXCursor_CallExpr:
        return classify_call(w, e);
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr: {
        if (known && !varies) {
            *l = lin_uniform(WARP_BLOCK_UNIFORM, false);
            return WARP_BLOCK_UNIFORM;
        }
        /* A load: one address per warp reads one value per warp. */
        enum warp_class c = WARP_BLOCK_UNIFORM;
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        for (unsigned i = 0; i < n; i++) c = maxc(c, classify(w, kids[i], NULL));
        if (n == 0) c = varies ? WARP_LANE_VARIES : WARP_BLOCK_UNIFORM;
        if (c < WARP_LANE_VARIES) *l = lin_uniform(c, false);
        return c;
    }
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr: {
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        if (n == 0) return varies ? WARP_LANE_VARIES : WARP_BLOCK_UNIFORM;
        return classify(w, kids[n - 1], l);
    }
    case CXCursor_VarDecl:
        return classify_var(w, e, l);
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_CharacterLiteral:
        *l = lin_uniform(WARP_BLOCK_UNIFORM, false);
        return WARP_BLOCK_UNIFORM;
    default:
        break;
    }
    if (known && !varies) {
        *l = lin_uniform(WARP_BLOCK_UNIFORM, false);
        return WARP_BLOCK_UNIFORM;
    }
    /* Anything else: the worst of what it is made of. */
    enum warp_class c = WARP_BLOCK_UNIFORM;
    CXCursor kids[8];
    unsigned n = ast_children(e, kids, 8);
    for (unsigned i = 0; i < n; i++) c = maxc(c, classify(w, kids[i], NULL));
    if (n == 0 && varies) c = WARP_LANE_VARIES;
    return c;
}

static enum warp_class classify(struct warp_view *w, CXCursor e, struct lin *out)
{
    struct lin l;
    if (w->depth > MAX_DEPTH) {
        if (out) *out = lin_none();
        return WARP_WARP_UNIFORM;
    }
    for (unsigned i = 0; i < w->n_assumed; i++)
        if (ast_same_node(w->assumed[i], e)) {
            if (out) *out = lin_uniform(WARP_WARP_UNIFORM, false);
            return WARP_WARP_UNIFORM;
        }
    w->depth++;
    enum warp_class c = classify_inner(w, e, &l);
    w->depth--;
    if (out) *out = l;
    return c;
}

static enum warp_class classify_var(struct warp_view *w, CXCursor decl, struct lin *out)
{
    *out = lin_none();
    struct var_state *vs = var_of(w, decl, false);
    if (!vs) {
        /* Not defined in this function: a parameter never assigned (or a
           captured variable): the block-level analysis knows. */
        if (decl.kind == CXCursor_ParmDecl) {
            *out = lin_uniform(WARP_BLOCK_UNIFORM, false);
            return WARP_BLOCK_UNIFORM;
        }
        *out = lin_uniform(WARP_BLOCK_UNIFORM, false);
        return WARP_BLOCK_UNIFORM;
    }
    if (vs->opaque) return WARP_LANE_VARIES;
    if (vs->state == 1) {
        /* A cycle (i = i + 1): optimistic, the other definitions decide. */
        *out = lin_uniform(WARP_BLOCK_UNIFORM, false);
        return WARP_BLOCK_UNIFORM;
    }
    size_t idx = (size_t)(vs - w->vars);
    if (vs->state == 2 && vs->ndefs != 1) return vs->cls;
    w->vars[idx].state = 1;
    enum warp_class cls = WARP_BLOCK_UNIFORM;
    struct lin single = lin_none();
    int ndefs = 0;
    bool param = decl.kind == CXCursor_ParmDecl;
    for (size_t i = 0; i < w->n_defs; i++) {
        if (!clang_equalCursors(w->defs[i].var, w->vars[idx].var)) continue;
        ndefs++;
        const struct def *d = &w->defs[i];
        struct lin l = lin_none();
        enum warp_class c = clang_Cursor_isNull(d->rhs) ? WARP_BLOCK_UNIFORM : classify(w, d->rhs, &l);
        if (d->compound && clang_Cursor_isNull(d->rhs)) c = WARP_BLOCK_UNIFORM;
        /* Assigned under lane-dependent control: lanes disagree. */
        if (c < WARP_LANE_VARIES && (d->compound || ndefs > 1 || param || w->vars[idx].ndefs > 1)) {
            /* Only the branches around the definition: lanes that left
               earlier (return, continue) do not read the value. */
            struct warp_divergence dv;
            if (path_divergent(w, d->node, enclosing_function(w, d->node), &dv)) c = WARP_LANE_VARIES;
        }
        cls = maxc(cls, c);
        single = l;
    }
    w->vars[idx].state = 2;
    w->vars[idx].cls = cls;
    if (ndefs == 1 && !param && single.ok) *out = single;
    else if (cls < WARP_LANE_VARIES) *out = lin_uniform(cls, false);
    return cls;
}

enum warp_class warp_expr_class(struct warp_view *w, CXCursor expr)
{
    if (!w) return WARP_BLOCK_UNIFORM;
    return classify(w, expr, NULL);
}

/* ------------------------------------------------------------- control */

static const char *keep(struct warp_view *w, char *s)
{
    sv_push_owned(&w->strings, s);
    return s;
}

static bool is_loop(enum CXCursorKind k)
{
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
           k == CXCursor_CXXForRangeStmt;
}

static bool is_function_like(enum CXCursorKind k)
{
    return k == CXCursor_LambdaExpr || k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ||
           k == CXCursor_FunctionTemplate;
}

/* The condition as written (whitespace runs folded), cut when long. */
static char *short_text(struct warp_view *w, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f, fe;
    unsigned s, e;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &s);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    char *t = NULL;
    size_t size = 0;
    const char *text = f && fe && clang_File_isEqual(f, fe) ? ast_file_contents(w->tu, f, &size) : NULL;
    if (text && s < e && e <= size) {
        t = xmalloc(e - s + 1);
        size_t k = 0;
        for (unsigned i = s; i < e; i++) {
            char ch = text[i];
            bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
            if (space && (k == 0 || t[k - 1] == ' ')) continue;
            t[k++] = space ? ' ' : ch;
        }
        t[k] = 0;
    } else {
        t = ast_text(w->tu, c);
    }
    if (strlen(t) > 60) strcpy(t + 57, "...");
    return t;
}

/* Is the condition of a control construct lane-dependent? */
static bool cond_lane(struct warp_view *w, CXCursor cond, const char *what, struct warp_divergence *out)
{
    if (classify(w, cond, NULL) < WARP_LANE_VARIES) return false;
    if (out) {
        char *t = short_text(w, cond);
        out->at = cond;
        out->why = keep(w, xasprintf("the %s '%s' may differ between lanes of a warp", what, t));
        out->early_exit = false;
        free(t);
    }
    return true;
}

/* for (v = lane-dependent start; v < B; v += S) with B a block extent
   (blockDim.z, blockDim.x * k) and S block-uniform: the lanes' trip counts
   agree when the launch makes the extent a multiple of the stride, the
   convention such strided loops are written for (as blockDim.x is taken to
   be a multiple of 32). */
static bool strided_to_block_extent(struct warp_view *w, CXCursor loop)
{
    if (loop.kind != CXCursor_ForStmt) return false;
    CXCursor kids[4];
    if (ast_children(loop, kids, 4) != 4) return false;
    CXCursor cond = ast_strip(kids[1]), inc = ast_strip(kids[2]);
    if (cond.kind != CXCursor_BinaryOperator || inc.kind != CXCursor_CompoundAssignOperator) return false;
    if (ast_binop(inc) != CXBinaryOperator_AddAssign) return false;
    CXCursor var = ast_strip(ast_child(inc, 0));
    if (var.kind != CXCursor_DeclRefExpr) return false;
    CXCursor vd = clang_getCursorReferenced(var);
    enum CXBinaryOperatorKind op = ast_binop(cond);
    CXCursor l = ast_strip(ast_child(cond, 0)), r = ast_strip(ast_child(cond, 1));
    CXCursor bound;
    if ((op == CXBinaryOperator_LT || op == CXBinaryOperator_LE) && l.kind == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(l), vd))
        bound = r;
    else if ((op == CXBinaryOperator_GT || op == CXBinaryOperator_GE) && r.kind == CXCursor_DeclRefExpr &&
             clang_equalCursors(clang_getCursorReferenced(r), vd))
        bound = l;
    else
        return false;
    if (!mentions_blockdim_any(w->tu, bound, 0)) return false;
    return classify(w, bound, NULL) == WARP_BLOCK_UNIFORM &&
           classify(w, ast_child(inc, 1), NULL) == WARP_BLOCK_UNIFORM;
}

/* The lane-dependent construct directly controlling the child `child` of
   node `anc`, if any. */
static bool controls(struct warp_view *w, int anc, int child, struct warp_divergence *out)
{
    CXCursor a = w->nodes[anc].c;
    CXCursor kids[8];
    unsigned n = ast_children(a, kids, 8);
    CXCursor ch = w->nodes[child].c;
    switch (a.kind) {
    case CXCursor_IfStmt:
        if (n >= 2 && !clang_equalCursors(kids[0], ch))
            return cond_lane(w, kids[0], "condition", out);
        return false;
    case CXCursor_SwitchStmt:
        if (n >= 2 && !clang_equalCursors(kids[0], ch)) return cond_lane(w, kids[0], "switch value", out);
        return false;
    case CXCursor_ConditionalOperator:
        if (n == 3 && !clang_equalCursors(kids[0], ch)) return cond_lane(w, kids[0], "condition", out);
        return false;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(a);
        if ((op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) && n == 2 &&
            clang_equalCursors(kids[1], ch))
            return cond_lane(w, kids[0], "condition", out);
        return false;
    }
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_ForStmt: {
        /* The loop's own control: every part but the body (a for's init
           runs once, before, but a lane-dependent start still makes the
           trip count lane-dependent through the condition). */
        if (n == 0) return false;
        if (strided_to_block_extent(w, a)) return false;
        CXCursor body = a.kind == CXCursor_DoStmt ? kids[0] : kids[n - 1];
        bool in_body = clang_equalCursors(body, ch);
        for (unsigned i = 0; i < n; i++) {
            if (clang_equalCursors(kids[i], body)) continue;
            if (a.kind == CXCursor_ForStmt && i == 0 && n == 4) continue; /* init */
            if (a.kind == CXCursor_ForStmt && kids[i].kind == CXCursor_DeclStmt) continue;
            /* A for's increment (`it += 32`, `++i`, `a++, b++`) decides
               nothing by its value: its effect reaches the condition. */
            if (a.kind == CXCursor_ForStmt && i + 1 < n && clang_equalCursors(kids[i + 1], body) && is_increment(kids[i]))
                continue;
            if (!in_body && clang_equalCursors(kids[i], ch)) continue;
            if (cond_lane(w, kids[i], "loop condition", out)) return true;
        }
        return false;
    }
    default:
        return false;
    }
}

/* An expression evaluated for its effect: an assignment, a compound
   assignment, ++/--, or a comma of those. */
static bool is_increment(CXCursor e)
{
    e = ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CompoundAssignOperator) return true;
    if (k == CXCursor_UnaryOperator) return ast_unop_is_incdec(ast_unop(e));
    if (k == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(e);
        if (op == CXBinaryOperator_Assign) return true;
        if (op == CXBinaryOperator_Comma) return is_increment(ast_child(e, 0)) && is_increment(ast_child(e, 1));
    }
    return false;
}

/* Walks from node up to the function: any lane-dependent construct on the
   way?  Stops at a lambda or function boundary. */
static bool path_divergent(struct warp_view *w, int node, int stop, struct warp_divergence *out)
{
    int child = node;
    for (int p = w->nodes[node].parent; p >= 0 && p != stop; child = p, p = w->nodes[p].parent) {
        if (is_function_like(w->nodes[p].c.kind)) break;
        if (controls(w, p, child, out)) return true;
    }
    return false;
}

static bool is_ancestor(const struct warp_view *w, int anc, int node)
{
    for (int p = node; p >= 0; p = w->nodes[p].parent)
        if (p == anc) return true;
    return false;
}

static int enclosing_function(const struct warp_view *w, int node)
{
    for (int p = w->nodes[node].parent; p >= 0; p = w->nodes[p].parent)
        if (is_function_like(w->nodes[p].c.kind)) return p;
    return 0;
}

/* The innermost loop around node (below its function), or -1. */
static int enclosing_loop(const struct warp_view *w, int node, int fn)
{
    for (int p = w->nodes[node].parent; p >= 0 && p != fn; p = w->nodes[p].parent)
        if (is_loop(w->nodes[p].c.kind) || w->nodes[p].c.kind == CXCursor_SwitchStmt) return p;
    return -1;
}

/* Do the paths of two nodes part in different branches of one construct? */
static bool in_other_branch(const struct warp_view *w, int x, int y)
{
    /* lowest common ancestor */
    for (int a = w->nodes[x].parent; a >= 0; a = w->nodes[a].parent) {
        if (!is_ancestor(w, a, y)) continue;
        enum CXCursorKind k = w->nodes[a].c.kind;
        return k == CXCursor_IfStmt || k == CXCursor_ConditionalOperator;
    }
    return false;
}

/* ---- a continue that leaves the iteration count alone ---- */

struct header_vars {
    unsigned hash[32];
    unsigned n;
    bool overflow;
};

static enum CXChildVisitResult collect_header_vars(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct header_vars *h = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(c);
        if (clang_getCursorKind(d) == CXCursor_VarDecl || clang_getCursorKind(d) == CXCursor_ParmDecl) {
            if (h->n == 32) h->overflow = true;
            else h->hash[h->n++] = clang_hashCursor(clang_getCanonicalCursor(d));
        }
    }
    return CXChildVisit_Recurse;
}

struct later_writes {
    const struct header_vars *h;
    unsigned after;  /* offsets past this */
    bool found;
};

static bool is_header_var(const struct header_vars *h, CXCursor declref)
{
    unsigned x = clang_hashCursor(clang_getCanonicalCursor(clang_getCursorReferenced(declref)));
    for (unsigned i = 0; i < h->n; i++)
        if (h->hash[i] == x) return true;
    return false;
}

/* Is parent's use of its child c a write (or one that may write: the
   address taken, a call's argument)? */
static bool writes_child(CXCursor parent, CXCursor c)
{
    switch (clang_getCursorKind(parent)) {
    case CXCursor_BinaryOperator:
        return ast_binop(parent) == CXBinaryOperator_Assign && clang_equalCursors(ast_child(parent, 0), c);
    case CXCursor_CompoundAssignOperator:
        return clang_equalCursors(ast_child(parent, 0), c);
    case CXCursor_UnaryOperator:
        return ast_unop_is_incdec(ast_unop(parent)) || ast_unop(parent) == CXUnaryOperator_AddrOf;
    case CXCursor_CallExpr:
        return true;
    default:
        return false;
    }
}

static enum CXChildVisitResult find_later_writes(CXCursor c, CXCursor parent, CXClientData data)
{
    struct later_writes *lw = data;
    unsigned off = 0;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && is_header_var(lw->h, c))
        clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    if (off > lw->after && writes_child(parent, c)) {
        lw->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* A continue that comes after node in the loop's body skips only what
   follows it: the lanes that take it run the next iteration as the others
   do, node included, as long as nothing after the continue changes what
   the loop's condition and increment read (a while loop whose counter is
   stepped at the end of its body would step it less often). */
static bool continue_keeps_iterations(struct warp_view *w, int loop, int cont)
{
    CXCursor lc = w->nodes[loop].c;
    enum CXCursorKind k = clang_getCursorKind(lc);
    if (k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt) return false;
    CXCursor kids[4];
    unsigned n = ast_children(lc, kids, 4);
    if (n == 0) return false;
    unsigned body = k == CXCursor_DoStmt ? 0 : n - 1;
    struct header_vars h = {{0}, 0, false};
    for (unsigned i = 0; i < n; i++)
        if (i != body) {
            collect_header_vars(kids[i], lc, &h);
            clang_visitChildren(kids[i], collect_header_vars, &h);
        }
    if (h.overflow) return false;
    if (h.n == 0) return true;
    struct later_writes lw = {&h, w->nodes[cont].offset, false};
    clang_visitChildren(kids[body], find_later_writes, &lw);
    return !lw.found;
}

static bool node_lane_divergent(struct warp_view *w, int node, bool exits_ok, struct warp_divergence *out)
{
    if (w->depth > MAX_DEPTH) return false;
    w->depth++;
    bool r = false;
    int fn = enclosing_function(w, node);
    if (path_divergent(w, node, fn, out)) {
        r = true;
        goto done;
    }
    /* Early exits: a return before the node, or a break/continue of a loop
       around the node, taken under lane-dependent control. */
    unsigned off = w->nodes[node].offset;
    for (size_t i = 0; i < w->n_nodes && !r; i++) {
        enum CXCursorKind k = w->nodes[i].c.kind;
        if (k != CXCursor_ReturnStmt && k != CXCursor_BreakStmt && k != CXCursor_ContinueStmt &&
            k != CXCursor_GotoStmt)
            continue;
        if (enclosing_function(w, (int)i) != fn) continue;
        int stop = fn;
        if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt) {
            if (w->nodes[i].offset >= off) {
                /* After the node: matters only inside a loop around both. */
                int lp = enclosing_loop(w, node, fn);
                if (lp < 0 || !is_ancestor(w, lp, (int)i)) continue;
            }
            if (in_other_branch(w, (int)i, node)) continue;
            /* A return from the kernel itself ends the thread; so does one
               from a function called only as a kernel's last statement. */
            if (exits_ok && k == CXCursor_ReturnStmt && fn == 0 && returns_end_thread(w)) continue;
        } else {
            int lp = enclosing_loop(w, (int)i, fn);
            if (lp < 0 || w->nodes[lp].c.kind == CXCursor_SwitchStmt) continue;
            if (!is_ancestor(w, lp, node) || lp == node) continue;
            if (k == CXCursor_ContinueStmt && w->nodes[i].offset > off && continue_keeps_iterations(w, lp, (int)i))
                continue;
            stop = lp;
        }
        struct warp_divergence dv;
        if (path_divergent(w, (int)i, stop, &dv)) {
            r = true;
            if (out) {
                char *t = short_text(w, dv.at);
                const char *what = k == CXCursor_ReturnStmt ? "return"
                                   : k == CXCursor_BreakStmt ? "break"
                                   : k == CXCursor_ContinueStmt ? "continue"
                                                                : "goto";
                out->at = w->nodes[i].c;
                out->why = keep(w, k == CXCursor_ContinueStmt
                                       ? xasprintf("some lanes of a warp skip to the loop's next iteration "
                                                   "earlier (%s), under '%s'", what, t)
                                       : xasprintf("some lanes of a warp %s earlier, under '%s'",
                                                   k == CXCursor_ReturnStmt ? "return" : "leave the loop", t));
                out->early_exit = true;
                free(t);
            }
        }
    }
done:
    w->depth--;
    return r;
}

bool warp_stmt_lane_divergent(struct warp_view *w, CXCursor stmt, bool exits_ok, struct warp_divergence *out)
{
    if (out) *out = (struct warp_divergence){.at = clang_getNullCursor(), .why = ""};
    int n = find_node(w, stmt);
    if (n < 0) return false;
    return node_lane_divergent(w, n, exits_ok, out);
}

bool warp_mask_is_full(CXCursor mask)
{
    long long v;
    if (!ast_eval_int(mask, &v)) return false;
    return (v & 0xffffffffLL) == 0xffffffffLL;
}

/* ------------------------------------------------------ the analysis kind */

static void *warp_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    if (clang_Cursor_isNull(fn)) return NULL;
    struct uniformity *u = analysis_get(deps, &uniformity_analysis, fn);
    if (!u) return NULL;
    struct launch_model *m = analysis_get(deps, &launch_analysis, clang_getNullCursor());
    struct launch_info li;
    bool known = m && launch_function_shapes(m, fn, &li);
    return warp_view_new(tu, fn, u, known ? &li : NULL);
}

static void warp_release(void *p)
{
    warp_view_free(p);
}

const struct analysis_kind warp_analysis = {
    .name = "warp",
    .build = warp_build,
    .free = warp_release,
};
