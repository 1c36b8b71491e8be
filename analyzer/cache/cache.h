/* cache.h: the result cache (an sqlite database under the cache directory),
 * checked against the stamps of the files a result came from. */
#ifndef CUDALINT_CACHE_H
#define CUDALINT_CACHE_H

#include "core/diag.h"
#include "core/result.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stdint.h>

struct lint_options;
struct parse_plan;
struct pch;

/* ---- the result cache ---- */

/* One file's lookup/store.  NULL (every function accepts it) when the result
   cache is off: --no-cache, editor text, an unwritable or broken database. */
struct cache_rec;

/* o: the file's options (command line merged with its .cudalint.yaml); cli:
   the command line's, from which the effective configuration is hashed. */
struct cache_rec *cache_begin(const struct lint_options *o, const struct lint_options *cli,
                              const char *path, const char *text, size_t len, bool unsaved,
                              const struct parse_plan *plan);
/* On a hit, fills the findings before suppressions, the CU000 notes and the
   clang error count exactly as the passes would have, and returns true. */
bool cache_lookup(struct cache_rec *r, struct diag_list *diags, struct diag_list *parse_diags,
                  unsigned *n_parse_errors);
/* Records the files one parsed pass included (and those of its PCH). */
void cache_add_tu(struct cache_rec *r, CXTranslationUnit tu, const struct pch *pch);
/* Stores the result of all passes (only when every pass parsed). */
void cache_store(struct cache_rec *r, enum file_status status, const struct diag_list *diags,
                 const struct diag_list *parse_diags, unsigned n_parse_errors);
void cache_end(struct cache_rec *r);
/* Text kept with the entry beside the findings (the launch sites the file's
   units saw, analysis/launch.h): set before cache_store; after a hit, what
   was stored (NULL: none). */
void cache_set_extra(struct cache_rec *r, const char *text);
const char *cache_extra(const struct cache_rec *r);
/* Calls fn with the launch facts stored last for each file under under_dir
   (NULL: every file) whose contents did not change since (by stamp); returns
   how many. */
int cache_launch_rows(const struct lint_options *o, const char *under_dir,
                      void (*fn)(void *data, const char *path, const char *text), void *data);

#endif
