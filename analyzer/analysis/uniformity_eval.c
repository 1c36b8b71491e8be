/* uniformity_eval.c: the thread-dependence analysis (uniformity.c) of
 * expressions and memory: where an lvalue or a pointer leads (a variable, its
 * pointee, the field path within it), what a store does to a local or to
 * memory, what a load reads (memory written with thread-dependent values is
 * ordered by barriers), the threadIdx builtins, and the value of each
 * expression (u_eval).  Calls are in uniformity_calls.c, statements in
 * uniformity_exec.c. */
#include "analysis/uniformity_internal.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* values                                                              */

/* a, with b's dependences added but a's threadIdx.x term kept when b is
   the same in all threads (a local read at a uniform address, stored under
   uniform control). */
static struct vinfo vjoin_keep(struct vinfo a, struct vinfo b)
{
    struct vinfo r = u_vjoin(a, b);
    if (!(b.m & VM_THREAD)) r.tx = a.tx;
    return r;
}

/* l + sign * r for integer sums (sign 0: any other combination): the
   threadIdx.x terms add up, and cancel. */
static struct vinfo vlin(struct vinfo l, struct vinfo r, int sign)
{
    struct vinfo j = u_vjoin(l, r);
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

/* ------------------------------------------------------------------ */
/* evaluation                                                          */

struct node *u_strip_node(struct node *n)
{
    while (n && (n->kind == CXCursor_UnexposedExpr || n->kind == CXCursor_ParenExpr) && n->nkid == 1)
        n = n->kid[0];
    return n;
}

/* Through casts too (for structural matching). */
struct node *u_strip_casts(struct node *n)
{
    for (;;) {
        n = u_strip_node(n);
        if (!n) return n;
        if ((n->kind == CXCursor_CStyleCastExpr || n->kind == CXCursor_CXXStaticCastExpr ||
             n->kind == CXCursor_CXXFunctionalCastExpr) && n->nkid >= 1) {
            n = n->kid[n->nkid - 1];
            continue;
        }
        return n;
    }
}

int u_node_var(struct fnan *a, struct node *n)
{
    if (n->var >= 0) return n->var;
    if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_VarDecl || n->kind == CXCursor_ParmDecl) {
        CXCursor d = n->kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(n->c) : n->c;
        enum CXCursorKind dk = clang_getCursorKind(d);
        if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) n->var = u_var_add(a, d);
    }
    return n->var;
}

/* Where a pointer expression points: a variable's own storage (an array, or
   &x) or the pointee of a pointer variable.  Pure: evaluates nothing. */
struct lval u_root_of(struct fnan *a, struct node *n, int depth)
{
    struct lval none = {-1, false, VNONE, FPATH_WHOLE};
    n = u_strip_casts(n);
    if (!n || depth > 8) return none;
    switch (n->kind) {
    case CXCursor_DeclRefExpr: {
        int v = u_node_var(a, n);
        if (v < 0) return none;
        /* A reference stands for what it is bound to, as in u_lvalue(). */
        struct var *var = &a->vars[v];
        if (var->reference && var->cls == V_LOCAL && var->tgt_var >= 0) {
            struct lval r = {var->tgt_var, var->tgt_pointee, VNONE, FPATH_WHOLE};
            return r;
        }
        struct lval r = {v, !u_is_array_type(clang_getCursorType(n->c)), VNONE, FPATH_WHOLE};
        return r;
    }
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(n->c);
        if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && n->nkid == 2) {
            for (unsigned i = 0; i < 2; i++) {
                CXType t = clang_getCursorType(n->kid[i]->c);
                if (u_is_pointer_type(t) || u_is_array_type(t)) return u_root_of(a, n->kid[i], depth + 1);
            }
        }
        if (op == CXBinaryOperator_Comma && n->nkid == 2) return u_root_of(a, n->kid[1], depth + 1);
        return none;
    }
    case CXCursor_UnaryOperator:
        if (ast_unop(n->c) == CXUnaryOperator_AddrOf && n->nkid == 1) {
            struct node *x = u_strip_casts(n->kid[0]);
            /* &a[i], &s.f, &x: the storage of the root. */
            while (x && (x->kind == CXCursor_ArraySubscriptExpr || x->kind == CXCursor_MemberRefExpr) &&
                   x->nkid >= 1) {
                struct node *b = u_strip_casts(x->kid[0]);
                if (u_is_pointer_type(clang_getCursorType(b->c)) ||
                    (x->kind == CXCursor_MemberRefExpr && u_is_pointer_type(clang_getCursorType(x->kid[0]->c))))
                    return u_root_of(a, b, depth + 1);
                x = b;
            }
            if (x && x->kind == CXCursor_DeclRefExpr) {
                int v = u_node_var(a, x);
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
                return u_root_of(a, x->kid[0], depth + 1);
        }
        return none;
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr:
        /* An array-typed element or field decays to its own storage. */
        if (u_is_array_type(clang_getCursorType(n->c)) && n->kind == CXCursor_MemberRefExpr && n->nkid == 0) {
            struct lval r = {a->this_var, true, VNONE, FPATH_WHOLE};
            return r;
        }
        if (u_is_array_type(clang_getCursorType(n->c)) && n->nkid >= 1) {
            struct node *b = u_strip_casts(n->kid[0]);
            if (n->kind == CXCursor_ArraySubscriptExpr && u_is_pointer_type(clang_getCursorType(b->c)))
                return u_root_of(a, b, depth + 1);
            struct lval r = u_root_of(a, b, depth + 1);
            if (r.var >= 0 && !u_is_pointer_type(clang_getCursorType(b->c))) r.pointee = false;
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

/* The field chain of an lvalue expression, relative to the variable that
   u_root_of()/u_lvalue() find for it. */
static struct fpath expr_path(struct fnan *a, struct node *n, int depth)
{
    struct fpath whole = {0, {0}, false}, lost = {0, {0}, true};
    n = u_strip_node(n);
    if (!n || depth > 8) return lost;
    switch (n->kind) {
    case CXCursor_DeclRefExpr: {
        /* A reference bound to part of another variable stands for that
           variable (u_lvalue()): where within it is not known. */
        int v = u_node_var(a, n);
        if (v >= 0 && a->vars[v].reference && a->vars[v].tgt_var >= 0 && !a->vars[v].tgt_at_start) return lost;
        return whole;
    }
    case CXCursor_MemberRefExpr: {
        CXCursor field = clang_getCursorReferenced(n->c);
        if (clang_getCursorKind(field) != CXCursor_FieldDecl) return lost;
        struct fpath p = whole;
        if (n->nkid >= 1) {
            struct node *b = n->kid[0];
            p = u_is_pointer_type(clang_getCursorType(b->c)) ? u_ptr_path(a, b, depth + 1) : expr_path(a, b, depth + 1);
        }
        /* The members of a union share their storage. */
        if (p.lost || clang_getCursorKind(clang_getCursorSemanticParent(field)) == CXCursor_UnionDecl) return p;
        if (p.n < FPATH_MAX) p.id[p.n++] = clang_hashCursor(clang_getCanonicalCursor(field)) | 1u;
        return p;
    }
    case CXCursor_ArraySubscriptExpr: {
        if (n->nkid < 2) return lost;
        struct node *b = u_strip_node(n->kid[0]);
        if (b && u_is_array_type(clang_getCursorType(b->c))) return expr_path(a, b, depth + 1);
        return u_ptr_path(a, n->kid[0], depth + 1);
    }
    case CXCursor_UnaryOperator:
        if (ast_unop(n->c) == CXUnaryOperator_Deref && n->nkid == 1) return u_ptr_path(a, n->kid[0], depth + 1);
        return lost;
    default:
        return lost;
    }
}

/* The field chain of what a pointer expression points at: `&s.f` is [f], a
   pointer variable the whole of what it points at.  Casts (another type's
   fields) and arithmetic on a pointer into a field (past it) lose it. */
struct fpath u_ptr_path(struct fnan *a, struct node *n, int depth)
{
    struct fpath whole = {0, {0}, false}, lost = {0, {0}, true};
    n = u_strip_node(n);
    if (!n || depth > 8) return lost;
    switch (n->kind) {
    case CXCursor_DeclRefExpr:
        return u_is_pointer_type(clang_getCursorType(n->c)) ? whole : lost;
    case CXCursor_UnaryOperator:
        if (ast_unop(n->c) == CXUnaryOperator_AddrOf && n->nkid == 1) return expr_path(a, n->kid[0], depth + 1);
        return lost;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(n->c);
        if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) || n->nkid != 2) return lost;
        for (unsigned i = 0; i < 2; i++)
            if (u_is_pointer_type(clang_getCursorType(n->kid[i]->c))) {
                struct fpath p = u_ptr_path(a, n->kid[i], depth + 1);
                return p.n == 0 ? p : lost;
            }
        return lost;
    }
    default:
        if (u_is_array_type(clang_getCursorType(n->c))) return expr_path(a, n, depth + 1);
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

void u_set_target(struct fnan *a, int var, struct lval r)
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
            if (u_vjoin_into(&a->gw[i].v, v)) a->changed = true;
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
            if (u_vjoin_into(&a->mf[i].v, x)) a->changed = true;
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
        if (a->mf[i].var == var && fpath_overlap(&a->mf[i].path, path)) m = u_vjoin(m, a->mf[i].v);
    return m;
}

/* Stores val into lv.  strong: a plain assignment of a whole scalar.  at:
   the expression that stores (for memory, where the store happens). */
void u_store(struct fnan *a, struct state *st, struct lval lv, struct vinfo val, struct ctl c,
             bool strong, struct node *at)
{
    if (lv.var < 0) return;
    lv = resolve(a, lv);
    struct var *v = &a->vars[lv.var];
    if (!lv.pointee && u_var_is_local_storage(v) && !v->reference) {
        struct vinfo x = vjoin_keep(val, lv.addr);
        /* Under more varying control than the declaration: threads that did
           not run the store keep the old value. */
        if (c.m && c.depth > v->decl_depth) x = vjoin_keep(x, u_vmk(c.m, c.why));
        if (strong && !v->aggregate && !lv.addr.m) st->env[lv.var] = x;
        else u_vjoin_into(&st->env[lv.var], x);
        u_vjoin_into(&a->any[lv.var], st->env[lv.var]);
        return;
    }
    /* Memory, or what a pointer/reference parameter refers to. */
    struct vinfo x = u_vjoin(u_vjoin(val, lv.addr), u_vmk(c.m, c.why));
    if (x.m) note_mstore(a, lv.var, &lv.path, at);
    if (u_vjoin_into(&a->mem[lv.var], x)) a->changed = true;
    if (x.m) note_mfield(a, lv.var, &lv.path, x);
    if (v->cls == V_PARAM && v->param >= 0 && a->out && (unsigned)v->param < a->n_params) {
        if (u_vjoin_into(&a->out[v->param], x)) a->changed = true;
        if (v->reference) u_vjoin_into(&st->env[lv.var], x);
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
        if (u_is_loop_kind(p->kind)) return false;
    int i = child_holding(lca, from), j = child_holding(lca, to);
    if (i < 0 || j < 0 || i >= j) return false;
    for (int k = i + 1; k < j; k++) {
        struct node *b = u_strip_node(lca->kid[k]);
        if (b && b->kind == CXCursor_CallExpr && u_node_is_barrier(b)) return true;
    }
    return false;
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
            why = u_origin(a, n, "'%s', which other threads write without a barrier before this read",
                           a->vars[var].name);
        r = u_vjoin(r, u_vmk(m.m, why));
    }
    return r;
}

struct vinfo u_load(struct fnan *a, struct state *st, struct node *n, struct lval lv)
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
                r = u_vjoin(r, m);
                held_varies = held_varies || (m.m & VM_THREAD);
            }
            if (held_varies) n->content_varies = true;
            return r;
        }
        case V_CONST:
        case V_UNIFORM: return lv.addr;
        case V_TID:
            n->content_varies = true;
            return u_vjoin(lv.addr, u_vmk(VM_THREAD, u_origin(a, n, "threadIdx")));
        default: return mem_load(a, n, lv.var, lv.addr, &lv.path);
        }
    }
    /* Through a pointer: the pointer's own value is part of the address. */
    return mem_load(a, n, lv.var, lv.addr, &lv.path);
}

/* ---- builtins ---- */

/* threadIdx.x -> 'x' (0 when not readable), through the member's spelling or,
   for clang's property members, the source text after the dot. */
char u_builtin_component(struct fnan *a, CXCursor member)
{
    return ast_builtin_component(a->tu, member);
}

bool u_is_builtin_member(struct fnan *a, struct node *n, enum var_class *cls)
{
    struct node *s = u_strip_node(n);
    if (!s || s->kind != CXCursor_MemberRefExpr || s->nkid < 1) return false;
    struct node *b = u_strip_node(s->kid[0]);
    if (!b || b->kind != CXCursor_DeclRefExpr) return false;
    int v = u_node_var(a, b);
    if (v < 0) return false;
    if (a->vars[v].cls == V_TID || a->vars[v].cls == V_UNIFORM) {
        *cls = a->vars[v].cls;
        return true;
    }
    return false;
}

/* ---- lvalues and expressions ---- */

static struct vinfo eval_kids(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct vinfo r = VNONE;
    for (unsigned i = 0; i < n->nkid; i++) {
        struct node *k = n->kid[i];
        if (clang_isExpression(k->kind)) r = u_vjoin(r, u_eval(a, st, k, scoped));
        else if (clang_isStatement(k->kind) || clang_isDeclaration(k->kind)) u_exec(a, st, k, scoped);
    }
    return r;
}

/* The storage an lvalue expression names (u_lvalue() adds its field path). */
static struct lval lvalue_storage(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct lval none = {-1, false, VNONE, FPATH_WHOLE};
    struct node *s = u_strip_node(n);
    if (!s) return none;
    switch (s->kind) {
    case CXCursor_DeclRefExpr: {
        int v = u_node_var(a, s);
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
        struct vinfo vi = u_eval(a, st, idx, scoped);
        struct node *bs = u_strip_casts(base);
        if (bs && u_is_array_type(clang_getCursorType(bs->c))) {
            struct lval r = lvalue_storage(a, st, bs, scoped);
            r.addr = u_vjoin(r.addr, vi);
            return r;
        }
        struct vinfo vb = u_eval(a, st, base, scoped);
        struct lval r = u_root_of(a, base, 0);
        r.addr = u_vjoin(vb, vi);
        return r;
    }
    case CXCursor_MemberRefExpr: {
        if (s->nkid == 0) {
            if (a->this_var < 0) break;
            struct lval r = {a->this_var, true, VNONE, FPATH_WHOLE};
            return r;
        }
        struct node *base = s->kid[0];
        if (u_is_pointer_type(clang_getCursorType(base->c))) {
            struct vinfo vb = u_eval(a, st, base, scoped);
            struct lval r = u_root_of(a, base, 0);
            r.addr = u_vjoin(r.addr, vb);
            return r;
        }
        return lvalue_storage(a, st, base, scoped);
    }
    case CXCursor_UnaryOperator:
        if (ast_unop(s->c) == CXUnaryOperator_Deref && s->nkid == 1) {
            struct vinfo vb = u_eval(a, st, s->kid[0], scoped);
            struct lval r = u_root_of(a, s->kid[0], 0);
            r.addr = u_vjoin(r.addr, vb);
            return r;
        }
        none.addr = u_eval(a, st, n, scoped);
        return none;
    case CXCursor_CallExpr:
        u_classify_call(a, s);
        if (s->cc == CC_SUBSCRIPT && s->nargs == 2 && s->args[0] && s->args[1]) {
            struct vinfo vi = u_eval(a, st, s->args[1], scoped);
            struct lval r = lvalue_storage(a, st, s->args[0], scoped);
            r.addr = u_vjoin(r.addr, vi);
            return r;
        }
        if (s->cc != CC_SUBSCRIPT) {
            none.addr = u_eval(a, st, n, scoped);
            return none;
        }
        break;
    default:
        none.addr = u_eval(a, st, n, scoped);
        return none;
    }
    /* Unknown storage: only what the address is computed from (u_eval() of
       these kinds would come back here). */
    none.addr = eval_kids(a, st, s, scoped);
    return none;
}

struct lval u_lvalue(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct lval r = lvalue_storage(a, st, n, scoped);
    if (r.var >= 0) r.path = expr_path(a, n, 0);
    return r;
}

/* lhs = rhs, or for compound assignments lhs op= rhs; sign: +1 for += and
   ++, -1 for -= and -- on integers (the threadIdx.x terms add up), else 0. */
struct vinfo u_eval_assign(struct fnan *a, struct state *st, struct node *lhs, struct vinfo rhs,
                           struct ctl scoped, bool compound, int sign)
{
    struct ctl c = u_effective(st, scoped);
    struct lval lv = u_lvalue(a, st, lhs, scoped);
    struct vinfo val = rhs;
    if (compound) val = vlin(u_load(a, st, u_strip_node(lhs), lv), rhs, sign);
    /* x += k replaces x as much as x = x + k does. */
    u_store(a, st, lv, val, c, !compound || sign != 0, lhs);
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
void u_track_pointer(struct fnan *a, struct node *lhs, struct node *rhs)
{
    struct node *l = u_strip_node(lhs);
    if (!l || l->kind != CXCursor_DeclRefExpr) return;
    int v = u_node_var(a, l);
    if (v < 0 || !a->vars[v].pointer) return;
    struct lval r = u_root_of(a, rhs, 0);
    r.path = u_ptr_path(a, rhs, 0);
    u_set_target(a, v, r);
}

struct vinfo u_eval_asm(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    struct ctl c = u_effective(st, scoped);
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
        struct node *en = u_map_get(a, e);
        if (en) in = u_vjoin(in, u_eval(a, st, en, scoped));
    }
    struct vinfo val = in;
    if (thread) val = u_vjoin(val, u_vmk(VM_THREAD, u_origin(a, n, "the result of inline assembly")));
    unsigned no = clang_Cursor_getGCCAssemblyNumOutputs(n->c);
    for (unsigned i = 0; i < no; i++) {
        CXString con;
        CXCursor e;
        if (!clang_Cursor_getGCCAssemblyOutput(n->c, i, &con, &e)) continue;
        bool rw = clang_getCString(con) && strchr(clang_getCString(con), '+');
        clang_disposeString(con);
        struct node *en = u_map_get(a, e);
        if (!en) continue;
        struct lval lv = u_lvalue(a, st, en, scoped);
        struct vinfo v = val;
        if (rw) v = u_vjoin(v, u_load(a, st, u_strip_node(en), lv));
        u_store(a, st, lv, v, c, !rw, en);
    }
    return VNONE;
}

struct vinfo u_eval(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    if (!n) return VNONE;
    struct ctl c = u_effective(st, scoped);
    u_vjoin_into(&n->ctl, u_vmk(c.m, c.why));
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
        int v = u_node_var(a, n);
        if (v < 0) break; /* enumerators, template parameters, functions */
        /* An array names its address (it decays), not its contents. */
        if (u_is_array_type(clang_getCursorType(n->c))) break;
        struct lval lv = {v, false, VNONE, FPATH_WHOLE};
        if (a->vars[v].reference && a->vars[v].cls == V_LOCAL && a->vars[v].tgt_var >= 0) {
            lv.var = a->vars[v].tgt_var;
            lv.pointee = a->vars[v].tgt_pointee;
        }
        r = u_load(a, st, n, lv);
        break;
    }
    case CXCursor_MemberRefExpr: {
        enum var_class cls;
        if (u_is_builtin_member(a, n, &cls)) {
            if (cls == V_TID) {
                char comp = u_builtin_component(a, n->c);
                char buf[16];
                snprintf(buf, sizeof buf, comp ? "threadIdx.%c" : "threadIdx", comp);
                r = u_vmk(VM_THREAD, u_origin(a, n, "%s", buf));
                if (comp == 'x') r.tx = 1;
            }
            for (unsigned i = 0; i < n->nkid; i++) n->kid[i]->seen = true;
            break;
        }
        struct lval lv = u_lvalue(a, st, n, scoped);
        r = u_is_array_type(clang_getCursorType(n->c)) ? lv.addr : u_load(a, st, n, lv);
        break;
    }
    case CXCursor_ArraySubscriptExpr: {
        struct lval lv = u_lvalue(a, st, n, scoped);
        r = u_is_array_type(clang_getCursorType(n->c)) ? lv.addr : u_load(a, st, n, lv);
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(n->c);
        if (n->nkid < 1) break;
        if (ast_unop_is_incdec(op)) {
            bool inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
            r = u_eval_assign(a, st, n->kid[0], VNONE, scoped, true,
                              node_is_integer(n->kid[0]) ? (inc ? 1 : -1) : 0);
        } else if (op == CXUnaryOperator_Deref) {
            struct lval lv = u_lvalue(a, st, n, scoped);
            r = u_load(a, st, n, lv);
        } else if (op == CXUnaryOperator_AddrOf) {
            struct lval lv = u_lvalue(a, st, n->kid[0], scoped);
            r = lv.addr;
            if (lv.var >= 0) a->vars[lv.var].escapes = true;
        } else {
            r = u_eval(a, st, n->kid[0], scoped);
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
            struct vinfo rhs = u_eval(a, st, n->kid[1], scoped);
            r = u_eval_assign(a, st, n->kid[0], rhs, scoped, false, 0);
            u_track_pointer(a, n->kid[0], n->kid[1]);
        } else if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
            struct vinfo l = u_eval(a, st, n->kid[0], scoped);
            struct ctl inner = scoped;
            if (l.m) {
                int why = u_cond_reason(a, n->kid[0], op == CXBinaryOperator_LAnd ? DIV_AND : DIV_OR, l.why);
                inner = u_ctl_push(scoped, u_vmk(l.m, (l.m & VM_THREAD) ? why : -1));
            }
            struct vinfo rv = u_eval(a, st, n->kid[1], inner);
            r = u_vjoin(l, rv);
        } else if (op == CXBinaryOperator_Comma) {
            u_eval(a, st, n->kid[0], scoped);
            r = u_eval(a, st, n->kid[1], scoped);
        } else {
            struct vinfo l = u_eval(a, st, n->kid[0], scoped);
            struct vinfo rv = u_eval(a, st, n->kid[1], scoped);
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
            if (is_comparison(op) && (r.m & VM_THREAD) && u_tid_against_extent(a, n)) {
                r.m &= ~VM_THREAD;
                r.why = -1;
                r.tx = 0;
            }
        }
        break;
    }
    case CXCursor_CompoundAssignOperator:
        if (n->nkid == 2) {
            struct vinfo rhs = u_eval(a, st, n->kid[1], scoped);
            enum CXBinaryOperatorKind op = ast_binop(n->c);
            /* (threadIdx.x's property reference has no integer type of its
               own: the integer left side is what counts.) */
            int sign = !node_is_integer(n->kid[0]) ? 0
                       : op == CXBinaryOperator_AddAssign ? 1 : op == CXBinaryOperator_SubAssign ? -1 : 0;
            r = u_eval_assign(a, st, n->kid[0], rhs, scoped, true, sign);
        }
        break;
    case CXCursor_ConditionalOperator:
        if (n->nkid == 3) {
            struct vinfo cv = u_eval(a, st, n->kid[0], scoped);
            struct ctl inner = scoped;
            if (cv.m) {
                int why = u_cond_reason(a, n->kid[0], DIV_TERNARY, cv.why);
                inner = u_ctl_push(scoped, u_vmk(cv.m, (cv.m & VM_THREAD) ? why : -1));
            }
            struct vinfo t = u_eval(a, st, n->kid[1], inner);
            struct vinfo e = u_eval(a, st, n->kid[2], inner);
            r = u_vjoin(cv, u_vjoin(t, e));
        } else {
            r = eval_kids(a, st, n, scoped);
        }
        break;
    case CXCursor_CallExpr:
        r = u_eval_call(a, st, n, scoped);
        break;
    case CXCursor_GCCAsmStmt:
        r = u_eval_asm(a, st, n, scoped);
        break;
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
        /* Implicit conversions, parentheses and integer casts keep a
           threadIdx.x term. */
        if (n->nkid == 1 && clang_isExpression(n->kid[0]->kind)) {
            r = u_eval(a, st, n->kid[0], scoped);
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
    u_vjoin_into(&n->val, r);
    return r;
}

