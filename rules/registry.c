/* registry.c: the table of every rule record, in code order (declared in
 * analyzer/core/rule.h, whose lookups and start-up checks run over it).
 * Adding a rule means adding one line here. */
#include "core/rule.h"

extern const struct rule rule_cu101;
extern const struct rule rule_cu102;
extern const struct rule rule_cu103;
extern const struct rule rule_cu104;
extern const struct rule rule_cu201;
extern const struct rule rule_cu202;
extern const struct rule rule_cu203;
extern const struct rule rule_cu204;
extern const struct rule rule_cu301;
extern const struct rule rule_cu401;
extern const struct rule rule_cu402;
extern const struct rule rule_cu403;
extern const struct rule rule_cu501;
extern const struct rule rule_cu502;
extern const struct rule rule_cu503;
extern const struct rule rule_cu504;
extern const struct rule rule_cu505;
extern const struct rule rule_cu506;
extern const struct rule rule_cu507;
extern const struct rule rule_cu508;
extern const struct rule rule_cu601;

const struct rule rule_cu000 = {
    .code = "CU000",
    .name = "parse-error",
    .summary = "The file could not be fully parsed; findings in it may be incomplete.",
    .severity = SEV_NOTE,
    .category = "parser",
    .scope = SCOPE_ANY,
    .status = STATUS_STABLE,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU000-parse-error.md",
    .kernel = NULL,
};

const struct rule rule_cu001 = {
    .code = "CU001",
    .name = "unmatched-nolint",
    .summary = "A NOLINTBEGIN has no matching NOLINTEND, or the other way round.",
    .severity = SEV_WARNING,
    .category = "suppression",
    .scope = SCOPE_ANY,
    .status = STATUS_STABLE,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU001-unmatched-nolint.md",
    .kernel = NULL,
};

const struct rule *const rule_registry[] = {
    &rule_cu000,
    &rule_cu001,
    &rule_cu101,
    &rule_cu102,
    &rule_cu103,
    &rule_cu104,
    &rule_cu201,
    &rule_cu202,
    &rule_cu203,
    &rule_cu204,
    &rule_cu301,
    &rule_cu401,
    &rule_cu402,
    &rule_cu403,
    &rule_cu501,
    &rule_cu502,
    &rule_cu503,
    &rule_cu504,
    &rule_cu505,
    &rule_cu506,
    &rule_cu507,
    &rule_cu508,
    &rule_cu601,
};
const size_t rule_registry_len = sizeof rule_registry / sizeof rule_registry[0];
