/* cu401_shared_bank_conflict.c: the CU401 shared-bank-conflict rule (being written). */
#include "rule.h"

const struct rule rule_cu401 = {
    .code = "CU401",
    .name = "shared-bank-conflict",
    .summary = "A shared-memory array is accessed with a stride that puts several lanes of a warp in one bank.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_KERNEL,
    .status = STATUS_PREVIEW,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU401-shared-bank-conflict.md",
    .kernel = NULL,
};
