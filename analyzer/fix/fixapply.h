/* fixapply.h: applying fix-its to a file's text in memory: used by --fix,
 * --diff, the language server's code actions and `confirm`. */
#ifndef CUDALINT_FIXAPPLY_H
#define CUDALINT_FIXAPPLY_H

#include "core/diag.h"

/* Applies the fixes of every diag in diags whose fixes target file (compared
   as given) to text.  A diag's fixes are applied together or not at all; a diag
   whose fixes overlap an already chosen one is skipped.  Returns the new text
   (malloc'd, *out_len set); *applied and *skipped count diags. */
char *fix_apply(const char *text, size_t len, const char *file,
                const struct diag_list *diags, size_t *out_len,
                size_t *applied, size_t *skipped);

#endif
