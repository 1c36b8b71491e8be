/* pch.h: precompiled headers of the CUDA and system headers a file starts
 * with, built once per set of parse arguments under <cache>/pch and reused by
 * every file and run that starts the same way. */
#ifndef CUDALINT_PCH_H
#define CUDALINT_PCH_H

#include "base/stamp.h"
#include "frontend/parse.h"

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
 * line on stderr, with "pch_args" when a precompiled header applies (the
 * benchmark derives its clang-tidy and clang -fsyntax-only references from
 * them). */
CXTranslationUnit pch_parse_pass(CXIndex index, const struct lint_options *o, const char *file,
                                 const struct parse_pass *pass, const char *text, size_t len,
                                 bool unsaved, enum CXErrorCode *err, const struct pch **used);

/* What to parse instead of the plain pass when a PCH applies. */
struct pch_input {
    struct parse_pass pass;          /* the pass's arguments, plus -include-pch */
    char *text;                      /* the file with the precompiled lines blanked */
    struct CXUnsavedFile *headers;   /* project headers the prefix ran through, blanked too */
    size_t n_headers;
    const struct pch *used;
};

/* For a caller that keeps its translation unit (the language server): when a
 * PCH applies to this pass, fills *in and returns true.  Parse in->text as the
 * file's unsaved contents, with in->headers as more unsaved files and
 * in->pass's arguments (parse_pass_run_with does that), on an index created
 * with excludeDeclarationsFromPCH.  When that parse fails (pch_parse_failed),
 * call pch_reject and parse the plain pass.  Release *in after the parse. */
bool pch_prepare(const struct lint_options *o, const char *file, const struct parse_pass *pass,
                 const char *text, size_t len, struct pch_input *in);
void pch_input_release(struct pch_input *in);
bool pch_parse_failed(CXTranslationUnit tu);
void pch_reject(const struct pch *used);

/* The files a PCH was built from (system headers), for dependency lists. */
const struct file_stamp *pch_deps(const struct pch *p, size_t *n);

#endif
