/* shared.h: the shared-memory access and race model of one function: every
 * read and write of a __shared__ array (directly, through a local pointer
 * set to one, or through a volatile pointer parameter, the warp-synchronous
 * idiom), every barrier (__syncthreads and relatives) and warp barrier
 * (__syncwarp) in program order, and the pairs of accesses that two
 * different threads make to one element with no barrier between them,
 * straight through or around a loop's back edge.
 *
 * Index expressions are turned into affine forms by the caller's function
 * (affine.h's affine_of on the rule side).  A pair is decided by enumerating
 * the threads of a block (its shape from the launch sites, else from the
 * extents the indices run over) and the values of loop counters with
 * constant bounds; terms of unknown value must cancel between the two
 * accesses, and the threads taking part must follow from comparisons of
 * thread indices with constants.  Anything else is undecided and not
 * reported: the model is precise rather than complete.
 *
 * Built from the translation unit, a function cursor, its thread-dependence
 * analysis (for barriers reached through calls) and the kernel's launch
 * shapes; returns facts only. */
#ifndef CUDALINT_SHARED_H
#define CUDALINT_SHARED_H

#include "analysis/affine.h"
#include "analysis/launch.h"
#include "analysis/uniformity.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stddef.h>

/* Affine form of an index expression, or false (the caller's affine_of). */
typedef bool (*shared_affine_fn)(void *data, CXCursor expr, struct affine *out);

struct shared_model;

struct shared_model *shared_model_new(CXTranslationUnit tu, CXCursor fn, struct uniformity *u,
                                      const struct launch_info *li, shared_affine_fn affine,
                                      void *affine_data);
void shared_model_free(struct shared_model *m);

/* The model of the function enclosing the current cursor, cached per
   function (the rule-side accessor until the engine's analysis accessor);
   index forms come from affine_of. */
/* The engine-cached model of a function: ctx_analysis(ctx, &shared_analysis_holder),
   then shared_model_of() (NULL outside functions or without a uniformity analysis). */
#include "analysis/analysis.h"
struct shared_holder;
extern const struct analysis_kind shared_analysis_holder;
struct shared_model *shared_model_of(struct shared_holder *h);

/* Two accesses to one element by two different threads, at least one a
   write, with no block barrier between them on the way from the first to
   the second. */
struct shared_race {
    CXCursor first, second;   /* the accesses (outermost subscripts), in execution order */
    bool first_writes, second_writes;
    CXCursor array;           /* the __shared__ array's (or pointer's) declaration */
    bool loop_carried;        /* from one iteration of `loop` to the next */
    CXCursor loop;
    bool warp_synced;         /* a __syncwarp lies between them (orders lanes of one warp) */
    bool same_warp;           /* some conflicting pair of threads shares a warp */
    bool cross_warp;          /* some conflicting pair lies in different warps */
    int t_first[3], t_second[3]; /* one conflicting pair: the threads (x, y, z) */
    long long block[3];       /* the block shape enumerated */
    bool shape_from_launch;
    bool shape_guessed;       /* neither launch sites nor array extents gave the shape: 64 threads assumed */
    bool ranged_out;          /* guessed, and some block width a launch may use (a multiple of 32, up to
                                 1024 threads) has no such pair across warps: not a race to report */
    unsigned from, to;        /* program positions of the two events (to < from when loop-carried) */
};

/* The statement holding an access (the child of a compound statement on
   its way up) and that compound statement; false when there is none. */
bool shared_model_statement(const struct shared_model *m, CXCursor access, CXCursor *stmt, CXCursor *block);

/* The races of the function; the array belongs to the model. */
size_t shared_model_races(struct shared_model *m, const struct shared_race **out);

#endif
