/* rule.h: the rule record, the one contract every rule in rules/ implements,
 * and the table of records (rules/registry.c) with its lookups.
 *
 * A rule never parses and never walks a translation unit itself: it names the
 * cursor kinds it wants (subscriptions) and the walker in analyzer/engine/walk.c calls
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

struct rule_ctx; /* defined in analyzer/engine/walk.h */

struct rule {
    const char *code;     /* permanent, never reused: "CU201" */
    const char *name;     /* kebab-case name of the bad pattern: "double-literal" */
    const char *summary;  /* one sentence */
    enum severity severity;
    const char *category; /* "correctness", "performance", "portability", "parser" */
    enum rule_scope scope;
    enum rule_status status;  /* stable: on by default; preview: only with --preview or
                                 when selected by its exact code or name */
    /* The precision measured on code the rule was not tuned on, with its
       source: "0.97 (frozen test set 2026-11, 31 findings read)"; NULL when
       not measured.  A rule earns stable only with a measured precision of at
       least 0.95 (README, Rules). */
    const char *precision;
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
/* "note", "warning", "error" (any case) as an enum severity, or -1. */
int severity_parse(const char *s);
const char *rule_scope_name(enum rule_scope s);
const char *rule_status_name(enum rule_status s);
/* The embedded Markdown doc of a rule, or NULL. */
const char *rule_doc_text(const struct rule *r);

/* ---- the table of every rule (defined in rules/registry.c) ---- */

extern const struct rule *const rule_registry[];
extern const size_t rule_registry_len;

/* The pseudo-rule for "file could not be fully parsed" notes. */
extern const struct rule rule_cu000;
/* The pseudo-rule for unmatched NOLINTBEGIN/NOLINTEND markers. */
extern const struct rule rule_cu001;

/* Lookup by code ("CU201") or name ("double-literal"), case-insensitive. */
const struct rule *registry_find(const char *code_or_name);
/* Whether a --select/--ignore/config selector names r: ALL, the code or the
   name (any case), a code prefix ("CU2"), or a glob over code or name. */
bool registry_selector_matches(const char *selector, const struct rule *r);
/* Whether a selector names r exactly (its code or its name, any case): the
   one kind of selector that turns on a preview rule without --preview. */
bool registry_selector_exact(const char *selector, const struct rule *r);
/* Whether a selector names at least one rule (a typo names none). */
bool registry_selector_known(const char *selector);
/* Validates the table (unique codes/names, code format, docs present).
   Returns NULL when fine, else a static message. */
const char *registry_check(void);

#endif
