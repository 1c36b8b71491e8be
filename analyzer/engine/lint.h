/* lint.h: the lint driver: resolving what a run needs (compile database,
 * toolkit), the per-file pipeline (arguments -> parse passes -> walk -> merge
 * -> suppressions) and the worker pool over files. */
#ifndef CUDALINT_LINT_H
#define CUDALINT_LINT_H

#include "core/options.h"
#include "core/result.h"
#include "clang/clang_api.h"
#include <stdbool.h>

/* Loads the compile database and finds the toolkit.  Returns 0, or -1 with
   *error set (malformed database, bad --cuda-path): a usage error. */
int lint_prepare(struct lint_options *o, char **error);
/* Releases what lint_prepare() resolved (it may then run again). */
void lint_unprepare(struct lint_options *o);

/* Lints one file (path on disk, or the editor's text when contents != NULL). */
void lint_file(const struct lint_options *o, const char *path, const char *contents,
               size_t contents_len, struct file_result *res);
/* Lints every file of o->paths with o->jobs workers. */
void lint_run(const struct lint_options *o, struct lint_run *run);

/* Steps of lint_file() the language server repeats around its own parsing
   (lsp_lint.c). */
/* Counts a pass's clang errors into *n_errors, and turns the first (or, with
   --show-parse-errors, each) into a CU000 note in out. */
void lint_collect_parse_errors(CXTranslationUnit tu, const char *pass_name, const char *path,
                               const struct lint_options *o, struct diag_list *out,
                               unsigned *n_errors, bool *first_reported);
/* Drops suppressed findings (NOLINT comments of the file, or of the linted
   header a finding is in); adds CU001 for unmatched NOLINTBEGIN/END. */
void lint_apply_suppressions(const struct lint_options *o, const char *path, const char *text,
                             size_t len, struct diag_list *diags);

#endif
