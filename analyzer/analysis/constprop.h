/* constprop.h: is an expression a compile-time constant once nvcc has
 * propagated constants into it (CU201, CU203, and the trip counts of
 * analysis/unroll)?
 *
 * Beyond what clang itself folds (literals, macros as expanded, enum
 * constants, constexpr), a value is propagated through:
 *   - locals declared const or constexpr with a constant initialiser;
 *   - locals given a constant once, at their declaration, and never assigned,
 *     incremented, address-taken or passed to a call that could bind a
 *     reference to them;
 *   - template parameters (a template is judged from its pattern: in every
 *     specialisation they are constants, whose value this analysis does not
 *     know);
 *   - parameters of a __device__ (not __global__) or static function whose
 *     every call in the translation unit passes the same constant, when the
 *     function's address is never taken (nvcc inlines it and folds).
 * Built per function from its cursor; the calls of the translation unit are
 * gathered once (constprop_calls_analysis, per translation unit) and only
 * when a parameter is asked about. */
#ifndef CUDALINT_CONSTPROP_H
#define CUDALINT_CONSTPROP_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>

enum constval_kind {
    CONSTVAL_INT,
    CONSTVAL_FLOAT,
    CONSTVAL_UNKNOWN_VALUE /* a constant in each specialisation, value not known here */
};

struct constval {
    enum constval_kind kind;
    long long i;  /* CONSTVAL_INT */
    double f;     /* CONSTVAL_FLOAT */
};

struct constprop;

/* Is expr a compile-time constant after propagation?  Fills *out (may be
   NULL) when it is.  cp may be NULL: then only what clang folds counts. */
bool constprop_value(struct constprop *cp, CXCursor expr, struct constval *out);

/* The facts of one function (struct constprop *). */
extern const struct analysis_kind constprop_analysis;
/* The calls of the translation unit's device functions (per translation
   unit, built on the first parameter query). */
extern const struct analysis_kind constprop_calls_analysis;

#endif
