/* test_ppcond.c: unit tests of the preprocessor-arm reader (clang/ppcond.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "clang/ppcond.h"

static size_t offset_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    assert_non_null(p);
    return (size_t)(p - text);
}

static void test_wrapper_arms(void **state)
{
    (void)state;
    const char *t = "#if HAVE_SYNC\n"
                    "int a() { return __shfl_down_sync(0xffffffff, v, 1); }\n"
                    "#else\n"
                    "int b() { return __shfl_down(v, 1); }\n"
                    "#endif\n"
                    "int c() { return __shfl_down(v, 1); }\n";
    size_t n = strlen(t);
    /* the mask-less call in the #else arm: the #if arm has the _sync form */
    assert_true(ppcond_other_arm_mentions(t, n, offset_of(t, "int b()") + 17, "__shfl_down_sync", NULL));
    /* outside any group: nothing to compare with */
    assert_false(ppcond_other_arm_mentions(t, n, offset_of(t, "int c()") + 17, "__shfl_down_sync", NULL));
    /* the arm itself does not count */
    assert_false(ppcond_other_arm_mentions(t, n, offset_of(t, "int a()"), "__shfl_down_sync_x", NULL));
}

static void test_nesting_and_comments(void **state)
{
    (void)state;
    const char *t = "#ifdef NEW\n"
                    "  x = __ballot_sync(m, p);\n"
                    "#elif defined(OLD)\n"
                    "# if ARCH > 3\n"
                    "  y = __ballot(p);\n"
                    "# endif\n"
                    "#else\n"
                    "  // __any_sync would do here\n"
                    "#endif\n"
                    "#if A\n"
                    "  z = __any(p);\n"
                    "#else\n"
                    "  /* __any_sync */ w = 0;\n"
                    "#endif\n";
    size_t n = strlen(t);
    /* nested: the outer group's first arm has the _sync form */
    assert_true(ppcond_other_arm_mentions(t, n, offset_of(t, "y = "), "__ballot_sync", NULL));
    /* a mention in a comment is not code */
    assert_false(ppcond_other_arm_mentions(t, n, offset_of(t, "z = "), "__any_sync", NULL));
    /* a whole identifier only */
    assert_false(ppcond_other_arm_mentions(t, n, offset_of(t, "y = "), "__ballot_syn", NULL));
}

static void test_known_conditions(void **state)
{
    (void)state;
    const char *t = "#if __CUDACC_VER_MAJOR__ >= 9\n"
                    "  v = __shfl_down(v, 16);\n"
                    "#else\n"
                    "  v = __shfl_down_sync(m, v, 16);\n"
                    "#endif\n";
    size_t n = strlen(t);
    static const char *const known[] = {"__CUDACC_VER_MAJOR__", NULL};
    /* the parse evaluated this condition as nvcc does: its arm is the one compiled */
    assert_false(ppcond_other_arm_mentions(t, n, offset_of(t, "v = __shfl_down("), "__shfl_down_sync", known));
    assert_true(ppcond_other_arm_mentions(t, n, offset_of(t, "v = __shfl_down("), "__shfl_down_sync", NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrapper_arms),
        cmocka_unit_test(test_nesting_and_comments),
        cmocka_unit_test(test_known_conditions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
