/* fuzz_suppress.c: NOLINT, NOLINTNEXTLINE and NOLINTBEGIN/END comments in a
 * source file, and matching findings on every line against them. */
#include "fuzz_common.h"
#include "core/diag.h"
#include "core/rule.h"
#include "engine/suppress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct diag_list problems = {0};
    struct suppressions *s = suppress_scan("f.cu", text, size, &problems);
    unsigned lines = 1;
    for (size_t i = 0; i < size; i++) lines += text[i] == '\n';
    struct diag_list dl = {0};
    for (unsigned l = 0; l <= lines + 1 && l < 4096; l++)
        for (size_t r = 0; r < rule_registry_len; r++) {
            struct diag *d = diag_new(&dl, rule_registry[r], "f.cu", l, 1, l, 2, xstrdup("m"));
            (void)suppress_matches(s, d);
        }
    diag_list_release(&dl);
    diag_list_release(&problems);
    suppress_free(s);
    return 0;
}
