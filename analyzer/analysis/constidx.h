/* constidx.h: per-thread arrays of a function and whether their indices
 * are compile-time constants once the loops with constant trip counts are
 * fully unrolled (CU403).
 *
 * Built from a translation unit and a function cursor; returns facts: each
 * local array (automatic storage, not __shared__), and each subscript of one
 * with its index's verdict, whether it writes, and whether it sits in a loop
 * that stays a loop after unrolling. */
#ifndef CUDALINT_CONSTIDX_H
#define CUDALINT_CONSTIDX_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stddef.h>

enum idx_verdict {
    IDX_CONST,   /* a constant after full unrolling of constant-trip loops */
    IDX_RUNTIME, /* depends on a value known only at run time: threadIdx,
                    a kernel parameter, a load, a call, the counter of a
                    loop whose trip count is not constant */
    IDX_UNKNOWN  /* cannot tell (a variable written in several places, a
                    device function's parameter, a select of constants) */
};

struct local_array {
    CXCursor decl;
    long long elems;      /* total elements (all dimensions) */
    long long elem_size;  /* bytes of one scalar element */
    bool scalar;          /* an arithmetic element type (not a struct or vector) */
    unsigned refs;        /* uses of its name (subscripts or not) */
};

struct local_index {
    CXCursor expr;        /* the outermost subscript t[i] (t[i][j] for 2-D) */
    CXCursor index;       /* the index that decides the verdict (the first non-constant one) */
    size_t array;         /* into arrays[] */
    enum idx_verdict verdict;
    bool write;           /* stores to the element (=, op=, ++, --) */
    bool in_loop;         /* inside a loop that is not fully unrolled */
    /* the index is the counter of a loop with a run-time trip count, a
       constant start and a constant step: indexing past the array would be
       undefined, so the compiler may bound the trip count by the array's
       extent and unroll the loop fully after all */
    bool counter_bounded;
    /* every use of the array is a subscript with this same run-time index,
       whose variables never change: the compiler forwards the stored value
       to the loads and the array disappears */
    bool forwarded;
};

struct local_arrays {
    struct local_array *arrays;
    size_t n_arrays, cap_arrays;
    struct local_index *uses;
    size_t n_uses, cap_uses;
};

/* Never NULL. fn: a function definition (or function template). */
struct local_arrays *local_arrays_new(CXTranslationUnit tu, CXCursor fn);
void local_arrays_free(struct local_arrays *la);
/* The use whose expr is this subscript, or NULL. */
const struct local_index *local_arrays_find(const struct local_arrays *la, CXCursor expr);

/* The facts of a function through the analysis cache (struct local_arrays *):
   rules ask ctx_analysis(ctx, &constidx_analysis). */
extern const struct analysis_kind constidx_analysis;

#endif
