/* fuzz_fix.c: applying fix-its (fixapply.c) with arbitrary, overlapping and
 * out-of-range offsets to an arbitrary text, then the unified diff of the
 * result (fixwrite.c, compiled in for its static diff).  The input is the
 * text, then (after "@@@") the fixes: per finding a count byte, per fix two
 * offsets of 4 bytes and a replacement length byte. */
#include "fuzz_common.h"
#include "../../analyzer/fix/fixwrite.c"
#include "core/rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_quiet();
    struct fuzz_in in = {data, size};
    size_t len;
    char *text = fuzz_part(&in, &len);
    struct diag_list dl = {0};
    for (int n = 0; n < 32 && in.left; n++) {
        struct diag *d = diag_new(&dl, rule_registry[n % rule_registry_len], "f.cu", 1, 1, 1, 2, xstrdup("m"));
        unsigned nf = fuzz_u8(&in) % 4;
        for (unsigned k = 0; k < nf; k++) {
            unsigned a = fuzz_u32(&in), b = fuzz_u32(&in);
            /* Mostly within the text, sometimes anywhere. */
            if (!(a & 0x80000000u)) a = len ? a % (unsigned)(len + 1) : 0;
            if (!(b & 0x80000000u)) b = len ? b % (unsigned)(len + 1) : 0;
            size_t rl = fuzz_u8(&in);
            if (rl > in.left) rl = in.left;
            char *repl = xstrndup((const char *)in.p, rl);
            in.p += rl;
            in.left -= rl;
            diag_add_fix(d, (n & 7) == 7 ? "other.cu" : "f.cu", 1, 1, 1, 1, a, b, repl);
            free(repl);
        }
    }
    size_t out_len = 0, applied = 0, skipped = 0;
    char *out = fix_apply(text, len, "f.cu", &dl, &out_len, &applied, &skipped);
    if (out) {
        struct strbuf diff;
        sb_init(&diff);
        fixwrite_unified_diff(&diff, "f.cu", text, len, out, out_len);
        sb_release(&diff);
        free(out);
    }
    diag_list_release(&dl);
    free(text);
    return 0;
}
