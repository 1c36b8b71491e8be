/* diag.c: building, ordering and de-duplicating findings. */
#include "core/diag.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static struct diag *diag_list_add(struct diag_list *l)
{
    XGROW(l->items, l->len, l->cap, 16);
    struct diag *d = &l->items[l->len++];
    memset(d, 0, sizeof *d);
    return d;
}

struct diag *diag_new(struct diag_list *l, const struct rule *r, const char *file, unsigned line,
                      unsigned col, unsigned end_line, unsigned end_col, char *message)
{
    struct diag *d = diag_list_add(l);
    d->file = xstrdup(file);
    d->line = line;
    d->column = col;
    d->end_line = end_line;
    d->end_column = end_col;
    d->rule = r;
    d->severity = r->severity;
    d->message = message;
    return d;
}

struct diag *diag_copy(struct diag_list *l, const struct diag *src)
{
    struct diag *d = diag_new(l, src->rule, src->file, src->line, src->column, src->end_line, src->end_column,
                              xstrdup(src->message));
    d->severity = src->severity;
    d->codegen = src->codegen;
    d->function = src->function ? xstrdup(src->function) : NULL;
    for (size_t k = 0; k < src->n_notes; k++)
        diag_add_note(d, src->notes[k].file, src->notes[k].line, src->notes[k].column, "%s", src->notes[k].message);
    for (size_t k = 0; k < src->n_fixes; k++) {
        const struct diag_fix *f = &src->fixes[k];
        diag_add_fix(d, f->file, f->line, f->column, f->end_line, f->end_column, f->offset, f->end_offset,
                     f->replacement);
    }
    return d;
}

void diag_list_take(struct diag_list *l, struct diag *d)
{
    *diag_list_add(l) = *d;
}

void diag_add_note(struct diag *d, const char *file, unsigned line, unsigned col,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *message = xvasprintf(fmt, ap);
    va_end(ap);
    d->notes = xrealloc(d->notes, (d->n_notes + 1) * sizeof *d->notes);
    struct diag_note *n = &d->notes[d->n_notes++];
    n->file = xstrdup(file);
    n->line = line;
    n->column = col;
    n->message = message;
}

void diag_add_fix(struct diag *d, const char *file, unsigned line, unsigned col,
                  unsigned end_line, unsigned end_col, unsigned offset,
                  unsigned end_offset, const char *replacement)
{
    d->fixes = xrealloc(d->fixes, (d->n_fixes + 1) * sizeof *d->fixes);
    struct diag_fix *f = &d->fixes[d->n_fixes++];
    f->file = xstrdup(file);
    f->line = line;
    f->column = col;
    f->end_line = end_line;
    f->end_column = end_col;
    f->offset = offset;
    f->end_offset = end_offset;
    f->replacement = xstrdup(replacement);
}

void diag_release(struct diag *d)
{
    free(d->file);
    free(d->message);
    free(d->function);
    for (size_t i = 0; i < d->n_notes; i++) {
        free(d->notes[i].file);
        free(d->notes[i].message);
    }
    free(d->notes);
    for (size_t i = 0; i < d->n_fixes; i++) {
        free(d->fixes[i].file);
        free(d->fixes[i].replacement);
    }
    free(d->fixes);
    memset(d, 0, sizeof *d);
}

void diag_list_release(struct diag_list *l)
{
    for (size_t i = 0; i < l->len; i++) diag_release(&l->items[i]);
    free(l->items);
    l->items = NULL;
    l->len = l->cap = 0;
}

void diag_list_move(struct diag_list *dst, struct diag_list *src)
{
    for (size_t i = 0; i < src->len; i++) *diag_list_add(dst) = src->items[i];
    free(src->items);
    src->items = NULL;
    src->len = src->cap = 0;
}

static int cmp_uint(unsigned a, unsigned b)
{
    return a < b ? -1 : a > b;
}

/* The place of a finding: file, line, column and rule. */
static int place_compare(const struct diag *a, const struct diag *b)
{
    int c = strcmp(a->file, b->file);
    if (!c) c = cmp_uint(a->line, b->line);
    if (!c) c = cmp_uint(a->column, b->column);
    if (!c) c = strcmp(a->rule->code, b->rule->code);
    return c;
}

static int diag_compare(const struct diag *a, const struct diag *b)
{
    int c = place_compare(a, b);
    if (!c) c = strcmp(a->message, b->message);
    return c;
}

static int qsort_cmp(const void *a, const void *b)
{
    return diag_compare(a, b);
}

/* How much nvcc's code says of a finding: a verdict, a check that could
   not be made, nothing. */
static int evidence_rank(const struct diag *d)
{
    return d->codegen == CODEGEN_CONFIRMED || d->codegen == CODEGEN_DISPROVED ? 2
           : d->codegen == CODEGEN_UNCHECKED                                 ? 1
                                                                             : 0;
}

void diag_list_sort_unique(struct diag_list *l)
{
    if (l->len < 2) return;
    qsort(l->items, l->len, sizeof *l->items, qsort_cmp);
    size_t w = 1;
    for (size_t r = 1; r < l->len; r++) {
        if (diag_compare(&l->items[w - 1], &l->items[r]) == 0) {
            /* The same finding from another parse pass or unit: keep the
               first, but keep the one with nvcc's verdict when only the
               duplicate has it, else a fix if only the duplicate has one. */
            struct diag *kept = &l->items[w - 1];
            int rk = evidence_rank(kept), rd = evidence_rank(&l->items[r]);
            if (rd > rk || (rd == rk && kept->n_fixes == 0 && l->items[r].n_fixes > 0)) {
                struct diag tmp = *kept;
                *kept = l->items[r];
                l->items[r] = tmp;
            }
            diag_release(&l->items[r]);
            continue;
        }
        l->items[w++] = l->items[r];
    }
    l->len = w;
}


static int place_qsort_cmp(const void *a, const void *b)
{
    return place_compare(a, b);
}

void diag_list_unique_places(struct diag_list *l, const struct diag_list *kept)
{
    size_t w = 0;
    for (size_t r = 0; r < l->len; r++) {
        struct diag *d = &l->items[r];
        if (kept && kept->len && bsearch(d, kept->items, kept->len, sizeof *kept->items, place_qsort_cmp)) {
            diag_release(d);
            continue;
        }
        if (w > 0 && place_compare(&l->items[w - 1], d) == 0) {
            /* of one place's findings, the first with the most evidence */
            if (evidence_rank(d) > evidence_rank(&l->items[w - 1])) {
                struct diag tmp = l->items[w - 1];
                l->items[w - 1] = *d;
                *d = tmp;
            }
            diag_release(d);
            continue;
        }
        l->items[w++] = *d;
    }
    l->len = w;
}

void diag_list_drop_places(struct diag_list *l, const struct diag_list *places)
{
    if (!places->len) return;
    size_t w = 0;
    for (size_t r = 0; r < l->len; r++) {
        struct diag *d = &l->items[r];
        if (d->codegen != CODEGEN_CONFIRMED &&
            bsearch(d, places->items, places->len, sizeof *places->items, place_qsort_cmp)) {
            diag_release(d);
            continue;
        }
        l->items[w++] = *d;
    }
    l->len = w;
}
