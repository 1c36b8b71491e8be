/* lsp_proc.h: the language server lints in a child process it restarts.
 *
 * The server's worker thread forks one lint process at the first lint; that
 * process keeps the documents' translation units (lsp_lint.c) between edits.
 * Each lint is a request through a pipe and a result back (the wire format of
 * engine/supervise.h).  When the process dies (a crash in libclang, memory
 * beyond --memory-limit) or a lint exceeds --time-limit, the document being
 * linted gets an `error` result naming the reason, and the next lint starts a
 * new process: the server and its other documents go on.
 *
 * Every function is called from the server's worker thread only (or after it
 * ended). */
#ifndef CUDALINT_LSP_PROC_H
#define CUDALINT_LSP_PROC_H

#include "core/options.h"
#include "core/result.h"
#include <stdbool.h>
#include <stdint.h>

/* Lints text as path for document doc (a nonzero id the caller chooses);
   reuse keeps its translation units in the lint process (else a plain
   lint_file() every time).  opts_generation changes whenever o changed: the
   process, forked with a copy of o, is then replaced.  Fills res; appends the
   timing line to timing when not NULL. */
void lsp_proc_lint(const struct lint_options *o, unsigned opts_generation, uint64_t doc, bool reuse,
                   const char *path, const char *text, size_t len, struct file_result *res,
                   struct strbuf *timing);
/* The document's translation units are no longer needed. */
void lsp_proc_forget(uint64_t doc);
/* Ends the lint process (the server exits). */
void lsp_proc_stop(void);

#endif
