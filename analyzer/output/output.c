/* output.c: what several output writers share: source lines, grouping by
 * file, XML escaping. */
#include "output/output.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static const char *override_path, *override_text;
static size_t override_len;

void source_override(const char *path, const char *text, size_t len)
{
    override_path = path;
    override_text = text;
    override_len = len;
}

const char *source_line(struct source_cache *sc, const char *file, unsigned line, size_t *n)
{
    if (!sc->file || strcmp(sc->file, file) != 0) {
        free(sc->file);
        free(sc->text);
        free(sc->starts);
        sc->file = xstrdup(file);
        sc->text = NULL;
        sc->len = 0;
        sc->starts = NULL;
        sc->n_lines = 0;
        if (override_path && strcmp(file, override_path) == 0) {
            sc->text = xstrndup(override_text, override_len);
            sc->len = override_len;
        } else if (read_file(file, &sc->text, &sc->len) != 0) {
            sc->text = NULL;
        }
        if (sc->text) {
            /* Where each line starts, once per file: a file with many
               findings is not scanned from its top for each. */
            size_t cap = 64;
            sc->starts = xmalloc(cap * sizeof *sc->starts);
            sc->starts[sc->n_lines++] = 0;
            for (const char *p = sc->text, *end = sc->text + sc->len;
                 (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
                if (sc->n_lines == cap) {
                    cap *= 2;
                    sc->starts = xrealloc(sc->starts, cap * sizeof *sc->starts);
                }
                sc->starts[sc->n_lines++] = (size_t)(p + 1 - sc->text);
            }
        }
    }
    if (!sc->text || line == 0 || line > sc->n_lines) return NULL;
    const char *p = sc->text + sc->starts[line - 1], *end = sc->text + sc->len;
    const char *e = memchr(p, '\n', (size_t)(end - p));
    *n = (size_t)((e ? e : end) - p);
    if (*n && p[*n - 1] == '\r') (*n)--;
    return p;
}

void source_cache_release(struct source_cache *sc)
{
    free(sc->file);
    free(sc->text);
    free(sc->starts);
    memset(sc, 0, sizeof *sc);
}

size_t output_linted_files(const struct lint_run *run)
{
    size_t n = 0;
    for (size_t i = 0; i < run->n_files; i++)
        if (file_status_linted(run->files[i].status)) n++;
    return n;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const struct output_file_group *)a)->name, ((const struct output_file_group *)b)->name);
}

struct output_file_group *output_group_by_file(const struct lint_run *run, size_t *n)
{
    size_t cap = run->n_files + run->diags.len + 1, len = 0;
    struct output_file_group *g = xcalloc(cap, sizeof *g);
    for (size_t i = 0; i < run->n_files; i++) {
        g[len].name = run->files[i].path;
        g[len].result = &run->files[i];
        len++;
    }
    for (size_t i = 0; i < run->diags.len; i++) {
        if (i && strcmp(run->diags.items[i - 1].file, run->diags.items[i].file) == 0) continue;
        g[len++].name = run->diags.items[i].file;
    }
    qsort(g, len, sizeof *g, cmp_name);
    /* Unique names; a linted file's record wins over a findings-only one. */
    size_t w = 0;
    for (size_t i = 0; i < len; i++) {
        if (w && strcmp(g[w - 1].name, g[i].name) == 0) {
            if (!g[w - 1].result) g[w - 1].result = g[i].result;
            continue;
        }
        g[w++] = g[i];
    }
    /* Findings are sorted by file with the same strcmp order: one merge pass. */
    size_t d = 0;
    for (size_t i = 0; i < w; i++) {
        while (d < run->diags.len && strcmp(run->diags.items[d].file, g[i].name) < 0) d++;
        g[i].first = d;
        while (d < run->diags.len && strcmp(run->diags.items[d].file, g[i].name) == 0) d++;
        g[i].count = d - g[i].first;
    }
    *n = w;
    return g;
}

void output_xml_escaped(FILE *out, const char *s)
{
    char *clean = utf8_sanitize(s ? s : "");
    for (const unsigned char *p = (const unsigned char *)clean; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        /* Character references keep line breaks and tabs inside attributes. */
        case '\n': fputs("&#10;", out); break;
        case '\r': fputs("&#13;", out); break;
        case '\t': fputs("&#9;", out); break;
        default:
            if (*p >= 0x20 && *p != 0x7f) fputc(*p, out);
        }
    }
    free(clean);
}
