/* baseline.h: known findings recorded by fingerprint (--write-baseline) and
 * filtered out of later runs (--baseline), plus the fingerprint itself, which
 * SARIF and GitLab output share. */
#ifndef CUDALINT_BASELINE_H
#define CUDALINT_BASELINE_H

#include "core/result.h"
#include "output/output.h"

/* What identifies a finding across unrelated edits: no line numbers. */
struct baseline_key {
    char *code;
    char *path;     /* relative to the baseline's directory (or the cwd) */
    char *function; /* enclosing function, "" at file scope */
    char *source;   /* the finding's line, whitespace collapsed */
};

/* The line's text with runs of whitespace collapsed to one space, trimmed. */
char *baseline_normalize(const char *s, size_t n);

/* Fingerprints for SARIF and GitLab: a finding's key digest and, since the
   same pattern can sit twice on a line, its occurrence among identical keys
   of its file ("DIGEST:N"), as GitHub numbers its own.  Asked for every
   finding of a run in order (sorted by file); paths relative to the current
   directory. */
struct fingerprints {
    struct source_cache sc;
    char *base_dir;
    char *file;         /* of the previous finding */
    struct strvec seen; /* digests in that file */
};
void fingerprints_init(struct fingerprints *f);
char *fingerprint_next(struct fingerprints *f, const struct diag *d); /* caller frees */
void fingerprints_release(struct fingerprints *f);

/* --write-baseline: records every finding of run.  Returns the number of
   entries written, or -1 with *error. */
long baseline_write(const char *file, const struct lint_run *run, char **error);

/* --baseline: removes from run->diags each finding the baseline lists (one
   entry absorbs one finding).  *hidden counts removed findings, *stale the
   entries that matched nothing in a file this run linted (or in a file that no
   longer exists).  Returns 0, or -1 with *error (unreadable or malformed). */
int baseline_filter(const char *file, struct lint_run *run, size_t *hidden, size_t *stale, char **error);

#endif
