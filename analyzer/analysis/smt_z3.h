/* smt_z3.h: the Z3 back end of the formula layer: decides one formula of an
 * arena (smt.h) with a fresh solver in a context kept per arena. */
#ifndef CUDALINT_SMT_Z3_H
#define CUDALINT_SMT_Z3_H

#include "analysis/smt.h"

/* Decides formula within budget_ms (SMT_UNKNOWN on time-out or error);
   fills model (the symbols of the formula) on SMT_SAT; thorough picks the
   bit-vector strategy (smt_check_thorough).  *state is the back
   end's state for the arena (NULL at first), released by smt_z3_release. */
enum smt_result smt_z3_check(const struct smt_arena *a, void **state, smt_id formula, unsigned budget_ms, bool thorough,
                             struct smt_model *model);
void smt_z3_release(void *state);

#endif
