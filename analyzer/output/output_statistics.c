/* output_statistics.c: --statistics, a count per rule (as `ruff
 * --statistics`): text columns, or one JSON document. */
#include "output/output_statistics.h"
#include "base/jsonutil.h"
#include "core/docs.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

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

void output_statistics(FILE *out, const struct lint_run *run, const struct lint_options *o, bool json)
{
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
        cJSON *ls = cJSON_AddObjectToObject(root, "launch_shapes");
        cJSON_AddNumberToObject(ls, "from_other_files", (double)run->kernels_shaped_elsewhere);
        cJSON_AddNumberToObject(ls, "unknown", (double)run->kernels_shape_unknown);
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
        /* How far the launch sites of the linted files reached (the race and
           warp rules use the block shapes). */
        if (!o->quiet && (run->kernels_shaped_elsewhere || run->kernels_shape_unknown))
            fprintf(out, "launch shapes: %zu kernel%s from launches in another file, %zu kernel%s with no known shape\n",
                    run->kernels_shaped_elsewhere, run->kernels_shaped_elsewhere == 1 ? "" : "s",
                    run->kernels_shape_unknown, run->kernels_shape_unknown == 1 ? "" : "s");
    }
    free(rows);
}
