/* rule.h: the rule record, the one contract every rule in rules/ implements.
 *
 * A rule never parses and never walks a translation unit itself: it names the
 * cursor kinds it wants (subscriptions) and the walker in analyzer/walk.c calls
 * it for each such cursor found in the files being linted.  Everything the tool
 * says about a rule (--list-rules, --explain, SARIF metadata, the README table)
 * comes from this record. */
#ifndef CUDALINT_RULE_H
#define CUDALINT_RULE_H

#include "clang/clang_api.h"
#include <stdbool.h>
#include <stddef.h>

enum severity { SEV_NOTE = 0, SEV_WARNING = 1, SEV_ERROR = 2 };
enum rule_scope { SCOPE_KERNEL, SCOPE_DEVICE, SCOPE_HOST, SCOPE_ANY };
enum rule_status { STATUS_PREVIEW, STATUS_STABLE };

struct rule_ctx; /* defined in analyzer/walk.h */

struct rule {
    const char *code;     /* permanent, never reused: "CU201" */
    const char *name;     /* kebab-case name of the bad pattern: "double-literal" */
    const char *summary;  /* one sentence */
    enum severity severity;
    const char *category; /* "correctness", "performance", "portability", "parser" */
    enum rule_scope scope;
    enum rule_status status;
    int version;          /* bump when what it reports changes (feeds the cache key) */
    bool has_fix;
    const char *doc;      /* its doc, "rules/CU201-double-literal.md"; the text is
                             embedded in the binary: rule_doc_text() */
    const char *kernel;   /* kernels/<dir> holding the bad/fixed pair, NULL if none */

    /* Cursor kinds this rule wants; terminated by 0 (CXCursor_UnexposedDecl is 1). */
    const enum CXCursorKind *subscriptions;
    /* Called for each subscribed cursor in linted code. */
    void (*on_cursor)(struct rule_ctx *ctx, CXCursor cursor);
    /* Optional per-translation-unit state: created before the walk, finished
       (and freed) after it, e.g. to report aggregated findings. */
    void *(*tu_begin)(struct rule_ctx *ctx);
    void (*tu_end)(struct rule_ctx *ctx, void *state);
};

const char *severity_name(enum severity s);
const char *rule_scope_name(enum rule_scope s);
const char *rule_status_name(enum rule_status s);
/* The embedded Markdown doc of a rule, or NULL. */
const char *rule_doc_text(const struct rule *r);

#endif
