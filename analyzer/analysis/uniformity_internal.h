/* uniformity_internal.h: what the files of the thread-dependence analysis
 * share, and only they include: values, reasons, variables, the node tree,
 * states, field paths and lvalues, the analysis of one function (struct fnan)
 * and the summaries of callees, with the functions one of these files defines
 * for the others (named u_...).  What stays in one file is static there.
 *
 * The analysis (its public header: uniformity.h) is one module in four files:
 *   uniformity.c        reasons, the node tree, variables, driving one function,
 *                       the analysis kind and the public queries
 *   uniformity_eval.c   expressions and memory: lvalues, where pointers point,
 *                       field paths, loads and stores, barrier ordering
 *   uniformity_calls.c  calls: callees, intrinsics and barriers, summaries
 *   uniformity_exec.c   states, statements and control flow, loops
 * They call each other (an expression holds a call, the call's summary runs
 * the callee's statements, which hold expressions). */
#ifndef CUDALINT_UNIFORMITY_INTERNAL_H
#define CUDALINT_UNIFORMITY_INTERNAL_H

#include "analysis/uniformity.h"
#include "clang/clang_api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t vmask;
#define VM_THREAD ((vmask)1)
#define VM_PARAMS (~(vmask)1)
#define MAX_PARAM_BITS 62

static inline vmask u_param_bit(unsigned k)
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

static inline struct vinfo u_vjoin(struct vinfo a, struct vinfo b)
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

static inline struct vinfo u_vmk(vmask m, int why)
{
    struct vinfo v = {m, m ? why : -1, 0};
    return v;
}

static inline bool u_vjoin_into(struct vinfo *dst, struct vinfo src)
{
    struct vinfo j = u_vjoin(*dst, src);
    bool ch = j.m != dst->m || (dst->why < 0 && j.why >= 0);
    *dst = j;
    return ch;
}

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

/* Where an lvalue expression stores or reads: a variable, or what it points
   at, with the field path within it. */
struct lval {
    int var;        /* -1: unknown storage */
    bool pointee;   /* the memory var points to, not var itself */
    struct vinfo addr;
    struct fpath path; /* the fields accessed within it (empty: all of it) */
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

/* ---- uniformity.c ---- */

/* Keeps s (malloc'd) until the analysis of a is freed. */
char *u_an_keep(struct fnan *a, char *s);
unsigned u_loc_offset(CXCursor c);
bool u_is_array_type(CXType t);
bool u_is_pointer_type(CXType t);
bool u_is_reference_type(CXType t);
int u_add_reason(struct fnan *a, enum divergence_kind k, CXCursor at, char *what, int inner);
int u_origin(struct fnan *a, struct node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int u_cond_reason(struct fnan *a, struct node *n, enum divergence_kind k, int inner);
int u_exit_reason(struct fnan *a, struct node *n, enum divergence_kind k, int inner);
/* The node of cursor c in a's tree, or NULL. */
struct node *u_map_get(struct fnan *a, CXCursor c);
int u_var_add(struct fnan *a, CXCursor decl);
bool u_var_is_local_storage(const struct var *v);
bool u_node_is_barrier(struct node *n);
bool u_is_loop_kind(enum CXCursorKind k);
/* The analysis of fn (NULL: nothing known of it); callees' summaries. */
struct fnan *u_analyse_function(struct uniformity *u, CXTranslationUnit tu, CXCursor fn);

/* ---- uniformity_eval.c ---- */

struct node *u_strip_node(struct node *n);
struct node *u_strip_casts(struct node *n);
int u_node_var(struct fnan *a, struct node *n);
struct lval u_root_of(struct fnan *a, struct node *n, int depth);
struct fpath u_ptr_path(struct fnan *a, struct node *n, int depth);
void u_set_target(struct fnan *a, int var, struct lval r);
void u_store(struct fnan *a, struct state *st, struct lval lv, struct vinfo val, struct ctl c, bool strong,
             struct node *at);
struct vinfo u_load(struct fnan *a, struct state *st, struct node *n, struct lval lv);
char u_builtin_component(struct fnan *a, CXCursor member);
bool u_is_builtin_member(struct fnan *a, struct node *n, enum var_class *cls);
struct lval u_lvalue(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);
struct vinfo u_eval_assign(struct fnan *a, struct state *st, struct node *lhs, struct vinfo rhs,
                           struct ctl scoped, bool compound, int sign);
void u_track_pointer(struct fnan *a, struct node *lhs, struct node *rhs);
struct vinfo u_eval_asm(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);
struct vinfo u_eval(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);

/* ---- uniformity_calls.c ---- */

void u_classify_call(struct fnan *a, struct node *n);
struct vinfo u_eval_call(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);

/* ---- uniformity_exec.c ---- */

void u_state_init(struct fnan *a, struct state *s);
void u_state_free(struct state *s);
struct ctl u_effective(const struct state *st, struct ctl scoped);
struct ctl u_ctl_push(struct ctl c, struct vinfo add);
bool u_tid_against_extent(struct fnan *a, struct node *cmp);
void u_exec(struct fnan *a, struct state *st, struct node *n, struct ctl scoped);

#endif
