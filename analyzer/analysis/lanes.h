/* lanes.h: the active-lane model: which lanes of each warp of a block take
 * a branch or reach a point, from the guarding conditions read as affine
 * forms (affine.h) in a block shape (blockshape.h).  Used by CU401; coming
 * rules (coalescing, warp collectives, shared races) reuse it. */
#ifndef CUDALINT_LANES_H
#define CUDALINT_LANES_H

#include "analysis/affine.h"
#include "analysis/blockshape.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stdint.h>

struct lanes {
    uint32_t m[WARP_LANES]; /* per warp w of the block (threads 32w .. 32w+31): lane bits */
};

void lanes_all(struct lanes *l);

/* Lanes where cond == want; false when the condition depends on the thread
   in a way not read here (unknown lanes). */
bool lanes_of_condition(struct affine_fn *af, const struct block_shape *sh, CXCursor cond, bool want,
                        struct lanes *out);

/* The lanes that reach a point: chain is the cursor chain from the
   translation unit down to the point's parent (chain[depth-1]), fn the
   function holding it; the conditions of the enclosing if/?:/loops and
   early exits (if (c) return;) before it in enclosing blocks count.  False
   when some guard cannot be read. */
bool lanes_reaching(struct affine_fn *af, const struct block_shape *sh, CXCursor fn,
                    const CXCursor *chain, unsigned depth, struct lanes *out);

/* Clears the lanes of warps past the last thread of a known block shape. */
void lanes_clip_to_block(struct lanes *l, const struct block_shape *sh);

#endif
