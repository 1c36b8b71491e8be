/* unroll.h: does nvcc unroll a for loop fully?  The unroll pragma written
 * before the loop, in every spelling, and the loop's constant trip count
 * (CU301, CU403 through analysis/constidx). */
#ifndef CUDALINT_UNROLL_H
#define CUDALINT_UNROLL_H

#include "analysis/constprop.h"
#include "clang/clang_api.h"
#include <stdbool.h>

/* nvcc 13.0 (-O3, sm_90) unrolls a loop with a constant trip count fully,
   without any pragma, up to this trip count: tests/unroll_threshold.py
   measures it (no backward branch left in the PTX, a 0-byte stack frame in
   ptxas -v) on a loop body of two loads and a multiply-add, and fails when it
   changes.  Above it nvcc unrolls some trip counts (36, 40) and not others.
   The threshold is a cost: it is applied only to a loop without a loop
   inside it. */
#define NVCC_FULL_UNROLL_MAX_TRIP 33

/* In a loop nvcc 13.0 unrolls fully, an index that multiplies the counter
   by a run-time value (A[(r + k) * K + c], A[k * K + c]) gives the same PTX
   instruction count with an unsigned counter as with int up to this many
   trips (two arrays read at that index: up to 2); an index that adds the
   counter (A[r * K + c + k]) costs more from 2 trips on.  Measured and
   checked by tests/unroll_threshold.py. */
#define NVCC_SCALED_INDEX_SAME_MAX_TRIP 4

enum unroll_hint {
    UNROLL_NONE,          /* no pragma: nvcc's own heuristics */
    UNROLL_FULL,          /* #pragma unroll, _Pragma("unroll") */
    UNROLL_COUNT,         /* #pragma unroll N / unroll(N), N known (1 = not unrolled) */
    UNROLL_COUNT_UNKNOWN  /* a count whose value cannot be read here */
};

struct unroll_pragma {
    enum unroll_hint hint;
    long long count;      /* UNROLL_COUNT */
    char name[64];        /* the count as written, when it is a name (N, TILE) */
};

/* The unroll pragma right before loop (a for, while or do statement) in
   function fn: `#pragma unroll`, `#pragma unroll N`, `#pragma unroll(N)`,
   `_Pragma("unroll")`, `_Pragma("unroll N")`; N a literal, a macro or a
   const/constexpr variable. */
void unroll_pragma_of(CXTranslationUnit tu, CXCursor fn, CXCursor loop, struct unroll_pragma *out);

/* The constant trip count of a for loop `for (T k = a; k OP b; k += s)`
   whose counter changes only in its step, after constant propagation (cp may
   be NULL).  False when it is not a constant. */
bool unroll_trip_count(struct constprop *cp, CXCursor loop, long long *trip);

/* Is the for loop's trip count a compile-time constant in every
   specialisation: start, step and the comparison's other operands constants
   after propagation, some perhaps of a value not known here (a template
   parameter's), and the counter changed only in its step?  True also when
   unroll_trip_count knows the count. */
bool unroll_trip_is_constant(struct constprop *cp, CXCursor loop);

/* Does var, the counter of the for loop, change only in the loop's
   increment: no other assignment, ++/--, address taken or reference
   argument in the body? */
bool unroll_counter_only_in_step(CXCursor loop, CXCursor var);

enum unroll_verdict { UNROLL_KEPT, UNROLL_FULLY, UNROLL_CANNOT_TELL };

/* Is the for loop fully unrolled by nvcc?  Fully: a constant trip count at
   most the pragma's count, any constant trip count under a plain pragma, or
   at most NVCC_FULL_UNROLL_MAX_TRIP without one.  Kept: a run-time trip count
   or `#pragma unroll 1`.  A count between 1 and the trip count cannot be told
   (nvcc was measured to leave a float[32] in registers under unroll 4). */
enum unroll_verdict unroll_loop(CXTranslationUnit tu, CXCursor fn, struct constprop *cp,
                                CXCursor loop);

#endif
