/* cu301_unsigned_loop_counter.c: the CU301 unsigned-loop-counter rule (being written). */
#include "rule.h"

const struct rule rule_cu301 = {
    .code = "CU301",
    .name = "unsigned-loop-counter",
    .summary = "A 32-bit unsigned loop counter used in address arithmetic blocks strength reduction.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU301-unsigned-loop-counter.md",
    .kernel = NULL,
};
