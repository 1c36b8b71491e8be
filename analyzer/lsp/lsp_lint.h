/* lsp_lint.h: linting one open document again and again for the language
 * server, keeping its parsed translation units (one per parse pass, through
 * the shared precompiled header of its system #includes, else libclang's
 * precompiled preamble) and reparsing them on each edit. */
#ifndef CUDALINT_LSP_LINT_H
#define CUDALINT_LSP_LINT_H

#include "engine/lint.h"
#include <stdbool.h>
#include <stddef.h>

struct lsp_lint_session;

struct lsp_lint_session *lsp_lint_session_new(void);
/* Disposes the kept translation units.  NULL is fine. */
void lsp_lint_session_free(struct lsp_lint_session *s);

/* Lints text as the contents of path (absolute), like lint_file() does, but
   reparses the kept translation unit of each pass whose arguments did not
   change (the plan is rebuilt every time: it is cheap).
   The passes of a plan are reparsed in parallel.  Fills res, which the caller
   releases with file_result_release().  When timing is not NULL, a line
   saying how long each pass took to (re)parse and walk is appended to it. */
void lsp_lint_session_run(struct lsp_lint_session *s, const struct lint_options *o,
                          const char *path, const char *text, size_t len,
                          struct file_result *res, struct strbuf *timing);

#endif
