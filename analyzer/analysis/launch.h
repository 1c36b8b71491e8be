/* launch.h: the host-side launch model: for a kernel, the block shapes of its
 * launch sites (`k<<<grid, block>>>`) in this translation unit, or "unknown".
 * Built from a translation unit alone; rules and analyses ask it what
 * blockDim is (CU401's warp layout, CU101's padded loops, later rules'
 * "block size a multiple of 32"). */
#ifndef CUDALINT_LAUNCH_H
#define CUDALINT_LAUNCH_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>

#define LAUNCH_MAX_SHAPES 8
#define LAUNCH_MAX_TARGS 8

/* One block shape: blockDim.x, .y, .z (each at least 1). */
struct launch_shape {
    long long b[3];
};

/* What the launch sites of one kernel say. */
struct launch_info {
    unsigned n_sites;      /* launches of the kernel seen in the main file */
    /* Every site's block argument is a constant (a literal, constexpr, macro,
       enum, or a local dim3/int initialised with constants and not changed),
       the kernel is defined in the main file, and nothing else launches it
       (cudaLaunchKernel and relatives): only then are the shapes the truth. */
    bool known;
    unsigned n_shapes;     /* distinct shapes, in order of first appearance */
    struct launch_shape shape[LAUNCH_MAX_SHAPES];
};

struct launch_model;

/* Reads the launch sites of every kernel in the main file of tu. */
struct launch_model *launch_model_new(CXTranslationUnit tu);
void launch_model_free(struct launch_model *m);
/* The same, as an analysis of the translation unit (per_tu): facts are a
   struct launch_model *. */
extern const struct analysis_kind launch_analysis;

/* The launch sites of kernel (its FunctionDecl, or the FunctionTemplate of a
   kernel template, whose specialisations' launches all count).  Returns
   out->known. */
bool launch_block_shapes(struct launch_model *m, CXCursor kernel, struct launch_info *out);

/* For a kernel template: is its template parameter number `index` (in
   declaration order) a constant equal to blockDim.x at every launch site
   (`k<256><<<g, 256>>>`), with every site's shape known? */
bool launch_tparam_is_block_x(struct launch_model *m, CXCursor kernel, unsigned index);

/* For a kernel template: is its template parameter number `index` a
   constant at least blockDim.x at every launch site (every thread's
   threadIdx.x is below it)?  True when the launch shape is unknown (no site,
   or a site that is not constant): then nothing is known to contradict the
   convention that such a step is the block size. */
bool launch_tparam_covers_block_x(struct launch_model *m, CXCursor kernel, unsigned index);

/* Is blockDim.x at most v at every launch site (true when unknown, as
   above)? */
bool launch_block_x_at_most(struct launch_model *m, CXCursor kernel, long long v);

/* Is the kernel's parameter number `param` given, at every launch site, the
   value of blockDim.x (axis 0), .y or .z at that site: the same constant, or
   the same variable, unchanged in the launching function, as the block's
   component (`dim3 block(n); k<<<g, block>>>(x, n)`)?  False when the kernel
   has no launch site here, is launched through cudaLaunchKernel and
   relatives, or is defined outside the main file. */
bool launch_param_is_block_dim(struct launch_model *m, CXCursor kernel, unsigned param, unsigned axis);

/* Does the shape divide into whole warps along x: blockDim.x a multiple of 32
   at every site?  (False when unknown.) */
bool launch_x_multiple_of(const struct launch_info *li, long long k);

/* One launch site's configuration, for the launch-configuration rule: the
   kernel, and grid, block and dynamic shared memory when constant (zero
   components included, unlike the shapes above). */
struct launch_site {
    CXCursor kernel;
    bool grid_known, block_known, smem_known;
    long long grid[3], block[3], smem;
    CXCursor grid_arg, block_arg, smem_arg;
    CXCursor stream_arg;    /* null when not written */
};
/* Is call a k<<<...>>> launch?  Fills out when it is. */
bool launch_site_read(CXCursor call, struct launch_site *out);

#endif
