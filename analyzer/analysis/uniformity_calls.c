/* uniformity_calls.c: the thread-dependence analysis (uniformity.c) of
 * calls: who is called (through overload sets and member calls), which calls
 * are barriers, thread-dependent intrinsics, atomics or operators, the
 * summaries of callees defined in the translation unit (each analysed once,
 * its parameters as symbols), and what a call's value and stores are
 * (u_eval_call). */
#include "analysis/uniformity_internal.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* recognising intrinsics                                              */

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
    s->an = u_analyse_function(u, tu, def);
    u->depth--;
    s->busy = false;
    return s->an ? s : NULL;
}

void u_classify_call(struct fnan *a, struct node *n)
{
    if (n->call_done) return;
    n->call_done = true;
    n->cc = CC_PLAIN;
    CXCursor decl = callee_decl(n);
    char *name = callee_name_of(n, decl);
    n->callee_name = u_an_keep(a, name);
    if (strcmp(name, "operator()") == 0 && n->nkid >= 1) {
        /* A lambda or functor call: name it by its object ("lam"). */
        struct node *obj = member_call_base(n);
        if (!obj) obj = n->kid[0];
        char *t = compact_text(a->tu, obj->c);
        if (*t && strlen(t) < 40) n->callee_name = u_an_keep(a, t);
        else free(t);
    }
    /* Arguments as nodes. */
    int na = clang_Cursor_getNumArguments(n->c);
    if (na > 0) {
        n->args = xcalloc((size_t)na, sizeof *n->args);
        for (int i = 0; i < na; i++) {
            struct node *an = u_map_get(a, clang_Cursor_getArgument(n->c, (unsigned)i));
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
        n->barrier_name = u_an_keep(a, xasprintf("%s()", name));
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
            n->barrier_name = u_an_keep(a, compact_text(a->tu, n->c));
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
/* the value of a call                                                 */

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
            char *what = u_an_keep(a, xasprintf("%s (inside '%s')", w, callee->fn_name));
            call->origin_reason = u_add_reason(a, DIV_ORIGIN, call->c, what, -1);
        }
        r = u_vmk(VM_THREAD, call->origin_reason);
    }
    for (unsigned k = 0; k < nargs; k++)
        if (m.m & u_param_bit(k)) r = u_vjoin(r, args[k]);
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

struct vinfo u_eval_call(struct fnan *a, struct state *st, struct node *n, struct ctl scoped)
{
    u_classify_call(a, n);
    struct ctl c = u_effective(st, scoped);
    /* Evaluate the children in order (callee, object, arguments), keeping
       each argument's value. */
    struct vinfo all = VNONE;
    struct vinfo argv_small[16];
    struct vinfo *argv = n->nargs <= 16 ? argv_small : xcalloc(n->nargs, sizeof *argv);
    for (unsigned i = 0; i < n->nargs; i++) argv[i] = VNONE;
    for (unsigned i = 0; i < n->nkid; i++) {
        struct node *k = n->kid[i];
        if (!clang_isExpression(k->kind)) continue;
        struct vinfo v = u_eval(a, st, k, scoped);
        all = u_vjoin(all, v);
        for (unsigned j = 0; j < n->nargs; j++)
            if (n->args[j] == k) argv[j] = v;
    }
    for (unsigned j = 0; j < n->nargs; j++)
        if (n->args[j] && !n->args[j]->seen) argv[j] = u_eval(a, st, n->args[j], scoped);

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
            r = data == 0 ? argv[0] : u_vjoin(argv[0], argv[data]);
            break;
        }
        r = u_vmk(VM_THREAD, u_origin(a, n, "the result of %s()", n->callee_name));
        break;
    }
    case CC_ATOMIC: {
        r = u_vmk(VM_THREAD, u_origin(a, n, "the result of %s()", n->callee_name));
        if (n->nargs >= 1 && n->args[0]) {
            struct lval lv = u_root_of(a, n->args[0], 0);
            lv.addr = argv[0];
            lv.path = u_ptr_path(a, n->args[0], 0);
            u_store(a, st, lv, u_vjoin(r, all), c, false, n);
        }
        break;
    }
    case CC_ASSIGN:
    case CC_COMPOUND_ASSIGN:
        if (n->nargs >= 1 && n->args[0]) {
            struct vinfo rhs = VNONE;
            for (unsigned j = 1; j < n->nargs; j++) rhs = u_vjoin(rhs, argv[j]);
            r = u_eval_assign(a, st, n->args[0], rhs, scoped, n->cc == CC_COMPOUND_ASSIGN, 0);
            if (n->cc == CC_ASSIGN && n->nargs == 2 && n->args[1]) u_track_pointer(a, n->args[0], n->args[1]);
        }
        break;
    case CC_SUBSCRIPT: {
        struct lval lv = u_lvalue(a, st, n, scoped);
        r = u_vjoin(u_load(a, st, n, lv), all);
        break;
    }
    case CC_SUMMARY: {
        struct fnan *cal = n->sum->an;
        r = translate(a, n, cal, cal->ret, argv, n->nargs);
        /* The object of a member call counts as an argument of its own. */
        struct node *base = member_call_base(n);
        if (base) r = u_vjoin(r, base->val);
        /* Stores through pointer and reference parameters. */
        for (unsigned k = 0; k < n->nargs && k < cal->n_params; k++) {
            if (!cal->out[k].m || !n->args[k]) continue;
            struct vinfo x = translate(a, n, cal, cal->out[k], argv, n->nargs);
            CXType pt = clang_getCursorType(param_decl(cal, k));
            struct lval lv;
            if (u_is_reference_type(pt)) lv = u_lvalue(a, st, n->args[k], scoped);
            else lv = u_root_of(a, n->args[k], 0);
            u_store(a, st, lv, x, c, false, n);
        }
        for (unsigned g = 0; g < cal->n_gw; g++) {
            int v = u_var_add(a, cal->gw[g].decl);
            struct lval lv = {v, false, VNONE, FPATH_WHOLE};
            u_store(a, st, lv, translate(a, n, cal, cal->gw[g].v, argv, n->nargs), c, false, n);
        }
        if (cal->has_barrier) {
            struct vinfo argdep = VNONE;
            for (unsigned k = 0; k < n->nargs && k < cal->n_params; k++) {
                if (!(cal->barrier_ctl & u_param_bit(k))) continue;
                if (!(argv[k].m & VM_THREAD) || !n->args[k]) {
                    argdep = u_vjoin(argdep, u_vmk(argv[k].m, -1));
                    continue;
                }
                struct node *arg = n->args[k];
                if (arg->exit_reason < 0) {
                    CXCursor p = param_decl(cal, k);
                    char *pname = u_an_keep(a, ast_spelling(p));
                    arg->exit_reason = u_add_reason(a, DIV_CALL_ARG, arg->c, pname, argv[k].why);
                }
                argdep = u_vjoin(argdep, u_vmk(argv[k].m, arg->exit_reason));
            }
            u_vjoin_into(&n->argctl, argdep);
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
            struct node *arg = n->args[j] ? u_strip_node(n->args[j]) : NULL;
            if (!arg || arg->kind != CXCursor_UnaryOperator || ast_unop(arg->c) != CXUnaryOperator_AddrOf)
                continue;
            struct lval lv = u_root_of(a, arg, 0);
            if (lv.var >= 0 && u_var_is_local_storage(&a->vars[lv.var]) && !lv.pointee)
                u_store(a, st, lv, all, c, false, n);
        }
        break;
    }
    if (argv != argv_small) free(argv);
    return r;
}

