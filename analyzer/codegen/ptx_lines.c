/* ptx_lines.c: the per-line reader of PTX from nvcc -lineinfo.
 *
 * `.loc FILE LINE COL` sets the source position of the instructions after
 * it; the `.file N "NAME"` table (at the end of the module) names the files.
 * Inlined code carries `, function_name LABEL, inlined_at FILE LINE COL`: an
 * instruction counts for the innermost position that is in the source file,
 * so the body of a device function of the file counts on its own lines and a
 * toolkit header's inlined routine (powf, std::pow) counts on the line that
 * called it.  Each instruction is classified by asm_mix_count_ptx_op, the
 * classification `cudalint confirm` uses for whole kernels. */
#include "codegen/ptx_lines.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct file_id {
    long id;
    bool is_source;
};

static char *line_copy(const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    return xstrndup(s, len);
}

/* `.file 1 "/path/x.cu"` or `.file 1 "/path/x.cu", 1700000000, 1234`. */
static bool parse_file_entry(const char *t, const char *source, struct file_id *f)
{
    char *end;
    f->id = strtol(t + 5, &end, 10);
    const char *q = strchr(end, '"');
    if (!q) return false;
    const char *q2 = strchr(q + 1, '"');
    if (!q2) return false;
    f->is_source = (size_t)(q2 - q - 1) == strlen(source) && strncmp(q + 1, source, (size_t)(q2 - q - 1)) == 0;
    return true;
}

static bool id_is_source(const struct file_id *ids, size_t n, long id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i].id == id) return ids[i].is_source;
    return false;
}

/* The source line a `.loc` directive means, or 0 (outside the file, or line 0). */
static unsigned loc_line(const char *t, const struct file_id *ids, size_t n)
{
    char *end;
    long file = strtol(t + 4, &end, 10);
    long line = strtol(end, &end, 10);
    if (id_is_source(ids, n, file) && line > 0) return (unsigned)line;
    const char *in = strstr(t, "inlined_at");
    if (!in) return 0;
    file = strtol(in + 10, &end, 10);
    line = strtol(end, &end, 10);
    return id_is_source(ids, n, file) && line > 0 ? (unsigned)line : 0;
}

static struct ptx_line *line_record(struct ptx_lines *pl, size_t *cap, unsigned line)
{
    for (size_t i = pl->n_lines; i-- > 0;)
        if (pl->lines[i].line == line) return &pl->lines[i];
    XGROW(pl->lines, pl->n_lines, *cap, 64);
    struct ptx_line *r = &pl->lines[pl->n_lines++];
    memset(r, 0, sizeof *r);
    r->line = line;
    r->global_narrowest_bytes = -1;
    return r;
}

/* Bytes one access moves: ".v4" times the width of the type part (".f32"). */
static long access_bytes(const char *op)
{
    long vec = 1, width = 0;
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.')) {
        if (p[1] == 'v' && isdigit((unsigned char)p[2])) vec = strtol(p + 2, NULL, 10);
        else if (strchr("bsuf", p[1]) && isdigit((unsigned char)p[2])) width = strtol(p + 2, NULL, 10) / 8;
    }
    return vec * width;
}

static void note_access(struct ptx_line *r, const char *op)
{
    bool ld = str_starts_with(op, "ld."), st = str_starts_with(op, "st.");
    if (!ld && !st) return;
    if (strstr(op, ".shared")) {
        if (strstr(op, ".v2.") || strstr(op, ".v4.") || strstr(op, ".v8.")) {
            r->shared_vector++;
            long b = access_bytes(op);
            if (b > r->shared_vector_bytes) r->shared_vector_bytes = b;
        } else {
            r->shared_scalar++;
        }
    } else if (strstr(op, ".global")) {
        long b = access_bytes(op);
        r->global_accesses++;
        if (b > r->global_widest_bytes) r->global_widest_bytes = b;
        if (r->global_narrowest_bytes < 0 || b < r->global_narrowest_bytes) r->global_narrowest_bytes = b;
    }
}

static void add_function_to_line(struct ptx_line *r, int fn)
{
    for (size_t i = 0; i < r->n_functions; i++)
        if (r->functions[i] == fn) return;
    if (r->n_functions < PTX_LINE_MAX_FUNCTIONS) r->functions[r->n_functions++] = fn;
}

static void add_call(struct ptx_line *r, const char *name, size_t len)
{
    if (!len) return;
    for (size_t i = 0; i < r->n_calls; i++)
        if (strlen(r->calls[i]) == len && strncmp(r->calls[i], name, len) == 0) return;
    if (r->n_calls < PTX_LINE_MAX_CALLS) r->calls[r->n_calls++] = xstrndup(name, len);
}

/* The callee's name in what follows "call.uni": "(retval0), name, (" or
   "name, (" (nvcc spreads a call over several lines). */
static const char *callee_in(const char *s, size_t *len)
{
    while (*s && (isspace((unsigned char)*s) || *s == ',')) s++;
    if (*s == '(') {
        const char *close = strchr(s, ')');
        if (!close) return NULL;
        s = close + 1;
        while (*s && (isspace((unsigned char)*s) || *s == ',')) s++;
    }
    size_t n = 0;
    while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '$')) n++;
    *len = n;
    return n ? s : NULL;
}

/* ".visible .entry NAME(" or ".func (.param .b64 func_retval0) NAME". */
static char *function_name(const char *t, bool *entry)
{
    const char *k = strstr(t, ".entry");
    *entry = k != NULL;
    if (!k) k = strstr(t, ".func");
    if (!k) return NULL;
    const char *s = k + (*entry ? 6 : 5);
    while (isspace((unsigned char)*s)) s++;
    if (*s == '(') {
        const char *close = strchr(s, ')');
        if (!close) return NULL;
        s = close + 1;
        while (isspace((unsigned char)*s)) s++;
    }
    size_t n = 0;
    while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '$')) n++;
    return n ? xstrndup(s, n) : NULL;
}

static int function_index(struct ptx_lines *pl, size_t *cap, const char *name, bool entry)
{
    for (size_t i = 0; i < pl->n_functions; i++)
        if (strcmp(pl->functions[i].name, name) == 0) return (int)i;
    XGROW(pl->functions, pl->n_functions, *cap, 8);
    pl->functions[pl->n_functions] = (struct ptx_function){xstrdup(name), entry, 0, -1};
    return (int)pl->n_functions++;
}

static int cmp_line(const void *a, const void *b)
{
    const struct ptx_line *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

bool ptx_lines_read(const char *ptx, const char *source, struct ptx_lines *out)
{
    memset(out, 0, sizeof *out);
    struct file_id *ids = NULL;
    size_t n_ids = 0, cap_ids = 0, cap_lines = 0, cap_fns = 0;
    bool any_source = false;
    /* The `.file` table first: it comes after the code. */
    for (const char *p = ptx; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *t = line_copy(p, len);
        struct file_id f;
        if (str_starts_with(t, ".file") && isspace((unsigned char)t[5]) && parse_file_entry(t, source, &f)) {
            XGROW(ids, n_ids, cap_ids, 8);
            ids[n_ids++] = f;
            any_source |= f.is_source;
        }
        free(t);
        if (!eol) break;
        p = eol + 1;
    }
    if (!any_source) {
        free(ids);
        return false;
    }
    unsigned cur_line = 0;
    int cur_fn = -1;
    bool in_call = false, want_callee = false;
    for (const char *p = ptx; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *t = line_copy(p, len);
        if (in_call) {
            /* The rest of a call spread over lines: its callee, then its
               parameters up to ");". */
            size_t n;
            const char *name = want_callee ? callee_in(t, &n) : NULL;
            if (name && cur_line) add_call(line_record(out, &cap_lines, cur_line), name, n);
            if (name) want_callee = false;
            if (strchr(t, ';')) in_call = false;
        } else if (str_starts_with(t, ".loc") && isspace((unsigned char)t[4])) {
            cur_line = loc_line(t, ids, n_ids);
        } else if (t[0] == '.' || (t[0] != '@' && !isalpha((unsigned char)t[0]))) {
            bool entry;
            char *name = t[0] == '.' && (strstr(t, ".entry") || strstr(t, ".func")) ? function_name(t, &entry) : NULL;
            if (name) {
                cur_fn = function_index(out, &cap_fns, name, entry);
                cur_line = 0;
            }
            free(name);
        } else if (t[strlen(t) - 1] == ':' && !strchr(t, ' ') && !strchr(t, '\t')) {
            /* a label */
        } else {
            const char *s = t;
            if (*s == '@') { /* a guard predicate */
                s += strcspn(s, " \t");
                while (isspace((unsigned char)*s)) s++;
            }
            size_t oplen = strcspn(s, " \t;");
            char *op = xstrndup(s, oplen);
            out->instructions++;
            if (cur_fn >= 0) out->functions[cur_fn].instructions++;
            if (str_starts_with(op, "call")) {
                size_t n;
                const char *name = callee_in(s + oplen, &n);
                if (name && cur_line) add_call(line_record(out, &cap_lines, cur_line), name, n);
                in_call = !strchr(s, ';');
                want_callee = !name;
            }
            if (cur_line) {
                struct ptx_line *r = line_record(out, &cap_lines, cur_line);
                asm_mix_count_ptx_op(op, &r->mix);
                if (str_starts_with(op, "div.full.f32") || str_starts_with(op, "div.approx.f32") ||
                    str_starts_with(op, "div.approx.ftz.f32") || str_starts_with(op, "div.full.ftz.f32"))
                    r->fdiv_other++;
                note_access(r, op);
                if (cur_fn >= 0) add_function_to_line(r, cur_fn);
            }
            free(op);
        }
        free(t);
        if (!eol) break;
        p = eol + 1;
    }
    free(ids);
    if (out->n_lines) qsort(out->lines, out->n_lines, sizeof *out->lines, cmp_line);
    return true;
}

void ptx_lines_add_ptxas(struct ptx_lines *pl, const char *text)
{
    static const char key[] = "Function properties for ";
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
        const char *name = p + strlen(key);
        size_t n = strcspn(name, " \t\r\n");
        const char *frame = strstr(name + n, "bytes stack frame");
        const char *next = strstr(name + n, key);
        if (!frame || (next && next < frame)) continue;
        /* the number before "bytes stack frame" */
        const char *d = frame;
        while (d > name + n && isspace((unsigned char)d[-1])) d--;
        while (d > name + n && isdigit((unsigned char)d[-1])) d--;
        long bytes = strtol(d, NULL, 10);
        for (size_t i = 0; i < pl->n_functions; i++)
            if (strlen(pl->functions[i].name) == n && strncmp(pl->functions[i].name, name, n) == 0)
                pl->functions[i].stack_frame = bytes;
    }
}

const struct ptx_line *ptx_lines_find(const struct ptx_lines *pl, unsigned line)
{
    size_t lo = 0, hi = pl->n_lines;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pl->lines[mid].line < line) lo = mid + 1;
        else hi = mid;
    }
    return lo < pl->n_lines && pl->lines[lo].line == line ? &pl->lines[lo] : NULL;
}

void ptx_lines_release(struct ptx_lines *pl)
{
    for (size_t i = 0; i < pl->n_lines; i++)
        for (size_t j = 0; j < pl->lines[i].n_calls; j++) free(pl->lines[i].calls[j]);
    for (size_t i = 0; i < pl->n_functions; i++) free(pl->functions[i].name);
    free(pl->lines);
    free(pl->functions);
    memset(pl, 0, sizeof *pl);
}
