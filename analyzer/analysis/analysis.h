/* analysis.h: what an analysis is, and the cache that builds each one once.
 *
 * An analysis is built from a translation unit and a function cursor (or
 * from the translation unit alone, per_tu) and returns facts: no wording, no
 * walker context.  It may ask the same cache for the analyses it stands on
 * (uniformity asks for the launch model).  The engine keeps one cache per
 * walk (engine/walk.h: ctx_analysis); a unit test makes its own. */
#ifndef CUDALINT_ANALYSIS_H
#define CUDALINT_ANALYSIS_H

#include "clang/clang_api.h"
#include <stdbool.h>

struct analysis_cache;

struct analysis_kind {
    const char *name;
    /* Built from the translation unit alone; fn is the null cursor. */
    bool per_tu;
    /* The facts of fn (may be NULL: "nothing known"); deps gives the
       analyses this one stands on, from the same cache. */
    void *(*build)(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps);
    void (*free)(void *facts);
};

struct analysis_cache *analysis_cache_new(CXTranslationUnit tu);
/* Frees every cached result. */
void analysis_cache_free(struct analysis_cache *c);

/* The facts of kind for function fn (ignored for per_tu kinds), built on
   first use and kept until fn's results are dropped. */
void *analysis_get(struct analysis_cache *c, const struct analysis_kind *kind, CXCursor fn);

/* Gives the cache the facts of a per_tu kind that its caller built and
   keeps (the engine's launch model, built with the run's table): analysis_get
   returns them, and the cache never frees them. */
void analysis_cache_provide(struct analysis_cache *c, const struct analysis_kind *kind, void *facts);

/* Drops the per-function results of fn (the walk leaves it). */
void analysis_cache_drop(struct analysis_cache *c, CXCursor fn);

#endif
