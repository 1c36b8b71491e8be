/* registry.h: the table of every rule record, checked at start-up. */
#ifndef CUDALINT_REGISTRY_H
#define CUDALINT_REGISTRY_H

#include "core/rule.h"

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
/* Validates the table (unique codes/names, code format, docs present).
   Returns NULL when fine, else a static message. */
const char *registry_check(void);

#endif
