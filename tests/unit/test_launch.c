/* test_launch.c: unit tests for the host-side launch model
 * (analyzer/analysis/launch.c): constant block shapes of launch sites, dim3
 * variables, template arguments equal to blockDim.x, kernel arguments equal
 * to the block's extent, and the cases that make a kernel's shape unknown. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/launch.h"
#include "clang/astutil.h"

static const char *const PRELUDE =
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    "struct dim3 { unsigned x, y, z;\n"
    "  __host__ __device__ constexpr dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };\n"
    "extern \"C\" int __cudaPushCallConfiguration(dim3 g, dim3 b, unsigned long s = 0, void *st = 0);\n"
    "extern \"C\" int cudaConfigureCall(dim3 g, dim3 b, unsigned long s = 0, void *st = 0);\n"
    "extern \"C\" int cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **a, unsigned long s, void *st);\n";

struct parsed {
    CXIndex index;
    CXTranslationUnit tu;
    struct launch_model *m;
};

static void parse_named(struct parsed *p, const char *name, const char *body);

static void parse(struct parsed *p, const char *body)
{
    parse_named(p, "test_launch.cu", body);
}

static void parse_named(struct parsed *p, const char *name, const char *body)
{
    size_t n = strlen(PRELUDE) + strlen(body) + 1;
    char *src = malloc(n);
    snprintf(src, n, "%s%s", PRELUDE, body);
    struct CXUnsavedFile file = {name, src, (unsigned long)strlen(src)};
    const char *args[] = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17"};
    p->index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(p->index, name, args, 6, &file, 1,
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
    free(src);
    p->m = launch_model_new(p->tu);
}

static void release(struct parsed *p)
{
    launch_model_free(p->m);
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
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && clang_isCursorDefinition(c)) {
        CXString s = clang_getCursorSpelling(c);
        if (strcmp(clang_getCString(s), f->name) == 0) f->found = c;
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

static CXCursor kernel(struct parsed *p, const char *name)
{
    struct find f = {name, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find_visit, &f);
    assert_false(clang_Cursor_isNull(f.found));
    return f.found;
}

static void constant_shapes(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p,
          "#define TILE 16\n"
          "constexpr int kThreads = 256;\n"
          "__global__ void tile(float *o) {}\n"
          "__global__ void flat(float *o) {}\n"
          "__global__ void two(float *o) {}\n"
          "void host(float *o, int n) {\n"
          "  dim3 block(TILE, TILE);\n"
          "  tile<<<n, block>>>(o);\n"
          "  tile<<<dim3(n, n), dim3(16, 16)>>>(o);\n"
          "  flat<<<n, kThreads>>>(o);\n"
          "  int threads = 128;\n"
          "  two<<<n, threads>>>(o);\n"
          "  two<<<n, 64>>>(o);\n"
          "}\n");
    struct launch_info li;
    assert_true(launch_block_shapes(p.m, kernel(&p, "tile"), &li));
    assert_int_equal(li.n_sites, 2);
    assert_int_equal(li.n_shapes, 1);
    assert_int_equal(li.shape[0].b[0], 16);
    assert_int_equal(li.shape[0].b[1], 16);
    assert_int_equal(li.shape[0].b[2], 1);
    assert_false(launch_x_multiple_of(&li, 32));
    assert_true(launch_block_shapes(p.m, kernel(&p, "flat"), &li));
    assert_int_equal(li.n_shapes, 1);
    assert_int_equal(li.shape[0].b[0], 256);
    assert_int_equal(li.shape[0].b[1], 1);
    assert_true(launch_x_multiple_of(&li, 32));
    assert_true(launch_block_shapes(p.m, kernel(&p, "two"), &li));
    assert_int_equal(li.n_shapes, 2);
    assert_int_equal(li.shape[0].b[0], 128);
    assert_int_equal(li.shape[1].b[0], 64);
    release(&p);
}

static void unknown_shapes(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p,
          "__global__ void runtime(float *o) {}\n"
          "__global__ void changed(float *o) {}\n"
          "__global__ void member_changed(float *o) {}\n"
          "__global__ void member_set(float *o) {}\n"
          "__global__ void never(float *o) {}\n"
          "__global__ void api(float *o) {}\n"
          "void host(float *o, int n, int bs) {\n"
          "  runtime<<<n, 256>>>(o);\n"
          "  runtime<<<n, bs>>>(o);\n"
          "  int t = 64;\n"
          "  t *= 2;\n"
          "  changed<<<n, t>>>(o);\n"
          "  dim3 b(32, 4);\n"
          "  if (n > 4) b.y = 8;\n"
          "  member_changed<<<n, b>>>(o);\n"
          "  dim3 m(32, 4);\n"
          "  m.y = 8;\n"
          "  member_set<<<n, m>>>(o);\n"
          "  api<<<n, 128>>>(o);\n"
          "  void *args[] = {&o};\n"
          "  cudaLaunchKernel((const void *)api, dim3(n), dim3(bs), args, 0, 0);\n"
          "}\n");
    struct launch_info li;
    assert_false(launch_block_shapes(p.m, kernel(&p, "runtime"), &li));
    assert_int_equal(li.n_sites, 2);
    assert_false(launch_block_shapes(p.m, kernel(&p, "changed"), &li));
    assert_false(launch_block_shapes(p.m, kernel(&p, "member_changed"), &li));
    /* members assigned in straight-line code before the launch: read */
    assert_true(launch_block_shapes(p.m, kernel(&p, "member_set"), &li));
    assert_int_equal(li.shape[0].b[0], 32);
    assert_int_equal(li.shape[0].b[1], 8);
    assert_false(launch_block_shapes(p.m, kernel(&p, "never"), &li));
    assert_int_equal(li.n_sites, 0);
    assert_false(launch_block_shapes(p.m, kernel(&p, "api"), &li));
    assert_false(launch_x_multiple_of(&li, 32));
    release(&p);
}

static void template_arguments(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p,
          "template <int BLOCK, int N> __global__ void padded(float *o) {}\n"
          "template <int BLOCK> __global__ void mismatched(float *o) {}\n"
          "void host(float *o, int n) {\n"
          "  padded<128, 4><<<n, 128>>>(o);\n"
          "  padded<256, 4><<<n, 256>>>(o);\n"
          "  mismatched<64><<<n, 128>>>(o);\n"
          "}\n");
    struct launch_info li;
    CXCursor k = kernel(&p, "padded");
    assert_true(launch_block_shapes(p.m, k, &li));
    assert_int_equal(li.n_sites, 2);
    assert_int_equal(li.n_shapes, 2);
    assert_true(launch_tparam_is_block_x(p.m, k, 0));
    assert_false(launch_tparam_is_block_x(p.m, k, 1));
    assert_false(launch_tparam_is_block_x(p.m, kernel(&p, "mismatched"), 0));
    release(&p);
}

static void parameters_equal_to_the_block(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p,
          "__global__ void sorted(int *o, int n, int pad) {}\n"
          "__global__ void rows(int *o, int k) {}\n"
          "__global__ void wide(int *o, int n) {}\n"
          "__global__ void constant(int *o, int w) {}\n"
          "__global__ void changed(int *o, int n) {}\n"
          "__global__ void indirect(int *o, int n) {}\n"
          "void host(int *o, int n, int k, int r) {\n"
          "  const int pad = n * 2;\n"
          "  const dim3 block(pad, 1, 1);\n"
          "  sorted<<<r, block>>>(o, n, pad);\n"
          "  dim3 t(32, k);\n"
          "  rows<<<r, t>>>(o, k);\n"
          "  wide<<<r, 2 * n>>>(o, n);\n"
          "  constant<<<r, 128>>>(o, 128);\n"
          "  int m = n; m++;\n"
          "  changed<<<r, m>>>(o, m);\n"
          "  indirect<<<r, n>>>(o, n);\n"
          "  void *a[] = {&o, &n};\n"
          "  cudaLaunchKernel((const void *)indirect, dim3(r), dim3(n), a, 0, 0);\n"
          "}\n");
    assert_true(launch_param_is_block_dim(p.m, kernel(&p, "sorted"), 2, 0));
    assert_false(launch_param_is_block_dim(p.m, kernel(&p, "sorted"), 1, 0));
    assert_true(launch_param_is_block_dim(p.m, kernel(&p, "rows"), 1, 1));
    assert_false(launch_param_is_block_dim(p.m, kernel(&p, "rows"), 1, 0));
    assert_false(launch_param_is_block_dim(p.m, kernel(&p, "wide"), 1, 0));
    assert_true(launch_param_is_block_dim(p.m, kernel(&p, "constant"), 1, 0));
    assert_false(launch_param_is_block_dim(p.m, kernel(&p, "changed"), 1, 0));
    assert_false(launch_param_is_block_dim(p.m, kernel(&p, "indirect"), 1, 0));
    release(&p);
}

/* A kernel both units define (as from a shared header), launched only in
   the second: the run's table gives the first its shape; the facts survive
   the cache's text; the digest tells which file must be linted again. */
static void shapes_from_another_file(void **state)
{
    (void)state;
    struct parsed a, b;
    parse_named(&a, "defines.cu", "__global__ void shared_k(float *o) {}\n");
    parse_named(&b, "launches.cu",
                "__global__ void shared_k(float *o) {}\n"
                "void host(float *o, int n) { shared_k<<<n, 128>>>(o); }\n");
    struct launch_info li;
    assert_false(launch_block_shapes(a.m, kernel(&a, "shared_k"), &li));

    struct launch_table *empty = launch_table_new();
    struct launch_facts *fa = launch_facts_new(), *fb = launch_facts_new();
    struct launch_model *ma = launch_model_new_in(a.tu, empty), *mb = launch_model_new_in(b.tu, empty);
    assert_false(launch_block_shapes(ma, kernel(&a, "shared_k"), &li));
    assert_true(launch_block_shapes(mb, kernel(&b, "shared_k"), &li));
    launch_facts_take(fa, ma);
    launch_facts_take(fb, mb);
    launch_model_free(ma);
    launch_model_free(mb);

    struct launch_table *table = launch_table_new();
    launch_table_add(table, fa);
    launch_table_add(table, fb);
    launch_table_add(table, fb); /* the same site twice is one */
    assert_int_equal(launch_table_sites(table), 1);
    char *da = launch_facts_digest(fa, table), *db = launch_facts_digest(fb, table);
    assert_string_not_equal(da, "0"); /* a asked about a kernel b launches */
    assert_string_equal(db, "0");     /* b saw its own launch */
    free(da);
    free(db);

    ma = launch_model_new_in(a.tu, table);
    assert_true(launch_block_shapes(ma, kernel(&a, "shared_k"), &li));
    assert_int_equal(li.n_shapes, 1);
    assert_int_equal(li.shape[0].b[0], 128);
    launch_model_free(ma);

    /* Through the cache's text. */
    char *text = launch_facts_to_json(fb);
    struct launch_facts *back = launch_facts_from_json(text);
    assert_non_null(back);
    struct launch_table *t2 = launch_table_new();
    launch_table_add(t2, back);
    ma = launch_model_new_in(a.tu, t2);
    assert_true(launch_block_shapes(ma, kernel(&a, "shared_k"), &li));
    assert_int_equal(li.shape[0].b[0], 128);
    launch_model_free(ma);
    assert_null(launch_facts_from_json("not json"));

    free(text);
    launch_facts_free(back);
    launch_table_free(t2);
    launch_table_free(table);
    launch_table_free(empty);
    launch_facts_free(fa);
    launch_facts_free(fb);
    release(&a);
    release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constant_shapes),
        cmocka_unit_test(unknown_shapes),
        cmocka_unit_test(template_arguments),
        cmocka_unit_test(parameters_equal_to_the_block),
        cmocka_unit_test(shapes_from_another_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
