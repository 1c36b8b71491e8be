/* output.h: the table of output writers (text, json, ...) and what they share. */
#ifndef CUDALINT_OUTPUT_H
#define CUDALINT_OUTPUT_H

#include "lint.h"
#include <stdio.h>

struct output_writer {
    const char *name;         /* --format NAME */
    const char *description;
    void (*write)(FILE *out, const struct lint_run *run, const struct lint_options *o);
};

extern const struct output_writer output_writers[];
extern const size_t output_writers_len;
const struct output_writer *output_find(const char *name);

/* Writers */
void output_text(FILE *out, const struct lint_run *run, const struct lint_options *o);
/* One diagnostic as a JSON object; shared with other writers. */
struct cJSON;
struct cJSON *json_diag(const struct diag *d);
void output_json(FILE *out, const struct lint_run *run, const struct lint_options *o);

#endif
