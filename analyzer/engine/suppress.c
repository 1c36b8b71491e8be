/* suppress.c: clang-tidy style suppression comments.  NOLINT silences its own
 * line, NOLINTNEXTLINE the next one, NOLINTBEGIN ... NOLINTEND a block; each
 * takes an optional list of codes, names or globs: NOLINT(CU201, double-*). */
#include "engine/suppress.h"
#include "core/rule.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum marker { M_LINE, M_NEXTLINE, M_BEGIN, M_END };

struct entry {
    enum marker kind;
    unsigned line, column; /* of the marker */
    char *checks;          /* NULL: every rule; else the text inside ( ) */
    unsigned end_line;     /* for blocks: the NOLINTEND line */
};

struct suppressions {
    char *file;
    struct entry *items;
    size_t len, cap;
};

static void add(struct suppressions *s, enum marker kind, unsigned line, unsigned col,
                const char *checks, size_t checks_len, bool has_checks)
{
    XGROW(s->items, s->len, s->cap, 8);
    struct entry *e = &s->items[s->len++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = line;
    e->column = col;
    e->checks = has_checks ? xstrndup(checks, checks_len) : NULL;
}

/* Looks for markers inside one comment's text. */
static void scan_comment(struct suppressions *s, const char *text, const char *begin,
                         const char *end, unsigned line, const char *line_start)
{
    const char *p = begin;
    while ((p = memmem(p, (size_t)(end - p), "NOLINT", 6)) != NULL) {
        const char *q = p + 6;
        enum marker kind = M_LINE;
        if ((size_t)(end - q) >= 8 && memcmp(q, "NEXTLINE", 8) == 0) {
            kind = M_NEXTLINE;
            q += 8;
        } else if ((size_t)(end - q) >= 5 && memcmp(q, "BEGIN", 5) == 0) {
            kind = M_BEGIN;
            q += 5;
        } else if ((size_t)(end - q) >= 3 && memcmp(q, "END", 3) == 0) {
            kind = M_END;
            q += 3;
        }
        /* "NOLINTFOO" is not a marker. */
        if (q < end && (isalnum((unsigned char)*q) || *q == '_')) {
            p = q;
            continue;
        }
        const char *checks = NULL;
        size_t checks_len = 0;
        bool has = false;
        if (q < end && *q == '(') {
            const char *close = memchr(q, ')', (size_t)(end - q));
            if (close) {
                checks = q + 1;
                checks_len = (size_t)(close - q - 1);
                has = true;
                q = close + 1;
            }
        }
        /* Count lines between the comment start and the marker. */
        unsigned l = line;
        const char *ls = line_start;
        for (const char *c = begin; c < p; c++)
            if (*c == '\n') {
                l++;
                ls = c + 1;
            }
        (void)text;
        add(s, kind, l, (unsigned)(p - ls) + 1, checks, checks_len, has);
        p = q;
    }
}

static bool same_checks(const char *a, const char *b)
{
    if (!a || !b) return a == b;
    /* Compare ignoring whitespace. */
    while (*a || *b) {
        while (isspace((unsigned char)*a)) a++;
        while (isspace((unsigned char)*b)) b++;
        if (*a != *b) return false;
        if (*a) {
            a++;
            b++;
        }
    }
    return true;
}

struct suppressions *suppress_scan(const char *file, const char *text, size_t len,
                                   struct diag_list *problems)
{
    struct suppressions *s = xcalloc(1, sizeof *s);
    s->file = xstrdup(file);
    const char *p = text, *end = text + len, *line_start = text;
    unsigned line = 1;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            line++;
            line_start = ++p;
        } else if (c == '"' || c == '\'') {
            /* Skip string and character literals (no raw strings needed for
               the markers: they only live in comments). */
            p++;
            while (p < end && *p != c && *p != '\n') {
                if (*p == '\\' && p + 1 < end) p++;
                p++;
            }
            if (p < end && *p == c) p++;
        } else if (c == '/' && p + 1 < end && p[1] == '/') {
            const char *e = memchr(p, '\n', (size_t)(end - p));
            if (!e) e = end;
            scan_comment(s, text, p, e, line, line_start);
            p = e;
        } else if (c == '/' && p + 1 < end && p[1] == '*') {
            const char *e = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
            e = e ? e + 2 : end;
            scan_comment(s, text, p, e, line, line_start);
            for (const char *q = p; q < e; q++)
                if (*q == '\n') {
                    line++;
                    line_start = q + 1;
                }
            p = e;
        } else {
            p++;
        }
    }

    /* Pair BEGIN/END markers like a stack, by identical check lists. */
    size_t *stack = xmalloc((s->len + 1) * sizeof *stack);
    size_t depth = 0;
    for (size_t i = 0; i < s->len; i++) {
        struct entry *e = &s->items[i];
        if (e->kind == M_BEGIN) {
            stack[depth++] = i;
        } else if (e->kind == M_END) {
            size_t j = depth;
            while (j > 0 && !same_checks(s->items[stack[j - 1]].checks, e->checks)) j--;
            if (j == 0) {
                if (problems) {
                    diag_new(problems, &rule_cu001, file, e->line, e->column, e->line, e->column + 9,
                             xstrdup("NOLINTEND without a matching NOLINTBEGIN"));
                }
                continue;
            }
            s->items[stack[j - 1]].end_line = e->line;
            memmove(&stack[j - 1], &stack[j], (depth - j) * sizeof *stack);
            depth--;
        }
    }
    for (size_t j = 0; j < depth; j++) {
        struct entry *e = &s->items[stack[j]];
        e->end_line = (unsigned)-1; /* an open block still covers the rest of the file */
        if (problems) {
            diag_new(problems, &rule_cu001, file, e->line, e->column, e->line, e->column + 11,
                     xstrdup("NOLINTBEGIN without a matching NOLINTEND"));
        }
    }
    free(stack);
    return s;
}

static bool checks_match(const char *checks, const struct rule *r)
{
    if (!checks) return true;
    struct strvec items = {0};
    sv_split_list(&items, checks);
    bool m = false;
    for (size_t i = 0; i < items.len && !m; i++) {
        const char *item = items.items[i];
        m = glob_match_ci(item, r->code) || glob_match_ci(item, r->name);
        /* Allow the clang-tidy-like spelling "cudalint-double-literal". */
        if (!m && str_starts_with(item, "cudalint-"))
            m = glob_match_ci(item + 9, r->code) || glob_match_ci(item + 9, r->name);
    }
    sv_release(&items);
    return m;
}

bool suppress_matches(const struct suppressions *s, const struct diag *d)
{
    if (!s || !d->rule) return false;
    for (size_t i = 0; i < s->len; i++) {
        const struct entry *e = &s->items[i];
        bool covers = false;
        switch (e->kind) {
        case M_LINE: covers = e->line == d->line; break;
        case M_NEXTLINE: covers = e->line + 1 == d->line; break;
        case M_BEGIN: covers = d->line > e->line && (e->end_line == 0 || d->line < e->end_line); break;
        case M_END: break;
        }
        if (covers && checks_match(e->checks, d->rule)) return true;
    }
    return false;
}

void suppress_free(struct suppressions *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->len; i++) free(s->items[i].checks);
    free(s->items);
    free(s->file);
    free(s);
}
