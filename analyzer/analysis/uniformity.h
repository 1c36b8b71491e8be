/* uniformity.h: the thread-dependence (uniformity) analysis: for each
 * expression, variable and branch of a function, may its value or outcome
 * differ between the threads of a block?  Built from a translation unit and
 * a function (uniformity_analysis, cached per function by the engine) and
 * shared by rules (CU101, CU401, later ones).  It returns facts; the rules
 * word them. */
#ifndef CUDALINT_UNIFORMITY_H
#define CUDALINT_UNIFORMITY_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>

struct uniformity;

/* Why something varies: the cursor of the source of variation (a threadIdx
   use, an atomic, a varying load, a varying condition...) and a short reason
   ("depends on threadIdx.x"). */
struct variance_reason {
    CXCursor origin;
    const char *why; /* static or owned by the analysis */
};

/* The analysis kind: facts are a struct uniformity * (NULL at file scope).
   A rule gets it with ctx_analysis(ctx, &uniformity_analysis); it asks deps
   for the launch model (launch_analysis) of the translation unit. */
extern const struct analysis_kind uniformity_analysis;

/* The same analysis of fn, taking the conditions in uniform[] (expression
   cursors of fn) to be the same in every thread: what a solver proved of
   them (divergence.h).  Released with uniformity_release. */
struct uniformity *uniformity_new_assuming(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps,
                                           const CXCursor *uniform, unsigned n);
void uniformity_release(struct uniformity *u);
/* --statistics: functions this process could not analyse within the walk's
   statement budget (printed only when there were some). */
void uniformity_stats_report(void);

/* May the value of expr differ between threads of a block?  Expressions the
   interpretation never reached (dead code, unevaluated operands) are judged
   by what they read. */
bool uniformity_expr_varies(struct uniformity *u, CXCursor expr, struct variance_reason *why);
/* Is expr part of the analysed function at all (false: any answer above is
   "uniform" by default)? */
bool uniformity_expr_known(struct uniformity *u, CXCursor expr);
/* For a read of memory or of a variable (a[i], p->f, *p, s.f): may two
   threads reading it at the same address get different values, because
   what is stored there was written with thread-dependent values (or under
   thread-dependent control) and no barrier orders the read after or before
   those writes?  True too when the interpretation never reached the read.
   A read whose address differs between threads but whose memory holds one
   value per address answers false: equal addresses read equal values. */
bool uniformity_load_content_varies(struct uniformity *u, CXCursor expr);
/* May a variable (VarDecl/ParmDecl cursor) hold different values in different
   threads anywhere in the function?  For __shared__ and global variables:
   are they written with thread-dependent values or addresses (a read at a
   uniform address after a barrier is still uniform: ask about the read). */
bool uniformity_var_varies(struct uniformity *u, CXCursor decl, struct variance_reason *why);
/* Is the statement reached under control flow that may differ between threads
   (a varying if/switch/loop condition, a loop with a varying trip count, code
   after a varying return/break/continue/goto)?  why names the condition. */
bool uniformity_control_varies(struct uniformity *u, CXCursor stmt, struct variance_reason *why);

/* ---- block-wide barriers (CU101 and later rules) ---- */

/* A call that synchronises the block (or more): __syncthreads and its
   _count/_and/_or forms, __barrier_sync, cooperative groups' sync of a
   thread_block, grid_group or cluster_group, or a call of a function defined
   in the translation unit that reaches one. */
struct barrier_info {
    const char *name;   /* "__syncthreads()", "block.sync()": the barrier itself */
    const char *callee; /* for a call of a function that reaches one: its name, else NULL */
    CXCursor inner;     /* that barrier, inside the callee or deeper (null cursor otherwise) */
    const char *inner_function; /* the function holding it */
};
bool uniformity_call_barrier(struct uniformity *u, CXCursor call, struct barrier_info *out);

/* Why a barrier (or a call reaching one) is reached by only some threads:
   the chain of reasons from the divergent construct down to the origin of
   the variation.  The analysis gives facts; the rule (CU101) words them. */
enum divergence_kind {
    DIV_ORIGIN,   /* a source of variation: threadIdx, an atomic, a racy load (what: "threadIdx.x") */
    DIV_IF,       /* a varying if condition */
    DIV_LOOP,     /* a loop whose trip count varies */
    DIV_SWITCH,
    DIV_TERNARY,
    DIV_AND,      /* right operand of && evaluated only when the left holds */
    DIV_OR,
    DIV_RETURN,   /* a return taken by some threads */
    DIV_BREAK,
    DIV_CONTINUE,
    DIV_GOTO,
    DIV_CALL_ARG, /* a callee's barrier depends on a parameter (what: its name) */
};
#define DIVERGENCE_MAX_STEPS 8
struct divergence_step {
    enum divergence_kind kind;
    CXCursor at;
    const char *what;  /* DIV_ORIGIN: the source; DIV_CALL_ARG: the parameter; else NULL */
    const char *via;   /* the first variable the varying construct reads, or NULL */
};
struct divergence {
    bool from_argument; /* the callee's barrier depends on a parameter; the argument varies */
    /* What the variation comes from at the end of the chain ("threadIdx.x"),
       NULL when not recorded (the thread index). */
    const char *origin;
    /* Barriers of the function made divergent by the same construct: this
       one's position among them in source order, and their number. */
    unsigned same_cause_index, same_cause_count;
    CXCursor same_cause_next; /* the next of them, or a null cursor */
    /* From the divergent construct (steps[0]) towards the origin. */
    unsigned n_steps;
    struct divergence_step steps[DIVERGENCE_MAX_STEPS];
};
/* Strings stay valid as long as the analysis. */
bool uniformity_barrier_divergent(struct uniformity *u, CXCursor call, struct divergence *out);

/* For a warp collective that returns one of its lanes' values, or combines
   them so that equal inputs give equal results (shuffles, reductions, the
   all/any votes): the argument holding the value (1, after the mask of the
   _sync forms; 0 for the legacy forms), else -1.  Not ballots and matches:
   their results name lanes.  Of a value the same in every lane (and a mask
   the same), every lane gets that value back. */
int uniformity_collective_value_arg(const char *name);

#endif
