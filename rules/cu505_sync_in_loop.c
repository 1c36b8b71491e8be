/* cu505_sync_in_loop.c: CU505 flags cudaDeviceSynchronize/cudaStreamSynchronize and device-to-host cudaMemcpy between launches in a host loop whose iterations never need the host to see a result (no host read, no timing, no other host work, one stream): a serialising pattern. */
#include "analysis/hostapi.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static CXCursor buffer_var(CXCursor e)
{
    e = ast_strip(e);
    for (int g = 0; g < 4; g++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
            k == CXCursor_CXXReinterpretCastExpr) {
            CXCursor kids[3];
            unsigned n = ast_children(e, kids, 3);
            if (!n) break;
            e = ast_strip(kids[n - 1]);
        } else if (k == CXCursor_UnaryOperator && ast_unop(e) == CXUnaryOperator_AddrOf) {
            e = ast_strip(ast_child(e, 0));
        } else if (k == CXCursor_BinaryOperator) {
            e = ast_strip(ast_child(e, 0));
        } else {
            break;
        }
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    return clang_getCursorReferenced(e);
}

/* Do all launches in the loop go to one stream (the default one, or one
   variable)? */
static bool one_stream(const struct hostapi_fn *m, int loop)
{
    const struct hostapi_call *first = NULL;
    for (unsigned i = 0; i < m->n_calls; i++) {
        const struct hostapi_call *c = &m->calls[i];
        if (!(c->flags & HOSTAPI_LAUNCH) || c->loop < 0 || !hostapi_loop_within(m, c->loop, loop)) continue;
        if (!c->stream_known) return false;
        if (!first) {
            first = c;
            continue;
        }
        bool a = clang_Cursor_isNull(first->stream_var), b = clang_Cursor_isNull(c->stream_var);
        if (a != b || (!a && !clang_equalCursors(first->stream_var, c->stream_var))) return false;
    }
    return first != NULL;
}

static void cu505_on_cursor(struct rule_ctx *ctx, CXCursor body)
{
    (void)body;
    const struct hostapi_fn *m = (ctx_at_host_body(ctx) ? ctx_analysis(ctx, &hostapi_analysis) : NULL);
    if (!m) return;
    for (unsigned i = 0; i < m->n_calls; i++) {
        const struct hostapi_call *c = &m->calls[i];
        if (c->loop < 0 || c->exit_path) continue;
        bool device_sync = (c->flags & HOSTAPI_DEVICE_SYNC) != 0;
        bool d2h = !strcmp(c->name, "cudaMemcpy") && c->copy_kind == HOSTAPI_COPY_D2H;
        if (!device_sync && !d2h) continue;
        const struct hostapi_loop *l = &m->loops[c->loop];
        if (!l->has_launch || l->host_work || !one_stream(m, c->loop)) continue;
        if (d2h) {
            CXCursor v = buffer_var(c->host_buffer);
            if (clang_Cursor_isNull(v) || hostapi_loop_reads(m, c->loop, v, c->call)) continue;
            char *vn = ast_spelling(v);
            ctx_report(ctx, c->call,
                       "a synchronous device-to-host cudaMemcpy into '%s' between launches in a loop "
                       "whose iterations never read it: every iteration waits for the device; copy "
                       "once after the loop, or use cudaMemcpyAsync into page-locked memory on a "
                       "stream",
                       vn);
            free(vn);
        } else {
            ctx_report(ctx, c->call,
                       "'%s' between launches in a loop whose iterations do not need the host to see "
                       "a result: every iteration waits for the device and the GPU idles while the "
                       "next launch is issued; synchronise once after the loop",
                       c->name);
        }
    }
}

static const enum CXCursorKind cu505_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu505 = {
    .code = "CU505",
    .name = "sync-in-loop",
    .summary = "A synchronisation between launches in a host loop whose iterations do not need the result on the host.",
    .severity = SEV_NOTE,
    .category = "performance",
    .scope = SCOPE_HOST,
    .status = STATUS_PREVIEW,
    .precision = "1.00 (seventh frozen test set of 2026-12-08: 1 of 1 finding true; the fourth set 1 of 1; too few)",
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU505-sync-in-loop.md",
    .kernel = "kernels/cu505_sync_in_loop",
    .subscriptions = cu505_kinds,
    .on_cursor = cu505_on_cursor,
};
