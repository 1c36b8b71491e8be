/* lint.h: the lint driver: options, the per-file pipeline (arguments -> parse
 * passes -> walk -> merge -> suppressions) and the worker pool over files. */
#ifndef CUDALINT_LINT_H
#define CUDALINT_LINT_H

#include "core/diag.h"
#include "base/util.h"
#include <stdbool.h>

struct compdb;
struct cuda_toolkit;

enum header_mode { HEADERS_AUTO, HEADERS_TOOLKIT, HEADERS_SHIM };

struct lint_options {
    struct strvec paths;          /* files/directories given by the user */
    struct strvec roots;          /* the same, absolute: headers under them are linted */
    struct strvec extensions;     /* ".cu", ".cuh", plus --extensions */
    struct strvec select, ignore; /* codes, names, prefixes, globs */
    struct strvec archs;          /* "sm_90" ... */
    struct strvec extra_args;     /* after "--": passed to clang */
    char *cuda_path;              /* explicit --cuda-path, or NULL */
    char *compdb_dir;             /* -p DIR, or NULL (auto-discovery) */
    enum header_mode headers;
    bool host;                    /* also report rules in host code (--host) */
    bool show_parse_errors;
    bool exit_zero, quiet;
    int jobs;
    char *format;                 /* "text", "json", ... */
    int color;                    /* 0 never, 1 always, -1 auto */
    int fail_level;               /* lowest enum severity that fails the run */
    long long max_file_size;      /* larger files are skipped with a note */

    /* Integrations (configuration, baseline, fixes, cache). */
    char *config_path;            /* --config FILE, or NULL: nearest .cudalint.yaml */
    bool no_config, dump_config;
    char *baseline, *write_baseline;
    bool fix, diff;
    char *cache_dir;              /* --cache-dir, or NULL: the user cache dir */
    bool no_cache;

    /* Resolved once per run by lint_prepare(): */
    struct compdb *compdb;        /* NULL without a compile database */
    struct cuda_toolkit *toolkit; /* NULL when none was found or shim mode */
    bool explicit_archs;          /* --cuda-arch given: wins over the database */
};

/* Loads the compile database and finds the toolkit.  Returns 0, or -1 with
   *error set (malformed database, bad --cuda-path): a usage error. */
int lint_prepare(struct lint_options *o, char **error);

/* Result for one linted file. */
struct file_result {
    char *path;                   /* as shown to the user */
    char *status;                 /* "ok", "parse-errors", "error", "skipped" */
    char *message;                /* why, for non-ok */
    struct diag_list diags;
    unsigned n_parse_errors;
};

struct lint_run {
    struct file_result *files;
    size_t n_files;
    struct diag_list diags;       /* every finding, sorted and unique */
    int input_errors;             /* unreadable paths and the like */
};

void lint_options_init(struct lint_options *o);
void lint_options_release(struct lint_options *o);
bool lint_rule_enabled(const struct lint_options *o, const struct rule *r);

/* Lints one file (path on disk, or the editor's text when contents != NULL). */
void lint_file(const struct lint_options *o, const char *path, const char *contents,
               size_t contents_len, struct file_result *res);
/* Lints every file of o->paths with o->jobs workers. */
void lint_run(const struct lint_options *o, struct lint_run *run);
void lint_run_release(struct lint_run *run);
void file_result_release(struct file_result *r);

/* Steps of lint_file() the language server repeats around its own parsing
   (lsp_lint.c). */
typedef struct CXTranslationUnitImpl *CXTranslationUnit;
/* Replaces res's status and message (message is taken over). */
void lint_set_status(struct file_result *res, const char *status, char *message);
/* Counts a pass's clang errors into *n_errors, and turns the first (or, with
   --show-parse-errors, each) into a CU000 note in out. */
void lint_collect_parse_errors(CXTranslationUnit tu, const char *pass_name, const char *path,
                               const struct lint_options *o, struct diag_list *out,
                               unsigned *n_errors, bool *first_reported);
/* Drops suppressed findings (NOLINT comments of the file, or of the linted
   header a finding is in); adds CU001 for unmatched NOLINTBEGIN/END. */
void lint_apply_suppressions(const struct lint_options *o, const char *path, const char *text,
                             size_t len, struct diag_list *diags);

#endif
