/* fixwrite.h: --fix and --diff: remembering what each file held when it was
 * parsed, replacing files atomically, and printing fixes as unified diffs. */
#ifndef CUDALINT_FIXWRITE_H
#define CUDALINT_FIXWRITE_H

#include "base/util.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Records the hash of the bytes a file held when it was read for parsing
   (thread-safe; the driver calls it from its workers when --fix or --diff is
   on).  A fix is only written over the very bytes it was computed from. */
struct fix_memory;
struct fix_memory *fix_memory_new(void);
void fix_memory_free(struct fix_memory *m);
void fixwrite_remember(struct fix_memory *m, const char *path, const char *text, size_t len);
/* The same by hash, and the hash remembered for path (false: none); the
   supervisor carries them from the process that read the files to the one
   that writes the fixes. */
void fixwrite_remember_hash(struct fix_memory *m, const char *path, uint64_t hash);
bool fixwrite_recall(struct fix_memory *m, const char *path, uint64_t *hash);

enum fixwrite_result { FIXWRITE_OK = 0, FIXWRITE_CHANGED = 1, FIXWRITE_FAILED = -1 };


/* Writes a whole file the same atomic way, creating it when missing (the
   baseline).  Returns 0, or -1 with *error. */
int fixwrite_save(const char *path, const char *data, size_t len, char **error);


/* Applies the fixes of run->diags, file by file, with fix_apply(): written
   in place (write) or appended to diff as unified diffs.  A file is skipped
   when it was not read for parsing, or when its bytes changed since; fixes
   that overlap earlier ones are skipped (a second --fix applies them).  When
   writing, the findings fixed are removed from run->diags.  Reasons for
   skipping go to stderr unless quiet. */
struct fixwrite_summary {
    size_t fixed;          /* findings whose fixes were applied (or shown) */
    size_t files;          /* files changed (or with a diff) */
    size_t overlapping;    /* findings whose fixes overlapped another's */
    size_t files_skipped;  /* changed since parsed, or never parsed */
    size_t files_failed;   /* could not be written */
};
struct lint_run;
void fixwrite_run(struct fix_memory *m, struct lint_run *run, bool write, struct strbuf *diff, bool quiet,
                  struct fixwrite_summary *s);

#endif
