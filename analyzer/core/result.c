/* result.c: ownership of file results and runs. */
#include "core/result.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void file_result_set_status(struct file_result *res, const char *status, char *message)
{
    free(res->status);
    free(res->message);
    res->status = xstrdup(status);
    res->message = message;
}

void file_result_release(struct file_result *r)
{
    free(r->path);
    free(r->status);
    free(r->message);
    diag_list_release(&r->diags);
    memset(r, 0, sizeof *r);
}

void lint_run_release(struct lint_run *run)
{
    for (size_t i = 0; i < run->n_files; i++) file_result_release(&run->files[i]);
    free(run->files);
    diag_list_release(&run->diags);
    memset(run, 0, sizeof *run);
}
