/* test_ptx_lines.c: unit tests of the per-line PTX reader (codegen/ptx_lines.c)
 * on a saved, hand-written module (tests/data/codegen/saved.ptx). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "codegen/ptx_lines.h"

static char *saved_ptx(void)
{
    const char *root = getenv("CUDALINT_SOURCE_DIR");
    char *path = path_join(root && *root ? root : ".", "tests/data/codegen/saved.ptx");
    char *text = file_read_text(path);
    free(path);
    assert_non_null(text);
    return text;
}

static void test_lines(void **state)
{
    (void)state;
    char *ptx = saved_ptx();
    struct ptx_lines pl;
    assert_true(ptx_lines_read(ptx, "/src/k.cu", &pl));

    /* line 4: one f64 multiply between two conversions, a 16-byte global load */
    const struct ptx_line *l4 = ptx_lines_find(&pl, 4);
    assert_non_null(l4);
    assert_int_equal(l4->mix.instructions, 4);
    assert_int_equal(l4->mix.fp64_arith, 1);
    assert_int_equal(l4->mix.cvt_f64_f32, 1);
    assert_int_equal(l4->mix.cvt_f32_f64, 1);
    assert_int_equal(l4->global_accesses, 1);
    assert_int_equal(l4->global_widest_bytes, 16);

    /* line 7: the call spread over lines names its callee */
    const struct ptx_line *l7 = ptx_lines_find(&pl, 7);
    assert_non_null(l7);
    assert_int_equal(l7->n_calls, 1);
    assert_string_equal(l7->calls[0], "__internal_accurate_pow");
    assert_int_equal(l7->mix.instructions, 3); /* st.param, call.uni, ld.param */

    /* line 9: the header's inlined division counts here, with its own code */
    const struct ptx_line *l9 = ptx_lines_find(&pl, 9);
    assert_non_null(l9);
    assert_int_equal(l9->mix.fdiv, 1);
    assert_int_equal(l9->shared_vector, 1);
    assert_int_equal(l9->shared_vector_bytes, 8);
    assert_int_equal(l9->shared_scalar, 0);
    assert_int_equal(l9->mix.st_local, 1);
    assert_int_equal(l9->global_accesses, 1);
    assert_int_equal(l9->global_widest_bytes, 4);
    assert_int_equal(l9->mix.instructions, 4);

    /* lines without code, and the header's own lines, have no record */
    assert_null(ptx_lines_find(&pl, 5));
    assert_null(ptx_lines_find(&pl, 100));
    assert_null(ptx_lines_find(&pl, 50));

    /* the functions: the kernel and the pow routine (declared, then defined) */
    assert_int_equal(pl.n_functions, 2);
    int kernel = strcmp(pl.functions[0].name, "_Z1kPf") == 0 ? 0 : 1;
    assert_string_equal(pl.functions[kernel].name, "_Z1kPf");
    assert_true(pl.functions[kernel].entry);
    assert_int_equal(pl.functions[kernel].instructions, 14);
    assert_string_equal(pl.functions[1 - kernel].name, "__internal_accurate_pow");
    assert_int_equal(pl.functions[1 - kernel].instructions, 4);
    assert_int_equal(l9->n_functions, 1);
    assert_int_equal(l9->functions[0], kernel);

    /* ptxas -v's stack frames */
    assert_int_equal(pl.functions[kernel].stack_frame, -1);
    ptx_lines_add_ptxas(&pl, "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                             "ptxas info    : Function properties for _Z1kPf\n"
                             "    32 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                             "ptxas info    : Function properties for __internal_accurate_pow\n"
                             "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n");
    assert_int_equal(pl.functions[kernel].stack_frame, 32);
    assert_int_equal(pl.functions[1 - kernel].stack_frame, 0);
    ptx_lines_release(&pl);

    /* another source file: nothing of this module is its */
    assert_false(ptx_lines_read(ptx, "/src/other.cu", &pl));
    ptx_lines_release(&pl);
    free(ptx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
