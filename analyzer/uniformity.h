/* uniformity.h: the thread-dependence (uniformity) analysis: for each
 * expression, variable and branch of a function, may its value or outcome
 * differ between the threads of a block?  Computed once per function (cached
 * through ctx_fn_cache_*) and shared by rules (CU101, CU401, later ones). */
#ifndef CUDALINT_UNIFORMITY_H
#define CUDALINT_UNIFORMITY_H

#include "walk.h"
#include <clang-c/Index.h>
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

/* May the value of expr differ between threads of a block? */
bool uniformity_expr_varies(struct uniformity *u, CXCursor expr, struct variance_reason *why);
/* May a variable (VarDecl/ParmDecl cursor) hold different values in different
   threads anywhere in the function? */
bool uniformity_var_varies(struct uniformity *u, CXCursor decl, struct variance_reason *why);
/* Is the statement reached under control flow that may differ between threads
   (a varying if/switch/loop condition, a loop with a varying trip count, code
   after a varying return/break/continue/goto)?  why names the condition. */
bool uniformity_control_varies(struct uniformity *u, CXCursor stmt, struct variance_reason *why);

#endif
