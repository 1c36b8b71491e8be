/* divergence.h: two-thread divergence questions decided by a solver, the way
 * GPUVerify reduces barrier divergence to two threads.  For a barrier the
 * thread-dependence walk (uniformity.h) calls divergent, or a full-mask warp
 * collective the warp view (warp.h) calls lane-divergent, each construct the
 * walk names is asked as: can two threads of one block (two non-exited lanes
 * of one warp) disagree on it, under the launch shapes and C's integer
 * semantics?  Unsat removes the construct (the walk is run again assuming it
 * uniform); sat keeps the finding with a witness from the model.  The solver
 * only refines the walk: it never reports what the walk did not. */
#ifndef CUDALINT_DIVERGENCE_H
#define CUDALINT_DIVERGENCE_H

#include "analysis/analysis.h"
#include "analysis/uniformity.h"
#include "analysis/warp.h"
#include "clang/clang_api.h"
#include <stdbool.h>

/* Per function (facts: struct divergence_facts *, NULL at file scope); it
   stands on uniformity_analysis, warp_analysis and launch_analysis. */
extern const struct analysis_kind divergence_analysis;
struct divergence_facts;

enum divergence_verdict {
    DIVERGENCE_UNIFORM,    /* every construct was proved the same in both threads */
    DIVERGENCE_WITNESSED,  /* two threads disagree: the witness says which */
    DIVERGENCE_UNMODELLED, /* the walk's verdict stands: a construct the model does not express */
    DIVERGENCE_UNKNOWN,    /* the solver ran out of budget: say nothing (counted) */
};

/* Two concrete threads (or lanes) and what they do differently. */
struct divergence_witness {
    bool shape_known;       /* the block shape came from the launch sites */
    long long block[3];     /* the block shape of the witness */
    long long tid[2][3];    /* threadIdx of the two threads */
    int first;              /* 0 or 1: the thread that takes the exit, the branch, or stays in the loop */
    /* Other values of the model a reader can name (kernel parameters,
       variables the same in both threads): "n", 40. */
    unsigned n_values;
    char value_name[3][48];
    long long value[3];
};

/* CU101: is the barrier call (uniformity_barrier_divergent says yes) really
   reached by only some threads?  out is the divergence chain of the
   construct that decides it (from the walk refined by what the solver
   proved); w is filled for DIVERGENCE_WITNESSED. */
enum divergence_verdict divergence_barrier(struct divergence_facts *f, CXCursor call, struct divergence *out,
                                           struct divergence_witness *w);

/* CU103: is the collective call (warp_stmt_lane_divergent says yes) reached
   by only some non-exited lanes of a warp?  exits_ok as for
   warp_stmt_lane_divergent. */
enum divergence_verdict divergence_collective(struct divergence_facts *f, CXCursor call, bool exits_ok,
                                              struct warp_divergence *out, struct divergence_witness *w);

/* CU103: is the divergence dv (found for call) the condition of an if
   without else at the kernel's tail, holding call in its arm?  The lanes
   that skip it go straight to the kernel's end: they exit, as after an
   early return. */
bool divergence_tail_guard(struct divergence_facts *f, CXCursor call, const struct warp_divergence *dv);

/* CU103, for a shuffle whose width argument confines it to aligned groups
   of group_lanes lanes (a power of two below 32): can two lanes of one such
   group disagree on reaching it, exits included?  When they cannot, lanes
   that leave the kernel do so a whole group at a time, and no lane that
   stays reads one that left. */
enum divergence_verdict divergence_collective_in_groups(struct divergence_facts *f, CXCursor call,
                                                        unsigned group_lanes, struct warp_divergence *out,
                                                        struct divergence_witness *w);

/* CU402: do the guards on the way to `at` (the arms of the ifs it sits
   in, its loops' conditions, earlier early exits) admit at most one lane
   of a warp at a time?  True only when the solver proves that no two lanes
   of one warp reach it in the same pass (a tail branch for the last few
   elements of a row, `if (threadIdx.x == blockDim.x - 1)`): such an access
   is one lane's, and touches one sector. */
bool divergence_one_lane_reaches(struct divergence_facts *f, CXCursor at);

#endif
