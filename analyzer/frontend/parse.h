/* parse.h: planning the parse passes of a file (toolkit: host-only + a
 * device-only pass for the newest arch, one per arch where the code tests
 * __CUDA_ARCH__; shim: one pass) and running them with libclang. */
#ifndef CUDALINT_PARSE_H
#define CUDALINT_PARSE_H

#include "core/options.h"
#include "clang/clang_api.h"

struct parse_pass {
    char *name;          /* "host", "device sm_90", "shim" */
    bool is_device;
    struct strvec args;  /* full clang argument list */
};

struct parse_plan {
    struct parse_pass *passes;
    size_t n_passes;
    bool shim;
    char *toolkit_root;  /* NULL in shim mode */
    struct strvec guessed_includes; /* folders added with -iquote for a file without a
                                       compile command (frontend/include_guess.h) */
};

/* Builds the passes for file (absolute path).  text/len are its contents
   (NULL: not read, one device pass), scanned for tests of __CUDA_ARCH__ to decide whether the
   archs other than the newest need device passes of their own.  Returns 0,
   or -1 with *error (a bad compile database entry, a --cuda-path without
   headers). */
int parse_plan_build(const struct lint_options *o, const char *file, const char *text, size_t len,
                     struct parse_plan *plan, char **error);
void parse_plan_release(struct parse_plan *plan);

/* The flags every parse of a file uses (the language server adds libclang's
   preamble where no precompiled header applies). */
#define PARSE_FLAGS (CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing)

/* Whether a pass's arguments name anything under SHIM_DIR, so that the
   embedded headers must be served to it as unsaved files. */
bool parse_args_use_shim_files(const struct strvec *args);

/* The unsaved files of one parse: extra files (headers whose leading
   includes a precompiled header holds, blanked: see pch.c), the file's own
   text when contents is not NULL, and the embedded declarations header when
   args use it (it exists nowhere on disk). */
struct parse_unsaved {
    struct CXUnsavedFile *files;
    unsigned n;
    char **names; /* owned names of the embedded headers */
};
void parse_unsaved_init(struct parse_unsaved *u, const char *file, const char *contents, size_t len,
                        const struct CXUnsavedFile *extra, size_t n_extra, const struct strvec *args);
void parse_unsaved_release(struct parse_unsaved *u);

/* Parses file for one pass; contents overrides the file on disk when non-NULL. */
CXTranslationUnit parse_pass_run(CXIndex index, const char *file,
                                 const struct parse_pass *pass,
                                 const char *contents, size_t contents_len,
                                 enum CXErrorCode *err);
/* The same, with more unsaved files (headers whose leading includes a
   precompiled header holds, blanked: see pch.c). */
CXTranslationUnit parse_pass_run_with(CXIndex index, const char *file,
                                      const struct parse_pass *pass,
                                      const char *contents, size_t contents_len,
                                      const struct CXUnsavedFile *extra, size_t n_extra,
                                      enum CXErrorCode *err);

#endif
