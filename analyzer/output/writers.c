/* writers.c: the table of output writers, looked up by --format NAME.  Adding
 * a format means one file, output_NAME.c, and one line here. */
#include "output/writers.h"

#include <string.h>

extern const struct output_writer output_writer_text;
extern const struct output_writer output_writer_json;
extern const struct output_writer output_writer_sarif;
extern const struct output_writer output_writer_github;
extern const struct output_writer output_writer_checkstyle;
extern const struct output_writer output_writer_junit;
extern const struct output_writer output_writer_gitlab;

const struct output_writer *const output_writers[] = {
    &output_writer_text,
    &output_writer_json,
    &output_writer_sarif,
    &output_writer_github,
    &output_writer_checkstyle,
    &output_writer_junit,
    &output_writer_gitlab,
};
const size_t output_writers_len = sizeof output_writers / sizeof output_writers[0];

const struct output_writer *output_find(const char *name)
{
    for (size_t i = 0; i < output_writers_len; i++)
        if (strcmp(output_writers[i]->name, name) == 0) return output_writers[i];
    return NULL;
}
