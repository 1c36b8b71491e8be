/* codegen.h: codegen evidence for performance findings: the file's device
 * code compiled once with nvcc (-ptx -O3 -lineinfo), and what the PTX (and
 * ptxas -v) holds on each finding's line confirms or disproves it. */
#ifndef CUDALINT_CODEGEN_H
#define CUDALINT_CODEGEN_H

#include "core/diag.h"
#include "core/options.h"
#include <stdbool.h>
#include <stddef.h>

/* Whether the codegen check runs for a file linted with o: --codegen, or by
   default when a toolkit with nvcc was found (never with --no-cuda-headers,
   never in the language server unless asked). */
bool codegen_enabled(const struct lint_options *o);

/* Compiles path's device code (text, as linted) with the file's flags and
   sets the verdict (diag.codegen) of each finding of CU201, CU202, CU203,
   CU204, CU301, CU401, CU402, CU403 in path, adding the evidence as a note.
   guessed: the include folders the parse guessed for a file without a
   compile command (nvcc gets them too), or NULL.
   Adds the seconds nvcc and ptxas took to *seconds.  Nothing runs when no
   finding is one of those.  Returns false when a compile timed out (a busy
   machine, not the file): then the result is not worth caching. */
bool codegen_check(const struct lint_options *o, const char *path, const char *text, size_t len,
                   const struct strvec *guessed, struct diag_list *diags, double *seconds);

/* Whether rule r is one codegen checks. */
bool codegen_checks_rule(const struct rule *r);

#endif
