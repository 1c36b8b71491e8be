/* test_coalesce.c: unit tests for the warp sector model of
 * analyzer/analysis/coalesce.c: strides, widths, broadcasts, block shapes
 * narrower than a warp, and the best alignment. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/coalesce.h"

static struct coalesce_result run(long long tx, long long ty, long long width, long long bx,
                                  long long by)
{
    struct coalesce_pattern p;
    memset(&p, 0, sizeof p);
    p.tid_bytes[0] = tx;
    p.tid_bytes[1] = ty;
    p.width = width;
    p.block[0] = bx;
    p.block[1] = by;
    p.block[2] = bx ? 1 : 0;
    struct coalesce_result r;
    coalesce_sectors(&p, &r);
    return r;
}

static void test_float_strides(void **state)
{
    (void)state;
    static const struct {
        long long stride_elems;
        unsigned sectors;
    } cases[] = {{1, 4}, {2, 8}, {4, 16}, {8, 32}, {32, 32}, {-1, 4}, {3, 12}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct coalesce_result r = run(4 * cases[i].stride_elems, 0, 4, 0, 0);
        assert_int_equal(r.sectors, cases[i].sectors);
        assert_int_equal(r.min_sectors, 4);
        assert_int_equal(r.lanes, 32);
    }
}

static void test_widths(void **state)
{
    (void)state;
    struct coalesce_result r = run(16, 0, 16, 0, 0); /* float4, unit stride */
    assert_int_equal(r.sectors, 16);
    assert_int_equal(r.min_sectors, 16);
    r = run(16, 0, 8, 0, 0); /* double, stride 2 */
    assert_int_equal(r.sectors, 16);
    assert_int_equal(r.min_sectors, 8);
    r = run(1, 0, 1, 0, 0); /* char, unit stride: one sector at the best alignment */
    assert_int_equal(r.sectors, 1);
    assert_int_equal(r.min_sectors, 1);
    r = run(0, 0, 4, 0, 0); /* broadcast */
    assert_int_equal(r.sectors, 1);
    assert_int_equal(r.min_sectors, 1);
}

static void test_block_shapes(void **state)
{
    (void)state;
    /* 16x16 blocks, a row of 16 floats per threadIdx.y: two rows per warp */
    struct coalesce_result r = run(4, 4096, 4, 16, 16);
    assert_int_equal(r.sectors, 4);
    assert_int_equal(r.min_sectors, 4);
    /* a column: threadIdx.x 4 KiB apart, threadIdx.y 4 bytes */
    r = run(4096, 4, 4, 16, 16);
    assert_int_equal(r.sectors, 16);
    assert_int_equal(r.min_sectors, 4);
    /* 8 threads a block: a partial warp */
    r = run(8, 0, 4, 8, 1);
    assert_int_equal(r.lanes, 8);
    assert_int_equal(r.sectors, 2);
    assert_int_equal(r.min_sectors, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_strides),
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_block_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
