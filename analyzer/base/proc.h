/* proc.h: subprocesses with time limits and captured output (the toolkit's
 * compilers for codegen evidence, the tools `cudalint confirm` drives). */
#ifndef CUDALINT_PROC_H
#define CUDALINT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- forking a copy of this program ----

   fork() in a threaded process copies every lock as it is at that instant; a
   child that goes on running our code (the lint processes) deadlocks on the
   first lock another thread held mid-update: a sanitizer build's allocator (it
   is not fork-safe, unlike glibc's malloc), stdio's stream locks, our own
   mutexes.  So the threads that run beside such a fork (the progress line's
   ticker, the language server's reader) hold the gate while they work and
   leave it only while they sleep or wait for input, and proc_fork_copy() forks
   with the gate held.  The gate is recursive: a thread that holds it may fork. */
void proc_gate_enter(void);
void proc_gate_leave(void);
/* fork() with the gate held and stdio flushed; in the child, the gate is
   free again.  Returns fork()'s value. */
pid_t proc_fork_copy(void);

/* ---- subprocesses ---- */

struct proc_result {
    int exit_code;   /* -1 when it could not start or was killed */
    bool timed_out;
    bool not_found;
    char *out;       /* captured stdout (and stderr when merged) */
    char *err;       /* captured stderr, NULL when merged into out */
    double seconds;
};

/* Runs argv (argv[0] a path or a name looked up on PATH) in cwd (NULL: ours),
   capturing its output through files in scratch_dir; kills its process group
   after timeout_s.  extra_env: "NAME=value" strings set in the child, or NULL.
   Between fork() and exec() the child makes system calls only (the
   environment is built before the fork), so this is safe from any thread. */
void proc_run(char *const argv[], const char *cwd, const char *scratch_dir, int timeout_s,
              bool merge_stderr, const char *const *extra_env, struct proc_result *r);
void proc_result_release(struct proc_result *r);
/* The last n lines of text as one line ("a | b | c"), malloc'd. */
char *text_tail(const char *text, int n);

/* Removes a scratch directory and everything under it (symbolic links are
   removed, not followed). */
void remove_tree(const char *dir);

#endif
