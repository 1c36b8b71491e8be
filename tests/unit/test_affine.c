/* test_affine.c: unit tests for the affine view of index expressions
 * (analyzer/analysis/affine.c): folding of constants, locals, loop counters, lane and
 * warp ids, and the expressions it must refuse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/affine.h"
#include "clang/astutil.h"

/* Each test is a kernel `k` whose calls of use(...) hold the expressions to
   fold, in order.  clang's own CUDA built-in variables header gives the real
   threadIdx (x, y and z are properties there, as with the toolkit). */
static const char *const PRELUDE =
    "#include <__clang_cuda_builtin_vars.h>\n"
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __shared__ __attribute__((shared))\n"
    "__device__ void use(long long);\n"
    "__device__ int pick(int);\n";

struct parsed {
    CXIndex index;
    CXTranslationUnit tu;
    CXCursor kernel;
    CXCursor uses[16];
    unsigned n_uses;
};

static enum CXChildVisitResult find(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct parsed *p = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char *name = ast_spelling(c);
    if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && strcmp(name, "k") == 0 &&
        clang_isCursorDefinition(c))
        p->kernel = c;
    if (k == CXCursor_CallExpr && strcmp(name, "use") == 0 && p->n_uses < 16) {
        CXCursor kids[4];
        unsigned n = ast_children(c, kids, 4);
        if (n == 2) p->uses[p->n_uses++] = kids[1];
    }
    free(name);
    return CXChildVisit_Recurse;
}

static void parse(struct parsed *p, const char *body)
{
    memset(p, 0, sizeof *p);
    size_t len = strlen(PRELUDE) + strlen(body) + 1;
    char *src = malloc(len);
    snprintf(src, len, "%s%s", PRELUDE, body);
    struct CXUnsavedFile file = {"test_affine.cu", src, (unsigned long)strlen(src)};
    const char *args[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                          "--cuda-gpu-arch=sm_90", "-std=c++17", "-w"};
    p->index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(p->index, "test_affine.cu", args, 8, &file, 1,
                                                       CXTranslationUnit_None, &p->tu);
    assert_int_equal(err, CXError_Success);
    for (unsigned i = 0; i < clang_getNumDiagnostics(p->tu); i++) {
        CXDiagnostic d = clang_getDiagnostic(p->tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation);
            print_error("%s\n", clang_getCString(s));
            clang_disposeString(s);
            fail_msg("the test source does not parse");
        }
        clang_disposeDiagnostic(d);
    }
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find, p);
    assert_false(clang_Cursor_isNull(p->kernel));
    free(src);
}

static void release(struct parsed *p)
{
    clang_disposeTranslationUnit(p->tu);
    ast_file_contents_forget(); /* the next unit may reuse its address */
    clang_disposeIndex(p->index);
}

/* Folds use #i in the kernel, with the analyses from a cache of their own
   (as the engine builds them, without a walk). */
static bool fold_use(struct parsed *p, unsigned i, struct affine *out)
{
    assert_true(i < p->n_uses);
    struct analysis_cache *c = analysis_cache_new(p->tu);
    bool ok = affine_of(analysis_get(c, &affine_analysis, p->kernel), p->uses[i], out);
    analysis_cache_free(c);
    return ok;
}

static void expect_form(struct parsed *p, unsigned i, long long cx, long long cy, long long cz,
                        long long constant, bool symbols)
{
    struct affine a;
    if (!fold_use(p, i, &a)) fail_msg("use #%u: not affine", i);
    if (a.tid[0] != cx || a.tid[1] != cy || a.tid[2] != cz || a.constant != constant ||
        affine_has_symbols(&a) != symbols)
        fail_msg("use #%u: got x*%lld + y*%lld + z*%lld + %lld%s", i, a.tid[0], a.tid[1], a.tid[2],
                 a.constant, affine_has_symbols(&a) ? " + symbols" : "");
}

static void expect_not_affine(struct parsed *p, unsigned i)
{
    struct affine a;
    if (fold_use(p, i, &a)) fail_msg("use #%u: folded, but should not be affine", i);
}

static void test_literals_and_builtins(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "#define TILE 32\n"
              "__global__ void k(int n) {\n"
              "  use(threadIdx.x * TILE + 3);\n"
              "  use((threadIdx.x << 5) - threadIdx.y * 2 + 7 * threadIdx.z);\n"
              "  use(blockIdx.x * blockDim.x + threadIdx.x);\n"
              "  use(-(int)threadIdx.x + n);\n"
              "  use(sizeof(double) * 4);\n"
              "}\n");
    expect_form(&p, 0, 32, 0, 0, 3, false);
    expect_form(&p, 1, 32, -2, 7, 0, false);
    expect_form(&p, 2, 1, 0, 0, 0, true);
    expect_form(&p, 3, -1, 0, 0, 0, true);
    expect_form(&p, 4, 0, 0, 0, 32, false);
    release(&p);
}

static void test_constants_and_locals(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "constexpr int kTile = 16;\n"
              "static const int kPad = 1;\n"
              "enum { ROWS = 8 };\n"
              "__global__ void k(int n) {\n"
              "  const int stride = kTile + kPad;\n"
              "  int tx = threadIdx.x;\n"
              "  int row = tx * stride;\n"
              "  int base = n * 4;\n"
              "  use(row + ROWS);\n"
              "  use(base + tx);\n"
              "}\n");
    expect_form(&p, 0, 17, 0, 0, 8, false);
    expect_form(&p, 1, 1, 0, 0, 0, true);
    release(&p);
}

static void test_loop_counters(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n) {\n"
              "  for (int j = 0; j < n; j += 8)\n"
              "    use(threadIdx.x * 32 + j);\n"
              "  for (int i = threadIdx.x; i < n; i += blockDim.x)\n"
              "    use(i * 2);\n"
              "  for (int s = blockDim.x / 2; s > 0; s >>= 1)\n"
              "    use(threadIdx.x + s);\n"
              "  for (int m = threadIdx.x; m < n; m *= 2)\n"
              "    use(m);\n"
              "}\n");
    expect_form(&p, 0, 32, 0, 0, 0, true);
    expect_form(&p, 1, 2, 0, 0, 0, true);
    expect_form(&p, 2, 1, 0, 0, 0, true);
    /* Doubling a thread-dependent start is not affine. */
    expect_not_affine(&p, 3);
    release(&p);
}

static void test_lane_and_warp(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k() {\n"
              "  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
              "  use(lane * 33 + warp);\n"
              "  use((threadIdx.x & 31) + (threadIdx.x >> 5) * 32);\n"
              "  use(threadIdx.x % 16);\n"
              "  use(threadIdx.x / 8);\n"
              "}\n");
    struct affine a;
    expect_form(&p, 0, 33, 0, 0, 0, true);
    assert_true(fold_use(&p, 0, &a));
    assert_true(a.warp_relative);
    expect_form(&p, 1, 1, 0, 0, 0, true);
    /* Wraps inside a warp: not one stride across its lanes. */
    expect_not_affine(&p, 2);
    expect_not_affine(&p, 3);
    release(&p);
}

static void test_refusals(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__device__ int g;\n"
              "__global__ void k(int *data, int n) {\n"
              "  int off = 0;\n"
              "  if (threadIdx.x % 2) off = 1;\n"
              "  int t = threadIdx.x;\n"
              "  int *pt = &t;\n"
              "  use(threadIdx.x * threadIdx.x);\n"
              "  use(threadIdx.x * 32 + off);\n"
              "  use(t * 2);\n"
              "  use(threadIdx.x * n);\n"
              "  use(threadIdx.x + data[threadIdx.x]);\n"
              "  use(pick(threadIdx.x));\n"
              "  use(threadIdx.x + g);\n"
              "  (void)pt;\n"
              "}\n");
    for (unsigned i = 0; i < 7; i++) expect_not_affine(&p, i);
    release(&p);
}

static void test_templates(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "template <int B, typename T>\n"
              "__global__ void k(T *out) {\n"
              "  use(threadIdx.x * 32 + B);\n"
              "  use(threadIdx.x * B);\n"
              "}\n");
    /* A template argument is a constant per instantiation: a uniform term,
       but as a coefficient it leaves the stride unknown. */
    expect_form(&p, 0, 32, 0, 0, 0, true);
    expect_not_affine(&p, 1);
    release(&p);
}

static void test_uniform(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n) {\n"
              "  use(n / 2 + blockIdx.x % 3);\n"
              "  use(threadIdx.y);\n"
              "}\n");
    struct analysis_cache *c = analysis_cache_new(p.tu);
    struct affine_fn *af = analysis_get(c, &affine_analysis, p.kernel);
    assert_true(affine_is_uniform(af, p.uses[0]));
    assert_false(affine_is_uniform(af, p.uses[1]));
    analysis_cache_free(c);
    int comp = -1;
    assert_int_equal(affine_builtin_member(p.tu, p.uses[1], &comp), AFFINE_THREADIDX);
    assert_int_equal(comp, 1);
    release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literals_and_builtins),
        cmocka_unit_test(test_constants_and_locals),
        cmocka_unit_test(test_loop_counters),
        cmocka_unit_test(test_lane_and_warp),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_templates),
        cmocka_unit_test(test_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
