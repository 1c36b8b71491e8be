/* output_statistics.h: --statistics, a count per rule. */
#ifndef CUDALINT_OUTPUT_STATISTICS_H
#define CUDALINT_OUTPUT_STATISTICS_H

#include "output/output.h"
#include <stdbool.h>

/* One row per rule that has findings (count, code, name, how many carry a
   fix), most frequent first; as text or as a JSON document. */
void output_statistics(FILE *out, const struct lint_run *run, const struct lint_options *o, bool json);

#endif
