/* fuzz_baseline.c: reading a --baseline file (JSON, possibly hand-edited or
 * from another version) and filtering a run's findings with it. */
#include "fuzz_common.h"
#include "core/result.h"
#include "core/rule.h"
#include "output/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_quiet();
    char *path = fuzz_write("baseline.json", data, size);
    char *src = fuzz_write("k.cu", "__global__ void k(float *a)\n{\n    a[0] = 1.0;\n}\n", 46);
    struct lint_run run;
    memset(&run, 0, sizeof run);
    run.n_files = 1;
    run.files = xcalloc(1, sizeof *run.files);
    run.files[0].path = xstrdup(src);
    for (unsigned l = 1; l <= 5; l++) {
        struct diag *d = diag_new(&run.diags, rule_registry[l % rule_registry_len], src, l, 1, l, 2, xstrdup("m"));
        d->function = l & 1 ? xstrdup("k") : NULL;
        diag_copy(&run.files[0].diags, d);
    }
    size_t hidden = 0, stale = 0;
    char *error = NULL;
    if (baseline_filter(path, &run, &hidden, &stale, &error) != 0) free(error);
    lint_run_release(&run);
    free(path);
    free(src);
    return 0;
}
