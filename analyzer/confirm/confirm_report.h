/* confirm_report.h: the results table and the Markdown/SVG report. */
#ifndef CUDALINT_CONFIRM_REPORT_H
#define CUDALINT_CONFIRM_REPORT_H

#include "confirm/confirm_model.h"
#include <stdio.h>

/* ---- reports ---- */

void confirm_print_table(FILE *out, const struct run_info *ri, struct pair_result *results,
                         size_t n);
/* Writes dir/RESULTS.md and dir/ratios.svg.  Returns 0 or -1 with *error. */
int confirm_write_report(const char *dir, const struct run_info *ri,
                         struct pair_result *results, size_t n, const char *db_path,
                         char **error);

#endif
