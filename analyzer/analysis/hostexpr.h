/* hostexpr.h: what the host code around a launch says about the kernel's
 * values, as text the project's launch table can keep: the grid and block
 * extents and each argument as an integer expression over constants and
 * host variables that keep one value, and the conditions the host checks
 * before the launch (an assert, an `if` that leaves).  Read back as solver
 * terms tied to the kernel's parameters and builtins, they let the
 * divergence queries drop thread pairs no launch can run (a grid rounded
 * down, a length the host asserts is a multiple of the tile). */
#ifndef CUDALINT_HOSTEXPR_H
#define CUDALINT_HOSTEXPR_H

#include "analysis/smt.h"
#include "clang/clang_api.h"
#include <stdbool.h>

/* A local or parameter that its function never writes after its
   declaration (the launch model's scan). */
typedef bool hostexpr_unchanged_fn(CXCursor var);

/* The relation text of one launch: call is the CUDAKernelCallExpr's call,
   cfg its configuration call (grid, block, ...), scope a declaration that
   contains the launch (its function, or the class or namespace member
   around it; null: no conditions); is_unchanged tells a local or parameter
   that its function never writes after its declaration (only those are
   written as values).  NULL when the text would be too long
   (then the site says nothing). */
char *hostexpr_launch(CXCursor scope, CXCursor call, CXCursor cfg, hostexpr_unchanged_fn *is_unchanged);

/* Is t dim3 (or uint3)? */
bool hostexpr_is_dim3(CXType t);
/* The cursors of a grid or block argument's x, y and z: an integer (x; y
   and z 1), dim3(x[, y[, z]]) (those not written 1), a cast or copy of one,
   or a local dim3 that is_unchanged says keeps its initialiser.  A null
   part is 1.  False when the argument is none of these. */
bool hostexpr_dim3_parts(CXCursor e, CXCursor part[3], hostexpr_unchanged_fn *is_unchanged);

/* The kernel's side of a relation: the symbols that the value model gives
   its parameters (0 where a parameter is not an integer or not modelled)
   and its grid and block extents. */
struct hostexpr_kernel {
    unsigned n_params;
    const smt_id *param;
    smt_id grid[3], block[3];
};

/* The facts of one site's relation as a boolean term (true when it says
   nothing usable); host variables become symbols shared by both threads,
   named apart per variable.  0 only when the arena fails. */
smt_id hostexpr_site_facts(struct smt_arena *a, const char *rel, const struct hostexpr_kernel *k);

#endif
