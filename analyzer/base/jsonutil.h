/* jsonutil.h: the cJSON accessors every JSON reader and writer of
 * cudalint needs (output formats, cache rows, the language server, confirm). */
#ifndef CUDALINT_JSONUTIL_H
#define CUDALINT_JSONUTIL_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* Adds key: value as a string, made valid UTF-8 first (file names and source
   text may not be); NULL is written as "". */
void json_add_str(cJSON *obj, const char *key, const char *value);
/* The string member key of o, or NULL when absent or not a string. */
const char *json_get_str(const cJSON *o, const char *key);
/* The number member key of o, or missing when absent or not a number. */
double json_get_number(const cJSON *o, const char *key, double missing);
/* A copy of the string member key of o, or NULL. */
char *json_dup_str(const cJSON *o, const char *key);
/* Writes root to out, indented, with a final newline, and deletes it (the
   output writers' documents). */
void json_write_doc(FILE *out, cJSON *root);

#endif
