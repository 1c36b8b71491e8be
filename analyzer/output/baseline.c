/* baseline.c: the baseline file (sorted JSON, one finding per line, so a
 * review diff shows exactly which findings were added or fixed) and the
 * count-aware matching of a run's findings against it. */
#include "output/baseline.h"
#include "fix/fixwrite.h"
#include "core/rule.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { BASELINE_FORMAT = 1 };

char *baseline_normalize(const char *s, size_t n)
{
    struct strbuf sb;
    sb_init(&sb);
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)s[i])) {
            space = sb.len > 0;
            continue;
        }
        if (space) sb_addc(&sb, ' ');
        space = false;
        sb_addc(&sb, s[i]);
    }
    return sb_detach(&sb);
}

/* Fills k for d; paths are made relative to base_dir. */
static void baseline_key_of(struct source_cache *sc, const struct diag *d, const char *base_dir, struct baseline_key *k)
{
    /* Everything as the JSON file stores it (valid UTF-8), so a written
       baseline matches the run that wrote it byte for byte. */
    k->code = xstrdup(d->rule->code);
    char *rel = path_relative_to(d->file, base_dir);
    k->path = utf8_sanitize(rel);
    free(rel);
    k->function = utf8_sanitize(d->function ? d->function : "");
    size_t n = 0;
    const char *line = source_line(sc, d->file, d->line, &n);
    char *norm = line ? baseline_normalize(line, n) : xstrdup("");
    k->source = utf8_sanitize(norm);
    free(norm);
}

static void baseline_key_release(struct baseline_key *k)
{
    free(k->code);
    free(k->path);
    free(k->function);
    free(k->source);
    memset(k, 0, sizeof *k);
}

/* The four fields joined by a separator that cannot occur in them. */
static char *joined(const struct baseline_key *k)
{
    return xasprintf("%s\x1f%s\x1f%s\x1f%s", k->path, k->code, k->function, k->source);
}

/* A stable hex digest of the key (16 hex digits). */
static char *baseline_key_digest(const struct baseline_key *k)
{
    char *j = joined(k);
    char *r = xasprintf("%016llx", (unsigned long long)hash_bytes(j, strlen(j)));
    free(j);
    return r;
}

struct row {
    char *key; /* joined: the sort order */
    char *json;
};

static int cmp_row(const void *a, const void *b)
{
    return strcmp(((const struct row *)a)->key, ((const struct row *)b)->key);
}

static void add_json_string(struct strbuf *sb, const char *s)
{
    char *clean = utf8_sanitize(s);
    cJSON *item = cJSON_CreateString(clean);
    char *p = cJSON_PrintUnformatted(item);
    sb_add(sb, p);
    cJSON_free(p);
    cJSON_Delete(item);
    free(clean);
}

void fingerprints_init(struct fingerprints *f)
{
    memset(f, 0, sizeof *f);
    f->base_dir = path_absolute(".");
}

char *fingerprint_next(struct fingerprints *f, const struct diag *d)
{
    if (f->file && strcmp(f->file, d->file) != 0) sv_release(&f->seen);
    free(f->file);
    f->file = xstrdup(d->file);
    struct baseline_key k;
    baseline_key_of(&f->sc, d, f->base_dir, &k);
    char *digest = baseline_key_digest(&k);
    baseline_key_release(&k);
    size_t occurrence = 1;
    for (size_t s = 0; s < f->seen.len; s++)
        if (strcmp(f->seen.items[s], digest) == 0) occurrence++;
    sv_push_owned(&f->seen, digest);
    return xasprintf("%s:%zu", digest, occurrence);
}

void fingerprints_release(struct fingerprints *f)
{
    source_cache_release(&f->sc);
    sv_release(&f->seen);
    free(f->base_dir);
    free(f->file);
    memset(f, 0, sizeof *f);
}

long baseline_write(const char *file, const struct lint_run *run, char **error)
{
    char *abs = path_absolute(file);
    char *dir = path_dirname(abs);
    struct source_cache sc = {0};
    size_t n = run->diags.len;
    struct row *rows = xcalloc(n ? n : 1, sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        struct baseline_key k;
        baseline_key_of(&sc, &run->diags.items[i], dir, &k);
        const struct rule *r = run->diags.items[i].rule;
        struct strbuf row;
        sb_init(&row);
        sb_add(&row, "    {\"path\": ");
        add_json_string(&row, k.path);
        sb_add(&row, ", \"code\": ");
        add_json_string(&row, k.code);
        sb_add(&row, ", \"rule\": ");
        add_json_string(&row, r->name);
        sb_add(&row, ", \"function\": ");
        add_json_string(&row, k.function);
        sb_add(&row, ", \"source\": ");
        add_json_string(&row, k.source);
        sb_add(&row, "}");
        rows[i].key = joined(&k);
        rows[i].json = sb_detach(&row);
        baseline_key_release(&k);
    }
    source_cache_release(&sc);
    if (n) qsort(rows, n, sizeof *rows, cmp_row);
    struct strbuf out;
    sb_init(&out);
    sb_addf(&out,
            "{\n  \"tool\": \"cudalint\",\n  \"format\": %d,\n"
            "  \"about\": \"Known findings, matched by rule, path, function and line text (not line numbers). "
            "cudalint --baseline FILE reports only findings not listed here; regenerate with --write-baseline FILE.\",\n"
            "  \"findings\": [",
            BASELINE_FORMAT);
    for (size_t i = 0; i < n; i++) {
        sb_add(&out, i ? ",\n" : "\n");
        sb_add(&out, rows[i].json);
        free(rows[i].key);
        free(rows[i].json);
    }
    sb_add(&out, n ? "\n  ]\n}\n" : "]\n}\n");
    free(rows);
    int rc = fixwrite_save(file, out.buf, out.len, error);
    sb_release(&out);
    free(dir);
    free(abs);
    return rc ? -1 : (long)n;
}

struct entry {
    char *key; /* joined */
    char *path;
    bool used;
};

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->key, ((const struct entry *)b)->key);
}

static const char *str_field(const cJSON *o, const char *name)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(f) ? f->valuestring : NULL;
}

int baseline_filter(const char *file, struct lint_run *run, size_t *hidden, size_t *stale, char **error)
{
    *hidden = *stale = 0;
    char *text = NULL;
    size_t len = 0;
    int e = read_file(file, &text, &len);
    if (e) {
        *error = xasprintf("--baseline %s: cannot read: %s", file, strerror(e));
        return -1;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *findings = root ? cJSON_GetObjectItemCaseSensitive(root, "findings") : NULL;
    if (!cJSON_IsArray(findings)) {
        *error = xasprintf("--baseline %s: not a cudalint baseline (a JSON object with a \"findings\" list; "
                           "write one with --write-baseline)", file);
        cJSON_Delete(root);
        return -1;
    }
    size_t n = (size_t)cJSON_GetArraySize(findings), i = 0;
    struct entry *entries = xcalloc(n ? n : 1, sizeof *entries);
    const cJSON *it;
    cJSON_ArrayForEach(it, findings)
    {
        struct baseline_key k = {0};
        k.code = (char *)str_field(it, "code");
        k.path = (char *)str_field(it, "path");
        k.function = (char *)(str_field(it, "function") ? str_field(it, "function") : "");
        k.source = (char *)str_field(it, "source");
        if (!k.code || !k.path || !k.source) {
            *error = xasprintf("--baseline %s: finding %zu lacks a string \"%s\"", file, i + 1,
                               !k.code ? "code" : !k.path ? "path" : "source");
            for (size_t j = 0; j < i; j++) {
                free(entries[j].key);
                free(entries[j].path);
            }
            free(entries);
            cJSON_Delete(root);
            return -1;
        }
        entries[i].key = joined(&k);
        entries[i].path = xstrdup(k.path);
        i++;
    }
    cJSON_Delete(root);
    if (n) qsort(entries, n, sizeof *entries, cmp_entry);

    char *abs = path_absolute(file);
    char *dir = path_dirname(abs);
    struct source_cache sc = {0};
    size_t w = 0;
    for (size_t r = 0; r < run->diags.len; r++) {
        struct diag *d = &run->diags.items[r];
        struct baseline_key k;
        baseline_key_of(&sc, d, dir, &k);
        char *j = joined(&k);
        baseline_key_release(&k);
        /* Lower bound, then the first unused entry with the same key. */
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(entries[mid].key, j) < 0) lo = mid + 1;
            else hi = mid;
        }
        while (lo < n && entries[lo].used && strcmp(entries[lo].key, j) == 0) lo++;
        bool known = lo < n && !entries[lo].used && strcmp(entries[lo].key, j) == 0;
        free(j);
        if (known) {
            entries[lo].used = true;
            (*hidden)++;
            diag_release(d);
            continue;
        }
        run->diags.items[w++] = *d;
    }
    run->diags.len = w;
    source_cache_release(&sc);

    /* An unused entry is stale only where this run could have seen its
       finding: pre-commit lints a few files, and the rest of the baseline
       must not look stale then. */
    struct strvec linted = {0};
    for (size_t f = 0; f < run->n_files; f++)
        if (file_status_linted(run->files[f].status))
            sv_push_owned(&linted, path_relative_to(run->files[f].path, dir));
    for (size_t x = 0; x < n; x++) {
        if (!entries[x].used) {
            char *p = path_join(dir, entries[x].path);
            if (sv_contains(&linted, entries[x].path) || !path_exists(p)) (*stale)++;
            free(p);
        }
        free(entries[x].key);
        free(entries[x].path);
    }
    sv_release(&linted);
    free(entries);
    free(dir);
    free(abs);
    return 0;
}
