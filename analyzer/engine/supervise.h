/* supervise.h: containment of what one file can do to a run.
 *
 * The command line lints its files in ONE child process and watches it: the
 * child streams each file's result back through a pipe as soon as the file is
 * done.  When the child dies (a crash in libclang or in cudalint, an
 * allocation beyond --memory-limit) or a file takes longer than --time-limit,
 * the file being linted gets an `error` status naming the reason, and a new
 * child lints the files not done yet: every other file is still linted and
 * reported.  With several jobs, the files that were in flight when the child
 * died are linted again one at a time, so that the one that kills the child
 * is found and only it is reported.
 *
 * The cost is one fork per run (and one per crash), plus copying each result
 * through the pipe: about a millisecond of CPU time per run. */
#ifndef CUDALINT_SUPERVISE_H
#define CUDALINT_SUPERVISE_H

#include "engine/lint.h"

/* The address-space limit of a lint process with jobs threads, in bytes (0:
   none): --memory-limit, else 2 GB a job and at least 4 GB, at most the
   machine's memory; plus the threads' reserved stacks (LINT_THREAD_STACK
   each), which are address space, not memory. */
long long supervise_memory_limit(const struct lint_options *o, int jobs);

/* lint_run() in a watched child process (falls back to lint_run() in this
   process when no child can be started).  CUDALINT_IN_PROCESS=1 lints in
   this process, uncontained: for a debugger, and to measure what the
   containment costs. */
void lint_run_supervised(const struct lint_options *o, struct lint_run *run);

/* The wire format of one file's result (also used by the language server's
   lint process): appended to out / read from data (false when malformed). */
struct strbuf;
void supervise_put_result(struct strbuf *out, const struct file_result *res);
bool supervise_get_result(const char *data, size_t len, struct file_result *res);

/* Why a child process ended, for a file's status message: "crashed (signal
   11, Segmentation fault)", "ran out of memory (--memory-limit 500 MB)"...
   stderr_tail is what the child wrote to stderr last (may be NULL). */
char *supervise_death_reason(int wait_status, const struct lint_options *o, const char *stderr_tail);

#endif
