/* output.h: what an output writer is, and the helpers the writers share. */
#ifndef CUDALINT_OUTPUT_H
#define CUDALINT_OUTPUT_H

#include "core/options.h"
#include "core/result.h"
#include <stdio.h>

/* Each writer, output_X.c, defines one `const struct output_writer
   output_writer_X`; output/writers.c lists them. */
struct output_writer {
    const char *name;         /* --format NAME */
    const char *description;
    void (*write)(FILE *out, const struct lint_run *run, const struct lint_options *o);
};

/* Source lines for writers that quote or measure them; caches the last file
   read, since findings come sorted by file. */
struct source_cache {
    char *file;
    char *text;   /* NULL when unreadable */
    size_t len;
    size_t *starts; /* offset of each line */
    size_t n_lines;
};
/* Line (1-based) of file without its line ending, or NULL. */
const char *source_line(struct source_cache *sc, const char *file, unsigned line, size_t *n);
void source_cache_release(struct source_cache *sc);
/* Lines of path come from text (borrowed, e.g. standard input under
   --stdin-filename) rather than the disk; NULL path: none. */
void source_override(const char *path, const char *text, size_t len);

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
