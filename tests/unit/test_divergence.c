/* test_divergence.c: unit tests for the two-thread divergence queries over
 * the value model (analyzer/analysis/divergence.c, value.c): a barrier after
 * an early return that two threads disagree on (with the witness checked), one
 * after a condition a solver proves uniform, a struct field, and the
 * one-lane question of CU402 (guards that admit one lane of a warp). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/divergence.h"
#include "clang/astutil.h"

static const char *const PRELUDE =
    "#include <__clang_cuda_builtin_vars.h>\n"
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    "struct dim3 { unsigned x, y, z;\n"
    "  __host__ __device__ constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };\n"
    "extern \"C\" int __cudaPushCallConfiguration(dim3 g, dim3 b, unsigned long s = 0, void *st = 0);\n"
    "extern \"C\" int cudaConfigureCall(dim3 g, dim3 b, unsigned long s = 0, void *st = 0);\n"
    "__device__ void __syncthreads(void);\n";

struct parsed {
    CXIndex index;
    CXTranslationUnit tu;
    CXCursor kernel, barrier;
    struct analysis_cache *analyses;
};

static enum CXChildVisitResult find(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct parsed *p = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char *name = ast_spelling(c);
    if (k == CXCursor_FunctionDecl && strcmp(name, "k") == 0 && clang_isCursorDefinition(c)) p->kernel = c;
    if (k == CXCursor_CallExpr && strcmp(name, "__syncthreads") == 0) p->barrier = c;
    free(name);
    return CXChildVisit_Recurse;
}

static void parse(struct parsed *p, const char *body)
{
    memset(p, 0, sizeof *p);
    size_t len = strlen(PRELUDE) + strlen(body) + 1;
    char *src = malloc(len);
    snprintf(src, len, "%s%s", PRELUDE, body);
    struct CXUnsavedFile file = {"test_divergence.cu", src, (unsigned long)strlen(src)};
    const char *args[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                          "--cuda-gpu-arch=sm_90", "-std=c++17", "-w"};
    p->index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(p->index, "test_divergence.cu", args, 8, &file, 1,
                                                       CXTranslationUnit_None, &p->tu);
    assert_int_equal(err, CXError_Success);
    p->kernel = p->barrier = clang_getNullCursor();
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find, p);
    assert_false(clang_Cursor_isNull(p->kernel));
    assert_false(clang_Cursor_isNull(p->barrier));
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

static enum divergence_verdict verdict_of(struct parsed *p, struct divergence_witness *w)
{
    struct uniformity *u = analysis_get(p->analyses, &uniformity_analysis, p->kernel);
    struct divergence dv;
    assert_true(uniformity_barrier_divergent(u, p->barrier, &dv)); /* the walk's candidate */
    struct divergence_facts *f = analysis_get(p->analyses, &divergence_analysis, p->kernel);
    return divergence_barrier(f, p->barrier, &dv, w);
}

static void test_early_return_witnessed(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(float *a, int n) {\n"
              "    int i = blockIdx.x * 256 + threadIdx.x;\n"
              "    if (i >= n) return;\n"
              "    __syncthreads();\n"
              "    a[i] = 0;\n"
              "}\n"
              "void h(float *a, int n) { k<<<8, 256>>>(a, n); }\n");
    struct divergence_witness w;
    assert_int_equal(verdict_of(&p, &w), DIVERGENCE_WITNESSED);
    assert_true(w.shape_known);
    assert_int_equal(w.block[0], 256);
    /* Two threads of the block, and the n they disagree under. */
    assert_true(w.tid[0][0] < 256 && w.tid[1][0] < 256 && w.tid[0][0] != w.tid[1][0]);
    bool has_n = false;
    for (unsigned i = 0; i < w.n_values; i++) has_n |= !strcmp(w.value_name[i], "n");
    assert_true(has_n);
    release(&p);
}

static void test_divided_by_block_size_uniform(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(float *a) {\n"
              "    int w = threadIdx.x / 128;\n"
              "    if (w != 0) return;\n"
              "    __syncthreads();\n"
              "    a[threadIdx.x] = 0;\n"
              "}\n"
              "void h(float *a) { k<<<8, 128>>>(a); }\n");
    struct divergence_witness w;
    assert_int_equal(verdict_of(&p, &w), DIVERGENCE_UNIFORM);
    release(&p);
}

static void test_struct_field_uniform(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "struct P { int x, y; };\n"
              "__global__ void k(float *a, int h) {\n"
              "    P p;\n"
              "    p.x = threadIdx.x;\n"
              "    p.y = blockIdx.y * 4;\n"
              "    if (p.y >= h) return;\n"
              "    __syncthreads();\n"
              "    a[p.x] = 0;\n"
              "}\n");
    struct divergence_witness w;
    assert_int_equal(verdict_of(&p, &w), DIVERGENCE_UNIFORM);
    release(&p);
}

/* The one-lane question (CU402) asked of the barrier's statement: the
   guards on the way to it. */
static bool one_lane(const char *body)
{
    struct parsed p;
    parse(&p, body);
    struct divergence_facts *f = analysis_get(p.analyses, &divergence_analysis, p.kernel);
    bool r = divergence_one_lane_reaches(f, p.barrier);
    release(&p);
    return r;
}

static void test_one_lane(void **state)
{
    (void)state;
    /* the scalar tail of a row handled four elements per thread */
    assert_true(one_lane("__global__ void k(float *a, int rows, int cols) {\n"
                         "    int x = (blockIdx.x * blockDim.x + threadIdx.x) << 2;\n"
                         "    if (blockIdx.y >= rows || x >= cols) return;\n"
                         "    if (x < cols - 3) { a[x] = 1; } else { __syncthreads(); }\n"
                         "}\n"));
    assert_true(one_lane("__global__ void k(float *a) {\n"
                         "    if (threadIdx.x == blockDim.x - 1) __syncthreads();\n"
                         "}\n"));
    /* the last 64 elements: many lanes */
    assert_false(one_lane("__global__ void k(float *a, int n) {\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (i >= n) return;\n"
                          "    if (i >= n - 64) __syncthreads();\n"
                          "}\n"));
    /* v changes between the guards: the two reads are not one value */
    assert_false(one_lane("__global__ void k(float *a, int n) {\n"
                          "    int v = threadIdx.x;\n"
                          "    while (v >= 32) v -= 32;\n"
                          "    v = v / 8;\n"
                          "    if (v != 0) return;\n"
                          "    v = v + n;\n"
                          "    if (v == n) __syncthreads();\n"
                          "}\n"));
    /* no guard at all */
    assert_false(one_lane("__global__ void k(float *a) { __syncthreads(); }\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_lane),
        cmocka_unit_test(test_early_return_witnessed),
        cmocka_unit_test(test_divided_by_block_size_uniform),
        cmocka_unit_test(test_struct_field_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
