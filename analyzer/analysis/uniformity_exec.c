/* uniformity_exec.c: the thread-dependence analysis (uniformity.c) of
 * statements: the abstract state at a point (each local's value, the exits
 * some threads took) and its joins, the control in force, if/switch/loops
 * iterated to a fixed point with break, continue, return and goto, and the
 * Best Practices Guide's loop whose trip count is the same in every thread.
 * Expressions are in uniformity_eval.c. */
#include "analysis/uniformity_internal.h"
#include "analysis/launch.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* states                                                              */

void u_state_init(struct fnan *a, struct state *s)
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
    u_state_init(a, dst);
    state_copy(a, dst, src);
}

void u_state_free(struct state *s)
{
    free(s->env);
    s->env = NULL;
}

/* The value of a variable where two paths meet: the same threadIdx.x term
   on both stays one. */
static bool vjoin_phi_into(struct vinfo *dst, struct vinfo src)
{
    int tx = (dst->m & VM_THREAD) && (src.m & VM_THREAD) && dst->tx == src.tx ? dst->tx : 0;
    int old_tx = dst->tx;
    /* u_vjoin_into drops the threadIdx.x term; compare with the term before
       the join, or a term both paths keep reads as a change on every visit
       and a loop never reaches its fixpoint (nested loops then multiply). */
    bool ch = u_vjoin_into(dst, src);
    dst->tx = tx;
    return ch || old_tx != tx;
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
    ch |= u_vjoin_into(&dst->ret, src->ret);
    ch |= u_vjoin_into(&dst->brk, src->brk);
    ch |= u_vjoin_into(&dst->cont, src->cont);
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
        ch |= u_vjoin_into(&dst->g[j].v, src->g[i].v);
    }
    return ch;
}

/* The control in force: the enclosing conditions and the exits some threads
   have taken. */
struct ctl u_effective(const struct state *st, struct ctl scoped)
{
    struct vinfo v = u_vmk(scoped.m, scoped.why);
    unsigned d = scoped.depth;
    if (st->ret.m) { v = u_vjoin(v, st->ret); d++; }
    if (st->brk.m) { v = u_vjoin(v, st->brk); d++; }
    if (st->cont.m) { v = u_vjoin(v, st->cont); d++; }
    for (unsigned i = 0; i < st->ng; i++)
        if (st->g[i].v.m) { v = u_vjoin(v, st->g[i].v); d++; }
    struct ctl r = {v.m, v.why, d};
    return r;
}

struct ctl u_ctl_push(struct ctl c, struct vinfo add)
{
    if (!add.m) return c;
    struct vinfo j = u_vjoin(u_vmk(c.m, c.why), add);
    /* The newest varying construct explains best why the code under it
       diverges: prefer its reason when it carries thread dependence. */
    if ((add.m & VM_THREAD) && add.why >= 0) j.why = add.why;
    struct ctl r = {j.m, j.why, c.depth + 1};
    return r;
}

/* ------------------------------------------------------------------ */
/* loops: the guide's uniform-trip-count idiom                         */

static struct node *single_def(struct fnan *a, struct node *n)
{
    n = u_strip_casts(n);
    if (!n || n->kind != CXCursor_DeclRefExpr) return NULL;
    int v = u_node_var(a, n);
    if (v < 0) return NULL;
    struct var *var = &a->vars[v];
    if (var->cls != V_LOCAL || var->n_defs != 1 || var->escapes || !var->def) return NULL;
    return var->def;
}

static bool same_expr(struct fnan *a, struct node *x, struct node *y, int depth)
{
    x = u_strip_casts(x);
    y = u_strip_casts(y);
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
        if (u_is_builtin_member(a, x, &cx) && u_is_builtin_member(a, y, &cy)) {
            struct node *bx = u_strip_node(x->kid[0]), *by = u_strip_node(y->kid[0]);
            return u_builtin_component(a, x->c) == u_builtin_component(a, y->c) &&
                   strcmp(a->vars[u_node_var(a, bx)].name, a->vars[u_node_var(a, by)].name) == 0;
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
    x = u_strip_casts(x);
    s = u_strip_casts(s);
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
                if (ast_eval_int(u_strip_casts(x->kid[i])->c, &mask) && (mask & (vs - 1)) == 0) return true;
    }
    /* s = p * q and x a multiple of both factors' product written the other
       way round is covered by same_expr; a product step s = p * k with x a
       multiple of p only is not enough. */
    return false;
}

/* threadIdx.x, or a local defined once as threadIdx.x. */
static bool is_tid_x(struct fnan *a, struct node *n, int depth)
{
    n = u_strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (u_is_builtin_member(a, n, &cls)) return cls == V_TID && u_builtin_component(a, n->c) == 'x';
    struct node *d = single_def(a, n);
    return d && is_tid_x(a, d, depth + 1);
}

static bool is_blockdim_x(struct fnan *a, struct node *n, int depth)
{
    n = u_strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (u_is_builtin_member(a, n, &cls)) {
        struct node *b = u_strip_node(n->kid[0]);
        return cls == V_UNIFORM && strcmp(a->vars[u_node_var(a, b)].name, "blockDim") == 0 &&
               u_builtin_component(a, n->c) == 'x';
    }
    struct node *d = single_def(a, n);
    return d && is_blockdim_x(a, d, depth + 1);
}

/* threadIdx.<comp> itself, or a local defined once as it. */
static bool is_tid_comp(struct fnan *a, struct node *n, char comp, int depth)
{
    n = u_strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (u_is_builtin_member(a, n, &cls)) return cls == V_TID && u_builtin_component(a, n->c) == comp;
    struct node *d = single_def(a, n);
    return d && is_tid_comp(a, d, comp, depth + 1);
}

static struct launch_model *launch_of(struct fnan *a);

/* blockDim.<comp>, a local defined once as it, or a parameter of the kernel
   that no statement changes and that every launch site in the file passes
   the block's <comp> (`dim3 block(n); k<<<g, block>>>(x, n)`). */
static bool is_blockdim_comp(struct fnan *a, struct node *n, char comp, int depth)
{
    n = u_strip_casts(n);
    if (!n || depth > 4) return false;
    enum var_class cls;
    if (u_is_builtin_member(a, n, &cls)) {
        struct node *b = u_strip_node(n->kid[0]);
        return cls == V_UNIFORM && strcmp(a->vars[u_node_var(a, b)].name, "blockDim") == 0 &&
               u_builtin_component(a, n->c) == comp;
    }
    if (n->kind == CXCursor_DeclRefExpr) {
        int v = u_node_var(a, n);
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
bool u_tid_against_extent(struct fnan *a, struct node *cmp)
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
    s = u_strip_casts(s);
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
    n = u_strip_casts(n);
    return n && n->kind == CXCursor_DeclRefExpr && u_node_var(a, n) == var;
}

/* The guide's idiom: for (i = threadIdx.x + u; i < bound; i += step) with a
   step covering the block and (bound - u) a multiple of the step: every
   thread runs the same number of iterations.  Returns true and the mask of
   what the trip count does depend on. */
static bool uniform_trip_idiom(struct fnan *a, struct node *loop, struct vinfo *dep)
{
    if (loop->kind != CXCursor_ForStmt || !loop->cond || !loop->inc || !loop->init) return false;
    struct node *c = u_strip_casts(loop->cond);
    if (!c || c->kind != CXCursor_BinaryOperator || c->nkid != 2) return false;
    enum CXBinaryOperatorKind op = ast_binop(c->c);
    struct node *iv, *bound;
    if (op == CXBinaryOperator_LT) { iv = c->kid[0]; bound = c->kid[1]; }
    else if (op == CXBinaryOperator_GT) { iv = c->kid[1]; bound = c->kid[0]; }
    else return false;
    iv = u_strip_casts(iv);
    if (!iv || iv->kind != CXCursor_DeclRefExpr) return false;
    int v = u_node_var(a, iv);
    if (v < 0 || a->vars[v].cls != V_LOCAL || a->vars[v].escapes) return false;
    /* The counter is defined by the init and the step only. */
    if (a->vars[v].n_defs != 2) return false;
    struct node *start = NULL;
    struct node *in = u_strip_node(loop->init);
    if (in->kind == CXCursor_DeclStmt && in->nkid == 1 && in->kid[0]->kind == CXCursor_VarDecl &&
        u_node_var(a, in->kid[0]) == v) {
        start = u_map_get(a, clang_Cursor_getVarDeclInitializer(in->kid[0]->c));
    } else if (in->kind == CXCursor_BinaryOperator && ast_binop(in->c) == CXBinaryOperator_Assign &&
               in->nkid == 2 && refers_to(a, in->kid[0], v)) {
        start = in->kid[1];
    }
    if (!start) return false;
    struct node *step = NULL;
    struct node *inc = u_strip_node(loop->inc);
    if (inc->kind == CXCursor_CompoundAssignOperator && ast_binop(inc->c) == CXBinaryOperator_AddAssign &&
        inc->nkid == 2 && refers_to(a, inc->kid[0], v)) {
        step = inc->kid[1];
    } else if (inc->kind == CXCursor_BinaryOperator && ast_binop(inc->c) == CXBinaryOperator_Assign &&
               inc->nkid == 2 && refers_to(a, inc->kid[0], v)) {
        struct node *rhs = u_strip_casts(inc->kid[1]);
        if (rhs && rhs->kind == CXCursor_BinaryOperator && ast_binop(rhs->c) == CXBinaryOperator_Add &&
            rhs->nkid == 2) {
            if (refers_to(a, rhs->kid[0], v)) step = rhs->kid[1];
            else if (refers_to(a, rhs->kid[1], v)) step = rhs->kid[0];
        }
    }
    if (!step) return false;
    /* start = tid (+ u) */
    struct node *s = u_strip_casts(start), *u = NULL;
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
    *dep = u_vmk(bound->val.m | step->val.m | (u ? u->val.m : 0), -1);
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
        if (clang_isExpression(k->kind)) u_eval(a, st, k, scoped);
        else u_exec(a, st, k, scoped);
    }
}

static void exec_vardecl(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    int v = u_node_var(a, n);
    struct ctl c = u_effective(st, scoped);
    CXCursor ic = clang_Cursor_getVarDeclInitializer(n->c);
    struct node *init = clang_Cursor_isNull(ic) ? NULL : u_map_get(a, ic);
    if (v < 0) {
        for (unsigned i = 0; i < n->nkid; i++)
            if (clang_isExpression(n->kid[i]->kind)) u_eval(a, st, n->kid[i], scoped);
        return;
    }
    struct var *var = &a->vars[v];
    var->decl_depth = c.depth;
    /* Array bounds and other expression children that are not the initialiser. */
    for (unsigned i = 0; i < n->nkid; i++)
        if (n->kid[i] != init && clang_isExpression(n->kid[i]->kind)) u_eval(a, st, n->kid[i], scoped);
    if (var->cls != V_LOCAL) {
        if (init && var->cls != V_SHARED) {
            struct vinfo x = u_eval(a, st, init, scoped);
            struct lval lv = {v, false, VNONE, FPATH_WHOLE};
            if (var->cls == V_GLOBAL) u_store(a, st, lv, x, c, true, n);
        }
        return;
    }
    if (!init) {
        st->env[v] = VNONE;
        return;
    }
    if (var->reference) {
        struct lval lv = u_lvalue(a, st, init, scoped);
        if (lv.var >= 0) {
            u_set_target(a, v, lv);
            st->env[v] = lv.addr;
        } else {
            st->env[v] = lv.addr;
        }
        u_vjoin_into(&a->any[v], st->env[v]);
        return;
    }
    struct vinfo x = u_eval(a, st, init, scoped);
    st->env[v] = x;
    u_vjoin_into(&a->any[v], x);
    if (var->pointer) {
        struct lval r = u_root_of(a, init, 0);
        r.path = u_ptr_path(a, init, 0);
        u_set_target(a, v, r);
    }
}

static void exec_if(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    for (unsigned i = 0; i < n->nkid && n->kid[i] != n->cond; i++) u_exec(a, st, n->kid[i], scoped);
    struct vinfo c = n->cond ? u_eval(a, st, n->cond, scoped) : VNONE;
    struct ctl inner = scoped;
    if (c.m) {
        int why = (c.m & VM_THREAD) ? u_cond_reason(a, n->cond, DIV_IF, c.why) : -1;
        inner = u_ctl_push(scoped, u_vmk(c.m, why));
    }
    struct state els;
    state_dup(a, &els, st);
    struct vinfo pre_ret = st->ret, pre_brk = st->brk, pre_cont = st->cont;
    if (n->then_) u_exec(a, st, n->then_, inner);
    if (n->else_) u_exec(a, &els, n->else_, inner);
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
                br[i]->ret = u_vjoin(pre_ret, u_vmk(c.m, -1));
                br[i]->brk = pre_brk;
                br[i]->cont = pre_cont;
            }
    }
    state_join(a, st, &els);
    u_state_free(&els);
}

static void exec_loop(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    bool is_do = n->kind == CXCursor_DoStmt;
    if (n->init) u_exec(a, st, n->init, scoped);
    struct vinfo saved_brk = st->brk, saved_cont = st->cont;
    struct frame f;
    memset(&f, 0, sizeof f);
    f.up = a->frame;
    u_state_init(a, &f.brk_acc);
    u_state_init(a, &f.cont_acc);
    f.brk_acc.dead = f.cont_acc.dead = true;
    f.brk_mask = VNONE;
    a->frame = &f;

    struct state head, cur;
    state_dup(a, &head, st);
    u_state_init(a, &cur);
    struct vinfo do_cond = VNONE;
    for (int iter = 0; iter < 24 && a->budget; iter++) {
        state_copy(a, &cur, &head);
        cur.brk = VNONE;
        cur.cont = VNONE;
        struct vinfo c = VNONE;
        if (!is_do && n->cond) c = u_eval(a, &cur, n->cond, scoped);
        if (is_do) c = do_cond;
        struct vinfo dep;
        if ((c.m & VM_THREAD) && uniform_trip_idiom(a, n, &dep)) c = dep;
        struct ctl body = scoped;
        if (c.m) {
            struct node *at = n->cond ? n->cond : n;
            int why = (c.m & VM_THREAD) ? u_cond_reason(a, at, DIV_LOOP, c.why) : -1;
            body = u_ctl_push(body, u_vmk(c.m, why));
        }
        if (f.brk_mask.m) body = u_ctl_push(body, f.brk_mask);
        u_vjoin_into(&n->ctl, u_vmk(body.m, body.why));
        if (n->body) u_exec(a, &cur, n->body, body);
        state_join(a, &cur, &f.cont_acc);
        cur.cont = VNONE;
        if (!cur.dead) {
            if (n->inc) u_eval(a, &cur, n->inc, body);
            if (is_do && n->cond) do_cond = u_eval(a, &cur, n->cond, body);
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
    u_state_free(&out);
    u_state_free(&head);
    u_state_free(&cur);
    u_state_free(&f.brk_acc);
    u_state_free(&f.cont_acc);
}

static void exec_switch(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    if (n->init) u_exec(a, st, n->init, scoped);
    struct vinfo c = n->cond ? u_eval(a, st, n->cond, scoped) : VNONE;
    struct ctl inner = scoped;
    if (c.m) {
        int why = (c.m & VM_THREAD) ? u_cond_reason(a, n->cond, DIV_SWITCH, c.why) : -1;
        inner = u_ctl_push(scoped, u_vmk(c.m, why));
    }
    struct vinfo saved_brk = st->brk;
    struct frame f;
    memset(&f, 0, sizeof f);
    f.is_switch = true;
    f.up = a->frame;
    u_state_init(a, &f.brk_acc);
    f.brk_acc.dead = true;
    u_state_init(a, &f.cont_acc);
    f.cont_acc.dead = true;
    struct state dispatch;
    state_dup(a, &dispatch, st);
    dispatch.brk = VNONE;
    f.dispatch = &dispatch;
    a->frame = &f;
    st->brk = VNONE;
    st->dead = true; /* nothing runs before the first case label */
    if (n->body) u_exec(a, st, n->body, inner);
    a->frame = f.up;
    /* Without a default, threads may skip the whole body. */
    state_join(a, st, &dispatch);
    state_join(a, st, &f.brk_acc);
    st->brk = saved_brk;
    u_state_free(&dispatch);
    u_state_free(&f.brk_acc);
    u_state_free(&f.cont_acc);
}

static struct frame *loop_frame(struct fnan *a)
{
    for (struct frame *f = a->frame; f; f = f->up)
        if (!f->is_switch) return f;
    return NULL;
}

void u_exec(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    if (!n) return;
    if (a->budget == 0) return;
    a->budget--;
    if (clang_isExpression(n->kind)) {
        u_eval(a, st, n, scoped);
        return;
    }
    struct ctl c = u_effective(st, scoped);
    u_vjoin_into(&n->ctl, u_vmk(c.m, c.why));
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
            if (clang_isExpression(k->kind)) u_eval(a, st, k, scoped);
            else u_exec(a, st, k, scoped);
        }
        break;
    }
    case CXCursor_ReturnStmt: {
        struct vinfo v = VNONE;
        for (unsigned i = 0; i < n->nkid; i++)
            if (clang_isExpression(n->kid[i]->kind)) v = u_vjoin(v, u_eval(a, st, n->kid[i], scoped));
        struct ctl e = u_effective(st, scoped);
        if (u_vjoin_into(&a->ret, u_vjoin(v, u_vmk(e.m, e.why)))) a->changed = true;
        if (e.m) u_vjoin_into(&st->ret, u_vmk(e.m, u_exit_reason(a, n, DIV_RETURN, e.why)));
        st->dead = true;
        break;
    }
    case CXCursor_BreakStmt: {
        struct ctl e = u_effective(st, scoped);
        struct vinfo m = e.m ? u_vmk(e.m, u_exit_reason(a, n, DIV_BREAK, e.why)) : VNONE;
        u_vjoin_into(&st->brk, m);
        if (a->frame) {
            if (!a->frame->is_switch) u_vjoin_into(&a->frame->brk_mask, m);
            state_join(a, &a->frame->brk_acc, st);
        }
        st->dead = true;
        break;
    }
    case CXCursor_ContinueStmt: {
        struct ctl e = u_effective(st, scoped);
        struct vinfo m = e.m ? u_vmk(e.m, u_exit_reason(a, n, DIV_CONTINUE, e.why)) : VNONE;
        u_vjoin_into(&st->cont, m);
        struct frame *f = loop_frame(a);
        if (f) state_join(a, &f->cont_acc, st);
        st->dead = true;
        break;
    }
    case CXCursor_GotoStmt: {
        CXCursor label = clang_getCursorReferenced(n->c);
        if (!clang_Cursor_isNull(label) && u_loc_offset(label) > n->off) {
            struct ctl e = u_effective(st, scoped);
            if (e.m && st->ng < MAX_GOTOS) {
                st->g[st->ng].label = label;
                st->g[st->ng].v = u_vmk(e.m, u_exit_reason(a, n, DIV_GOTO, e.why));
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
    case CXCursor_GCCAsmStmt: u_eval_asm(a, st, n, scoped); break;
    case CXCursor_LambdaExpr:
    case CXCursor_NullStmt: break;
    default:
        if (clang_isStatement(n->kind) || n->kind == CXCursor_DeclStmt) exec_children(a, st, n, scoped);
        break;
    }
}

