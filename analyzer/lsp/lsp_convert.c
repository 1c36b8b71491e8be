/* lsp_convert.c: a file's lint result in LSP terms: findings as Diagnostic
 * objects (ranges in the negotiated encoding, computed on the exact text that
 * was linted), notes as relatedInformation, and each fix-it as a quick-fix
 * CodeAction with a WorkspaceEdit.
 *
 * Severity: error -> 1 (Error), warning -> 2 (Warning), note -> 3
 * (Information).  codeDescription.href is CUDALINT_RULE_DOC_URL + the rule's
 * doc file name, rules/<CODE>-<name>.md in the repository. */
#include "lsp/lsp_convert.h"
#include "lsp/lsp_text.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* Where each rule's doc is published: CODE-name.md is appended. */
#define CUDALINT_RULE_DOC_URL "https://github.com/cudalint/cudalint/blob/main/rules/"

static cJSON *make_position(size_t line, size_t character)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "line", (double)line);
    cJSON_AddNumberToObject(p, "character", (double)character);
    return p;
}

/* {start: {line, character}, end: {...}} */
static cJSON *lsp_make_range(size_t l0, size_t c0, size_t l1, size_t c1)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddItemToObject(r, "start", make_position(l0, c0));
    cJSON_AddItemToObject(r, "end", make_position(l1, c1));
    return r;
}

/* Column conversion for one file: the linted snapshot for the document itself,
   the file on disk for notes and fixes elsewhere (byte columns if unreadable). */
struct text_view {
    const char *path;
    char *owned;
    const char *text;
    size_t len;
    struct lsp_lines lines;
    bool ok;
};

struct outcome_ctx {
    const struct lsp_convert *cv;
    const char *uri, *path;
    long version;
    struct text_view main;
    struct text_view other; /* one cached foreign file */
};

static void view_init(struct text_view *v, const char *path, const char *text, size_t len)
{
    memset(v, 0, sizeof *v);
    v->path = path;
    if (text) {
        v->text = text;
        v->len = len;
        v->ok = true;
    } else if (read_file(path, &v->owned, &v->len) == 0) {
        v->text = v->owned;
        v->ok = true;
    }
    if (v->ok) lsp_lines_build(&v->lines, v->text, v->len);
}

static void view_release(struct text_view *v)
{
    if (v->ok) lsp_lines_release(&v->lines);
    free(v->owned);
    memset(v, 0, sizeof *v);
}

static bool same_file(const char *a, const char *b)
{
    if (!a || !b) return false;
    if (strcmp(a, b) == 0) return true;
    char *aa = path_absolute(a), *bb = path_absolute(b);
    bool same = strcmp(aa, bb) == 0;
    free(aa);
    free(bb);
    return same;
}

static struct text_view *view_for(struct outcome_ctx *c, const char *file)
{
    if (!file || same_file(file, c->path)) return &c->main;
    if (!c->other.path || strcmp(c->other.path, file) != 0) {
        view_release(&c->other);
        view_init(&c->other, file, NULL, 0);
        c->other.path = file;
    }
    return &c->other;
}

/* 1-based line and byte column to an LSP position. */
static void to_position(struct outcome_ctx *c, const char *file, unsigned line, unsigned col,
                        size_t *ol, size_t *oc)
{
    size_t l = line ? line - 1 : 0, bc = col ? col - 1 : 0;
    struct text_view *v = view_for(c, file);
    *ol = l;
    *oc = v->ok ? lsp_character_at(&v->lines, v->text, v->len, l, bc, c->cv->enc) : bc;
}

static cJSON *range_of(struct outcome_ctx *c, const char *file, unsigned l0, unsigned c0,
                       unsigned l1, unsigned c1)
{
    size_t a, b, x, y;
    to_position(c, file, l0, c0, &a, &b);
    if (l1 == 0 || l1 < l0 || (l1 == l0 && c1 < c0)) {
        l1 = l0;
        c1 = c0;
    }
    to_position(c, file, l1, c1, &x, &y);
    return lsp_make_range(a, b, x, y);
}

static char *uri_for(struct outcome_ctx *c, const char *file)
{
    if (!file || same_file(file, c->path)) return xstrdup(c->uri);
    return lsp_path_to_uri(file);
}

static int severity_lsp(enum severity sv)
{
    switch (sv) {
    case SEV_ERROR: return 1;
    case SEV_WARNING: return 2;
    case SEV_NOTE: break;
    }
    return 3;
}

/* "Replace 0.5 with 0.5f (CU201)" when a single short fix; else a summary. */
static char *fix_title(struct outcome_ctx *c, const struct diag *d)
{
    const char *code = d->rule ? d->rule->code : "cudalint";
    if (d->n_fixes == 1) {
        const struct diag_fix *f = &d->fixes[0];
        struct text_view *v = view_for(c, f->file);
        const char *repl = f->replacement ? f->replacement : "";
        if (v->ok && f->end_offset >= f->offset && f->end_offset <= v->len &&
            f->end_offset - f->offset <= 40 && strlen(repl) <= 40 &&
            !memchr(v->text + f->offset, '\n', f->end_offset - f->offset) && !strchr(repl, '\n')) {
            int ol = (int)(f->end_offset - f->offset);
            const char *orig = v->text + f->offset;
            if (ol == 0) return xasprintf("Insert %s (%s)", repl, code);
            if (!*repl) return xasprintf("Remove %.*s (%s)", ol, orig, code);
            return xasprintf("Replace %.*s with %s (%s)", ol, orig, repl, code);
        }
    }
    return xasprintf("Fix %s%s%s (%s)", d->rule ? d->rule->name : "finding",
                     d->n_fixes > 1 ? ": " : "",
                     d->n_fixes > 1 ? "apply all its edits" : "", code);
}

/* TextEdit[] of a diag's fixes that target file. */
static cJSON *fix_edits(struct outcome_ctx *c, const struct diag *d, const char *file)
{
    cJSON *edits = cJSON_CreateArray();
    for (size_t i = 0; i < d->n_fixes; i++) {
        const struct diag_fix *f = &d->fixes[i];
        const char *ff = f->file ? f->file : c->path;
        if (!same_file(ff, file)) continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToObject(e, "range", range_of(c, ff, f->line, f->column, f->end_line,
                                                   f->end_column));
        cJSON_AddStringToObject(e, "newText", f->replacement ? f->replacement : "");
        cJSON_AddItemToArray(edits, e);
    }
    return edits;
}

/* The WorkspaceEdit applying every fix of d, grouped per file.  With
   documentChanges the edit names the linted version, so a client whose buffer
   moved on refuses it instead of corrupting the text. */
static cJSON *fix_workspace_edit(struct outcome_ctx *c, const struct diag *d)
{
    const char *files[16];
    size_t nf = 0;
    for (size_t i = 0; i < d->n_fixes && nf < 16; i++) {
        const char *ff = d->fixes[i].file ? d->fixes[i].file : c->path;
        bool seen = false;
        for (size_t j = 0; j < nf; j++) seen = seen || same_file(files[j], ff);
        if (!seen) files[nf++] = ff;
    }
    cJSON *we = cJSON_CreateObject();
    cJSON *dc = c->cv->document_changes ? cJSON_AddArrayToObject(we, "documentChanges") : NULL;
    cJSON *ch = dc ? NULL : cJSON_AddObjectToObject(we, "changes");
    for (size_t j = 0; j < nf; j++) {
        char *uri = uri_for(c, files[j]);
        cJSON *edits = fix_edits(c, d, files[j]);
        if (dc) {
            cJSON *tde = cJSON_CreateObject();
            cJSON *td = cJSON_AddObjectToObject(tde, "textDocument");
            cJSON_AddStringToObject(td, "uri", uri);
            if (same_file(files[j], c->path) && c->version >= 0)
                cJSON_AddNumberToObject(td, "version", (double)c->version);
            else
                cJSON_AddNullToObject(td, "version");
            cJSON_AddItemToObject(tde, "edits", edits);
            cJSON_AddItemToArray(dc, tde);
        } else {
            cJSON_AddItemToObject(ch, uri, edits);
        }
        free(uri);
    }
    return we;
}

static cJSON *diag_to_lsp(struct outcome_ctx *c, const struct diag *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "range", range_of(c, d->file, d->line, d->column, d->end_line,
                                               d->end_column));
    cJSON_AddNumberToObject(o, "severity", severity_lsp(d->severity));
    if (d->rule) {
        cJSON_AddStringToObject(o, "code", d->rule->code);
        if (d->rule->name && strcmp(d->rule->code, "CU000") != 0) {
            char *href = xasprintf("%s%s-%s.md", CUDALINT_RULE_DOC_URL, d->rule->code,
                                   d->rule->name);
            cJSON *cd = cJSON_AddObjectToObject(o, "codeDescription");
            cJSON_AddStringToObject(cd, "href", href);
            free(href);
        }
    }
    cJSON_AddStringToObject(o, "source", "cudalint");
    cJSON_AddStringToObject(o, "message", d->message ? d->message : "");
    if (d->n_notes) {
        cJSON *ri = cJSON_AddArrayToObject(o, "relatedInformation");
        for (size_t i = 0; i < d->n_notes; i++) {
            const struct diag_note *n = &d->notes[i];
            cJSON *info = cJSON_CreateObject();
            cJSON *loc = cJSON_AddObjectToObject(info, "location");
            char *uri = uri_for(c, n->file ? n->file : c->path);
            cJSON_AddStringToObject(loc, "uri", uri);
            free(uri);
            cJSON_AddItemToObject(loc, "range", range_of(c, n->file ? n->file : c->path,
                                                         n->line, n->column, 0, 0));
            cJSON_AddStringToObject(info, "message", n->message ? n->message : "");
            cJSON_AddItemToArray(ri, info);
        }
    }
    cJSON *data = cJSON_AddObjectToObject(o, "data");
    if (d->rule) cJSON_AddStringToObject(data, "rule", d->rule->name);
    cJSON_AddStringToObject(data, "severity", severity_name(d->severity));
    if (c->version >= 0) cJSON_AddNumberToObject(data, "version", (double)c->version);
    if (d->n_fixes) {
        cJSON *fix = cJSON_AddObjectToObject(data, "fix");
        char *title = fix_title(c, d);
        cJSON_AddStringToObject(fix, "title", title);
        free(title);
        cJSON_AddItemToObject(fix, "edits", fix_edits(c, d, c->path));
    }
    return o;
}

/* Builds the diagnostics to publish and the code actions to offer. */
void lsp_convert_result(const struct lsp_convert *cv, const char *uri, const char *path,
                        long version, const char *text, size_t len, const struct file_result *res,
                        cJSON **diags_out, cJSON **actions_out)
{
    struct outcome_ctx c;
    memset(&c, 0, sizeof c);
    c.cv = cv;
    c.uri = uri;
    c.path = path;
    c.version = version;
    view_init(&c.main, path, text, len);

    cJSON *diags = cJSON_CreateArray(), *actions = cJSON_CreateArray();
    for (size_t i = 0; i < res->diags.len; i++) {
        const struct diag *d = &res->diags.items[i];
        /* Findings in other files (an included header under a linted root)
           belong to that file's own publish, not to this document. */
        if (d->file && !same_file(d->file, path)) continue;
        cJSON *ld = diag_to_lsp(&c, d);
        cJSON_AddItemToArray(diags, ld);
        if (!d->n_fixes) continue;
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddItemToObject(entry, "range",
                              cJSON_Duplicate(cJSON_GetObjectItem(ld, "range"), true));
        cJSON *act = cJSON_AddObjectToObject(entry, "action");
        char *title = fix_title(&c, d);
        cJSON_AddStringToObject(act, "title", title);
        free(title);
        cJSON_AddStringToObject(act, "kind", "quickfix");
        cJSON *dl = cJSON_AddArrayToObject(act, "diagnostics");
        cJSON_AddItemToArray(dl, cJSON_Duplicate(ld, true));
        cJSON_AddBoolToObject(act, "isPreferred", true);
        cJSON_AddItemToObject(act, "edit", fix_workspace_edit(&c, d));
        cJSON_AddItemToArray(actions, entry);
    }
    if (res->status == FILE_ERROR) {
        /* The file could not be linted at all (bad compile database entry,
           missing toolkit): say so in the file rather than staying silent. */
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "range", lsp_make_range(0, 0, 0, 0));
        cJSON_AddNumberToObject(o, "severity", 2);
        cJSON_AddStringToObject(o, "code", "CU000");
        cJSON_AddStringToObject(o, "source", "cudalint");
        char *m = xasprintf("cudalint could not lint this file: %s",
                            res->message ? res->message : "unknown error");
        cJSON_AddStringToObject(o, "message", m);
        free(m);
        cJSON_AddItemToArray(diags, o);
    }
    view_release(&c.main);
    view_release(&c.other);
    *diags_out = diags;
    *actions_out = actions;
}
