/* output.h: the table of output writers (text, json, ...) and what they share. */
#ifndef CUDALINT_OUTPUT_H
#define CUDALINT_OUTPUT_H

#include "engine/lint.h"
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
/* CI formats: SARIF 2.1.0, GitHub workflow commands, Checkstyle XML, JUnit XML,
   GitLab Code Quality JSON. */
void output_sarif(FILE *out, const struct lint_run *run, const struct lint_options *o);
void output_github(FILE *out, const struct lint_run *run, const struct lint_options *o);
void output_checkstyle(FILE *out, const struct lint_run *run, const struct lint_options *o);
void output_junit(FILE *out, const struct lint_run *run, const struct lint_options *o);
void output_gitlab(FILE *out, const struct lint_run *run, const struct lint_options *o);

/* Source lines for writers that quote or measure them; caches the last file
   read, since findings come sorted by file. */
struct source_cache {
    char *file;
    char *text;   /* NULL when unreadable */
    size_t len;
};
/* Line (1-based) of file without its line ending, or NULL. */
const char *source_line(struct source_cache *sc, const char *file, unsigned line, size_t *n);
void source_cache_release(struct source_cache *sc);

/* A path as CI tools want it: relative to the current directory (the
   repository root in CI) when under it, else absolute. */
char *output_display_path(const char *file);
/* path relative to dir, with "../" steps when needed (both made absolute). */
char *output_relative_to(const char *path, const char *dir);
/* How many files were linted (status ok or parse-errors). */
size_t output_linted_files(const struct lint_run *run);

/* The files of a run with their findings, for writers that group by file:
   every file of run->files plus headers that only appear in findings,
   sorted by name; diags[first, first + count) of run->diags belong to it. */
struct output_file_group {
    const char *name;
    const struct file_result *result; /* NULL for a header seen only in findings */
    size_t first, count;
};
struct output_file_group *output_group_by_file(const struct lint_run *run, size_t *n);

/* Writes s escaped for XML text and attributes (invalid UTF-8 replaced,
   characters XML 1.0 forbids dropped). */
void output_xml_escaped(FILE *out, const char *s);

#endif
