/* warp.h: the warp-level view of thread dependence: may a value, a branch
 * or the reaching of a statement differ between the lanes of one warp?
 *
 * The block-level analysis (uniformity.h) says whether something may differ
 * between the threads of a block; many such values are still the same in
 * every lane of a warp: the warp id (threadIdx.x / 32, threadIdx.x >> 5),
 * threadIdx.y and .z when warps do not straddle rows, comparisons of
 * threadIdx.x with multiples of 32, results of warp votes and broadcasts.
 * Warps are taken to be 32 consecutive threadIdx.x values starting at a
 * multiple of 32 (blockDim.x a multiple of 32, or a one-dimensional block);
 * when every launch site of the kernel gives its block shape and one of them
 * breaks that, threadIdx.y/.z and the warp id count as lane-dependent.
 *
 * Built from the translation unit, a function (or lambda) cursor, its
 * block-level analysis and the kernel's launch shapes; returns facts only. */
#ifndef CUDALINT_WARP_H
#define CUDALINT_WARP_H

#include "analysis/launch.h"
#include "analysis/uniformity.h"
#include "clang/clang_api.h"
#include <stdbool.h>

enum warp_class {
    WARP_BLOCK_UNIFORM = 0, /* the same in every thread of the block */
    WARP_WARP_UNIFORM = 1,  /* the same in every lane of a warp, may differ between warps */
    WARP_LANE_VARIES = 2    /* may differ between lanes of one warp */
};

struct warp_view;

/* li: the kernel's launch shapes (NULL or !li->known: warps assumed aligned). */
struct warp_view *warp_view_new(CXTranslationUnit tu, CXCursor fn, struct uniformity *u,
                                const struct launch_info *li);
void warp_view_free(struct warp_view *w);
/* Takes the conditions in conds[] (expression cursors of the function) to be
   the same in every lane of a warp: what a solver proved of them
   (divergence.h).  For a view of its own, not the shared analysis. */
void warp_view_assume_uniform(struct warp_view *w, const CXCursor *conds, unsigned n);

/* The same as an analysis kind (facts: struct warp_view *, NULL at file
   scope): a rule asks ctx_analysis(ctx, &warp_analysis); it stands on
   uniformity_analysis and launch_analysis from the same cache. */
extern const struct analysis_kind warp_analysis;

enum warp_class warp_expr_class(struct warp_view *w, CXCursor expr);

/* Why a statement is reached by only some lanes of a warp. */
struct warp_divergence {
    CXCursor at;     /* the lane-dependent condition, or the early exit */
    const char *why; /* "the condition 'lane < n' differs between lanes of a warp"; owned by the view */
    bool early_exit; /* at is a return/break/continue taken by some lanes */
};

/* Is stmt (any cursor inside the function) under control flow that may
   differ between the lanes of a warp: a lane-dependent if/switch/?:/&&/||
   condition, a loop whose trip count may differ between lanes, or after a
   return (or, in a loop, a break/continue) that only some lanes take?
   exits_ok: lanes that ended (a return from the kernel itself) do not count,
   as for votes and __syncwarp, whose masks may name exited lanes. */
bool warp_stmt_lane_divergent(struct warp_view *w, CXCursor stmt, bool exits_ok,
                              struct warp_divergence *out);

/* Is the 32-bit mask expression the full mask (0xffffffff, ~0u, -1,
   FULL_MASK...)? */
bool warp_mask_is_full(CXCursor mask);

/* Does the warp layout assumption hold for the kernel: no known launch
   shape splits a warp across rows (blockDim.x not a multiple of 32 with
   blockDim.y or .z above 1)? */
bool warp_layout_aligned(const struct warp_view *w);

#endif
