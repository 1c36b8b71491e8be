/* cu101_divergent_syncthreads.c: the CU101 divergent-syncthreads rule (being written). */
#include "rule.h"

const struct rule rule_cu101 = {
    .code = "CU101",
    .name = "divergent-syncthreads",
    .summary = "A block-wide barrier is reached under control flow that may differ between threads of a block.",
    .severity = SEV_ERROR,
    .category = "correctness",
    .scope = SCOPE_KERNEL,
    .status = STATUS_PREVIEW,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU101-divergent-syncthreads.md",
    .kernel = NULL,
};
