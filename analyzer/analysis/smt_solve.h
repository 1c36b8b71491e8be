/* smt_solve.h: the one question asked of the solver: is a formula of an
 * arena (smt.h) satisfiable within a budget?  Answers are cached per arena by
 * formula id, and every process counts its queries for --statistics.  The
 * back end is smt_z3.h; another solver replaces it in smt_solve.c. */
#ifndef CUDALINT_SMT_SOLVE_H
#define CUDALINT_SMT_SOLVE_H

#include "analysis/smt.h"
#include <stdbool.h>

/* The per-query budget, in milliseconds: the one place it is set. */
#define SMT_BUDGET_MS 50

/* Is the boolean formula satisfiable?  budget_ms bounds the solver's time;
   a time-out, an error or no back end answers SMT_UNKNOWN.  model_out
   (may be NULL) is filled on SMT_SAT.  Answers are cached by formula id. */
enum smt_result smt_check(struct smt_arena *a, smt_id formula, unsigned budget_ms, struct smt_model *model_out);

/* The same, for a formula heavy in division and multiplication (a launch's
   grid arithmetic): the back end preprocesses it as bit-vector arithmetic
   before it searches, which costs more on small formulas and decides these
   in a fraction of the time. */
enum smt_result smt_check_thorough(struct smt_arena *a, smt_id formula, unsigned budget_ms, struct smt_model *model_out);

/* What every arena of this process asked: for --statistics. */
struct smt_stats {
    unsigned long queries, sat, unsat, unknown, cached, folded;
    double solver_ms;
};
void smt_stats_get(struct smt_stats *out);
/* Counts a construct the caller left undecided because it could not be
   expressed (shown with the statistics). */
void smt_stats_count_unexpressed(void);
/* A pair the walk and the solver found, that no launch of the kernel runs
   (its grid, arguments and the host's asserts: hostexpr.h). */
void smt_stats_count_launch_refuted(void);
/* A one-lane question (divergence_one_lane_reaches): asked, and proved. */
void smt_stats_count_one_lane(bool proved);
unsigned long smt_stats_unexpressed(void);
/* One line through the report path (--statistics): the counts above. */
void smt_stats_report(void);

#endif
