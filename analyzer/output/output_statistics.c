/* output_statistics.c: --statistics, a count per rule (as `ruff
 * --statistics`): text columns, or one JSON document. */
#include "output/output_statistics.h"
#include "base/jsonutil.h"
#include "core/docs.h"
#include "base/util.h"
#include "frontend/include_guess.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct stat_row {
    const struct rule *rule;
    size_t count, fixable;
};

static int cmp_row(const void *a, const void *b)
{
    const struct stat_row *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return strcmp(x->rule->code, y->rule->code);
}

static struct stat_row *count_rules(const struct lint_run *run, size_t *n)
{
    struct stat_row *rows = NULL;
    size_t len = 0;
    for (size_t i = 0; i < run->diags.len; i++) {
        const struct diag *d = &run->diags.items[i];
        size_t j = 0;
        while (j < len && rows[j].rule != d->rule) j++;
        if (j == len) {
            rows = xrealloc(rows, (len + 1) * sizeof *rows);
            rows[len++] = (struct stat_row){d->rule, 0, 0};
        }
        rows[j].count++;
        if (d->n_fixes) rows[j].fixable++;
    }
    if (len) qsort(rows, len, sizeof *rows, cmp_row);
    *n = len;
    return rows;
}

/* The include folders guessed for the run's linted files. */
static void guessed_folders(const struct lint_run *run, const struct lint_options *o, struct include_guess_summary *g)
{
    char **abs = xcalloc(run->n_files + 1, sizeof *abs);
    size_t n = 0;
    for (size_t i = 0; i < run->n_files; i++)
        if (file_status_linted(run->files[i].status)) abs[n++] = path_absolute(run->files[i].path);
    include_guess_summarize(o, (const char *const *)abs, n, g);
    for (size_t i = 0; i < n; i++) free(abs[i]);
    free(abs);
}

void output_statistics(FILE *out, const struct lint_run *run, const struct lint_options *o, bool json)
{
    struct include_guess_summary guesses;
    guessed_folders(run, o, &guesses);
    size_t n;
    struct stat_row *rows = count_rules(run, &n);
    size_t total = 0, fixable = 0;
    for (size_t i = 0; i < n; i++) {
        total += rows[i].count;
        fixable += rows[i].fixable;
    }
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *tool = cJSON_AddObjectToObject(root, "tool");
        json_add_str(tool, "name", "cudalint");
        json_add_str(tool, "version", cudalint_version);
        cJSON *arr = cJSON_AddArrayToObject(root, "statistics");
        for (size_t i = 0; i < n; i++) {
            cJSON *x = cJSON_CreateObject();
            json_add_str(x, "code", rows[i].rule->code);
            json_add_str(x, "name", rows[i].rule->name);
            cJSON_AddNumberToObject(x, "count", (double)rows[i].count);
            cJSON_AddNumberToObject(x, "fixable", (double)rows[i].fixable);
            cJSON_AddItemToArray(arr, x);
        }
        cJSON_AddNumberToObject(root, "total", (double)total);
        cJSON_AddNumberToObject(root, "files", (double)output_linted_files(run));
        if (guesses.folders.len) {
            cJSON *g = cJSON_AddArrayToObject(root, "guessed_include_folders");
            for (size_t i = 0; i < guesses.folders.len; i++) {
                cJSON *x = cJSON_CreateObject();
                json_add_str(x, "folder", guesses.folders.items[i]);
                cJSON_AddNumberToObject(x, "files", (double)guesses.files[i]);
                cJSON_AddItemToArray(g, x);
            }
        }
        char *s = cJSON_Print(root);
        fputs(s, out);
        fputc('\n', out);
        cJSON_free(s);
        cJSON_Delete(root);
    } else {
        /* "[*]": every finding of the rule has a fix; "[n]": n of them do. */
        for (size_t i = 0; i < n; i++) {
            char mark[32] = "";
            if (rows[i].fixable == rows[i].count) snprintf(mark, sizeof mark, "[*]");
            else if (rows[i].fixable) snprintf(mark, sizeof mark, "[%zu]", rows[i].fixable);
            fprintf(out, "%6zu  %-6s %-4s %s\n", rows[i].count, rows[i].rule->code, mark, rows[i].rule->name);
        }
        if (fixable && !o->quiet)
            fprintf(out, "[*] fixable with --fix (%zu of %zu finding%s)\n", fixable, total, total == 1 ? "" : "s");
        char cwd[4096];
        bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
        for (size_t i = 0; i < guesses.folders.len; i++) {
            char *shown = have_cwd ? path_relative(guesses.folders.items[i], cwd) : xstrdup(guesses.folders.items[i]);
            fprintf(out, "include folder guessed: %s (%zu file%s without a compile command)\n", shown,
                    guesses.files[i], guesses.files[i] == 1 ? "" : "s");
            free(shown);
        }
    }
    include_guess_summary_release(&guesses);
    free(rows);
}
