/* test_hostapi.c: unit tests for the host API model (analyzer/analysis/hostapi.c):
 * what the caller does with a returned status, checking calls, loops and host
 * work, copy kinds and host buffer origins, allocation targets, launch
 * streams, launch paths that leave the function, the deprecation table and
 * the TU-wide scans. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hostapi.h"
#include "clang/astutil.h"

static const char *const PRELUDE =
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    "typedef unsigned long size_t;\n"
    "struct dim3 { unsigned x, y, z;\n"
    "  __host__ __device__ constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };\n"
    "typedef struct CUstream_st *cudaStream_t;\n"
    "enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 };\n"
    "typedef enum cudaError cudaError_t;\n"
    "enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };\n"
    "typedef int CUresult;\n"
    "extern \"C\" {\n"
    "int __cudaPushCallConfiguration(dim3 g, dim3 b, size_t s = 0, cudaStream_t st = 0);\n"
    "cudaError_t cudaMalloc(void **p, size_t n);\n"
    "cudaError_t cudaFree(void *p);\n"
    "cudaError_t cudaMallocHost(void **p, size_t n);\n"
    "cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind k);\n"
    "cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t st = 0);\n"
    "cudaError_t cudaDeviceSynchronize(void);\n"
    "cudaError_t cudaGetLastError(void);\n"
    "cudaError_t cudaThreadSynchronize(void);\n"
    "cudaError_t cudaFuncSetAttribute(const void *f, int attr, int v);\n"
    "void *malloc(size_t);\n"
    "int printf(const char *, ...);\n"
    "}\n"
    "#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) printf(\"fail\\n\"); } while (0)\n"
    "__global__ void k(float *p) {}\n";

struct parsed {
    CXIndex index;
    CXTranslationUnit tu;
};

static void parse(struct parsed *p, const char *body)
{
    size_t n = strlen(PRELUDE) + strlen(body) + 1;
    char *src = malloc(n);
    snprintf(src, n, "%s%s", PRELUDE, body);
    struct CXUnsavedFile file = {"test_hostapi.cu", src, (unsigned long)strlen(src)};
    const char *args[] = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17"};
    p->index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(p->index, "test_hostapi.cu", args, 6, &file, 1,
                                                       CXTranslationUnit_DetailedPreprocessingRecord, &p->tu);
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
    free(src);
}

static void release(struct parsed *p)
{
    clang_disposeTranslationUnit(p->tu);
    ast_file_contents_forget(); /* the next unit may reuse its address */
    clang_disposeIndex(p->index);
}

struct find {
    const char *name;
    CXCursor found;
};

static enum CXChildVisitResult find_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct find *f = data;
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        CXString s = clang_getCursorSpelling(c);
        if (!strcmp(clang_getCString(s), f->name)) f->found = c;
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

static struct hostapi_fn *model(struct parsed *p, const char *fn)
{
    struct find f = {fn, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find_visit, &f);
    assert_false(clang_Cursor_isNull(f.found));
    return hostapi_fn_new(p->tu, f.found);
}

static const struct hostapi_call *call_named(const struct hostapi_fn *m, const char *name, unsigned nth)
{
    for (unsigned i = 0; i < m->n_calls; i++)
        if (!strcmp(m->calls[i].name, name) && nth-- == 0) return &m->calls[i];
    fail_msg("no call of %s", name);
    return NULL;
}

static void test_status_uses(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "cudaError_t g(float *d, float **q) {\n"
              "  cudaFree(d);\n"
              "  (void)cudaFree(d);\n"
              "  CHECK(cudaFree(d));\n"
              "  if (cudaMalloc((void **)q, 4) != cudaSuccess) return cudaErrorInvalidValue;\n"
              "  cudaError_t e = cudaMalloc((void **)q, 4);\n"
              "  e = cudaMalloc((void **)q, 8);\n"
              "  if (e) return e;\n"
              "  return cudaDeviceSynchronize();\n"
              "}\n");
    struct hostapi_fn *m = model(&p, "g");
    assert_int_equal(call_named(m, "cudaFree", 0)->use, HOSTAPI_USE_DISCARDED);
    assert_int_equal(call_named(m, "cudaFree", 1)->use, HOSTAPI_USE_VOIDED);
    assert_int_equal(call_named(m, "cudaFree", 2)->use, HOSTAPI_USE_MACRO_ARG);
    assert_string_equal(call_named(m, "cudaFree", 2)->macro, "CHECK");
    assert_int_equal(call_named(m, "cudaMalloc", 0)->use, HOSTAPI_USE_CHECKED);
    assert_int_equal(call_named(m, "cudaMalloc", 1)->use, HOSTAPI_USE_STORED_UNREAD);
    assert_int_equal(call_named(m, "cudaMalloc", 2)->use, HOSTAPI_USE_CHECKED);
    assert_int_equal(call_named(m, "cudaDeviceSynchronize", 0)->use, HOSTAPI_USE_CHECKED);
    assert_int_equal(call_named(m, "cudaFree", 0)->status, HOSTAPI_STATUS_RUNTIME);
    assert_string_equal(call_named(m, "cudaFree", 0)->status_type, "cudaError_t");
    hostapi_fn_free(m);
    release(&p);
}

static void test_loops_and_work(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "void g(float *a, float *h, int n, cudaStream_t s) {\n"
              "  for (int i = 0; i < n; i++) { k<<<1, 32>>>(a); cudaDeviceSynchronize(); }\n"
              "  for (int i = 0; i < n; i++) { k<<<1, 32, 0, s>>>(a); cudaDeviceSynchronize(); printf(\"%f\", h[0]); }\n"
              "  for (int i = 0; i < n; i++) { float *t; cudaMalloc((void **)&t, 4); cudaFree(t); }\n"
              "  float *arr[4];\n"
              "  for (int i = 0; i < 4; i++) cudaMalloc((void **)&arr[i], 4);\n"
              "}\n");
    struct hostapi_fn *m = model(&p, "g");
    assert_int_equal(m->n_loops, 4);
    assert_true(m->loops[0].has_launch);
    assert_false(m->loops[0].host_work);
    assert_true(m->loops[1].host_work);
    assert_false(m->loops[2].has_launch);
    const struct hostapi_call *l0 = call_named(m, "k", 0), *l1 = call_named(m, "k", 1);
    assert_true(l0->stream_known && clang_Cursor_isNull(l0->stream_var));
    assert_true(l1->stream_known && !clang_Cursor_isNull(l1->stream_var));
    const struct hostapi_call *alloc = call_named(m, "cudaMalloc", 0), *fr = call_named(m, "cudaFree", 0);
    assert_int_equal(alloc->loop, 2);
    assert_true(clang_equalCursors(alloc->target, fr->target));
    assert_true(clang_Cursor_isNull(call_named(m, "cudaMalloc", 1)->target)); /* &arr[i] */
    assert_true(call_named(m, "cudaDeviceSynchronize", 0)->flags & HOSTAPI_DEVICE_SYNC);
    hostapi_fn_free(m);
    release(&p);
}

static void test_copies_and_origins(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "void g(float *d, const float *param, int n, cudaStream_t s) {\n"
              "  float *h = (float *)malloc(n * 4);\n"
              "  float *pinned; cudaMallocHost((void **)&pinned, n * 4);\n"
              "  float *arr = new float[n];\n"
              "  cudaMemcpyAsync(d, h, n * 4, cudaMemcpyHostToDevice, s);\n"
              "  cudaMemcpyAsync(pinned, d, n * 4, cudaMemcpyDeviceToHost, s);\n"
              "  cudaMemcpyAsync(d, param, n * 4, cudaMemcpyHostToDevice, s);\n"
              "  cudaMemcpyAsync(d, arr + 4, n * 4, cudaMemcpyHostToDevice, s);\n"
              "  cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost);\n"
              "}\n");
    struct hostapi_fn *m = model(&p, "g");
    assert_int_equal(call_named(m, "cudaMemcpyAsync", 0)->copy_kind, HOSTAPI_COPY_H2D);
    assert_int_equal(call_named(m, "cudaMemcpyAsync", 0)->host_origin, HOSTAPI_ORIGIN_PAGEABLE);
    assert_int_equal(call_named(m, "cudaMemcpyAsync", 1)->copy_kind, HOSTAPI_COPY_D2H);
    assert_int_equal(call_named(m, "cudaMemcpyAsync", 1)->host_origin, HOSTAPI_ORIGIN_PINNED);
    assert_int_equal(call_named(m, "cudaMemcpyAsync", 2)->host_origin, HOSTAPI_ORIGIN_UNKNOWN);
    assert_int_equal(call_named(m, "cudaMemcpyAsync", 3)->host_origin, HOSTAPI_ORIGIN_PAGEABLE);
    assert_true(call_named(m, "cudaMemcpy", 0)->flags & HOSTAPI_COPY);
    hostapi_fn_free(m);
    release(&p);
}

static void test_tables_and_scans(void **state)
{
    (void)state;
    const struct hostapi_deprecation *d = hostapi_deprecated("cudaThreadSynchronize");
    assert_non_null(d);
    assert_string_equal(d->replacement, "cudaDeviceSynchronize");
    assert_true(hostapi_deprecated("cudaBindTexture")->texture_reference);
    assert_null(hostapi_deprecated("cudaDeviceSynchronize"));
    struct parsed p;
    parse(&p, "void g(float *d) {\n"
              "  CHECK(cudaFree(d));\n"
              "  CHECK(cudaDeviceSynchronize());\n"
              "  cudaFuncSetAttribute((const void *)k, 8, 65536);\n"
              "}\n");
    char *first = NULL;
    assert_int_equal(hostapi_checking_macros(p.tu, HOSTAPI_STATUS_RUNTIME, "cudaError_t", &first), 1);
    assert_string_equal(first, "CHECK");
    free(first);
    assert_true(hostapi_sets_max_dynamic_smem(p.tu, clang_getNullCursor()));
    release(&p);
}

static void test_leaving_path(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "void g(float *d, float *h, bool a, bool b) {\n"
              "  if (a) { k<<<1, 32>>>(d); return; }\n"
              "  if (b) { k<<<1, 32>>>(d); if (a) return; }\n"
              "  for (int i = 0; i < 4; i++) { if (a) { k<<<1, 32>>>(d); break; } }\n"
              "  while (b) { if (a) { k<<<1, 32>>>(d); return; } cudaFree(d); }\n"
              "  if (a) { k<<<1, 32>>>(d); goto out; }\n"
              "  cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);\n"
              "  return;\n"
              "out:\n"
              "  if (b) { k<<<1, 32>>>(d); cudaDeviceSynchronize(); return; }\n"
              "}\n");
    struct hostapi_fn *m = model(&p, "g");
    const struct hostapi_call *copy = call_named(m, "cudaMemcpy", 0), *free_ = call_named(m, "cudaFree", 0);
    const struct hostapi_call *sync = call_named(m, "cudaDeviceSynchronize", 0);
    /* returns right after the launch: nothing past its arm follows it */
    assert_true(call_named(m, "k", 0)->leaves_function);
    assert_true(hostapi_exclusive(m, call_named(m, "k", 0), copy));
    assert_true(hostapi_exclusive(m, call_named(m, "k", 0), call_named(m, "k", 1)));
    /* a return that may be skipped, a break or a goto first: the path goes on */
    assert_false(call_named(m, "k", 1)->leaves_function);
    assert_false(hostapi_exclusive(m, call_named(m, "k", 1), copy));
    assert_false(call_named(m, "k", 2)->leaves_function);
    assert_false(call_named(m, "k", 4)->leaves_function);
    /* in a loop: the return leaves it too, the call later in the loop never follows */
    assert_true(call_named(m, "k", 3)->leaves_function);
    assert_true(hostapi_exclusive(m, call_named(m, "k", 3), free_));
    /* a call between the launch and the return still follows it */
    assert_true(call_named(m, "k", 5)->leaves_function);
    assert_false(hostapi_exclusive(m, call_named(m, "k", 5), sync));
    hostapi_fn_free(m);
    release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_uses),
        cmocka_unit_test(test_loops_and_work),
        cmocka_unit_test(test_copies_and_origins),
        cmocka_unit_test(test_tables_and_scans),
        cmocka_unit_test(test_leaving_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
