/* result.h: what a run found: one result per file (status, message,
 * findings) and the run as a whole, which the output writers print. */
#ifndef CUDALINT_RESULT_H
#define CUDALINT_RESULT_H

#include "core/diag.h"
#include "base/util.h"
#include <stdbool.h>

/* What became of a file. */
enum file_status {
    FILE_OK,           /* linted */
    FILE_PARSE_ERRORS, /* linted as far as clang recovered from its errors */
    FILE_ERROR,        /* not linted: unreadable, bad configuration, libclang failed */
    FILE_SKIPPED,      /* not linted on purpose: excluded, too large, binary */
};
/* "ok", "parse-errors", "error", "skipped": the JSON output's names. */
const char *file_status_name(enum file_status s);
/* Whether the file was linted (ok or parse-errors). */
bool file_status_linted(enum file_status s);

/* Where a file's time went (seconds, wall clock of its worker thread),
   recorded by the engine (engine/lint.c) for --statistics and slow-file
   reports. */
struct file_timing {
    double total;       /* the whole file, from its configuration to its sorted findings */
    double cache;       /* result cache lookup and store (database lock waits included) */
    double pch_wait;    /* waiting for a precompiled header another worker or process builds */
    double pch_build;   /* building precompiled headers */
    double parse;       /* libclang parses, less the two above */
    double walk;        /* the walk, rules and analyses */
    double slowest_pass_s;
    char *slowest_pass; /* "device sm_90" */
    char *detail;       /* with --statistics: the costliest rules and analyses, "CU102 0.81 s, ..." */
};

/* Result for one linted file. */
struct file_result {
    char *path;                   /* as shown to the user */
    enum file_status status;
    char *message;                /* why, for non-ok */
    struct diag_list diags;
    unsigned n_parse_errors;
    /* Codegen evidence (codegen/): the findings nvcc's code disproved (out
       of diags unless --show-disproved) and the seconds nvcc took. */
    struct diag_list disproved;
    double codegen_seconds;
    struct file_timing timing;
    /* For --statistics: the kernels (USRs) this file's analyses asked about
       whose launch shapes came from a launch in another file than the
       kernel's, and those whose shapes stayed unknown. */
    struct strvec kernels_shaped_elsewhere, kernels_shape_unknown;
};

struct lint_run {
    struct file_result *files;
    size_t n_files;
    struct diag_list diags;       /* every finding, sorted and unique */
    int input_errors;             /* unreadable paths and the like */
    /* Kernels (each once) whose launch shapes came from another file, and
       kernels with no known launch shape (the files' lists merged). */
    size_t kernels_shaped_elsewhere, kernels_shape_unknown;
    /* Some linted file's configuration says `preview: true` (the command
       line's --preview is in the options). */
    bool preview_configured;
};

/* Replaces res's status and message (message is taken over). */
void file_result_set_status(struct file_result *res, enum file_status status, char *message);
void file_result_release(struct file_result *r);
void lint_run_release(struct lint_run *run);

#endif
