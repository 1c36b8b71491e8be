/* test_uniformity.c: unit tests for the thread-dependence analysis
 * (analyzer/analysis/uniformity.c): sources of variation, propagation, control
 * dependence, shared-memory broadcasts, loops and call summaries. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clang/astutil.h"
#include "analysis/uniformity.h"

/* Each test is a kernel `k`: use(e) marks an expression to ask about, and
   its barriers are the __syncthreads() calls (and calls of `sync_helper`).
   clang's CUDA built-in variables header gives the real threadIdx. */
static const char *const PRELUDE =
    "#include <__clang_cuda_builtin_vars.h>\n"
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __shared__ __attribute__((shared))\n"
    "__device__ void use(long long);\n"
    "__device__ int atomicAdd(int *, int);\n"
    "__device__ int __syncthreads_count(int);\n";

#define MAX_MARKS 24

struct parsed {
    CXIndex index;
    CXTranslationUnit tu;
    CXCursor kernel;
    CXCursor uses[MAX_MARKS];  /* the argument of each use() */
    CXCursor calls[MAX_MARKS]; /* each use() call itself */
    unsigned n_uses;
    CXCursor barriers[MAX_MARKS];
    unsigned n_barriers;
    struct analysis_cache *analyses;
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
    if (k == CXCursor_CallExpr && strcmp(name, "use") == 0 && p->n_uses < MAX_MARKS) {
        CXCursor kids[4];
        unsigned n = ast_children(c, kids, 4);
        if (n == 2) {
            p->calls[p->n_uses] = c;
            p->uses[p->n_uses++] = kids[1];
        }
    }
    if (k == CXCursor_CallExpr && !clang_Cursor_isNull(p->kernel) &&
        (strcmp(name, "__syncthreads") == 0 || strcmp(name, "sync_helper") == 0 ||
         strcmp(name, "__syncthreads_count") == 0) &&
        p->n_barriers < MAX_MARKS) {
        /* Only the kernel's own barriers (k is defined last in each test). */
        p->barriers[p->n_barriers++] = c;
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
    struct CXUnsavedFile file = {"test_uniformity.cu", src, (unsigned long)strlen(src)};
    const char *args[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                          "--cuda-gpu-arch=sm_90", "-std=c++17", "-w"};
    p->index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(p->index, "test_uniformity.cu", args, 8, &file,
                                                       1, CXTranslationUnit_None, &p->tu);
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
    p->kernel = clang_getNullCursor();
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find, p);
    assert_false(clang_Cursor_isNull(p->kernel));
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

static struct uniformity *analysis(struct parsed *p)
{
    /* Built from the translation unit and the kernel, as the engine does:
       the cache also gives it the launch model. */
    struct uniformity *u = analysis_get(p->analyses, &uniformity_analysis, p->kernel);
    assert_non_null(u);
    return u;
}

/* want: a string of 'v' (varies) and 'u' (uniform), one per use(). */
static void expect_uses(struct parsed *p, const char *want)
{
    struct uniformity *u = analysis(p);
    size_t n = strlen(want);
    if (n != p->n_uses) fail_msg("%u uses, %zu expected", p->n_uses, n);
    for (unsigned i = 0; i < n; i++) {
        struct variance_reason why;
        bool v = uniformity_expr_varies(u, p->uses[i], &why);
        if (v != (want[i] == 'v')) fail_msg("use #%u: %s, expected %s", i, v ? "varies" : "uniform",
                                            want[i] == 'v' ? "varies" : "uniform");
    }
}

/* want: one letter per barrier: 'd' divergent, 'c' convergent. */
static void expect_barriers(struct parsed *p, const char *want)
{
    struct uniformity *u = analysis(p);
    size_t n = strlen(want);
    if (n != p->n_barriers) {
        for (unsigned i = 0; i < p->n_barriers; i++) {
            unsigned line;
            clang_getSpellingLocation(clang_getCursorLocation(p->barriers[i]), NULL, &line, NULL, NULL);
            print_error("barrier at line %u\n", line);
        }
        fail_msg("%u barriers, %zu expected", p->n_barriers, n);
    }
    for (unsigned i = 0; i < n; i++) {
        struct barrier_info bi;
        assert_true(uniformity_call_barrier(u, p->barriers[i], &bi));
        struct divergence dv;
        bool d = uniformity_barrier_divergent(u, p->barriers[i], &dv);
        if (d != (want[i] == 'd'))
            fail_msg("barrier #%u: %s, expected %s", i, d ? "divergent" : "convergent",
                     want[i] == 'd' ? "divergent" : "convergent");
    }
}

static void test_sources(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n, int *g) {\n"
              "  use(threadIdx.x); use(threadIdx.y); use(blockIdx.x); use(blockDim.x * gridDim.x);\n"
              "  use(n); use(42); use(warpSize);\n"
              "  use(atomicAdd(g, 1)); use(__syncthreads_count(threadIdx.x > 3));\n"
              "  use(g[blockIdx.x]); use(g[threadIdx.x]);\n"
              "}\n");
    expect_uses(&p, "vvuuuuuvuuv");
    release(&p);
}

static void test_propagation(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "struct P { int a, b; };\n"
              "__global__ void k(int n) {\n"
              "  int t = threadIdx.x; int w = t / 32; use(w);\n"
              "  int c = n; c += t; use(c);\n"
              "  int d = n; d++; use(d);\n"
              "  int e = t > 3 ? 1 : 2; use(e);\n"
              "  bool f = n > 2 && t > 5; use(f);\n"
              "  P s; s.a = 1; s.b = t; use(s.a);\n"
              "  int arr[4]; arr[0] = n; use(arr[1]); arr[2] = t; use(arr[1]);\n"
              "  t = 7; use(t);\n"
              "}\n");
    /* Struct and array elements share one value each (weak updates). */
    expect_uses(&p, "vvuvvvuvu");
    release(&p);
}

static void test_control_dependence(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n) {\n"
              "  int a = 0; if (threadIdx.x == 0) a = 1; use(a);\n"
              "  int b = 0; if (blockIdx.x == 0) b = 1; use(b);\n"
              "  if (threadIdx.x < 4) { int c = 5; use(c); }\n"
              "  int s = 0; for (int i = 0; i < threadIdx.x; i++) s += 1; use(s);\n"
              "  int r = 0; for (int i = 0; i < n; i++) r += i; use(r);\n"
              "}\n");
    expect_uses(&p, "vuuvu");
    struct uniformity *u = analysis(&p);
    struct variance_reason why;
    /* use(c) runs under a varying condition; use(b) does not. */
    assert_true(uniformity_control_varies(u, p.calls[2], &why));
    assert_false(uniformity_control_varies(u, p.calls[1], &why));
    release(&p);
}

static void test_shared_broadcast(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int *g) {\n"
              "  __shared__ int flag; __shared__ int buf[64];\n"
              "  if (threadIdx.x == 0) flag = g[0];\n"
              "  use(flag);\n"
              "  __syncthreads();\n"
              "  use(flag);\n"
              "  buf[threadIdx.x] = g[threadIdx.x];\n"
              "  __syncthreads();\n"
              "  use(buf[0]); use(buf[threadIdx.x]);\n"
              "}\n");
    expect_uses(&p, "vuuv");
    release(&p);
}

static void test_loops(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(float *a, int n) {\n"
              "  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) a[0] += 1; __syncthreads(); }\n"
              "  for (int i = threadIdx.x; i < n; i += blockDim.x) __syncthreads();\n"
              "  unsigned m = blockDim.x * ((n + blockDim.x - 1) / blockDim.x);\n"
              "  for (int i = threadIdx.x; i < m; i += blockDim.x) __syncthreads();\n"
              "  for (int i = threadIdx.x; i < 1024; i += 256) __syncthreads();\n"
              "  for (int i = threadIdx.x; i < 1000; i += 256) __syncthreads();\n"
              "  for (int i = 0; i < n; i++) { if (a[threadIdx.x] > 0) break; __syncthreads(); }\n"
              "  __syncthreads();\n"
              "}\n");
    expect_barriers(&p, "cdccddc");
    release(&p);
}

static void test_exits(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(float *a, int n) {\n"
              "  if (blockIdx.x > 3) return;\n"
              "  __syncthreads();\n"
              "  if (threadIdx.x >= n) goto out;\n"
              "  __syncthreads();\n"
              "out:\n"
              "  __syncthreads();\n"
              "  if (threadIdx.x >= n) return;\n"
              "  __syncthreads();\n"
              "}\n");
    expect_barriers(&p, "cdcd");
    release(&p);
}

static void test_summaries(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__device__ int lane() { return threadIdx.x & 31; }\n"
              "__device__ int twice(int v) { return 2 * v; }\n"
              "__device__ void sync_helper(int steps) { for (int i = 0; i < steps; i++) __syncthreads(); }\n"
              "__device__ void store(int *dst, int v) { *dst = v; }\n"
              "__global__ void k(int n) {\n"
              "  use(lane()); use(twice(n)); use(twice(threadIdx.x));\n"
              "  int x = 0; store(&x, n); use(x); store(&x, threadIdx.x); use(x);\n"
              "  sync_helper(n); sync_helper(threadIdx.x);\n"
              "  if (lane() == 0) sync_helper(4);\n"
              "}\n");
    expect_uses(&p, "vuvuv");
    expect_barriers(&p, "cdd");
    struct uniformity *u = analysis(&p);
    struct barrier_info bi;
    assert_true(uniformity_call_barrier(u, p.barriers[1], &bi));
    assert_string_equal(bi.callee, "sync_helper");
    assert_string_equal(bi.name, "__syncthreads()");
    struct divergence dv;
    assert_true(uniformity_barrier_divergent(u, p.barriers[1], &dv));
    assert_true(dv.from_argument);
    assert_true(dv.n_steps > 0);
    assert_string_equal(dv.steps[0].what, "steps");
    release(&p);
}

static void test_explanations(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(float *a, int n) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  if (i >= n) return;\n"
              "  __syncthreads();\n"
              "  __syncthreads();\n"
              "}\n");
    struct uniformity *u = analysis(&p);
    struct divergence dv;
    assert_true(uniformity_barrier_divergent(u, p.barriers[0], &dv));
    assert_non_null(strstr(dv.origin, "threadIdx.x"));
    /* return, condition, origin */
    assert_int_equal(dv.n_steps, 3);
    assert_int_equal(dv.steps[0].kind, DIV_RETURN);
    assert_int_equal(dv.steps[1].kind, DIV_IF);
    assert_string_equal(dv.steps[1].via, "i");
    assert_int_equal(dv.steps[2].kind, DIV_ORIGIN);
    assert_int_equal(dv.same_cause_index, 0);
    assert_int_equal(dv.same_cause_count, 2);
    assert_true(uniformity_barrier_divergent(u, p.barriers[1], &dv));
    assert_int_equal(dv.same_cause_index, 1);
    release(&p);
}

static void test_var_varies(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n) {\n"
              "  int t = threadIdx.x; int m = n * 2; use(t + m);\n"
              "}\n");
    struct uniformity *u = analysis(&p);
    CXCursor kids[8];
    /* The DeclRefExprs of t and m inside use(t + m). */
    unsigned nk = ast_children(ast_strip(p.uses[0]), kids, 8);
    assert_int_equal(nk, 2);
    struct variance_reason why;
    assert_true(uniformity_var_varies(u, clang_getCursorReferenced(ast_strip(kids[0])), &why));
    assert_string_equal(why.why, "threadIdx.x");
    assert_false(uniformity_var_varies(u, clang_getCursorReferenced(ast_strip(kids[1])), &why));
    release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sources),
        cmocka_unit_test(test_propagation),
        cmocka_unit_test(test_control_dependence),
        cmocka_unit_test(test_shared_broadcast),
        cmocka_unit_test(test_loops),
        cmocka_unit_test(test_exits),
        cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_explanations),
        cmocka_unit_test(test_var_varies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
