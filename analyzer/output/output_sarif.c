/* output_sarif.c: the SARIF 2.1.0 writer, shaped for GitHub code scanning:
 * one run, full rule metadata from the rule records and docs, locations
 * relative to %SRCROOT% (the repository root of the linted files), UTF-16
 * columns, notes as related locations and as a code flow, fixes, and a
 * line-number-free partial fingerprint. */
#include "output/baseline.h"
#include "base/jsonutil.h"
#include "core/docs.h"
#include "output/output.h"
#include "core/rule.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Where the project and each rule's doc are published (the language server
   links the same pages). */
#define SARIF_INFORMATION_URI "https://github.com/cudalint/cudalint"
#define SARIF_RULE_DOC_URL SARIF_INFORMATION_URI "/blob/main/"
#define SARIF_FINGERPRINT "cudalintFingerprint/v1"

static void add_text(cJSON *obj, const char *key, const char *text)
{
    json_add_str(cJSON_AddObjectToObject(obj, key), "text", text);
}

/* RFC 3986: everything but unreserved characters and '/' is percent-encoded. */
static char *uri_encode(const char *path)
{
    struct strbuf sb;
    sb_init(&sb);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '.' || *p == '_' || *p == '~' || *p == '/')
            sb_addc(&sb, (char)*p);
        else
            sb_addf(&sb, "%%%02X", *p);
    }
    return sb_detach(&sb);
}

/* The nearest directory at or above path that holds .git, or NULL. */
static char *repository_above(const char *path)
{
    char *abs = path_absolute(path);
    char *dir = path_is_dir(abs) ? xstrdup(abs) : path_dirname(abs);
    free(abs);
    for (;;) {
        char *git = path_join(dir, ".git");
        bool found = path_exists(git);
        free(git);
        if (found) return dir;
        if (strcmp(dir, "/") == 0 || strcmp(dir, ".") == 0 || !*dir) break;
        char *up = path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    return NULL;
}

/* The directory that %SRCROOT% stands for: the repository holding the first
   linted path that is in one (the nearest directory above it with .git),
   else the current directory.  A checkout that moves (a CI runner, a
   container) keeps its relative URIs; files outside it stay absolute. */
static char *source_root(const struct lint_options *o)
{
    for (size_t i = 0; o && i < o->roots.len; i++) {
        char *repo = repository_above(o->roots.items[i]);
        if (repo) return repo;
    }
    return path_absolute(".");
}

/* file as an artifact location: relative to %SRCROOT% (root) when under it,
   else an absolute file URI. */
static cJSON *artifact_location(const char *root, const char *file)
{
    cJSON *loc = cJSON_CreateObject();
    char *abs = path_absolute(file);
    size_t n = strlen(root);
    bool root_is_slash = strcmp(root, "/") == 0;
    if (!root_is_slash && strncmp(abs, root, n) == 0 && abs[n] == '/') {
        char *enc = uri_encode(abs + n + 1);
        json_add_str(loc, "uri", enc);
        json_add_str(loc, "uriBaseId", "%SRCROOT%");
        free(enc);
    } else {
        /* Outside the source root: an absolute file URI. */
        char *enc = uri_encode(abs);
        char *uri = xasprintf("file://%s", enc);
        json_add_str(loc, "uri", uri);
        free(uri);
        free(enc);
    }
    free(abs);
    return loc;
}

/* Byte column (1-based) -> UTF-16 code-unit column (1-based), from the line's
   text; unchanged when the line cannot be read. */
static unsigned utf16_column(struct source_cache *sc, const char *file, unsigned line, unsigned col)
{
    size_t n = 0;
    const char *s = source_line(sc, file, line, &n);
    if (!s || col == 0) return col;
    size_t bytes = col - 1, limit = bytes < n ? bytes : n, units = 0;
    for (size_t i = 0; i < limit;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        if (i + len > limit) len = 1;
        units += len == 4 ? 2 : 1; /* astral code points are surrogate pairs */
        i += len;
    }
    return (unsigned)(units + (bytes - limit) + 1);
}

static cJSON *region(struct source_cache *sc, const char *file, unsigned line, unsigned col, unsigned end_line,
                     unsigned end_col)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "startLine", line ? line : 1);
    cJSON_AddNumberToObject(r, "startColumn", utf16_column(sc, file, line, col ? col : 1));
    if (end_line) {
        unsigned ec = utf16_column(sc, file, end_line, end_col ? end_col : 1);
        unsigned sc_col = (unsigned)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "startColumn"));
        if (end_line < line || (end_line == line && ec < sc_col)) ec = sc_col; /* never an inverted region */
        cJSON_AddNumberToObject(r, "endLine", end_line < line ? line : end_line);
        cJSON_AddNumberToObject(r, "endColumn", ec);
    }
    return r;
}

static cJSON *physical_location(struct source_cache *sc, const char *root, const char *file, unsigned line,
                                unsigned col, unsigned end_line, unsigned end_col)
{
    cJSON *pl = cJSON_CreateObject();
    cJSON_AddItemToObject(pl, "artifactLocation", artifact_location(root, file));
    cJSON_AddItemToObject(pl, "region", region(sc, file, line, col, end_line, end_col));
    return pl;
}

/* The first paragraph of the doc's "What it flags" section, or NULL. */
static char *what_it_flags(const char *doc)
{
    const char *h = doc ? strstr(doc, "## What it flags") : NULL;
    if (!h) return NULL;
    const char *p = strchr(h, '\n');
    if (!p) return NULL;
    while (*p == '\n') p++;
    const char *end = strstr(p, "\n\n");
    const char *next = strstr(p, "\n## ");
    if (!end || (next && next < end)) end = next;
    if (!end) end = p + strlen(p);
    char *r = baseline_normalize(p, (size_t)(end - p));
    if (!*r) {
        free(r);
        return NULL;
    }
    return r;
}

static const char *level_of(enum severity s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

static cJSON *rule_descriptor(const struct rule *r)
{
    cJSON *d = cJSON_CreateObject();
    json_add_str(d, "id", r->code);
    json_add_str(d, "name", r->name);
    add_text(d, "shortDescription", r->summary);
    const char *doc = rule_doc_text(r);
    char *full = what_it_flags(doc);
    add_text(d, "fullDescription", full ? full : r->summary);
    free(full);
    cJSON *help = cJSON_AddObjectToObject(d, "help");
    json_add_str(help, "text", doc ? doc : r->summary);
    json_add_str(help, "markdown", doc ? doc : r->summary);
    char *uri = xasprintf("%s%s", SARIF_RULE_DOC_URL, r->doc);
    json_add_str(d, "helpUri", uri);
    free(uri);
    json_add_str(cJSON_AddObjectToObject(d, "defaultConfiguration"), "level", level_of(r->severity));
    cJSON *props = cJSON_AddObjectToObject(d, "properties");
    cJSON *tags = cJSON_AddArrayToObject(props, "tags");
    cJSON_AddItemToArray(tags, cJSON_CreateString(r->category));
    cJSON_AddItemToArray(tags, cJSON_CreateString("cuda"));
    if (r->status == STATUS_PREVIEW) cJSON_AddItemToArray(tags, cJSON_CreateString("preview"));
    json_add_str(props, "scope", rule_scope_name(r->scope));
    json_add_str(props, "status", rule_status_name(r->status));
    if (r->precision) json_add_str(props, "precision", r->precision);
    return d;
}

static size_t rule_index(const struct rule *r)
{
    for (size_t i = 0; i < rule_registry_len; i++)
        if (rule_registry[i] == r) return i;
    return 0;
}

/* A threadFlow location: where, and what happens there. */
static cJSON *flow_step(struct source_cache *sc, const char *root, const char *file, unsigned line, unsigned col,
                        const char *message)
{
    cJSON *step = cJSON_CreateObject();
    cJSON *loc = cJSON_AddObjectToObject(step, "location");
    cJSON_AddItemToObject(loc, "physicalLocation", physical_location(sc, root, file, line, col, 0, 0));
    add_text(loc, "message", message);
    return step;
}

/* A finding with notes as a code flow (GitHub code scanning shows it as the
   path to the finding): the notes in order, then the finding itself. */
static cJSON *code_flows(struct source_cache *sc, const char *root, const struct diag *d)
{
    cJSON *flows = cJSON_CreateArray();
    cJSON *flow = cJSON_CreateObject();
    cJSON_AddItemToArray(flows, flow);
    cJSON *thread = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(flow, "threadFlows"), thread);
    cJSON *steps = cJSON_AddArrayToObject(thread, "locations");
    for (size_t k = 0; k < d->n_notes; k++)
        cJSON_AddItemToArray(steps, flow_step(sc, root, d->notes[k].file, d->notes[k].line, d->notes[k].column,
                                              d->notes[k].message));
    cJSON_AddItemToArray(steps, flow_step(sc, root, d->file, d->line, d->column, d->message));
    return flows;
}

static void write_sarif(FILE *out, const struct lint_run *run, const struct lint_options *o)
{
    struct source_cache sc = {0};
    char *root_dir = source_root(o);
    cJSON *root = cJSON_CreateObject();
    json_add_str(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    json_add_str(root, "version", "2.1.0");
    cJSON *the_run = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "runs"), the_run);

    cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(the_run, "tool"), "driver");
    json_add_str(driver, "name", "cudalint");
    json_add_str(driver, "version", cudalint_version);
    json_add_str(driver, "semanticVersion", cudalint_version);
    json_add_str(driver, "informationUri", SARIF_INFORMATION_URI);
    cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
    for (size_t i = 0; i < rule_registry_len; i++) cJSON_AddItemToArray(rules, rule_descriptor(rule_registry[i]));

    cJSON *inv = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(the_run, "invocations"), inv);
    cJSON_AddBoolToObject(inv, "executionSuccessful", run->input_errors == 0);
    cJSON *notes = cJSON_CreateArray();
    for (size_t i = 0; i < run->n_files; i++) {
        const struct file_result *f = &run->files[i];
        bool error = f->status == FILE_ERROR, skipped = f->status == FILE_SKIPPED;
        if (!error && !skipped) continue;
        cJSON *n = cJSON_CreateObject();
        json_add_str(n, "level", error ? "error" : "note");
        char *msg = xasprintf("%s: %s", f->path, f->message ? f->message : file_status_name(f->status));
        add_text(n, "message", msg);
        free(msg);
        cJSON *loc = cJSON_CreateObject();
        cJSON_AddItemToObject(cJSON_AddObjectToObject(loc, "physicalLocation"), "artifactLocation",
                              artifact_location(root_dir, f->path));
        cJSON_AddItemToArray(cJSON_AddArrayToObject(n, "locations"), loc);
        cJSON_AddItemToArray(notes, n);
    }
    cJSON_AddItemToObject(inv, "toolExecutionNotifications", notes);

    char *root_enc = uri_encode(root_dir);
    char *root_uri = xasprintf("file://%s%s", root_enc, strcmp(root_dir, "/") == 0 ? "" : "/");
    cJSON *bases = cJSON_AddObjectToObject(the_run, "originalUriBaseIds");
    json_add_str(cJSON_AddObjectToObject(bases, "%SRCROOT%"), "uri", root_uri);
    free(root_uri);
    free(root_enc);
    json_add_str(the_run, "columnKind", "utf16CodeUnits");

    cJSON *results = cJSON_AddArrayToObject(the_run, "results");
    struct fingerprints fps;
    fingerprints_init(&fps);
    for (size_t i = 0; i < run->diags.len; i++) {
        const struct diag *d = &run->diags.items[i];
        cJSON *r = cJSON_CreateObject();
        json_add_str(r, "ruleId", d->rule->code);
        cJSON_AddNumberToObject(r, "ruleIndex", (double)rule_index(d->rule));
        json_add_str(r, "level", level_of(d->severity));
        add_text(r, "message", d->message);
        cJSON *loc = cJSON_CreateObject();
        cJSON_AddItemToObject(loc, "physicalLocation",
                              physical_location(&sc, root_dir, d->file, d->line, d->column, d->end_line,
                                                d->end_column));
        cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "locations"), loc);
        if (d->n_notes) {
            cJSON *rel = cJSON_AddArrayToObject(r, "relatedLocations");
            for (size_t k = 0; k < d->n_notes; k++) {
                const struct diag_note *nt = &d->notes[k];
                cJSON *l = cJSON_CreateObject();
                cJSON_AddNumberToObject(l, "id", (double)k);
                cJSON_AddItemToObject(l, "physicalLocation",
                                      physical_location(&sc, root_dir, nt->file, nt->line, nt->column, 0, 0));
                add_text(l, "message", nt->message);
                cJSON_AddItemToArray(rel, l);
            }
            cJSON_AddItemToObject(r, "codeFlows", code_flows(&sc, root_dir, d));
        }
        if (d->n_fixes) {
            cJSON *fix = cJSON_CreateObject();
            char *desc = d->n_fixes == 1 ? xasprintf("Replace with '%s'", d->fixes[0].replacement)
                                         : xasprintf("Apply the %zu edits of %s", d->n_fixes, d->rule->code);
            add_text(fix, "description", desc);
            free(desc);
            cJSON *changes = cJSON_AddArrayToObject(fix, "artifactChanges");
            for (size_t k = 0; k < d->n_fixes; k++) {
                const struct diag_fix *f = &d->fixes[k];
                /* One artifactChange per file, its replacements in order. */
                cJSON *change = NULL;
                int nth = 0;
                for (size_t j = 0; j < k && !change; j++) {
                    bool first_of_file = true;
                    for (size_t m = 0; m < j; m++)
                        if (strcmp(d->fixes[m].file, d->fixes[j].file) == 0) first_of_file = false;
                    if (!first_of_file) continue;
                    if (strcmp(d->fixes[j].file, f->file) == 0) change = cJSON_GetArrayItem(changes, nth);
                    nth++;
                }
                if (!change) {
                    change = cJSON_CreateObject();
                    cJSON_AddItemToObject(change, "artifactLocation", artifact_location(root_dir, f->file));
                    cJSON_AddArrayToObject(change, "replacements");
                    cJSON_AddItemToArray(changes, change);
                }
                cJSON *rep = cJSON_CreateObject();
                cJSON_AddItemToObject(rep, "deletedRegion",
                                      region(&sc, f->file, f->line, f->column, f->end_line, f->end_column));
                add_text(rep, "insertedContent", f->replacement);
                cJSON_AddItemToArray(cJSON_GetObjectItem(change, "replacements"), rep);
            }
            cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "fixes"), fix);
        }
        char *fp = fingerprint_next(&fps, d);
        json_add_str(cJSON_AddObjectToObject(r, "partialFingerprints"), SARIF_FINGERPRINT, fp);
        free(fp);
        cJSON_AddItemToArray(results, r);
    }
    fingerprints_release(&fps);
    free(root_dir);
    source_cache_release(&sc);
    json_write_doc(out, root);
}

const struct output_writer output_writer_sarif = {"sarif", "SARIF 2.1.0, as GitHub code scanning and other SARIF viewers take it", write_sarif};
