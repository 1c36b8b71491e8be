/* test_constprop.c: unit tests for constant propagation
 * (analyzer/analysis/constprop.c) and for the unroll pragmas and trip counts
 * built on it (analyzer/analysis/unroll.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/constprop.h"
#include "analysis/unroll.h"
#include "clang/astutil.h"

static const char *const PRELUDE =
    "#include <__clang_cuda_builtin_vars.h>\n"
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "__device__ void use(double);\n";

#define MAX_MARKS 8

struct parsed {
    CXIndex index;
    CXTranslationUnit tu;
    const char *fn_name;
    CXCursor fn;
    CXCursor uses[MAX_MARKS]; /* the argument of each use() in fn */
    unsigned n_uses;
    CXCursor loops[MAX_MARKS];
    unsigned n_loops;
    struct analysis_cache *analyses;
};

static enum CXChildVisitResult find_in_fn(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct parsed *p = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt && p->n_loops < MAX_MARKS) p->loops[p->n_loops++] = c;
    if (k == CXCursor_CallExpr && p->n_uses < MAX_MARKS) {
        char *name = ast_spelling(c);
        if (strcmp(name, "use") == 0) p->uses[p->n_uses++] = clang_Cursor_getArgument(c, 0);
        free(name);
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct parsed *p = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && clang_isCursorDefinition(c)) {
        char *name = ast_spelling(c);
        if (strcmp(name, p->fn_name) == 0) p->fn = c;
        free(name);
    }
    return CXChildVisit_Continue;
}

static void parse(struct parsed *p, const char *fn_name, const char *body)
{
    memset(p, 0, sizeof *p);
    size_t len = strlen(PRELUDE) + strlen(body) + 1;
    char *src = malloc(len);
    snprintf(src, len, "%s%s", PRELUDE, body);
    struct CXUnsavedFile file = {"test_constprop.cu", src, (unsigned long)strlen(src)};
    const char *args[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                          "--cuda-gpu-arch=sm_90", "-std=c++17", "-w"};
    p->index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(p->index, "test_constprop.cu", args, 8, &file, 1,
                                                       CXTranslationUnit_DetailedPreprocessingRecord,
                                                       &p->tu);
    assert_int_equal(err, CXError_Success);
    p->fn_name = fn_name;
    p->fn = clang_getNullCursor();
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find, p);
    assert_false(clang_Cursor_isNull(p->fn));
    clang_visitChildren(p->fn, find_in_fn, p);
    free(src);
    p->analyses = analysis_cache_new(p->tu);
}

static void release(struct parsed *p)
{
    analysis_cache_free(p->analyses);
    clang_disposeTranslationUnit(p->tu);
    ast_file_contents_forget(); /* the next unit may reuse its address */
    clang_disposeIndex(p->index);
}

static struct constprop *facts(struct parsed *p)
{
    struct constprop *cp = analysis_get(p->analyses, &constprop_analysis, p->fn);
    assert_non_null(cp);
    return cp;
}

static void locals_and_consts(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "k",
          "enum { kTaps = 4 };\n"
          "#define GAIN 3.0f\n"
          "__global__ void k(float *in, int n) {\n"
          "  const float a = 2.0f;\n"
          "  float b = a * GAIN;\n"
          "  int c = 5; c += n;\n"
          "  float d = 1.0f; float *q = &d; *q = in[0];\n"
          "  int e = kTaps * 2;\n"
          "  use(b);\n"     /* 6 */
          "  use(c);\n"     /* assigned again */
          "  use(d);\n"     /* address taken */
          "  use(e + 1);\n" /* 9 */
          "  use(in[0]);\n" /* a load */
          "  use(n);\n"     /* a kernel's parameter */
          "}\n");
    assert_int_equal(p.n_uses, 6);
    struct constprop *cp = facts(&p);
    struct constval v;
    assert_true(constprop_value(cp, p.uses[0], &v));
    assert_int_equal(v.kind, CONSTVAL_FLOAT);
    assert_true(v.f == 6.0);
    assert_false(constprop_value(cp, p.uses[1], &v));
    assert_false(constprop_value(cp, p.uses[2], &v));
    assert_true(constprop_value(cp, p.uses[3], &v));
    assert_true(v.f == 9.0); /* converted to double for use() */
    assert_false(constprop_value(cp, p.uses[4], &v));
    assert_false(constprop_value(cp, p.uses[5], &v));
    /* without the function's facts only what clang folds counts */
    assert_false(constprop_value(NULL, p.uses[0], &v));
    release(&p);
}

static void parameters(void **state)
{
    (void)state;
    struct parsed p;
    const char *src =
        "__device__ float same(float s) { use(s); return s; }\n"
        "__device__ float differ(float s) { use(s); return s; }\n"
        "__device__ float addressed(float s) { use(s); return s; }\n"
        "__global__ void k(float *o) {\n"
        "  o[0] = same(2.0f) + same(2.0f) + differ(1.0f) + differ(3.0f) + addressed(1.0f);\n"
        "  float (*f)(float) = addressed; o[1] = f(o[2]);\n"
        "}\n";
    parse(&p, "same", src);
    struct constval v;
    assert_true(constprop_value(facts(&p), p.uses[0], &v));
    assert_true(v.f == 2.0);
    release(&p);
    parse(&p, "differ", src);
    assert_false(constprop_value(facts(&p), p.uses[0], &v));
    release(&p);
    parse(&p, "addressed", src);
    assert_false(constprop_value(facts(&p), p.uses[0], &v));
    release(&p);
}

static void template_parameters(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "k", "template <int N> __global__ void k(float *o) { use(N * 2); }\n");
    struct constval v;
    assert_true(constprop_value(facts(&p), p.uses[0], &v));
    assert_int_equal(v.kind, CONSTVAL_UNKNOWN_VALUE);
    release(&p);
}

static void pragmas_and_trips(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "k",
          "constexpr int kTile = 8;\n"
          "__global__ void k(float *o, int n) {\n"
          "#pragma unroll(8)\n"
          "  for (int j = 0; j < 8; j++) o[j] = 0;\n"        /* 0: count 8, trip 8: fully */
          "#pragma unroll 4\n"
          "  for (int j = 0; j < 32; j += 1) o[j] = 0;\n"    /* 1: count below the trip: cannot tell */
          "  // a comment between\n"
          "#pragma unroll kTile\n"
          "  for (int j = 0; j <= 7; ++j) o[j] = 0;\n"       /* 2: constexpr count */
          "#pragma unroll 1\n"
          "  for (int j = 0; j < 8; j++) o[j] = 0;\n"        /* 3: kept */
          "  for (int j = 40; j > 0; j -= 2) o[j] = 0;\n"    /* 4: 20 trips, no pragma: fully */
          "  for (int j = 0; j < n; j++) o[j] = 0;\n"        /* 5: run-time trip count */
          "  _Pragma(\"unroll\") for (int j = 0; j < 64; j++) o[j] = 0;\n" /* 6 */
          "  for (int j = 0; j < 40; j++) o[j] = 0;\n"       /* 7: above the threshold */
          "}\n");
    assert_int_equal(p.n_loops, 8);
    struct constprop *cp = facts(&p);
    long long trip;
    assert_true(unroll_trip_count(cp, p.loops[4], &trip));
    assert_int_equal(trip, 20);
    assert_true(unroll_trip_count(cp, p.loops[2], &trip));
    assert_int_equal(trip, 8);
    assert_false(unroll_trip_count(cp, p.loops[5], &trip));
    struct unroll_pragma pr;
    unroll_pragma_of(p.tu, p.fn, p.loops[2], &pr);
    assert_int_equal(pr.hint, UNROLL_COUNT);
    assert_int_equal(pr.count, 8);
    unroll_pragma_of(p.tu, p.fn, p.loops[6], &pr);
    assert_int_equal(pr.hint, UNROLL_FULL);
    unroll_pragma_of(p.tu, p.fn, p.loops[4], &pr);
    assert_int_equal(pr.hint, UNROLL_NONE);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[0]), UNROLL_FULLY);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[1]), UNROLL_CANNOT_TELL);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[2]), UNROLL_FULLY);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[3]), UNROLL_KEPT);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[4]), UNROLL_FULLY);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[5]), UNROLL_CANNOT_TELL);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[6]), UNROLL_FULLY);
    assert_int_equal(unroll_loop(p.tu, p.fn, cp, p.loops[7]), UNROLL_CANNOT_TELL);
    release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(locals_and_consts),
        cmocka_unit_test(parameters),
        cmocka_unit_test(template_parameters),
        cmocka_unit_test(pragmas_and_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
