/* uniformity.h: the thread-dependence (uniformity) analysis: for each
 * expression, variable and branch of a function, may its value or outcome
 * differ between the threads of a block?  Computed once per function (cached
 * through ctx_fn_cache_*) and shared by rules (CU101, CU401, later ones). */
#ifndef CUDALINT_UNIFORMITY_H
#define CUDALINT_UNIFORMITY_H

#include "engine/walk.h"
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

/* The analysis of the function enclosing the current cursor (ctx->function),
   computed on first use. */
struct uniformity *uniformity_get(struct rule_ctx *ctx);

/* May the value of expr differ between threads of a block?  Expressions the
   interpretation never reached (dead code, unevaluated operands) are judged
   by what they read. */
bool uniformity_expr_varies(struct uniformity *u, CXCursor expr, struct variance_reason *why);
/* Is expr part of the analysed function at all (false: any answer above is
   "uniform" by default)? */
bool uniformity_expr_known(struct uniformity *u, CXCursor expr);
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
   a message fragment ("the condition depends on threadIdx.x") and notes from
   the divergent construct down to the origin of the variation. */
#define DIVERGENCE_MAX_NOTES 4
struct divergence {
    const char *message;
    bool from_argument; /* the callee's barrier depends on a parameter; the argument varies */
    /* Barriers of the function made divergent by the same construct: this
       one's position among them in source order, and their number. */
    unsigned same_cause_index, same_cause_count;
    CXCursor same_cause_next; /* the next of them, or a null cursor */
    unsigned n_notes;
    struct {
        CXCursor at;
        const char *text;
    } notes[DIVERGENCE_MAX_NOTES];
};
/* Strings stay valid as long as the analysis (the enclosing function's walk). */
bool uniformity_barrier_divergent(struct uniformity *u, CXCursor call, struct divergence *out);

#endif
