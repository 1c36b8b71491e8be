/* output_json.c: the JSON writer, one document:
 * {"tool":{"name","version"},"diagnostics":[...],"files":[...]} (README). */
#include "output/output.h"
#include "base/jsonutil.h"
#include "core/docs.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static cJSON *json_diag(const struct diag *d)
{
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "file", d->file);
    cJSON_AddNumberToObject(o, "line", d->line);
    cJSON_AddNumberToObject(o, "column", d->column);
    cJSON_AddNumberToObject(o, "end_line", d->end_line);
    cJSON_AddNumberToObject(o, "end_column", d->end_column);
    json_add_str(o, "code", d->rule->code);
    json_add_str(o, "rule", d->rule->name);
    json_add_str(o, "severity", severity_name(d->severity));
    json_add_str(o, "message", d->message);
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (size_t i = 0; i < d->n_notes; i++) {
        cJSON *n = cJSON_CreateObject();
        json_add_str(n, "file", d->notes[i].file);
        cJSON_AddNumberToObject(n, "line", d->notes[i].line);
        cJSON_AddNumberToObject(n, "column", d->notes[i].column);
        json_add_str(n, "message", d->notes[i].message);
        cJSON_AddItemToArray(notes, n);
    }
    cJSON *fixes = cJSON_AddArrayToObject(o, "fix");
    for (size_t i = 0; i < d->n_fixes; i++) {
        const struct diag_fix *f = &d->fixes[i];
        cJSON *x = cJSON_CreateObject();
        json_add_str(x, "file", f->file);
        cJSON_AddNumberToObject(x, "line", f->line);
        cJSON_AddNumberToObject(x, "column", f->column);
        cJSON_AddNumberToObject(x, "end_line", f->end_line);
        cJSON_AddNumberToObject(x, "end_column", f->end_column);
        json_add_str(x, "replacement", f->replacement);
        cJSON_AddItemToArray(fixes, x);
    }
    return o;
}

static void write_json(FILE *out, const struct lint_run *run, const struct lint_options *o)
{
    (void)o;
    cJSON *root = cJSON_CreateObject();
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    json_add_str(tool, "name", "cudalint");
    json_add_str(tool, "version", cudalint_version);
    cJSON *diags = cJSON_AddArrayToObject(root, "diagnostics");
    for (size_t i = 0; i < run->diags.len; i++) cJSON_AddItemToArray(diags, json_diag(&run->diags.items[i]));
    cJSON *files = cJSON_AddArrayToObject(root, "files");
    for (size_t i = 0; i < run->n_files; i++) {
        const struct file_result *f = &run->files[i];
        cJSON *x = cJSON_CreateObject();
        json_add_str(x, "file", f->path);
        json_add_str(x, "status", file_status_name(f->status));
        if (f->message) json_add_str(x, "message", f->message);
        else cJSON_AddNullToObject(x, "message");
        cJSON_AddItemToArray(files, x);
    }
    json_write_doc(out, root);
}

const struct output_writer output_writer_json = {"json", "one JSON document (the contract in the README)", write_json};
