/* pch.h: precompiled headers of the CUDA and system headers a file starts
 * with, built once per set of parse arguments under <cache>/pch and reused by
 * every file and run that starts the same way. */
#ifndef CUDALINT_PCH_H
#define CUDALINT_PCH_H

#include "cache.h"
#include "parse.h"

/* A built precompiled header; owned by the process-wide table, valid until exit. */
struct pch;

/* Parses file for one pass, like parse_pass_run(), but through a precompiled
 * header when one applies (see pch.c for which).  text/len are the file's
 * contents (read from disk or the editor's).  The parse result is the same
 * with and without the PCH.  *used receives the PCH that was used, or NULL.
 * The index must be created with excludeDeclarationsFromPCH = 1, so that the
 * walk does not deserialize every toolkit declaration.
 * CUDALINT_NO_PCH=1 in the environment turns precompiled headers off;
 * CUDALINT_PRINT_CLANG_ARGS=1 prints each pass's clang arguments as a JSON
 * line on stderr (the benchmark gives clang-tidy the same arguments). */
CXTranslationUnit pch_parse_pass(CXIndex index, const struct lint_options *o, const char *file,
                                 const struct parse_pass *pass, const char *text, size_t len,
                                 bool unsaved, enum CXErrorCode *err, const struct pch **used);

/* For a caller that keeps its translation unit (the language server): when a
 * PCH applies to this pass, fills *with (the pass, its arguments plus
 * -include-pch; free name and args) and *blanked (text with the precompiled
 * include lines overwritten by spaces: parse that, as an unsaved file) and
 * returns true.  If the parse then fails (pch_parse_failed), call pch_reject
 * and parse the plain pass instead.  The index needs excludeDeclarationsFromPCH. */
bool pch_prepare(const struct lint_options *o, const struct parse_pass *pass, const char *text, size_t len,
                 struct parse_pass *with, char **blanked, const struct pch **used);
bool pch_parse_failed(CXTranslationUnit tu);
void pch_reject(const struct pch *used);

/* The files a PCH was built from (system headers), for dependency lists. */
const struct file_stamp *pch_deps(const struct pch *p, size_t *n);

#endif
