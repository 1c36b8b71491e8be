/* progress.h: the progress line of a long lint run on a terminal: files done
 * of the total, findings so far, elapsed time and an estimate of what is
 * left, redrawn in place on stderr and erased at the end. */
#ifndef CUDALINT_PROGRESS_H
#define CUDALINT_PROGRESS_H

#include "core/options.h"
#include <stdbool.h>

struct progress;

/* Whether a run with these options shows one: stderr is a terminal (not
   TERM=dumb), no --quiet, not standard input. */
bool progress_wanted(const struct lint_options *o);
/* Starts the line's clock; o->progress is pointed at it.  The line appears
   after delay seconds (about one), so short runs never show it. */
struct progress *progress_begin(struct lint_options *o, double delay);
/* Erases the line, restores reports to stderr and frees it. */
void progress_end(struct progress *p, struct lint_options *o);

#endif
