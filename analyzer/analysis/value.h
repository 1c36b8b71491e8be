/* value.h: the value model of device code: an integer expression of a
 * function as a symbolic term (smt.h) for "thread 1" or "thread 2" of a
 * pair.  Thread indices are per-thread symbols, block indices and extents
 * are shared, constants are folded, locals and struct fields with one
 * reaching definition are replaced by that definition, loop counters become
 * init + k*step with an iteration symbol shared by both threads, and
 * everything else is an opaque symbol, shared by the pair when the existing
 * analyses (uniformity.h for a block, warp.h for a warp) say it is the same
 * in both, else one per thread.  Built by the divergence queries
 * (divergence.c); returns terms, never wording. */
#ifndef CUDALINT_VALUE_H
#define CUDALINT_VALUE_H

#include "analysis/smt.h"
#include "analysis/uniformity.h"
#include "analysis/warp.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stddef.h>

/* Which two threads the model compares: two threads of one block, or two
   lanes of one warp (then warp-uniform values are shared too). */
enum value_pair { VALUE_PAIR_BLOCK, VALUE_PAIR_WARP };

struct value_model;

/* w may be NULL for VALUE_PAIR_BLOCK. */
struct value_model *value_model_new(struct smt_arena *a, CXTranslationUnit tu, CXCursor fn, struct uniformity *u,
                                    struct warp_view *w, enum value_pair pair);
void value_model_free(struct value_model *vm);

/* blockDim as constants (block: 3 extents) or as symbols (NULL). */
void value_model_set_shape(struct value_model *vm, const long long *block);
/* The function's parameters that every launch gives one constant: known[i]
   and value[i] for parameter i < n (copied). */
void value_model_set_params(struct value_model *vm, unsigned n, const bool *known, const long long *value);
/* The analyses that decide which opaque values the pair shares (after a
   refinement, the refined ones). */
void value_model_set_views(struct value_model *vm, struct uniformity *u, struct warp_view *w);
/* For questions that join conditions read at different points of the
   function (the guards on the way to a statement): on, a read of a variable
   that may change between two points (a local the model cannot follow, a
   written parameter, a field of either, shared or global memory) is a
   symbol of its own use rather than of the variable, so two reads are not
   taken as one value.  Parameters the function never changes, template
   arguments and constants keep one symbol.  Off by default: a divergence
   question compares one condition in two threads. */
void value_model_set_reads_per_use(struct value_model *vm, bool on);
/* Forgets the assumptions gathered so far (before the next question). */
void value_model_reset(struct value_model *vm);

/* The value of an integer expression in thread t (1 or 2), 32 or 64 bits
   wide; 0 when the expression is not an integer. */
smt_id value_expr(struct value_model *vm, CXCursor expr, int t);
/* The truth of a condition in thread t (a boolean term); 0 as above. */
smt_id value_cond(struct value_model *vm, CXCursor expr, int t);
/* For a read of a signed counter `for (i = start; ...; i += step)` inside
   its loop: its start in thread t and its step. */
bool value_loop_counter(struct value_model *vm, CXCursor use, int t, smt_id *start, smt_id *step);
/* What the terms built so far assume (iteration counters not negative, loop
   counters that do not overflow): a boolean term, true when nothing. */
smt_id value_assumptions(struct value_model *vm);

/* The symbol of a builtin component: which is 't' (threadIdx), 'b'
   (blockIdx), 'd' (blockDim) or 'g' (gridDim); axis 0..2; t is used for
   threadIdx only. */
smt_id value_builtin(struct value_model *vm, char which, int axis, int t);

/* The symbol of a read of a parameter or template parameter decl of the
   function (the one both threads share); 0 when it is not an integer. */
smt_id value_decl_symbol(struct value_model *vm, CXCursor decl);

/* For a witness: the name a user reads for a symbol of the model ("n" for a
   parameter n, "threadIdx.x"), and the thread it belongs to (0: shared).
   False for symbols that mean nothing to a user (iteration counters, opaque
   loads). */
bool value_symbol_display(const char *symbol, char *buf, size_t size, int *thread);

#endif
