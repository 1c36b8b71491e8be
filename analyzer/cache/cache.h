/* cache.h: the result cache (an sqlite database under the cache directory) and
 * the file stamps (size, mtime, content hash) it and the precompiled headers
 * use to notice that an included file changed. */
#ifndef CUDALINT_CACHE_H
#define CUDALINT_CACHE_H

#include "core/diag.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stdint.h>

struct lint_options;
struct parse_plan;
struct pch;

/* ---- file stamps ---- */

struct file_stamp {
    char *path;          /* as clang named it (relative to the working directory or absolute) */
    int64_t size;
    int64_t mtime_ns;
    uint64_t hash;       /* xxh3-64 of the contents */
    bool system;         /* a system or toolkit header (never linted) */
};

/* Stats and hashes path (memoized for the life of the process: files are taken
   not to change during one run).  Returns 0, or -1 when it cannot be read. */
int stamp_take(const char *path, struct file_stamp *out);
/* Does the file still have the recorded contents?  Size and mtime equal, or,
   when only the mtime moved (a checkout, a touch), the same hash. */
bool stamp_still_valid(const struct file_stamp *s);
void stamp_release(struct file_stamp *s);

/* ---- the cache directory ---- */

/* The cache directory for these options (--cache-dir, else the user cache
   directory), created when missing.  NULL when it cannot be created or written:
   the run then goes without result cache and precompiled headers.  Warns once
   per process (not with --quiet).  The answer is memoized. */
const char *cache_dir_writable(const struct lint_options *o);

/* Prints "cudalint: warning: MSG" to stderr once per process and key. */
void cache_warn_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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
void cache_store(struct cache_rec *r, const char *status, const struct diag_list *diags,
                 const struct diag_list *parse_diags, unsigned n_parse_errors);
void cache_end(struct cache_rec *r);

#endif
