/* cu201_double_literal.c: the CU201 double-literal rule (being written). */
#include "rule.h"

const struct rule rule_cu201 = {
    .code = "CU201",
    .name = "double-literal",
    .summary = "An unsuffixed floating literal makes float arithmetic in device code run in double precision.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU201-double-literal.md",
    .kernel = NULL,
};
