/* output.c: the table of output writers, looked up by --format NAME. */
#include "output.h"

#include <string.h>

const struct output_writer output_writers[] = {
    {"text", "clang-style lines with the source line, a caret, notes and fix hints", output_text},
    {"json", "one JSON document (the contract in the README)", output_json},
};
const size_t output_writers_len = sizeof output_writers / sizeof output_writers[0];

const struct output_writer *output_find(const char *name)
{
    for (size_t i = 0; i < output_writers_len; i++)
        if (strcmp(output_writers[i].name, name) == 0) return &output_writers[i];
    return NULL;
}
