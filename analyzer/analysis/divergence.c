/* divergence.c: the two-thread divergence queries (divergence.h): builds, for
 * the construct the walk names, "can the two threads disagree" over the value
 * model (value.h) with the launch constraints, asks the solver (smt.h), and
 * runs the walk again assuming uniform what the solver proved. */
#include "analysis/divergence.h"
#include "analysis/hostexpr.h"
#include "analysis/launch.h"
#include "analysis/smt_solve.h"
#include "analysis/value.h"
#include "base/util.h"
#include "clang/astutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Constructs one function may have proved uniform before the rest of its
   findings are left to the walk. */
#define DIVERGENCE_MAX_ASSUMED 16

/* ---- the formula arena of a translation unit (answers cached per file) ---- */

static void *arena_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    (void)tu, (void)fn, (void)deps;
    return smt_arena_new();
}

static void arena_release(void *p)
{
    smt_arena_free(p);
}

static const struct analysis_kind smt_arena_analysis = {
    .name = "smt.arena", .per_tu = true, .build = arena_build, .free = arena_release};

/* ---- the facts of one function ---- */

/* One refinement: the walk (and, for lanes, the warp view) run again
   assuming uniform the conditions the solver proved. */
struct refined {
    CXCursor assumed[DIVERGENCE_MAX_ASSUMED];
    unsigned n;
    struct uniformity *u;  /* NULL: none yet (the base analysis) */
    struct warp_view *w;
};

struct divergence_facts {
    CXTranslationUnit tu;
    CXCursor fn;
    struct analysis_cache *deps;
    struct smt_arena *arena;
    struct uniformity *base_u;
    struct warp_view *base_w;
    bool is_kernel;
    bool shape_known;
    struct launch_info li;
    /* A kernel's parameters that every launch gives one constant. */
    unsigned n_params;
    bool param_known[32];
    long long param_value[32];
    /* warp[1]: for collectives that exited lanes need not reach, where a
       lane leaving the kernel's last loop also counts as proved. */
    struct refined block, warp[2];
    /* group: for questions about groups of 2^group_shift lanes (a shuffle
       confined by its width), refined for that width */
    struct refined group;
    unsigned group_shift;
    struct value_model *vm_block, *vm_warp;
    /* For the guards on the way to a statement (reads per use). */
    struct value_model *vm_reach;
};

static void *facts_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    if (clang_Cursor_isNull(fn)) return NULL;
    struct uniformity *u = analysis_get(deps, &uniformity_analysis, fn);
    struct smt_arena *a = analysis_get(deps, &smt_arena_analysis, clang_getNullCursor());
    if (!u || !a) return NULL;
    struct divergence_facts *f = xcalloc(1, sizeof *f);
    f->tu = tu;
    f->fn = fn;
    f->deps = deps;
    f->arena = a;
    f->base_u = u;
    f->is_kernel = (ast_exec_space(fn) & SPACE_GLOBAL) == SPACE_GLOBAL;
    struct launch_model *m = analysis_get(deps, &launch_analysis, clang_getNullCursor());
    f->shape_known = f->is_kernel ? m && launch_block_shapes(m, fn, &f->li) && f->li.n_shapes > 0
                                  : launch_caller_shapes(m, fn, &f->li);
    if (f->is_kernel && m) {
        int n = clang_Cursor_getNumArguments(fn);
        f->n_params = n > 0 ? (unsigned)(n < 32 ? n : 32) : 0;
        for (unsigned i = 0; i < f->n_params; i++)
            f->param_known[i] = launch_param_constant(m, fn, i, &f->param_value[i]);
    }
    return f;
}

static void refined_release(struct refined *r)
{
    warp_view_free(r->w);
    uniformity_release(r->u);
}

static void facts_release(void *p)
{
    struct divergence_facts *f = p;
    if (!f) return;
    refined_release(&f->block);
    refined_release(&f->warp[0]);
    refined_release(&f->warp[1]);
    refined_release(&f->group);
    value_model_free(f->vm_block);
    value_model_free(f->vm_warp);
    value_model_free(f->vm_reach);
    free(f);
}

const struct analysis_kind divergence_analysis = {
    .name = "divergence", .build = facts_build, .free = facts_release};

/* ---- the syntax around a construct ---- */

static bool inside(CXCursor outer, CXCursor c)
{
    return ast_inside(outer, c);
}

/* The innermost statement of a kind holding c, whose first child holds
   `first_child_holds` when that is not null. */
struct find {
    CXCursor target, holder;
    bool want_if;   /* an if whose condition holds target; else a loop or if holding target */
};

static enum CXChildVisitResult find_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct find *s = data;
    if (!inside(c, s->target)) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
        if (!ast_same_node(c, s->target)) s->holder = c;
    }
    return CXChildVisit_Recurse;
}

/* The innermost if or loop statement around c (not c itself). */
static CXCursor enclosing_statement(CXCursor fn, CXCursor c)
{
    struct find s = {c, clang_getNullCursor(), false};
    clang_visitChildren(fn, find_cb, &s);
    return s.holder;
}

/* The condition of an if or loop statement (null when not written). */
static CXCursor condition_of(CXCursor stmt)
{
    CXCursor k[6];
    unsigned n = ast_children(stmt, k, 6);
    switch (clang_getCursorKind(stmt)) {
    case CXCursor_IfStmt: return n >= 2 ? k[0] : clang_getNullCursor();
    case CXCursor_WhileStmt: return n >= 2 ? k[n - 2] : clang_getNullCursor();
    case CXCursor_DoStmt: return n == 2 ? k[1] : clang_getNullCursor();
    case CXCursor_ForStmt: return n == 4 ? k[1] : clang_getNullCursor();
    default: return clang_getNullCursor();
    }
}

/* For an exit inside `if (c) ... else ...`: is it taken when c holds
   (1), when it fails (0), or unknown (-1)? */
static int exit_polarity(CXCursor ifstmt, CXCursor exit)
{
    if (clang_getCursorKind(ifstmt) != CXCursor_IfStmt) return -1;
    CXCursor k[4];
    unsigned n = ast_children(ifstmt, k, 4);
    if (n >= 2 && inside(k[1], exit)) return 1;
    if (n >= 3 && inside(k[2], exit)) return 0;
    return -1;
}

/* ---- the question ---- */

static smt_id and2(struct smt_arena *a, smt_id x, smt_id y)
{
    return smt_bin(a, SMT_BAND, x, y);
}

static smt_id ule(struct smt_arena *a, smt_id x, uint64_t c, bool swap)
{
    smt_id k = smt_const(a, 32, c);
    return swap ? smt_bin(a, SMT_ULE, k, x) : smt_bin(a, SMT_ULE, x, k);
}

/* Two threads of one block (lane_shift non-zero: lanes of one aligned
   group of 2^lane_shift lanes, 5 for a warp), different, within the
   launch's extents.  shape: the extents fixed as constants (a 0 extent is
   left symbolic: no launch shape known). */
static smt_id thread_constraints(struct value_model *vm, struct smt_arena *a, const long long *shape,
                                 unsigned lane_shift, const bool *grid_axis)
{
    bool lanes = lane_shift != 0;
    smt_id all = smt_bool(a, true);
    smt_id bd[3], lin[2];
    for (int ax = 0; ax < 3; ax++) {
        bd[ax] = value_builtin(vm, 'd', ax, 0);
        smt_id gd = value_builtin(vm, 'g', ax, 0), bi = value_builtin(vm, 'b', ax, 0);
        for (int t = 1; t <= 2; t++) all = and2(a, all, smt_bin(a, SMT_ULT, value_builtin(vm, 't', ax, t), bd[ax]));
        /* The grid's facts only where the question reads blockIdx or
           gridDim: each costs the solver a multiplier. */
        if (!grid_axis[ax]) continue;
        all = and2(a, all, smt_bin(a, SMT_ULT, bi, gd));
        all = and2(a, all, ule(a, gd, ax == 0 ? 0x7fffffffu : 65535, false));
        /* The threads of the grid along an axis number below 2^31, so
           blockIdx * blockDim + threadIdx does not wrap: stated as facts,
           which the solver would find expensive to derive. */
        smt_id total = smt_bin(a, SMT_MUL, gd, bd[ax]);
        all = and2(a, all, and2(a, smt_bin(a, SMT_UMUL_OK, gd, bd[ax]), ule(a, total, 0x7fffffffu, false)));
        for (int t = 1; t <= 2; t++) {
            smt_id gid = smt_bin(a, SMT_ADD, value_builtin(vm, 't', ax, t), smt_bin(a, SMT_MUL, bi, bd[ax]));
            all = and2(a, all, smt_bin(a, SMT_ULT, gid, total));
        }
    }
    bool general = false;
    if (shape && shape[0] <= 0) {
        /* No launch shape known: blockDim.x a multiple of 32 up to 1024; y
           and z free within 1024 threads in all when not fixed to 1. */
        all = and2(a, all, smt_bin(a, SMT_EQ, smt_bin(a, SMT_AND, bd[0], smt_const(a, 32, 31)), smt_const(a, 32, 0)));
        all = and2(a, all, and2(a, ule(a, bd[0], 32, true), ule(a, bd[0], 1024, false)));
        general = shape[1] <= 0;
    }
    if (general) {
        /* y and z free: at most 32 each (blockDim.x is at least 32 and a
           block at most 1024 threads; the product itself would cost the
           solver a multiplier, and this bound only admits more shapes). */
        all = and2(a, all, and2(a, ule(a, bd[1], 1, true), ule(a, bd[1], 32, false)));
        all = and2(a, all, and2(a, ule(a, bd[2], 1, true), ule(a, bd[2], 32, false)));
    }
    smt_id tid[2][3];
    for (int t = 0; t < 2; t++)
        for (int ax = 0; ax < 3; ax++) tid[t][ax] = value_builtin(vm, 't', ax, t + 1);
    /* Two different threads. */
    smt_id differ = smt_bool(a, false);
    for (int ax = 0; ax < 3; ax++) differ = smt_bin(a, SMT_BOR, differ, smt_ne(a, tid[0][ax], tid[1][ax]));
    all = and2(a, all, differ);
    if (lanes) {
        smt_id shift = smt_const(a, 32, lane_shift);
        if (!shape || shape[0] <= 0) {
            /* blockDim.x a multiple of 32: a warp (and a group of lanes) is
               consecutive x of one row. */
            all = and2(a, all, and2(a, smt_bin(a, SMT_EQ, tid[0][1], tid[1][1]), smt_bin(a, SMT_EQ, tid[0][2], tid[1][2])));
            all = and2(a, all, smt_bin(a, SMT_EQ, smt_bin(a, SMT_LSHR, tid[0][0], shift), smt_bin(a, SMT_LSHR, tid[1][0], shift)));
        } else {
            /* Linear thread ids (constants folded) in the same warp or group. */
            for (int t = 0; t < 2; t++)
                lin[t] = smt_bin(a, SMT_ADD, tid[t][0],
                                 smt_bin(a, SMT_MUL, bd[0], smt_bin(a, SMT_ADD, tid[t][1], smt_bin(a, SMT_MUL, bd[1], tid[t][2]))));
            all = and2(a, all, smt_bin(a, SMT_EQ, smt_bin(a, SMT_LSHR, lin[0], shift), smt_bin(a, SMT_LSHR, lin[1], shift)));
        }
    }
    return all;
}

/* blockDim.x * .y * .z <= 1024, over narrow operands (the bounds of
   thread_constraints make the truncation exact). */
static smt_id block_size_bound(struct value_model *vm, struct smt_arena *a)
{
    smt_id nx = smt_ext(a, SMT_ZEXT, smt_ext(a, SMT_TRUNC, value_builtin(vm, 'd', 0, 0), 11), 32);
    smt_id ny = smt_ext(a, SMT_ZEXT, smt_ext(a, SMT_TRUNC, value_builtin(vm, 'd', 1, 0), 11), 32);
    smt_id nz = smt_ext(a, SMT_ZEXT, smt_ext(a, SMT_TRUNC, value_builtin(vm, 'd', 2, 0), 7), 32);
    return ule(a, smt_bin(a, SMT_MUL, smt_bin(a, SMT_MUL, nx, ny), nz), 1024, false);
}

static bool block_too_large(struct divergence_facts *f, struct value_model *vm, const struct smt_model *m)
{
    uint64_t size = 1;
    for (int ax = 0; ax < 3; ax++) {
        uint64_t v = 1;
        smt_eval(f->arena, value_builtin(vm, 'd', ax, 0), m, &v);
        size *= v ? v : 1;
    }
    return size > 1024;
}

/* Which axes of blockIdx and gridDim the term reads. */
static void grid_axes(struct smt_arena *a, smt_id x, bool *axis)
{
    smt_id syms[SMT_MODEL_MAX];
    unsigned n = smt_symbols(a, x, syms, SMT_MODEL_MAX);
    axis[0] = axis[1] = axis[2] = false;
    for (unsigned i = 0; i < n; i++) {
        const char *nm = smt_node(a, syms[i])->name;
        if (!strncmp(nm, "blockIdx.", 9) || !strncmp(nm, "gridDim.", 8)) axis[strchr(nm, '.')[1] - 'x'] = true;
    }
}

/* Does the term read threadIdx/blockDim .y or .z? */
static bool uses_y_or_z(struct smt_arena *a, smt_id x)
{
    smt_id syms[SMT_MODEL_MAX];
    unsigned n = smt_symbols(a, x, syms, SMT_MODEL_MAX);
    for (unsigned i = 0; i < n; i++) {
        const char *nm = smt_node(a, syms[i])->name;
        if ((!strncmp(nm, "threadIdx.", 10) || !strncmp(nm, "blockDim.", 9)) && (strstr(nm, ".y") || strstr(nm, ".z")))
            return true;
    }
    return false;
}

static bool is_builtin_symbol(const char *name)
{
    return !strncmp(name, "threadIdx.", 10) || !strncmp(name, "blockIdx.", 9) || !strncmp(name, "blockDim.", 9) ||
           !strncmp(name, "gridDim.", 8);
}

static void fill_witness(struct divergence_facts *f, struct value_model *vm, const struct smt_model *m, const long long *shape,
                         smt_id c1, struct divergence_witness *w)
{
    memset(w, 0, sizeof *w);
    w->shape_known = shape != NULL;
    for (int ax = 0; ax < 3; ax++) {
        uint64_t v = 1;
        if (shape) v = (uint64_t)shape[ax];
        else smt_eval(f->arena, value_builtin(vm, 'd', ax, 0), m, &v);
        w->block[ax] = (long long)v;
        for (int t = 0; t < 2; t++) {
            uint64_t x = 0;
            smt_eval(f->arena, value_builtin(vm, 't', ax, t + 1), m, &x);
            w->tid[t][ax] = (long long)x;
        }
    }
    uint64_t truth = 0;
    smt_eval(f->arena, c1, m, &truth);
    w->first = truth ? 0 : 1;
    for (unsigned i = 0; i < m->n && w->n_values < 3; i++) {
        int thread;
        char name[48];
        if (is_builtin_symbol(m->name[i]) || !value_symbol_display(m->name[i], name, sizeof name, &thread) || thread)
            continue;
        snprintf(w->value_name[w->n_values], sizeof w->value_name[0], "%s", name);
        uint64_t v = m->value[i];
        w->value[w->n_values++] = m->width[i] == 32 ? (long long)(int32_t)(uint32_t)v : (long long)v;
    }
}

/* ---- concrete trials before the solver ---- */

/* Values tried for a symbol, small first: thread indices, block extents,
   iteration counters and everything else. */
static const long long tid_pool[] = {0, 1, 2, 3, 16, 31, 32, 33, 8, 63, 64, 65, 127, 128, 255, 256, 511, 100, 7, 5};
static const long long bdx_pool[] = {32, 64, 128, 256, 512, 1024, 96, 192, 384, 768};
static const long long bdyz_pool[] = {1, 2, 4, 8, 16, 3, 32};
static const long long bid_pool[] = {0, 1, 2, 3, 7, 100};
static const long long gdim_pool[] = {1, 2, 8, 64, 1024, 3};
static const long long iter_pool[] = {0, 1, 2, 3, 4, 7};
static const long long any_pool[] = {0, 1, 2, -1, 3, 4, 7, 8, 16, 31, 32, 33, 64, 100, 128, 1000, 1 << 16, 1 << 20, 5, 40};

static void pool_of(const char *name, const long long **pool, unsigned *n)
{
    if (!strncmp(name, "threadIdx.", 10)) *pool = tid_pool, *n = sizeof tid_pool / sizeof tid_pool[0];
    else if (!strcmp(name, "blockDim.x")) *pool = bdx_pool, *n = sizeof bdx_pool / sizeof bdx_pool[0];
    else if (!strncmp(name, "blockDim.", 9)) *pool = bdyz_pool, *n = sizeof bdyz_pool / sizeof bdyz_pool[0];
    else if (!strncmp(name, "blockIdx.", 9)) *pool = bid_pool, *n = sizeof bid_pool / sizeof bid_pool[0];
    else if (!strncmp(name, "gridDim.", 8)) *pool = gdim_pool, *n = sizeof gdim_pool / sizeof gdim_pool[0];
    else if (!strncmp(name, "$k@", 3)) *pool = iter_pool, *n = sizeof iter_pool / sizeof iter_pool[0];
    else *pool = any_pool, *n = sizeof any_pool / sizeof any_pool[0];
}

#define CONCRETE_TRIALS 256

/* Most divergent constructs are divergent for small, ordinary values: try a
   fixed sequence of assignments (the same in every run) and return the first
   that satisfies q, without asking the solver. */
static uint64_t next_random(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return *seed >> 33;
}

static long long pick(const long long *pool, unsigned n, unsigned trial, uint64_t *seed)
{
    if (trial == 0) return pool[0];
    /* Early trials keep to the small end of each pool. */
    unsigned span = trial < 32 && n > 4 ? 4 : n;
    return pool[next_random(seed) % span];
}

static bool concrete_witness(struct smt_arena *a, smt_id q, const long long *shape, struct smt_model *m)
{
    smt_id syms[SMT_MODEL_MAX];
    unsigned n = smt_symbols(a, q, syms, SMT_MODEL_MAX);
    if (n == SMT_MODEL_MAX) return false;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (unsigned trial = 0; trial < CONCRETE_TRIALS; trial++) {
        /* Extents first, then indices within them. */
        long long bd[3], gd[3];
        for (int ax = 0; ax < 3; ax++) {
            if (shape && shape[ax] > 0) bd[ax] = shape[ax];
            else if (ax == 0) bd[ax] = pick(bdx_pool, sizeof bdx_pool / sizeof bdx_pool[0], trial, &seed);
            else bd[ax] = shape && shape[1] <= 0 ? pick(bdyz_pool, sizeof bdyz_pool / sizeof bdyz_pool[0], trial, &seed) : 1;
            gd[ax] = pick(gdim_pool, sizeof gdim_pool / sizeof gdim_pool[0], trial, &seed);
        }
        /* At most 1024 threads in a block. */
        while (bd[0] * bd[1] * bd[2] > 1024 && (!shape || shape[1] <= 0) && (bd[1] > 1 || bd[2] > 1)) {
            if (bd[2] > 1) bd[2] /= 2;
            else bd[1] /= 2;
        }
        memset(m, 0, sizeof *m);
        for (unsigned i = 0; i < n; i++) {
            const struct smt_node *nd = smt_node(a, syms[i]);
            const char *nm = nd->name;
            const char *dot = strchr(nm, '.');
            int ax = dot && dot[1] >= 'x' && dot[1] <= 'z' ? dot[1] - 'x' : 0;
            const long long *pool;
            unsigned np;
            pool_of(nm, &pool, &np);
            long long v;
            if (!strncmp(nm, "blockDim.", 9)) v = bd[ax];
            else if (!strncmp(nm, "gridDim.", 8)) v = gd[ax];
            else if (!strncmp(nm, "threadIdx.", 10)) v = pick(pool, np, trial, &seed) % bd[ax];
            else if (!strncmp(nm, "blockIdx.", 9)) v = pick(pool, np, trial, &seed) % gd[ax];
            else v = pick(pool, np, trial, &seed);
            m->name[i] = nm;
            m->width[i] = nd->width;
            m->value[i] = nd->width ? (uint64_t)v & (nd->width >= 64 ? ~0ull : (1ull << nd->width) - 1) : (uint64_t)(v & 1);
        }
        m->n = n;
        uint64_t v = 0;
        if (smt_eval(a, q, m, &v) && v) return true;
    }
    return false;
}

/* `i < B` where i counts from start by step and B is a multiple of step
   the same in both threads (a bound rounded up to the stride): when both
   starts lie in [0, step), both threads run B/step iterations.  The
   general question is hard for the solver (a divider and three
   multipliers); this one is not.  True when proved. */
static bool padded_bound(struct divergence_facts *f, struct value_model *vm, CXCursor cond, smt_id constraints)
{
    CXCursor c = ast_strip(cond);
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator) return false;
    enum CXBinaryOperatorKind op = ast_binop(c);
    CXCursor counter, bound;
    if (op == CXBinaryOperator_LT) counter = ast_child(c, 0), bound = ast_child(c, 1);
    else if (op == CXBinaryOperator_GT) counter = ast_child(c, 1), bound = ast_child(c, 0);
    else return false;
    struct smt_arena *a = f->arena;
    smt_id s1, s2, step, step2;
    if (!value_loop_counter(vm, counter, 1, &s1, &step) || !value_loop_counter(vm, counter, 2, &s2, &step2) || step != step2)
        return false;
    smt_id b1 = value_expr(vm, bound, 1), b2 = value_expr(vm, bound, 2);
    if (!b1 || b1 != b2 || smt_width(a, b1) != smt_width(a, step)) return false;
    const struct smt_node *bn = smt_node(a, b1);
    uint64_t bc, sc;
    bool multiple = (bn->op == SMT_MUL && (bn->arg[0] == step || bn->arg[1] == step)) ||
                    (smt_is_const(a, b1, &bc) && smt_is_const(a, step, &sc) && sc && bc % sc == 0);
    if (!multiple) return false;
    smt_id zero = smt_const(a, smt_width(a, step), 0);
    smt_id in1 = and2(a, smt_bin(a, SMT_SLE, zero, s1), smt_bin(a, SMT_SLT, s1, step));
    smt_id in2 = and2(a, smt_bin(a, SMT_SLE, zero, s2), smt_bin(a, SMT_SLT, s2, step));
    smt_id q = and2(a, smt_un(a, SMT_BNOT, and2(a, in1, in2)), and2(a, value_assumptions(vm), constraints));
    return q && smt_check(a, q, SMT_BUDGET_MS, NULL) == SMT_UNSAT;
}

/* Does term x divide by something not constant?  Such facts (a grid of
   div_ceil(n, block) with the block a run-time value) make a question
   non-linear, which the solver rarely decides within its budget. */
static bool divides_by_symbol(struct smt_arena *a, smt_id x, unsigned char *seen, int depth)
{
    if (!x || seen[x] || depth > 200) return depth > 200;
    seen[x] = 1;
    const struct smt_node *n = smt_node(a, x);
    if (!n) return false;
    if ((n->op == SMT_SDIV || n->op == SMT_UDIV || n->op == SMT_SREM || n->op == SMT_UREM) &&
        !smt_is_const(a, n->arg[1], NULL))
        return true;
    if (n->op == SMT_CONST || n->op == SMT_SYM) return false;
    for (int i = 0; i < 3; i++)
        if (n->arg[i] && divides_by_symbol(a, n->arg[i], seen, depth + 1)) return true;
    return false;
}

/* What the kernel's launch sites say (hostexpr.h): the disjunction over
   its sites of each site's facts and template arguments; 0 when no site
   says anything (or one says nothing, or a launch is not seen).  Built per
   question: with a block shape fixed, blockDim is a constant in vm, and a
   site launching another shape drops out. */
static smt_id launch_facts(struct divergence_facts *f, struct value_model *vm, smt_id *small)
{
    *small = 0;
    if (!f->is_kernel) return 0;
    struct launch_model *m = analysis_get(f->deps, &launch_analysis, clang_getNullCursor());
    struct launch_site_view v[16];
    unsigned n;
    if (!m || !launch_site_views(m, f->fn, v, 16, &n) || n == 0) return 0;
    struct smt_arena *a = f->arena;
    CXCursor kids[96];
    unsigned nk = ast_children(f->fn, kids, 96);
    smt_id param[32], tparam[LAUNCH_MAX_TARGS];
    unsigned np = 0, nt = 0;
    for (unsigned i = 0; i < nk; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k == CXCursor_ParmDecl && np < 32) param[np++] = value_decl_symbol(vm, kids[i]);
        else if ((k == CXCursor_TemplateTypeParameter || k == CXCursor_TemplateTemplateParameter) && nt < LAUNCH_MAX_TARGS)
            tparam[nt++] = 0;
        else if (k == CXCursor_NonTypeTemplateParameter && nt < LAUNCH_MAX_TARGS)
            tparam[nt++] = value_decl_symbol(vm, kids[i]);
    }
    struct hostexpr_kernel hk = {np, param, {0, 0, 0}, {0, 0, 0}};
    /* For a witness a user can check: the parameters at most 4096. */
    smt_id bound = smt_bool(a, true);
    for (unsigned i = 0; i < np; i++)
        if (param[i]) bound = and2(a, bound, smt_bin(a, SMT_ULE, param[i], smt_const(a, smt_width(a, param[i]), 4096)));
    *small = bound;
    for (int ax = 0; ax < 3; ax++) {
        hk.grid[ax] = value_builtin(vm, 'g', ax, 0);
        hk.block[ax] = value_builtin(vm, 'd', ax, 0);
    }
    smt_id any = smt_bool(a, false);
    for (unsigned s = 0; s < n; s++) {
        smt_id site = hostexpr_site_facts(a, v[s].rel, &hk);
        for (unsigned t = 0; t < v[s].n_targs && t < nt; t++) {
            if (!v[s].targ_known[t] || !tparam[t]) continue;
            unsigned w = smt_width(a, tparam[t]);
            uint64_t val = (uint64_t)v[s].targ[t];
            site = and2(a, site, smt_bin(a, SMT_EQ, tparam[t], smt_const(a, w, w == 32 ? val & 0xffffffffu : val)));
        }
        uint64_t c;
        if (!site || (smt_is_const(a, site, &c) && c)) return 0;
        any = smt_bin(a, SMT_BOR, any, site);
    }
    unsigned char *seen = xcalloc((size_t)any + 1, 1);
    bool hard = divides_by_symbol(a, any, seen, 0);
    free(seen);
    return hard ? 0 : any;
}

/* The block shapes a question is asked under: each shape the launches
   give, or, with none known, a one-dimensional block (the plainest
   witness) and then any shape, which a question reading neither the y nor
   the z index need not be asked again under (shape_needed). */
static unsigned question_shapes(const struct divergence_facts *f)
{
    return f->shape_known ? f->li.n_shapes : 2;
}

static const long long *question_shape(const struct divergence_facts *f, unsigned s)
{
    static const long long one_d[3] = {0, 1, 1}, any[3] = {0, 0, 0};
    return f->shape_known ? f->li.shape[s].b : s == 0 ? one_d : any;
}

static bool shape_needed(const struct divergence_facts *f, unsigned s, smt_id question)
{
    return f->shape_known || s == 0 || uses_y_or_z(f->arena, question);
}

/* Can the pair disagree on cond (its truth, or for a switch its value)?
   SMT_UNKNOWN with *unmodelled set when the model cannot express it.  With
   the launch shapes known, one question per shape; without, a
   one-dimensional block first (it gives the plainest witness), then any
   block shape when the condition reads the y or z index.  lane_shift: 0, two
   threads of a block; else two lanes of one aligned group of 2^lane_shift
   (5: a warp). */
static enum smt_result ask(struct divergence_facts *f, struct value_model *vm, CXCursor cond, bool by_value,
                           unsigned lane_shift, struct divergence_witness *w, bool *unmodelled)
{
    *unmodelled = false;
    bool unknown = false;
    for (unsigned s = 0; s < question_shapes(f); s++) {
        const long long *shape = question_shape(f, s);
        value_model_set_shape(vm, shape);
        value_model_reset(vm);
        smt_id c1 = by_value ? value_expr(vm, cond, 1) : value_cond(vm, cond, 1);
        smt_id c2 = by_value ? value_expr(vm, cond, 2) : value_cond(vm, cond, 2);
        if (!c1 || !c2) {
            *unmodelled = true;
            smt_stats_count_unexpressed();
            return SMT_UNKNOWN;
        }
        struct smt_arena *a = f->arena;
        if (!shape_needed(f, s, c1)) break;
        bool grid_axis[3];
        grid_axes(a, and2(a, and2(a, c1, c2), value_assumptions(vm)), grid_axis);
        smt_id tc = thread_constraints(vm, a, shape, lane_shift, grid_axis);
        if (!by_value && padded_bound(f, vm, cond, tc)) continue;
        smt_id q = and2(a, smt_ne(a, c1, c2), and2(a, value_assumptions(vm), tc));
        if (!q) {
            *unmodelled = true;
            smt_stats_count_unexpressed();
            return SMT_UNKNOWN;
        }
        struct smt_model m;
        enum smt_result r = concrete_witness(a, q, shape, &m) ? SMT_SAT : smt_check(a, q, SMT_BUDGET_MS, &m);
        /* Undecided: the shared products (blockIdx.x * blockDim.x) as values
           of their own often settle it, and unsat there is unsat here. */
        if (r == SMT_UNKNOWN && smt_check_thorough(a, smt_abstract_shared(a, q), 4 * SMT_BUDGET_MS, NULL) == SMT_UNSAT)
            r = SMT_UNSAT;
        if (r == SMT_SAT && block_too_large(f, vm, &m))
            /* The cheap bounds on y and z admitted a block of more than 1024
               threads: ask again with the product itself. */
            r = smt_check(a, and2(a, q, block_size_bound(vm, a)), SMT_BUDGET_MS, &m);
        smt_id small = 0;
        smt_id lf = r == SMT_SAT ? launch_facts(f, vm, &small) : 0;
        if (lf) {
            /* Asked again with what the launches say (the grid they launch,
               the arguments, the host's asserts): no such launch runs the
               pair, or a witness that one does.  Undecided keeps the first
               answer: the facts only ever remove pairs. */
            bool lf_axis[3];
            grid_axes(a, lf, lf_axis);
            for (int ax = 0; ax < 3; ax++) lf_axis[ax] = lf_axis[ax] || grid_axis[ax];
            smt_id q2 = and2(a, and2(a, smt_ne(a, c1, c2), value_assumptions(vm)),
                             and2(a, thread_constraints(vm, a, shape, lane_shift, lf_axis), lf));
            struct smt_model m2;
            bool plain = q2 && concrete_witness(a, q2, shape, &m2);
            enum smt_result r2 = !q2 ? SMT_UNKNOWN : plain ? SMT_SAT : smt_check_thorough(a, q2, 4 * SMT_BUDGET_MS, &m2);
            if (r2 == SMT_UNSAT) {
                smt_stats_count_launch_refuted();
                continue;
            }
            if (r2 == SMT_SAT) {
                /* The solver's model can pick any 32-bit length: ask for one
                   with small parameters, for a witness a user can replay. */
                struct smt_model m3;
                if (!plain && small && smt_check_thorough(a, and2(a, q2, small), 4 * SMT_BUDGET_MS, &m3) == SMT_SAT &&
                    !block_too_large(f, vm, &m3))
                    m = m3;
                else if (!block_too_large(f, vm, &m2))
                    m = m2;
            }
        }
        if (r == SMT_SAT) {
            fill_witness(f, vm, &m, f->shape_known ? shape : NULL, by_value ? 0 : c1, w);
            return SMT_SAT;
        }
        if (r == SMT_UNKNOWN) unknown = true;
    }
    return unknown ? SMT_UNKNOWN : SMT_UNSAT;
}

static bool is_control_kind(enum divergence_kind k)
{
    return k == DIV_IF || k == DIV_LOOP || k == DIV_SWITCH || k == DIV_TERNARY || k == DIV_AND || k == DIV_OR;
}

static bool assumed(const struct refined *r, CXCursor cond)
{
    for (unsigned i = 0; i < r->n; i++)
        if (ast_same_node(r->assumed[i], cond)) return true;
    return false;
}

static bool add_assumption(struct divergence_facts *f, struct refined *r, CXCursor cond, bool lanes)
{
    if (r->n == DIVERGENCE_MAX_ASSUMED) return false;
    r->assumed[r->n++] = cond;
    struct uniformity *u = uniformity_new_assuming(f->tu, f->fn, f->deps, r->assumed, r->n);
    if (!u) return false;
    struct warp_view *w = NULL;
    if (lanes) {
        w = warp_view_new(f->tu, f->fn, u, f->shape_known ? &f->li : NULL);
        if (!w) {
            uniformity_release(u);
            return false;
        }
        warp_view_assume_uniform(w, r->assumed, r->n);
    }
    refined_release(r);
    r->u = u;
    r->w = w;
    return true;
}

enum divergence_verdict divergence_barrier(struct divergence_facts *f, CXCursor call, struct divergence *out,
                                           struct divergence_witness *w)
{
    if (!f) return DIVERGENCE_UNMODELLED;
    if (!f->vm_block) {
        f->vm_block = value_model_new(f->arena, f->tu, f->fn, f->base_u, NULL, VALUE_PAIR_BLOCK);
        value_model_set_params(f->vm_block, f->n_params, f->param_known, f->param_value);
    }
    for (int iter = 0; iter <= DIVERGENCE_MAX_ASSUMED; iter++) {
        struct uniformity *u = f->block.u ? f->block.u : f->base_u;
        if (!uniformity_barrier_divergent(u, call, out)) return DIVERGENCE_UNIFORM;
        if (out->from_argument || out->n_steps == 0) return DIVERGENCE_UNMODELLED;
        /* The construct: a varying condition, or the condition an exit is
           taken under. */
        unsigned ci = is_control_kind(out->steps[0].kind) ? 0 : 1;
        bool exit = ci == 1;
        if (exit && (out->n_steps < 2 || !is_control_kind(out->steps[1].kind) ||
                     (out->steps[0].kind != DIV_RETURN && out->steps[0].kind != DIV_BREAK &&
                      out->steps[0].kind != DIV_CONTINUE)))
            return DIVERGENCE_UNMODELLED;
        CXCursor cond = out->steps[ci].at;
        value_model_set_views(f->vm_block, u, NULL);
        bool unmodelled;
        enum smt_result r = ask(f, f->vm_block, cond, out->steps[ci].kind == DIV_SWITCH, 0, w, &unmodelled);
        if (unmodelled) return DIVERGENCE_UNMODELLED;
        if (r == SMT_UNKNOWN) return DIVERGENCE_UNKNOWN;
        if (r == SMT_SAT) {
            if (exit) {
                int pol = exit_polarity(enclosing_statement(f->fn, out->steps[0].at), out->steps[0].at);
                if (pol == 0) w->first = 1 - w->first;
            }
            return DIVERGENCE_WITNESSED;
        }
        if (assumed(&f->block, cond) || !add_assumption(f, &f->block, cond, false)) return DIVERGENCE_UNMODELLED;
    }
    return DIVERGENCE_UNMODELLED;
}

/* Is loop the last statement of the kernel's body (lanes that leave it
   have exited)? */
static bool trailing_loop(struct divergence_facts *f, CXCursor loop)
{
    if (!f->is_kernel) return false;
    CXCursor k[64];
    unsigned n = ast_children(f->fn, k, 64);
    if (!n || clang_getCursorKind(k[n - 1]) != CXCursor_CompoundStmt) return false;
    return ast_same_node(ast_block_last_statement(k[n - 1]), loop);
}

/* The statement that holds stmt directly (a compound, an if, a loop), or
   a null cursor. */
static CXCursor parent_statement(CXCursor fn, CXCursor stmt);

struct parent_find {
    CXCursor target, parent;
};

static enum CXChildVisitResult parent_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    struct parent_find *s = data;
    if (!clang_Cursor_isNull(s->parent)) return CXChildVisit_Break;
    if (ast_same_node(c, s->target)) {
        s->parent = parent;
        return CXChildVisit_Break;
    }
    return inside(c, s->target) ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

static CXCursor parent_statement(CXCursor fn, CXCursor stmt)
{
    struct parent_find s = {stmt, clang_getNullCursor()};
    clang_visitChildren(fn, parent_cb, &s);
    return s.parent;
}

/* Is stmt at the kernel's tail: the last statement of the kernel's body
   (a final `return;` aside), or the last of the then-arm of an if without
   else that is itself at the tail?  A lane that does not enter such an if
   goes straight to the kernel's end: it has exited, as if the if were
   `if (!c) return;` before the statements of its arm. */
static bool at_kernel_tail(struct divergence_facts *f, CXCursor stmt, int depth)
{
    if (!f->is_kernel || depth > 16) return false;
    CXCursor block = parent_statement(f->fn, stmt);
    if (clang_Cursor_isNull(block) || clang_getCursorKind(block) != CXCursor_CompoundStmt) return false;
    if (!ast_same_node(ast_block_last_statement(block), stmt)) return false;
    CXCursor up = parent_statement(f->fn, block);
    if (ast_same_node(up, f->fn)) return true;
    if (clang_Cursor_isNull(up) || clang_getCursorKind(up) != CXCursor_IfStmt) return false;
    CXCursor arms[4];
    if (ast_children(up, arms, 4) != 2 || !ast_same_node(arms[1], block)) return false;
    return at_kernel_tail(f, up, depth + 1);
}

/* Is holder an if without else at the kernel's tail, with call in its arm
   (lanes that skip it have exited)? */
static bool tail_guard(struct divergence_facts *f, CXCursor holder, CXCursor call)
{
    if (clang_getCursorKind(holder) != CXCursor_IfStmt) return false;
    CXCursor arms[4];
    if (ast_children(holder, arms, 4) != 2 || !inside(arms[1], call)) return false;
    return at_kernel_tail(f, holder, 0);
}

bool divergence_tail_guard(struct divergence_facts *f, CXCursor call, const struct warp_divergence *dv)
{
    if (!f || dv->early_exit || clang_Cursor_isNull(dv->at)) return false;
    CXCursor st = enclosing_statement(f->fn, dv->at);
    if (clang_Cursor_isNull(st)) return false;
    CXCursor sc = condition_of(st);
    return !clang_Cursor_isNull(sc) && inside(sc, dv->at) && tail_guard(f, st, call);
}

/* The lane question of a collective, refined in rf: pairs of lanes as
   lane_shift says (5: one warp; less: one aligned group of lanes). */
static enum divergence_verdict collective_in(struct divergence_facts *f, CXCursor call, bool exits_ok, unsigned lane_shift,
                                             struct refined *rf, struct warp_divergence *out,
                                             struct divergence_witness *w)
{
    for (int iter = 0; iter <= DIVERGENCE_MAX_ASSUMED; iter++) {
        struct warp_view *wv = rf->w ? rf->w : f->base_w;
        if (!warp_stmt_lane_divergent(wv, call, exits_ok, out) || clang_Cursor_isNull(out->at)) return DIVERGENCE_UNIFORM;
        CXCursor cond = out->at, holder = clang_getNullCursor();
        if (out->early_exit) {
            /* The innermost if around the exit not yet proved uniform. */
            holder = enclosing_statement(f->fn, out->at);
            while (clang_getCursorKind(holder) == CXCursor_IfStmt && assumed(rf, condition_of(holder)))
                holder = enclosing_statement(f->fn, holder);
            cond = condition_of(holder);
            if (clang_Cursor_isNull(cond) || clang_getCursorKind(holder) != CXCursor_IfStmt) return DIVERGENCE_UNMODELLED;
        } else {
            /* The statement whose condition (or, for a for loop, whose
               header) holds it: the question is about that condition. */
            CXCursor st = enclosing_statement(f->fn, cond);
            CXCursor sc = clang_Cursor_isNull(st) ? st : condition_of(st);
            if (!clang_Cursor_isNull(sc) && inside(sc, cond)) {
                holder = st;
                cond = sc;
            } else if (clang_getCursorKind(st) == CXCursor_ForStmt && !clang_Cursor_isNull(sc)) {
                CXCursor k[4];
                if (ast_children(st, k, 4) == 4 && inside(k[2], cond)) {
                    holder = st;
                    cond = sc;
                }
            }
        }
        /* Lanes that leave the kernel's last loop (through its condition or
           a break) have exited: only the others must arrive. */
        bool proved = false;
        if (exits_ok) {
            enum CXCursorKind hk = clang_getCursorKind(holder);
            CXCursor loop = clang_getNullCursor();
            if (!out->early_exit && (hk == CXCursor_ForStmt || hk == CXCursor_WhileStmt || hk == CXCursor_DoStmt))
                loop = holder;
            else if (out->early_exit && clang_getCursorKind(out->at) == CXCursor_BreakStmt) {
                CXCursor l = enclosing_statement(f->fn, holder);
                while (!clang_Cursor_isNull(l) && clang_getCursorKind(l) == CXCursor_IfStmt) l = enclosing_statement(f->fn, l);
                loop = l;
            }
            if (!clang_Cursor_isNull(loop) && inside(loop, call) && trailing_loop(f, loop)) proved = true;
            /* Lanes that skip an if at the kernel's tail have exited too. */
            if (!out->early_exit && tail_guard(f, holder, call)) proved = true;
        }
        if (!proved) {
            value_model_set_views(f->vm_warp, rf->u ? rf->u : f->base_u, wv);
            bool unmodelled;
            enum smt_result r = ask(f, f->vm_warp, cond, clang_getCursorKind(holder) == CXCursor_SwitchStmt, lane_shift, w,
                                    &unmodelled);
            if (unmodelled) return DIVERGENCE_UNMODELLED;
            if (r == SMT_UNKNOWN) return DIVERGENCE_UNKNOWN;
            if (r == SMT_SAT) {
                if (out->early_exit && exit_polarity(holder, out->at) == 0) w->first = 1 - w->first;
                return DIVERGENCE_WITNESSED;
            }
        }
        /* The warp view may name a for loop's step as what varies its trip
           count: the step is taken as proved with the condition. */
        bool step_too = !out->early_exit && !ast_same_node(out->at, cond);
        if (assumed(rf, cond) && (!step_too || assumed(rf, out->at))) return DIVERGENCE_UNMODELLED;
        if (!assumed(rf, cond) && !add_assumption(f, rf, cond, true)) return DIVERGENCE_UNMODELLED;
        if (step_too && !assumed(rf, out->at) && !add_assumption(f, rf, out->at, true)) return DIVERGENCE_UNMODELLED;
    }
    return DIVERGENCE_UNMODELLED;
}

static bool warp_models(struct divergence_facts *f)
{
    if (!f->base_w) f->base_w = analysis_get(f->deps, &warp_analysis, f->fn);
    if (!f->base_w) return false;
    if (!f->vm_warp) {
        f->vm_warp = value_model_new(f->arena, f->tu, f->fn, f->base_u, f->base_w, VALUE_PAIR_WARP);
        value_model_set_params(f->vm_warp, f->n_params, f->param_known, f->param_value);
    }
    return true;
}

enum divergence_verdict divergence_collective(struct divergence_facts *f, CXCursor call, bool exits_ok,
                                              struct warp_divergence *out, struct divergence_witness *w)
{
    if (!f || !warp_models(f)) return DIVERGENCE_UNMODELLED;
    return collective_in(f, call, exits_ok, 5, &f->warp[exits_ok], out, w);
}

enum divergence_verdict divergence_collective_in_groups(struct divergence_facts *f, CXCursor call,
                                                        unsigned group_lanes, struct warp_divergence *out,
                                                        struct divergence_witness *w)
{
    if (!f || !warp_models(f)) return DIVERGENCE_UNMODELLED;
    unsigned shift = 0;
    while ((1u << shift) < group_lanes) shift++;
    if ((1u << shift) != group_lanes || shift == 0 || shift > 5) return DIVERGENCE_UNMODELLED;
    /* What was proved for one width holds for narrower groups only: start
       again when the width changes. */
    if (f->group_shift != shift) {
        refined_release(&f->group);
        memset(&f->group, 0, sizeof f->group);
        f->group_shift = shift;
    }
    return collective_in(f, call, false, shift, &f->group, out, w);
}

/* ---- the guards on the way to a statement ---- */

#define REACH_MAX_GUARDS 32

/* A condition known when the statement runs: it holds, or it fails. */
struct guard {
    CXCursor cond;
    bool holds;
};

static void add_guard(struct guard *g, unsigned *n, CXCursor cond, bool holds)
{
    if (*n < REACH_MAX_GUARDS) g[(*n)++] = (struct guard){cond, holds};
}

/* The guards from node down to target: the arm of each if, ?: and &&/||
   it sits in, the condition of each while and for loop whose body holds it,
   and in each block on the way, `if (c) <leave>` statements before it (c
   fails).  Guards past REACH_MAX_GUARDS, or any not read, are left out:
   fewer guards only admit more lanes. */
static void guards_to(CXCursor node, CXCursor target, struct guard *g, unsigned *n, int depth)
{
    if (depth > 64 || ast_same_node(node, target)) return;
    CXCursor kids[256];
    unsigned nk = ast_children(node, kids, 256);
    if (nk == 256) return;
    unsigned i = 0;
    while (i < nk && !inside(kids[i], target)) i++;
    if (i == nk) return;
    switch (clang_getCursorKind(node)) {
    case CXCursor_CompoundStmt:
        for (unsigned j = 0; j < i; j++) {
            CXCursor arms[4];
            if (clang_getCursorKind(kids[j]) == CXCursor_IfStmt && ast_children(kids[j], arms, 4) == 2 &&
                ast_stmt_leaves_block(arms[1]))
                add_guard(g, n, arms[0], false);
        }
        break;
    case CXCursor_IfStmt:
        if ((nk == 2 || nk == 3) && i >= 1) add_guard(g, n, kids[0], i == 1);
        break;
    case CXCursor_WhileStmt:
        if (nk == 2 && i == 1) add_guard(g, n, kids[0], true);
        break;
    case CXCursor_ForStmt:
        if (nk == 4 && i == 3) add_guard(g, n, kids[1], true);
        break;
    case CXCursor_ConditionalOperator:
        if (nk == 3 && i >= 1) add_guard(g, n, kids[0], i == 1);
        break;
    case CXCursor_BinaryOperator:
        if (nk == 2 && i == 1 && ast_binop(node) == CXBinaryOperator_LAnd) add_guard(g, n, kids[0], true);
        if (nk == 2 && i == 1 && ast_binop(node) == CXBinaryOperator_LOr) add_guard(g, n, kids[0], false);
        break;
    default:
        break;
    }
    guards_to(kids[i], target, g, n, depth + 1);
}

bool divergence_one_lane_reaches(struct divergence_facts *f, CXCursor at)
{
    if (!f || !warp_models(f)) return false;
    CXCursor kids[96];
    unsigned nk = ast_children(f->fn, kids, 96);
    if (nk == 0 || clang_getCursorKind(kids[nk - 1]) != CXCursor_CompoundStmt) return false;
    struct guard g[REACH_MAX_GUARDS];
    unsigned ng = 0;
    guards_to(kids[nk - 1], at, g, &ng, 0);
    if (ng == 0) return false;
    if (!f->vm_reach) {
        f->vm_reach = value_model_new(f->arena, f->tu, f->fn, f->base_u, f->base_w, VALUE_PAIR_WARP);
        value_model_set_params(f->vm_reach, f->n_params, f->param_known, f->param_value);
        value_model_set_reads_per_use(f->vm_reach, true);
    }
    struct value_model *vm = f->vm_reach;
    struct smt_arena *a = f->arena;
    for (unsigned s = 0; s < question_shapes(f); s++) {
        const long long *shape = question_shape(f, s);
        value_model_set_shape(vm, shape);
        value_model_reset(vm);
        smt_id both = smt_bool(a, true);
        for (int t = 1; t <= 2; t++)
            for (unsigned i = 0; i < ng; i++) {
                smt_id c = value_cond(vm, g[i].cond, t);
                if (c) both = and2(a, both, g[i].holds ? c : smt_un(a, SMT_BNOT, c));
            }
        if (!shape_needed(f, s, both)) break;
        smt_id facts = and2(a, both, value_assumptions(vm));
        bool axis[3];
        grid_axes(a, facts, axis);
        smt_id q = and2(a, facts, thread_constraints(vm, a, shape, 5, axis));
        if (!q) return false;
        /* First with the shared products abstracted (bx * bdx as a value of
           its own): cheap, and enough when the guards bound the lanes
           through threadIdx alone; the bit-vector strategy, as for launch
           facts, decides these where the plain solver runs out). */
        if (smt_check_thorough(a, smt_abstract_shared(a, q), 8 * SMT_BUDGET_MS, NULL) == SMT_UNSAT) continue;
        if (smt_check(a, q, SMT_BUDGET_MS, NULL) != SMT_UNSAT) {
            smt_stats_count_one_lane(false);
            return false;
        }
    }
    smt_stats_count_one_lane(true);
    return true;
}
