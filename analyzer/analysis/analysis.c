/* analysis.c: the analysis cache: each (kind, function) is built once and
 * freed when the function is dropped or the cache is freed. */
#include "analysis/analysis.h"
#include "base/phasetime.h"
#include "base/util.h"

#include <stdlib.h>

struct slot {
    const struct analysis_kind *kind;
    CXCursor fn;        /* null cursor for per_tu kinds */
    unsigned fn_hash;
    void *facts;
    bool borrowed;      /* provided by the caller, who frees it */
    struct slot *next;
};

struct analysis_cache {
    CXTranslationUnit tu;
    struct slot *slots;
};

struct analysis_cache *analysis_cache_new(CXTranslationUnit tu)
{
    struct analysis_cache *c = xcalloc(1, sizeof *c);
    c->tu = tu;
    return c;
}

static void slot_free(struct slot *s)
{
    if (s->facts && s->kind->free && !s->borrowed) s->kind->free(s->facts);
    free(s);
}

void analysis_cache_free(struct analysis_cache *c)
{
    if (!c) return;
    while (c->slots) {
        struct slot *s = c->slots;
        c->slots = s->next;
        slot_free(s);
    }
    free(c);
}

void *analysis_get(struct analysis_cache *c, const struct analysis_kind *kind, CXCursor fn)
{
    if (!c) return NULL;
    if (kind->per_tu) fn = clang_getNullCursor();
    unsigned h = clang_hashCursor(fn);
    for (struct slot *s = c->slots; s; s = s->next)
        if (s->kind == kind && s->fn_hash == h && clang_equalCursors(s->fn, fn)) return s->facts;
    void *facts;
    if (phasetime_detail()) {
        struct phasetime_mark m = phasetime_begin();
        facts = kind->build(c->tu, fn, c);
        phasetime_end(m, kind->name);
    } else {
        facts = kind->build(c->tu, fn, c);
    }
    struct slot *s = xcalloc(1, sizeof *s);
    s->kind = kind;
    s->fn = fn;
    s->fn_hash = h;
    s->facts = facts;
    s->next = c->slots;
    c->slots = s;
    return facts;
}

void analysis_cache_drop(struct analysis_cache *c, CXCursor fn)
{
    if (!c) return;
    unsigned h = clang_hashCursor(fn);
    struct slot **pp = &c->slots;
    while (*pp) {
        struct slot *s = *pp;
        if (!s->kind->per_tu && s->fn_hash == h && clang_equalCursors(s->fn, fn)) {
            *pp = s->next;
            slot_free(s);
        } else {
            pp = &s->next;
        }
    }
}

void analysis_cache_provide(struct analysis_cache *c, const struct analysis_kind *kind, void *facts)
{
    if (!c || !kind->per_tu) return;
    struct slot *s = xcalloc(1, sizeof *s);
    s->kind = kind;
    s->fn = clang_getNullCursor();
    s->fn_hash = clang_hashCursor(s->fn);
    s->facts = facts;
    s->borrowed = true;
    s->next = c->slots;
    c->slots = s;
}
