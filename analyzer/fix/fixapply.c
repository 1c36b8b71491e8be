/* fixapply.c: applying fix-its to a file's text in memory, refusing
 * overlapping edits rather than applying them blindly. */
#include "fix/fixapply.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

struct edit {
    unsigned start, end;
    const char *replacement;
};

static int cmp_edit(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static bool overlaps(const struct edit *edits, size_t n, unsigned start, unsigned end)
{
    for (size_t i = 0; i < n; i++) {
        /* Two insertions at one point are ambiguous too. */
        if (start < edits[i].end && edits[i].start < end) return true;
        if (start == end && edits[i].start == edits[i].end && start == edits[i].start) return true;
        if (start == edits[i].start && (start == end || edits[i].start == edits[i].end)) return true;
    }
    return false;
}

char *fix_apply(const char *text, size_t len, const char *file, const struct diag_list *diags,
                size_t *out_len, size_t *applied, size_t *skipped)
{
    struct edit *edits = NULL;
    size_t n = 0, cap = 0;
    *applied = *skipped = 0;
    for (size_t i = 0; i < diags->len; i++) {
        const struct diag *d = &diags->items[i];
        bool mine = false, valid = true;
        for (size_t k = 0; k < d->n_fixes; k++) {
            const struct diag_fix *f = &d->fixes[k];
            if (strcmp(f->file, file) != 0) continue;
            mine = true;
            if (f->end_offset < f->offset || f->end_offset > len) valid = false;
            else if (overlaps(edits, n, f->offset, f->end_offset)) valid = false;
            /* Nor may a finding's own fixes overlap one another (the text
               between them would be copied backwards). */
            for (size_t j = 0; j < k && valid; j++) {
                const struct diag_fix *g = &d->fixes[j];
                if (strcmp(g->file, file) != 0) continue;
                struct edit e = {g->offset, g->end_offset, g->replacement};
                if (overlaps(&e, 1, f->offset, f->end_offset)) valid = false;
            }
        }
        if (!mine) continue;
        /* The same edit offered by two findings (a shared macro) is applied once. */
        bool duplicate = true;
        for (size_t k = 0; k < d->n_fixes && duplicate; k++) {
            const struct diag_fix *f = &d->fixes[k];
            bool found = false;
            for (size_t j = 0; j < n && !found; j++)
                found = edits[j].start == f->offset && edits[j].end == f->end_offset &&
                        strcmp(edits[j].replacement, f->replacement) == 0;
            duplicate = found;
        }
        if (duplicate && d->n_fixes) {
            (*applied)++;
            continue;
        }
        if (!valid) {
            (*skipped)++;
            continue;
        }
        for (size_t k = 0; k < d->n_fixes; k++) {
            const struct diag_fix *f = &d->fixes[k];
            if (strcmp(f->file, file) != 0) continue;
            XGROW(edits, n, cap, 16);
            edits[n].start = f->offset;
            edits[n].end = f->end_offset;
            edits[n].replacement = f->replacement;
            n++;
        }
        (*applied)++;
    }
    if (n) qsort(edits, n, sizeof *edits, cmp_edit);
    struct strbuf sb;
    sb_init(&sb);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        sb_addn(&sb, text + pos, edits[i].start - pos);
        sb_add(&sb, edits[i].replacement);
        pos = edits[i].end;
    }
    sb_addn(&sb, text + pos, len - pos);
    free(edits);
    *out_len = sb.len;
    return sb_detach(&sb);
}
