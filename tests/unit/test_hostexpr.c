/* test_hostexpr.c: unit tests for reading a launch's host relation back as
 * solver terms (analyzer/analysis/hostexpr.c): a grid rounded down refutes
 * a thread past the end, the same grid rounded up does not, an assert that
 * the length is a multiple of the tile does, and text that is damaged or
 * names terms the reader does not know says nothing rather than something
 * false. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis/hostexpr.h"
#include "analysis/smt_solve.h"

/* The kernel side: one parameter n, 1-D grid and block. */
struct side {
    smt_id n, gx, bx, tx, bdx;
    smt_id param[1];
    struct hostexpr_kernel k;
};

static void side_init(struct smt_arena *a, struct side *s)
{
    s->n = smt_sym(a, 32, "n@10");
    s->gx = smt_sym(a, 32, "gridDim.x");
    s->bx = smt_sym(a, 32, "blockIdx.x");
    s->tx = smt_sym(a, 32, "threadIdx.x#1");
    s->bdx = smt_sym(a, 32, "blockDim.x");
    s->param[0] = s->n;
    s->k.n_params = 1;
    s->k.param = s->param;
    s->k.grid[0] = s->gx;
    s->k.grid[1] = s->k.grid[2] = 0;
    s->k.block[0] = s->bdx;
    s->k.block[1] = s->k.block[2] = 0;
}

/* Can a launched thread of the relation's launch have row = bx*bdx + tx >= n? */
static enum smt_result past_the_end(const char *rel)
{
    struct smt_arena *a = smt_arena_new();
    struct side s;
    side_init(a, &s);
    smt_id facts = hostexpr_site_facts(a, rel, &s.k);
    assert_true(facts != 0);
    smt_id row = smt_bin(a, SMT_ADD, smt_bin(a, SMT_MUL, s.bx, s.bdx), s.tx);
    smt_id q = smt_bin(a, SMT_SLE, s.n, row);
    q = smt_bin(a, SMT_BAND, q, smt_bin(a, SMT_ULT, s.bx, s.gx));
    q = smt_bin(a, SMT_BAND, q, smt_bin(a, SMT_ULT, s.tx, s.bdx));
    q = smt_bin(a, SMT_BAND, q, smt_bin(a, SMT_SLE, smt_const(a, 32, 0), s.n));
    q = smt_bin(a, SMT_BAND, q, smt_bin(a, SMT_ULE, s.n, smt_const(a, 32, 1u << 20)));
    q = smt_bin(a, SMT_BAND, q, facts);
    enum smt_result r = smt_check_thorough(a, q, 1000, NULL);
    smt_arena_free(a);
    return r;
}

#define N_USR "(v 32 8:c:@F@f@n)"

static void test_grid_rounded_down(void **state)
{
    (void)state;
    /* k<<<n / 256, 256>>>(n) */
    assert_int_equal(past_the_end("(g (sdiv 32 " N_USR " (c 32 256)) (c 32 1) (c 32 1))(b (c 32 256) (c 32 1) (c 32 1))"
                                  "(a " N_USR ")(f)"),
                     SMT_UNSAT);
}

static void test_grid_rounded_up(void **state)
{
    (void)state;
    /* k<<<(n + 255) / 256, 256>>>(n) */
    const char *rel = "(g (sdiv 32 (add 32 " N_USR " (c 32 255)) (c 32 256)) (c 32 1) (c 32 1))"
                      "(b (c 32 256) (c 32 1) (c 32 1))(a " N_USR ")(f)";
    assert_int_equal(past_the_end(rel), SMT_SAT);
}

static void test_assert_multiple(void **state)
{
    (void)state;
    /* assert(n % 256 == 0); k<<<(n + 255) / 256, 256>>>(n) */
    const char *rel = "(g (sdiv 32 (add 32 " N_USR " (c 32 255)) (c 32 256)) (c 32 1) (c 32 1))"
                      "(b (c 32 256) (c 32 1) (c 32 1))(a " N_USR ")(f (eq (srem 32 " N_USR " (c 32 256)) (c 32 0)))";
    assert_int_equal(past_the_end(rel), SMT_UNSAT);
}

static void test_unknown_parts_say_nothing(void **state)
{
    (void)state;
    /* "_" parts, an operator the reader does not know, a damaged text: no
       constraint that could refute the pair. */
    assert_int_equal(past_the_end("(g _ _ _)(b _ _ _)(a _)(f)"), SMT_SAT);
    assert_int_equal(past_the_end("(g (frob 32 " N_USR ") (c 32 1) (c 32 1))(b (c 32 256) _ _)(a " N_USR ")(f)"),
                     SMT_SAT);
    assert_int_equal(past_the_end("(g (sdiv 32 " N_USR), SMT_SAT);
    assert_int_equal(past_the_end("(f (eq (v 32 999:x) (c 32 0)))"), SMT_SAT);
    assert_int_equal(past_the_end(""), SMT_SAT);
    struct smt_arena *a = smt_arena_new();
    struct side s;
    side_init(a, &s);
    uint64_t v;
    assert_true(smt_is_const(a, hostexpr_site_facts(a, NULL, &s.k), &v) && v == 1);
    smt_arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_rounded_down),
        cmocka_unit_test(test_grid_rounded_up),
        cmocka_unit_test(test_assert_multiple),
        cmocka_unit_test(test_unknown_parts_say_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
