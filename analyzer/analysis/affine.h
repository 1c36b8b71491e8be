/* affine.h: affine views of index expressions: idx = c0 + cx*threadIdx.x +
 * cy*threadIdx.y + cz*threadIdx.z + sum(k_i * s_i) with constant coefficients
 * and uniform symbols s_i, after folding literals, macros, constexpr, const
 * locals and template arguments.  Built per function (affine_analysis) and
 * used by CU401, the lane model and future coalescing rules. */
#ifndef CUDALINT_AFFINE_H
#define CUDALINT_AFFINE_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>

#define AFFINE_MAX_SYMBOLS 8

struct affine {
    long long constant;
    long long tid[3];                /* coefficients of threadIdx.x, .y, .z */
    unsigned n_symbols;
    CXCursor symbol[AFFINE_MAX_SYMBOLS]; /* uniform terms (declarations or exprs) */
    long long coeff[AFFINE_MAX_SYMBOLS];
    /* Further uniform terms that did not fit in symbol[]: their sum is some
       value shared by all threads of the block. */
    bool more_uniform;
    /* The form holds across the 32 lanes of one warp only, assuming
       blockDim.x is a multiple of 32 (so a warp is 32 consecutive
       threadIdx.x starting at a multiple of 32): threadIdx.x % 32 was read as
       threadIdx.x minus a per-warp constant, threadIdx.x / 32 as a per-warp
       constant.  The uniform terms then include per-warp constants. */
    bool warp_relative;
};

/* The facts of one function: the definitions of its variables, for folding.
   A rule gets them with ctx_analysis(ctx, &affine_analysis); at file scope
   (fn the null cursor) there are no definitions.  Expressions the folding
   cannot read may be proved uniform by the thread-dependence analysis of
   the same cache. */
struct affine_fn;
extern const struct analysis_kind affine_analysis;

/* Builds the affine form of expr in the function of af; false when it is not
   affine (then callers stay silent), or af is NULL.  Expressions that are
   uniform but not affine (n / 2, a call with uniform arguments) become one
   opaque symbol. */
bool affine_of(struct affine_fn *af, CXCursor expr, struct affine *out);

/* Is expr the same in every thread of the block (an affine form with no
   threadIdx term)?  Uses the same folding as affine_of. */
bool affine_is_uniform(struct affine_fn *af, CXCursor expr);

/* Does the form have terms whose value is not known (symbols)? */
bool affine_has_symbols(const struct affine *a);

/* CUDA built-in index variables. */
enum affine_builtin {
    AFFINE_NOT_BUILTIN = -1,
    AFFINE_THREADIDX,
    AFFINE_BLOCKIDX,
    AFFINE_BLOCKDIM,
    AFFINE_GRIDDIM
};

/* If c (after stripping implicit casts) is threadIdx.x, blockDim.y ...:
   which variable, and its component (0 for x, 1 for y, 2 for z). */
enum affine_builtin affine_builtin_member(CXTranslationUnit tu, CXCursor c, int *component);

#endif
