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

/* Codegen evidence per rule: what nvcc's code confirmed, disproved (kept
   out of the findings unless --show-disproved) and left unchecked. */
struct codegen_row {
    const struct rule *rule;
    size_t confirmed, disproved, unchecked;
};

static void count_verdict(struct codegen_row **rows, size_t *len, const struct diag *d)
{
    if (d->codegen == CODEGEN_NONE) return;
    size_t j = 0;
    while (j < *len && (*rows)[j].rule != d->rule) j++;
    if (j == *len) {
        *rows = xrealloc(*rows, (*len + 1) * sizeof **rows);
        (*rows)[(*len)++] = (struct codegen_row){d->rule, 0, 0, 0};
    }
    if (d->codegen == CODEGEN_CONFIRMED) (*rows)[j].confirmed++;
    else if (d->codegen == CODEGEN_DISPROVED) (*rows)[j].disproved++;
    else (*rows)[j].unchecked++;
}

static int cmp_codegen_row(const void *a, const void *b)
{
    return strcmp(((const struct codegen_row *)a)->rule->code, ((const struct codegen_row *)b)->rule->code);
}

static struct codegen_row *count_codegen(const struct lint_run *run, size_t *n, double *seconds)
{
    struct codegen_row *rows = NULL;
    size_t len = 0;
    *seconds = 0;
    for (size_t i = 0; i < run->diags.len; i++) count_verdict(&rows, &len, &run->diags.items[i]);
    for (size_t f = 0; f < run->n_files; f++) {
        *seconds += run->files[f].codegen_seconds;
        for (size_t i = 0; i < run->files[f].disproved.len; i++)
            count_verdict(&rows, &len, &run->files[f].disproved.items[i]);
    }
    if (len) qsort(rows, len, sizeof *rows, cmp_codegen_row);
    *n = len;
    return rows;
}
/* Files by time spent, the slowest first. */
static int cmp_slowest(const void *a, const void *b)
{
    const struct file_result *x = *(const struct file_result *const *)a, *y = *(const struct file_result *const *)b;
    if (x->timing.total != y->timing.total) return x->timing.total < y->timing.total ? 1 : -1;
    return strcmp(x->path, y->path);
}

static const struct file_result **slowest_files(const struct lint_run *run)
{
    const struct file_result **v = xmalloc((run->n_files ? run->n_files : 1) * sizeof *v);
    for (size_t i = 0; i < run->n_files; i++) v[i] = &run->files[i];
    if (run->n_files) qsort(v, run->n_files, sizeof *v, cmp_slowest);
    return v;
}

/* Where a file's time went, for the slowest-files list. */
static cJSON *timing_json(const struct file_result *f)
{
    const struct file_timing *t = &f->timing;
    cJSON *x = cJSON_CreateObject();
    json_add_str(x, "file", f->path);
    json_add_str(x, "status", file_status_name(f->status));
    cJSON_AddNumberToObject(x, "seconds", t->total);
    cJSON_AddNumberToObject(x, "parse", t->parse);
    cJSON_AddNumberToObject(x, "pch_wait", t->pch_wait);
    cJSON_AddNumberToObject(x, "pch_build", t->pch_build);
    cJSON_AddNumberToObject(x, "analysis", t->walk);
    cJSON_AddNumberToObject(x, "cache", t->cache);
    if (t->slowest_pass) {
        json_add_str(x, "slowest_pass", t->slowest_pass);
        cJSON_AddNumberToObject(x, "slowest_pass_seconds", t->slowest_pass_s);
    }
    if (t->detail) json_add_str(x, "costliest", t->detail);
    if (f->message && f->status == FILE_ERROR) json_add_str(x, "message", f->message);
    return x;
}

/* How many of the slowest files the text output lists. */
#define SLOWEST_SHOWN 10

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
    size_t n_cg;
    double cg_seconds;
    struct codegen_row *cg = count_codegen(run, &n_cg, &cg_seconds);
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
        if (n_cg) {
            cJSON *cgj = cJSON_AddObjectToObject(root, "codegen");
            cJSON_AddNumberToObject(cgj, "nvcc_seconds", cg_seconds);
            cJSON *rules = cJSON_AddArrayToObject(cgj, "rules");
            for (size_t i = 0; i < n_cg; i++) {
                cJSON *x = cJSON_CreateObject();
                json_add_str(x, "code", cg[i].rule->code);
                cJSON_AddNumberToObject(x, "confirmed", (double)cg[i].confirmed);
                cJSON_AddNumberToObject(x, "disproved", (double)cg[i].disproved);
                cJSON_AddNumberToObject(x, "not_checked", (double)cg[i].unchecked);
                cJSON_AddItemToArray(rules, x);
            }
        }
        /* Every file, the slowest first, with where its time went. */
        const struct file_result **slow = slowest_files(run);
        cJSON *times = cJSON_AddArrayToObject(root, "timings");
        for (size_t i = 0; i < run->n_files; i++) cJSON_AddItemToArray(times, timing_json(slow[i]));
        free(slow);
        if (guesses.folders.len) {
            cJSON *g = cJSON_AddArrayToObject(root, "guessed_include_folders");
            for (size_t i = 0; i < guesses.folders.len; i++) {
                cJSON *x = cJSON_CreateObject();
                json_add_str(x, "folder", guesses.folders.items[i]);
                cJSON_AddNumberToObject(x, "files", (double)guesses.files[i]);
                cJSON_AddItemToArray(g, x);
            }
        }
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
        if (n_cg) {
            fprintf(out, "codegen (nvcc, %.2f s): confirmed, disproved, not checked\n", cg_seconds);
            for (size_t i = 0; i < n_cg; i++)
                fprintf(out, "%6zu %6zu %6zu  %s\n", cg[i].confirmed, cg[i].disproved, cg[i].unchecked,
                        cg[i].rule->code);
        }
        if (!o->quiet && run->n_files) {
            const struct file_result **slow = slowest_files(run);
            fprintf(out, "slowest files (seconds: parse, precompiled header wait and build, analysis, result cache):\n");
            for (size_t i = 0; i < run->n_files && i < SLOWEST_SHOWN; i++) {
                const struct file_result *f = slow[i];
                const struct file_timing *t = &f->timing;
                fprintf(out, "%8.2f  %s: parse %.2f, pch wait %.2f, pch build %.2f, analysis %.2f, cache %.2f", t->total,
                        f->path, t->parse, t->pch_wait, t->pch_build, t->walk, t->cache);
                if (t->slowest_pass) fprintf(out, "; slowest pass %s %.2f", t->slowest_pass, t->slowest_pass_s);
                if (t->detail) fprintf(out, "; costliest: %s", t->detail);
                if (f->status == FILE_ERROR && f->message) fprintf(out, "; %s", f->message);
                fputc('\n', out);
            }
            free(slow);
        }
        char cwd[4096];
        bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
        for (size_t i = 0; i < guesses.folders.len; i++) {
            char *shown = have_cwd ? path_relative(guesses.folders.items[i], cwd) : xstrdup(guesses.folders.items[i]);
            fprintf(out, "include folder guessed: %s (%zu file%s without a compile command)\n", shown,
                    guesses.files[i], guesses.files[i] == 1 ? "" : "s");
            free(shown);
        }
        /* How far the launch sites of the linted files reached (the race and
           warp rules use the block shapes). */
        if (!o->quiet && (run->kernels_shaped_elsewhere || run->kernels_shape_unknown))
            fprintf(out, "launch shapes: %zu kernel%s from launches in another file, %zu kernel%s with no known shape\n",
                    run->kernels_shaped_elsewhere, run->kernels_shaped_elsewhere == 1 ? "" : "s",
                    run->kernels_shape_unknown, run->kernels_shape_unknown == 1 ? "" : "s");
    }
    include_guess_summary_release(&guesses);
    free(cg);
    free(rows);
}
