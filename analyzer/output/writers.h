/* writers.h: the table of output writers (text, json, sarif, ...). */
#ifndef CUDALINT_WRITERS_H
#define CUDALINT_WRITERS_H

#include "output/output.h"

extern const struct output_writer *const output_writers[];
extern const size_t output_writers_len;
/* The writer of --format NAME, or NULL. */
const struct output_writer *output_find(const char *name);

#endif
