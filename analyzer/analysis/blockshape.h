/* blockshape.h: the block shapes a kernel runs with: the shape it asserts
 * (assert(blockDim.x == 4 && blockDim.y == 8) among its top-level
 * statements), else each shape of its launch sites in the translation unit
 * (launch.h), else "unknown" (blockDim.x taken as a multiple of 32); and the
 * thread indices of each lane of a warp in such a block.  Used by CU401 and
 * the lane model; coming warp-level rules reuse it. */
#ifndef CUDALINT_BLOCKSHAPE_H
#define CUDALINT_BLOCKSHAPE_H

#include "analysis/analysis.h"
#include "analysis/launch.h"
#include "clang/clang_api.h"
#include <stdbool.h>

#define WARP_LANES 32

/* One block shape; 0 for an extent not known (then the shape is unknown
   unless b[0] is known: only an x extent tells how threads fill a warp). */
struct block_shape {
    long long b[3];
    bool from_launch;    /* the launch sites', not an assert */
    unsigned n_launch;   /* how many different shapes the sites use */
};

/* The shapes to consider for a function: n >= 1; one unknown shape when
   nothing states it. */
struct block_shapes {
    unsigned n;
    struct block_shape shape[LAUNCH_MAX_SHAPES];
};

/* Facts: const struct block_shapes * of the function (never NULL).  Asks
   deps for the launch model. */
extern const struct analysis_kind blockshape_analysis;

bool block_shape_known(const struct block_shape *sh);

/* Thread indices of lane l of warp w.  With the block's x extent unknown,
   the warp is 32 consecutive threadIdx.x and one y and z (reported as 0). */
void block_shape_lane(const struct block_shape *sh, unsigned w, unsigned l, long long t[3]);

#endif
