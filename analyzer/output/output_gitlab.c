/* output_gitlab.c: GitLab Code Quality JSON (a Code Climate subset): an
 * array of issues with description, check_name, a unique fingerprint that
 * survives unrelated edits, severity and location, for merge-request widgets
 * via artifacts:reports:codequality. */
#include "output/baseline.h"
#include "base/jsonutil.h"
#include "output/output.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* GitLab's scale is info, minor, major, critical, blocker. */
static const char *severity_of(enum severity s)
{
    return s == SEV_ERROR ? "major" : s == SEV_WARNING ? "minor" : "info";
}

/* Code Climate categories. */
static const char *category_of(const char *c)
{
    if (strcmp(c, "performance") == 0) return "Performance";
    if (strcmp(c, "correctness") == 0) return "Bug Risk";
    if (strcmp(c, "portability") == 0) return "Compatibility";
    return "Clarity";
}

static void write_gitlab(FILE *out, const struct lint_run *run, const struct lint_options *o)
{
    (void)o;
    cJSON *root = cJSON_CreateArray();
    struct fingerprints fps;
    fingerprints_init(&fps);
    for (size_t i = 0; i < run->diags.len; i++) {
        const struct diag *d = &run->diags.items[i];
        cJSON *x = cJSON_CreateObject();
        json_add_str(x, "type", "issue");
        char *desc = xasprintf("%s [%s %s]", d->message, d->rule->code, d->rule->name);
        json_add_str(x, "description", desc);
        free(desc);
        json_add_str(x, "check_name", d->rule->code);
        /* The baseline's line-number-free key, numbered when it repeats: GitLab
           wants every fingerprint unique. */
        char *fp_src = fingerprint_next(&fps, d);
        char *fp = xasprintf("%016llx", (unsigned long long)hash_bytes(fp_src, strlen(fp_src)));
        json_add_str(x, "fingerprint", fp);
        free(fp);
        free(fp_src);
        json_add_str(x, "severity", severity_of(d->severity));
        cJSON *cats = cJSON_AddArrayToObject(x, "categories");
        cJSON_AddItemToArray(cats, cJSON_CreateString(category_of(d->rule->category)));
        json_add_str(x, "engine_name", "cudalint");
        cJSON *loc = cJSON_AddObjectToObject(x, "location");
        char *path = path_display(d->file);
        json_add_str(loc, "path", path);
        free(path);
        cJSON *lines = cJSON_AddObjectToObject(loc, "lines");
        cJSON_AddNumberToObject(lines, "begin", d->line);
        cJSON_AddNumberToObject(lines, "end", d->end_line >= d->line ? d->end_line : d->line);
        cJSON_AddItemToArray(root, x);
    }
    fingerprints_release(&fps);
    json_write_doc(out, root);
}

const struct output_writer output_writer_gitlab = {"gitlab", "GitLab Code Quality JSON (artifacts:reports:codequality)", write_gitlab};
