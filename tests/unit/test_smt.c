/* test_smt.c: unit tests for the formula arena and its solver back end
 * (analyzer/analysis/smt.c, smt_z3.c): folding and hash-consing, two-thread
 * questions with known answers, and a time-out that answers unknown. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/smt_solve.h"

static smt_id c32(struct smt_arena *a, uint64_t v)
{
    return smt_const(a, 32, v);
}

static smt_id bin(struct smt_arena *a, enum smt_op op, smt_id x, smt_id y)
{
    return smt_bin(a, op, x, y);
}

static smt_id and3(struct smt_arena *a, smt_id x, smt_id y, smt_id z)
{
    return bin(a, SMT_BAND, bin(a, SMT_BAND, x, y), z);
}

static void test_folding(void **state)
{
    (void)state;
    struct smt_arena *a = smt_arena_new();
    uint64_t v;
    assert_true(smt_is_const(a, bin(a, SMT_ADD, c32(a, 0xffffffffu), c32(a, 2)), &v));
    assert_int_equal(v, 1); /* 32-bit wrap */
    assert_true(smt_is_const(a, bin(a, SMT_SDIV, c32(a, (uint32_t)-7), c32(a, 2)), &v));
    assert_int_equal(v, (uint32_t)-3); /* truncating */
    assert_true(smt_is_const(a, bin(a, SMT_SREM, c32(a, (uint32_t)-7), c32(a, 2)), &v));
    assert_int_equal(v, (uint32_t)-1);
    assert_true(smt_is_const(a, bin(a, SMT_SLT, c32(a, (uint32_t)-1), c32(a, 0)), &v));
    assert_int_equal(v, 1);
    assert_true(smt_is_const(a, bin(a, SMT_ULT, c32(a, (uint32_t)-1), c32(a, 0)), &v));
    assert_int_equal(v, 0);
    smt_id x = smt_sym(a, 32, "x"), y = smt_sym(a, 32, "y");
    assert_int_equal(smt_sym(a, 32, "x"), x); /* hash-consed */
    assert_int_equal(bin(a, SMT_ADD, x, y), bin(a, SMT_ADD, y, x));
    assert_int_equal(bin(a, SMT_MUL, x, c32(a, 1)), x);
    assert_true(smt_is_const(a, smt_ne(a, x, x), &v));
    assert_int_equal(v, 0);
    assert_int_equal(smt_check(a, smt_ne(a, x, x), SMT_BUDGET_MS, NULL), SMT_UNSAT);
    assert_int_equal(bin(a, SMT_ADD, x, smt_const(a, 64, 1)), 0); /* widths differ */
    smt_arena_free(a);
}

/* "if (i >= n) return;" with i = blockIdx.x * 256 + threadIdx.x: two
   threads of one block can disagree. */
static void test_early_return_sat(void **state)
{
    (void)state;
    struct smt_arena *a = smt_arena_new();
    smt_id bid = smt_sym(a, 32, "bid"), n = smt_sym(a, 32, "n");
    smt_id t1 = smt_sym(a, 32, "t1"), t2 = smt_sym(a, 32, "t2");
    smt_id i1 = bin(a, SMT_ADD, bin(a, SMT_MUL, bid, c32(a, 256)), t1);
    smt_id i2 = bin(a, SMT_ADD, bin(a, SMT_MUL, bid, c32(a, 256)), t2);
    smt_id differ = smt_ne(a, bin(a, SMT_SLE, n, i1), bin(a, SMT_SLE, n, i2));
    smt_id q = and3(a, bin(a, SMT_ULT, t1, c32(a, 256)), bin(a, SMT_ULT, t2, c32(a, 256)), differ);
    struct smt_model m;
    assert_int_equal(smt_check(a, q, SMT_BUDGET_MS, &m), SMT_SAT);
    uint64_t v1, v2, vn, vb;
    assert_true(smt_model_value(&m, "t1", &v1));
    assert_true(smt_model_value(&m, "t2", &v2));
    assert_true(smt_model_value(&m, "n", &vn));
    assert_true(smt_model_value(&m, "bid", &vb));
    /* The witness really disagrees. */
    int32_t g1 = (int32_t)(uint32_t)(vb * 256 + v1), g2 = (int32_t)(uint32_t)(vb * 256 + v2);
    assert_true(((int32_t)vn <= g1) != ((int32_t)vn <= g2));
    /* The same question again comes from the cache. */
    struct smt_stats before, after;
    smt_stats_get(&before);
    assert_int_equal(smt_check(a, q, SMT_BUDGET_MS, NULL), SMT_SAT);
    smt_stats_get(&after);
    assert_int_equal(after.cached, before.cached + 1);
    assert_int_equal(after.queries, before.queries);
    smt_arena_free(a);
}

/* The warp id (tx + 16*ty) >> 5 in a 16x16 block is the same in two lanes of
   one warp (same linear id >> 5). */
static void test_warp_id_unsat(void **state)
{
    (void)state;
    struct smt_arena *a = smt_arena_new();
    smt_id tx1 = smt_sym(a, 32, "tx1"), ty1 = smt_sym(a, 32, "ty1");
    smt_id tx2 = smt_sym(a, 32, "tx2"), ty2 = smt_sym(a, 32, "ty2");
    smt_id sixteen = c32(a, 16), five = c32(a, 5);
    smt_id l1 = bin(a, SMT_ADD, tx1, bin(a, SMT_MUL, sixteen, ty1));
    smt_id l2 = bin(a, SMT_ADD, tx2, bin(a, SMT_MUL, sixteen, ty2));
    smt_id range = bin(a, SMT_BAND, and3(a, bin(a, SMT_ULT, tx1, sixteen), bin(a, SMT_ULT, ty1, sixteen),
                                         bin(a, SMT_ULT, tx2, sixteen)),
                       bin(a, SMT_ULT, ty2, sixteen));
    smt_id same_warp = bin(a, SMT_EQ, bin(a, SMT_LSHR, l1, five), bin(a, SMT_LSHR, l2, five));
    smt_id differ = smt_ne(a, bin(a, SMT_LSHR, l1, five), bin(a, SMT_LSHR, l2, five));
    assert_int_equal(smt_check(a, and3(a, range, same_warp, differ), SMT_BUDGET_MS, NULL), SMT_UNSAT);
    /* threadIdx.y alone is not: two rows share a warp. */
    smt_id ydiff = smt_ne(a, ty1, ty2);
    assert_int_equal(smt_check(a, and3(a, range, same_warp, ydiff), SMT_BUDGET_MS, NULL), SMT_SAT);
    smt_arena_free(a);
}

/* Factoring a 64-bit semiprime: no answer within a millisecond. */
static void test_timeout_unknown(void **state)
{
    (void)state;
    struct smt_arena *a = smt_arena_new();
    smt_id x = smt_sym(a, 64, "x"), y = smt_sym(a, 64, "y");
    smt_id one = smt_const(a, 64, 1), lim = smt_const(a, 64, 0xffffffffull);
    smt_id q = bin(a, SMT_EQ, bin(a, SMT_MUL, x, y), smt_const(a, 64, 18446744030759878681ull));
    q = bin(a, SMT_BAND, q, and3(a, bin(a, SMT_ULT, one, x), bin(a, SMT_ULT, one, y), bin(a, SMT_ULE, x, lim)));
    q = bin(a, SMT_BAND, q, bin(a, SMT_ULE, y, lim));
    struct smt_stats before, after;
    smt_stats_get(&before);
    assert_int_equal(smt_check(a, q, 1, NULL), SMT_UNKNOWN);
    smt_stats_get(&after);
    assert_int_equal(after.unknown, before.unknown + 1);
    smt_arena_free(a);
}

/* Shared products abstracted: a question about two threads that does not
   need the product's value stays unsatisfiable; one that does becomes
   satisfiable (the abstraction only ever admits more models); a product
   that reads a thread's symbol is kept. */
static void test_abstract_shared(void **state)
{
    (void)state;
    struct smt_arena *a = smt_arena_new();
    smt_id b = smt_sym(a, 32, "blockIdx.x"), d = smt_sym(a, 32, "blockDim.x");
    smt_id t1 = smt_sym(a, 32, "threadIdx.x#1"), t2 = smt_sym(a, 32, "threadIdx.x#2");
    smt_id base = bin(a, SMT_MUL, b, d);
    smt_id x1 = bin(a, SMT_ADD, base, t1), x2 = bin(a, SMT_ADD, base, t2);
    /* two different threads, the same global index */
    smt_id q = bin(a, SMT_BAND, smt_ne(a, t1, t2), bin(a, SMT_EQ, x1, x2));
    smt_id qa = smt_abstract_shared(a, q);
    assert_int_not_equal(qa, q);
    smt_id syms[8];
    unsigned n = smt_symbols(a, qa, syms, 8), found = 0;
    for (unsigned i = 0; i < n; i++) {
        const char *nm = smt_node(a, syms[i])->name;
        assert_string_not_equal(nm, "blockIdx.x"); /* only inside the product */
        found += !strncmp(nm, "$nl@", 4);
    }
    assert_int_equal(found, 1);
    assert_int_equal(smt_check(a, qa, SMT_BUDGET_MS, NULL), SMT_UNSAT);
    /* blockIdx.x * blockDim.x == 7 with 2 and 3: impossible, but not once
       the product is a value of its own. */
    smt_id r = and3(a, bin(a, SMT_EQ, base, c32(a, 7)), bin(a, SMT_EQ, b, c32(a, 2)), bin(a, SMT_EQ, d, c32(a, 3)));
    assert_int_equal(smt_check(a, r, SMT_BUDGET_MS, NULL), SMT_UNSAT);
    assert_int_equal(smt_check(a, smt_abstract_shared(a, r), SMT_BUDGET_MS, NULL), SMT_SAT);
    /* a product with a thread's index in it stays */
    smt_id per = bin(a, SMT_EQ, bin(a, SMT_MUL, t1, d), c32(a, 64));
    assert_int_equal(smt_abstract_shared(a, per), per);
    smt_arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abstract_shared),
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_early_return_sat),
        cmocka_unit_test(test_warp_id_unsat),
        cmocka_unit_test(test_timeout_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
