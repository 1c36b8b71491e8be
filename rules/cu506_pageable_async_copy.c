/* cu506_pageable_async_copy.c: CU506 flags cudaMemcpyAsync from or to host memory that the same function obtained with malloc, new or a std::vector (and never registered), where other work follows before the host waits for it: the copy is staged through a driver buffer and does not overlap with that work. */
#include "analysis/hostapi.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static void cu506_on_cursor(struct rule_ctx *ctx, CXCursor body)
{
    (void)body;
    const struct hostapi_fn *m = (ctx_at_host_body(ctx) ? ctx_analysis(ctx, &hostapi_analysis) : NULL);
    if (!m) return;
    for (unsigned i = 0; i < m->n_calls; i++) {
        const struct hostapi_call *c = &m->calls[i];
        /* only a copy meant to overlap: one the host waits for at once, or
           whose buffer the host touches before it waits, gains nothing from
           pinning (the second relies on the staged copy being finished) */
        if (!(c->flags & HOSTAPI_ASYNC_COPY) || c->host_origin != HOSTAPI_ORIGIN_PAGEABLE || !c->overlaps) continue;
        /* the text of the argument, unless a macro wraps the call (the use
           text would then be the macro's name): the buffer's name */
        CXFile ef, sf;
        unsigned eo, so;
        clang_getExpansionLocation(clang_getCursorLocation(c->host_buffer), &ef, NULL, NULL, &eo);
        clang_getSpellingLocation(clang_getCursorLocation(c->host_buffer), &sf, NULL, NULL, &so);
        char *buf = NULL;
        if (ef && sf && clang_File_isEqual(ef, sf) && eo == so) {
            buf = ctx_use_text(ctx, c->host_buffer);
        } else {
            CXCursor e = ast_strip(c->host_buffer);
            while (clang_getCursorKind(e) != CXCursor_DeclRefExpr && !clang_Cursor_isNull(ast_child(e, 0)))
                e = ast_strip(ast_child(e, 0));
            buf = clang_getCursorKind(e) == CXCursor_DeclRefExpr ? ast_spelling(e) : xstrdup("the host buffer");
        }
        struct diag *d = ctx_report(ctx, c->call,
                                    "'%s' %s pageable host memory '%s': the copy is staged through a "
                                    "driver buffer and is not asynchronous; allocate the host buffer "
                                    "with cudaMallocHost/cudaHostAlloc or register it with "
                                    "cudaHostRegister",
                                    c->name, c->copy_kind == HOSTAPI_COPY_D2H ? "into" : "from", buf);
        if (d && !clang_Cursor_isNull(c->origin_at))
            ctx_note(ctx, d, c->origin_at, "obtained here from the C++ or C heap");
        free(buf);
    }
}

static const enum CXCursorKind cu506_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu506 = {
    .code = "CU506",
    .name = "pageable-async-copy",
    .summary = "cudaMemcpyAsync from or to host memory obtained with malloc, new or std::vector: the copy is not asynchronous.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_HOST,
    .status = STATUS_PREVIEW,
    .precision = "0.70 (frozen test sets: 21 of 30 read: 1 of 1 finding true on the sixth frozen test set of 2026-12-07; 20 of 20 sampled on the first of 2026-11-28, 0 of 1 on the second, 0 of 8 on the third: the host reads the buffer right after the copy)",
    .version = 2,
    .has_fix = false,
    .doc = "rules/CU506-pageable-async-copy.md",
    .kernel = "kernels/cu506_pageable_async_copy",
    .subscriptions = cu506_kinds,
    .on_cursor = cu506_on_cursor,
};
