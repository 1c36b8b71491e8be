/* affine.h: affine views of index expressions: idx = c0 + cx*threadIdx.x +
 * cy*threadIdx.y + cz*threadIdx.z + sum(k_i * s_i) with constant coefficients
 * and uniform symbols s_i, after folding literals, macros, constexpr, const
 * locals and template arguments.  Used by CU401 and future coalescing rules. */
#ifndef CUDALINT_AFFINE_H
#define CUDALINT_AFFINE_H

#include "walk.h"
#include <clang-c/Index.h>
#include <stdbool.h>

#define AFFINE_MAX_SYMBOLS 8

struct affine {
    long long constant;
    long long tid[3];                /* coefficients of threadIdx.x, .y, .z */
    unsigned n_symbols;
    CXCursor symbol[AFFINE_MAX_SYMBOLS]; /* uniform terms (declarations or exprs) */
    long long coeff[AFFINE_MAX_SYMBOLS];
};

/* Builds the affine form of expr; false when it is not affine (then callers
   stay silent). */
bool affine_of(struct rule_ctx *ctx, CXCursor expr, struct affine *out);

#endif
