/* result.c: ownership of file results and runs. */
#include "core/result.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

const char *file_status_name(enum file_status s)
{
    switch (s) {
    case FILE_OK: return "ok";
    case FILE_PARSE_ERRORS: return "parse-errors";
    case FILE_ERROR: return "error";
    default: return "skipped";
    }
}

bool file_status_linted(enum file_status s)
{
    return s == FILE_OK || s == FILE_PARSE_ERRORS;
}

void file_result_set_status(struct file_result *res, enum file_status status, char *message)
{
    free(res->message);
    res->status = status;
    res->message = message;
}

void file_result_release(struct file_result *r)
{
    free(r->path);
    free(r->message);
    free(r->timing.slowest_pass);
    free(r->timing.detail);
    diag_list_release(&r->diags);
    diag_list_release(&r->disproved);
    sv_release(&r->kernels_shaped_elsewhere);
    sv_release(&r->kernels_shape_unknown);
    memset(r, 0, sizeof *r);
}

void lint_run_release(struct lint_run *run)
{
    for (size_t i = 0; i < run->n_files; i++) file_result_release(&run->files[i]);
    free(run->files);
    diag_list_release(&run->diags);
    memset(run, 0, sizeof *run);
}
