/* proc.h: subprocesses with time limits and captured output (the toolkit's
 * compilers for codegen evidence, the tools `cudalint confirm` drives). */
#ifndef CUDALINT_PROC_H
#define CUDALINT_PROC_H

#include <stdbool.h>
#include <stddef.h>

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
   after timeout_s.  extra_env: "NAME=value" strings set in the child, or NULL. */
void proc_run(char *const argv[], const char *cwd, const char *scratch_dir, int timeout_s,
              bool merge_stderr, const char *const *extra_env, struct proc_result *r);
void proc_result_release(struct proc_result *r);
/* The last n lines of text as one line ("a | b | c"), malloc'd. */
char *text_tail(const char *text, int n);

/* Removes a scratch directory and everything under it (symbolic links are
   removed, not followed). */
void remove_tree(const char *dir);

#endif
