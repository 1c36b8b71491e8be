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
 * rules whose findings must be worth a user's time.
 *
 * Files.  This one holds the reasons, the node tree, the variables, the driver
 * of one function's fixed point and the public interface (uniformity.h).
 * Expressions and memory are in uniformity_eval.c, calls and callee summaries
 * in uniformity_calls.c, states, statements and loops in uniformity_exec.c;
 * uniformity_internal.h holds what they share. */
#include "analysis/uniformity_internal.h"
#include "clang/astutil.h"
#include "base/util.h"
#include "base/report.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

char *u_an_keep(struct fnan *a, char *s)
{
    XGROW(a->strs, a->n_strs, a->cap_strs, 16);
    a->strs[a->n_strs++] = s;
    return s;
}

unsigned u_loc_offset(CXCursor c)
{
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    return off;
}

bool u_is_array_type(CXType t)
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

bool u_is_pointer_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer;
}

bool u_is_reference_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

static bool is_record_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Record;
}

int u_add_reason(struct fnan *a, enum divergence_kind k, CXCursor at, char *what, int inner)
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
int u_origin(struct fnan *a, struct node *n, const char *fmt, ...)
{
    if (n->origin_reason < 0) {
        va_list ap;
        va_start(ap, fmt);
        struct strbuf sb;
        sb_init(&sb);
        sb_vaddf(&sb, fmt, ap);
        va_end(ap);
        char *w = u_an_keep(a, sb_detach(&sb));
        n->origin_reason = u_add_reason(a, DIV_ORIGIN, n->c, w, -1);
    }
    return n->origin_reason;
}

int u_cond_reason(struct fnan *a, struct node *n, enum divergence_kind k, int inner)
{
    if (n->cond_reason < 0) n->cond_reason = u_add_reason(a, k, n->c, NULL, inner);
    else if (a->reasons[n->cond_reason].inner < 0) a->reasons[n->cond_reason].inner = inner;
    return n->cond_reason;
}

int u_exit_reason(struct fnan *a, struct node *n, enum divergence_kind k, int inner)
{
    if (n->exit_reason < 0) n->exit_reason = u_add_reason(a, k, n->c, NULL, inner);
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

struct node *u_map_get(struct fnan *a, CXCursor c)
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
    n->off = u_loc_offset(c);
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
int u_var_add(struct fnan *a, CXCursor decl)
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
    v->name = u_an_keep(a, ast_spelling(decl));
    v->param = -1;
    v->tgt_var = -1;
    CXType t = clang_getCursorType(decl);
    v->aggregate = u_is_array_type(t) || is_record_type(t);
    v->pointer = u_is_pointer_type(t);
    v->reference = u_is_reference_type(t);
    enum CXCursorKind k = clang_getCursorKind(decl);
    v->file_scope = k == CXCursor_VarDecl && decl_is_file_scope(decl);
    if (k == CXCursor_ParmDecl) {
        /* u_analyse_function() marks the function's own parameters; any other
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
                        (u_is_array_type(ct) && clang_isConstQualifiedType(clang_getArrayElementType(ct)));
        v->cls = is_const ? V_CONST : V_GLOBAL;
    } else if (clang_Cursor_getStorageClass(decl) == CX_SC_Static ||
               clang_Cursor_getStorageClass(decl) == CX_SC_Extern) {
        v->cls = V_GLOBAL;
    } else {
        v->cls = V_LOCAL;
    }
    return (int)i;
}

bool u_var_is_local_storage(const struct var *v)
{
    return v->cls == V_LOCAL || v->cls == V_PARAM;
}
/* ------------------------------------------------------------------ */
/* barriers in source order (for the broadcast rule)                   */

bool u_node_is_barrier(struct node *n)
{
    return n->cc == CC_BARRIER || n->cc == CC_BARRIER_VALUE ||
           (n->cc == CC_SUMMARY && n->sum && n->sum->an && n->sum->an->has_barrier);
}

bool u_is_loop_kind(enum CXCursorKind k)
{
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
           k == CXCursor_CXXForRangeStmt;
}

static void prepass(struct fnan *a)
{
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *n = a->all[i];
        assign_roles(n);
        if (n->kind == CXCursor_CallExpr) u_classify_call(a, n);
    }
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *n = a->all[i];
        if (n->kind != CXCursor_CallExpr || !u_node_is_barrier(n)) continue;
        XGROW(a->bar_off, a->n_bar, a->cap_bar, 8);
        a->bar_off[a->n_bar++] = n->off;
        for (struct node *p = n->parent; p; p = p->parent)
            if (u_is_loop_kind(p->kind)) p->loop_has_barrier = true;
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
            int v = u_node_var(a, n);
            if (v < 0) break;
            CXCursor ic = clang_Cursor_getVarDeclInitializer(n->c);
            if (!clang_Cursor_isNull(ic)) {
                a->vars[v].n_defs++;
                a->vars[v].def = u_map_get(a, ic);
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
                struct node *x = u_strip_casts(n->kid[0]);
                if (x && x->kind == CXCursor_DeclRefExpr && u_node_var(a, x) >= 0)
                    a->vars[u_node_var(a, x)].escapes = true;
            }
            break;
        }
        case CXCursor_CallExpr:
            u_classify_call(a, n);
            if ((n->cc == CC_ASSIGN || n->cc == CC_COMPOUND_ASSIGN) && n->nargs >= 1) target = n->args[0];
            /* Non-const reference arguments may be written by the callee. */
            for (unsigned j = 0; j < n->nargs; j++) {
                struct node *x = n->args[j] ? u_strip_node(n->args[j]) : NULL;
                if (x && x->kind == CXCursor_DeclRefExpr && u_node_var(a, x) >= 0 &&
                    n->cc != CC_ASSIGN && n->cc != CC_COMPOUND_ASSIGN) {
                    CXCursor ref = clang_getCursorReferenced(n->c);
                    int np = clang_Cursor_getNumArguments(ref);
                    if (np > (int)j) {
                        CXType pt = clang_getCursorType(clang_Cursor_getArgument(ref, j));
                        if (pt.kind == CXType_LValueReference &&
                            !clang_isConstQualifiedType(clang_getPointeeType(pt)))
                            a->vars[u_node_var(a, x)].escapes = true;
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
                struct node *en = u_map_get(a, e);
                struct node *x = en ? u_strip_casts(en) : NULL;
                if (x && x->kind == CXCursor_DeclRefExpr && u_node_var(a, x) >= 0)
                    a->vars[u_node_var(a, x)].n_defs += 2;
            }
            break;
        }
        default: break;
        }
        if (target) {
            struct node *x = u_strip_casts(target);
            if (x && x->kind == CXCursor_DeclRefExpr) {
                int v = u_node_var(a, x);
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

static void fnan_free(struct fnan *a);

struct fnan *u_analyse_function(struct uniformity *u, CXTranslationUnit tu, CXCursor fn)
{
    struct fnan *a = xcalloc(1, sizeof *a);
    a->u = u;
    a->tu = tu;
    a->fn = fn;
    a->fn_name = u_an_keep(a, ast_spelling(fn));
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
        int v = u_var_add(a, kids[i]);
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
        a->this_var = u_var_add(a, fn);
        a->vars[a->this_var].cls = V_PARAM;
        a->vars[a->this_var].param = -1;
        a->vars[a->this_var].pointer = true;
        a->vars[a->this_var].name = "this";
    }
    /* Register every variable the body mentions before states are sized. */
    for (size_t i = 0; i < a->n_all; i++) u_node_var(a, a->all[i]);
    prepass(a);
    count_defs(a);
    for (size_t i = 0; i < a->n_all; i++) u_node_var(a, a->all[i]);
    /* Summaries of callees may name file-scope variables they write. */
    for (size_t i = 0; i < a->n_all; i++) {
        struct node *n = a->all[i];
        if (n->cc == CC_SUMMARY && n->sum && n->sum->an)
            for (unsigned g = 0; g < n->sum->an->n_gw; g++) u_var_add(a, n->sum->an->gw[g].decl);
    }
    for (int pass = 0; pass < 8; pass++) {
        a->changed = false;
        struct state st;
        u_state_init(a, &st);
        for (unsigned v = 0; v < a->n_vars; v++)
            if (a->vars[v].cls == V_PARAM && a->vars[v].param >= 0) st.env[v] = u_vmk(u_param_bit((unsigned)a->vars[v].param), -1);
        struct ctl none = {0, -1, 0};
        a->frame = NULL;
        u_exec(a, &st, a->root, none);
        u_state_free(&st);
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
    u->top = u_analyse_function(u, tu, fn);
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
    u->top = u_analyse_function(u, tu, fn);
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
    if (n->kind == CXCursor_MemberRefExpr && u_is_builtin_member(a, n, &cls)) return cls == V_TID;
    if (n->kind == CXCursor_DeclRefExpr && n->var >= 0) {
        struct var *v = &a->vars[n->var];
        struct vinfo x = u_var_is_local_storage(v) ? a->any[n->var] : a->mem[n->var];
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
    struct node *n = u_map_get(u->top, expr);
    if (!n) n = u_map_get(u->top, ast_strip(expr));
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
    struct node *n = u_map_get(u->top, expr);
    if (!n) n = u_map_get(u->top, ast_strip(expr));
    return !n || !n->seen || n->content_varies;
}

bool uniformity_expr_known(struct uniformity *u, CXCursor expr)
{
    if (!u || !u->top) return false;
    struct node *n = u_map_get(u->top, expr);
    if (!n) n = u_map_get(u->top, ast_strip(expr));
    return n != NULL;
}

bool uniformity_var_varies(struct uniformity *u, CXCursor decl, struct variance_reason *why)
{
    if (!u || !u->top) return false;
    int v = var_index(u->top, decl);
    if (v < 0) return false;
    struct fnan *a = u->top;
    struct vinfo x = a->any[v];
    if (!u_var_is_local_storage(&a->vars[v])) x = a->mem[v];
    if (a->vars[v].cls == V_TID) x = u_vmk(VM_THREAD, -1);
    if (!(x.m & VM_THREAD)) return false;
    return fill_reason(a, x.why, decl, why);
}

bool uniformity_control_varies(struct uniformity *u, CXCursor stmt, struct variance_reason *why)
{
    if (!u || !u->top) return false;
    struct node *n = u_map_get(u->top, stmt);
    if (!n) return false;
    if (!(n->ctl.m & VM_THREAD)) return false;
    return fill_reason(u->top, n->ctl.why, stmt, why);
}

/* ---- barriers and explanations (CU101) ---- */

bool uniformity_call_barrier(struct uniformity *u, CXCursor call, struct barrier_info *out)
{
    if (!u || !u->top) return false;
    struct node *n = u_map_get(u->top, call);
    if (!n || n->kind != CXCursor_CallExpr) return false;
    u_classify_call(u->top, n);

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
        struct node *rn = u_map_get(a, r->at);
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
        if (b->kind != CXCursor_CallExpr || !u_node_is_barrier(b)) continue;
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
    struct node *n = u_map_get(a, call);
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
