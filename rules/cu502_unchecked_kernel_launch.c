/* cu502_unchecked_kernel_launch.c: CU502 flags <<<...>>> launches whose launch error (invalid configuration, too many resources) no cudaGetLastError/cudaPeekAtLastError, directly or through a checking function or macro, ever reads in the launching function. */
#include "analysis/hostapi.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static bool is_check(const struct hostapi_call *c)
{
    if (c->flags & HOSTAPI_CHECKER) return true;
    return (c->flags & HOSTAPI_ERROR_QUERY) && c->use != HOSTAPI_USE_DISCARDED &&
           c->use != HOSTAPI_USE_VOIDED && c->use != HOSTAPI_USE_STORED_UNREAD;
}

static void cu502_on_cursor(struct rule_ctx *ctx, CXCursor body)
{
    (void)body;
    const struct hostapi_fn *m = (ctx_at_host_body(ctx) ? ctx_analysis(ctx, &hostapi_analysis) : NULL);
    if (!m) return;
    for (unsigned i = 0; i < m->n_calls; i++) {
        const struct hostapi_call *c = &m->calls[i];
        if (!(c->flags & HOSTAPI_LAUNCH)) continue;
        /* A later check reads the error the launch left (launch errors stay
           until read); in a loop, a check anywhere in the loop does. */
        bool checked = false;
        const struct hostapi_call *sync = NULL, *next_api = NULL;
        for (unsigned j = 0; j < m->n_calls && !checked; j++) {
            const struct hostapi_call *o = &m->calls[j];
            bool later = hostapi_after(c, o);
            bool same_loop = c->loop >= 0 && o->loop >= 0 && hostapi_loop_within(m, o->loop, c->loop);
            if (!later && !same_loop) continue;
            /* The other arm of an if, another case of a switch, anything
               past the return that ends the launch's path (in a loop too):
               never runs after this launch (neither a check of it nor a call
               it meets). */
            if (hostapi_exclusive(m, c, o)) continue;
            if (is_check(o)) checked = true;
            else if (later && !sync && (o->flags & HOSTAPI_SYNC) && o->use != HOSTAPI_USE_VOIDED) sync = o;
            if (later && !next_api && (o->flags & HOSTAPI_API)) next_api = o;
        }
        /* A function that only launches (nothing but other launches and host
           code after it) leaves the check to its caller, which this rule does
           not see: a launcher such as `void run(...) { k<<<g, b>>>(...); }`. */
        if (checked || !next_api) continue;
        char *k = ast_spelling(clang_getCursorReferenced(c->call));
        struct diag *d = ctx_report(ctx, c->call,
                                    "the launch of '%s' is never checked with cudaGetLastError() or "
                                    "cudaPeekAtLastError(): a launch that fails (invalid configuration, "
                                    "too many resources) goes unnoticed",
                                    k);
        if (d && sync)
            ctx_note(ctx, d, sync->call,
                     "'%s' waits for the device but does not return the launch's error", sync->name);
        free(k);
    }
}

static const enum CXCursorKind cu502_kinds[] = {CXCursor_CompoundStmt, 0};

const struct rule rule_cu502 = {
    .code = "CU502",
    .name = "unchecked-kernel-launch",
    .summary = "A kernel launch whose launch error nothing reads with cudaGetLastError or cudaPeekAtLastError.",
    .severity = SEV_NOTE,
    .category = "correctness",
    .scope = SCOPE_HOST,
    .status = STATUS_STABLE,
    .precision = "1.00 (seventh frozen test set of 2026-12-08: 20 of 20 sampled findings true, of 59; the sixth read 20 of 20 after the rule's last change)",
    .version = 2,
    .has_fix = false,
    .doc = "rules/CU502-unchecked-kernel-launch.md",
    .kernel = "kernels/cu502_unchecked_kernel_launch",
    .subscriptions = cu502_kinds,
    .on_cursor = cu502_on_cursor,
};
