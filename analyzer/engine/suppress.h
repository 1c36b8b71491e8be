/* suppress.h: clang-tidy style suppression comments: NOLINT, NOLINT(checks),
 * NOLINTNEXTLINE(checks), NOLINTBEGIN(checks) ... NOLINTEND(checks). */
#ifndef CUDALINT_SUPPRESS_H
#define CUDALINT_SUPPRESS_H

#include "core/diag.h"

struct suppressions;

/* Scans a file's text for suppression comments.  Unmatched BEGIN/END markers
   become findings appended to problems (CU000-style notes, code "CU000"). */
struct suppressions *suppress_scan(const char *file, const char *text, size_t len,
                                   struct diag_list *problems);
/* True when d is suppressed: its line carries a matching NOLINT, the line before
   a matching NOLINTNEXTLINE, or it sits inside a matching BEGIN/END block.
   A check list matches a code, a name or a glob ("CU2*", "double-*"); no list
   means every rule. */
bool suppress_matches(const struct suppressions *s, const struct diag *d);
void suppress_free(struct suppressions *s);

#endif
