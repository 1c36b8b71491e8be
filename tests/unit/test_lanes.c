/* test_lanes.c: unit tests for the warp-level models built from a
 * translation unit and a function (analyzer/analysis/blockshape.c, lanes.c,
 * banks.c) and for the analysis cache that builds each once
 * (analyzer/analysis/analysis.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/banks.h"
#include "analysis/blockshape.h"
#include "analysis/lanes.h"
#include "clang/astutil.h"

static const char *const PRELUDE =
    "#include <__clang_cuda_builtin_vars.h>\n"
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "__device__ void use(long long);\n"
    "__device__ void assert(bool);\n";

#define MAX_MARKS 8

struct parsed {
    CXIndex index;
    CXTranslationUnit tu;
    CXCursor kernel;
    CXCursor uses[MAX_MARKS]; /* the argument of each use() */
    unsigned n_uses;
    struct analysis_cache *analyses;
};

static enum CXChildVisitResult find(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct parsed *p = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char *name = ast_spelling(c);
    if (k == CXCursor_FunctionDecl && strcmp(name, "k") == 0 && clang_isCursorDefinition(c)) p->kernel = c;
    if (k == CXCursor_CallExpr && strcmp(name, "use") == 0 && p->n_uses < MAX_MARKS) {
        CXCursor kids[4];
        if (ast_children(c, kids, 4) == 2) p->uses[p->n_uses++] = kids[1];
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
    struct CXUnsavedFile file = {"test_lanes.cu", src, (unsigned long)strlen(src)};
    const char *args[] = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                          "--cuda-gpu-arch=sm_90", "-std=c++17", "-w"};
    p->index = clang_createIndex(0, 0);
    enum CXErrorCode err = clang_parseTranslationUnit2(p->index, "test_lanes.cu", args, 8, &file, 1,
                                                       CXTranslationUnit_None, &p->tu);
    assert_int_equal(err, CXError_Success);
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

static unsigned builds;
static void *count_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    (void)tu;
    (void)fn;
    (void)deps;
    builds++;
    return malloc(1);
}
static const struct analysis_kind counted = {"counted", false, count_build, free};

static void test_cache(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n) { use(threadIdx.x); }\n");
    builds = 0;
    void *a = analysis_get(p.analyses, &counted, p.kernel);
    assert_ptr_equal(analysis_get(p.analyses, &counted, p.kernel), a);
    assert_int_equal(builds, 1);
    analysis_cache_drop(p.analyses, p.kernel);
    analysis_get(p.analyses, &counted, p.kernel);
    assert_int_equal(builds, 2);
    release(&p);
}

static void test_asserted_shape(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n) {\n"
              "  assert(blockDim.x == 16 && blockDim.y == 8);\n"
              "  use(threadIdx.x);\n"
              "}\n");
    const struct block_shapes *s = analysis_get(p.analyses, &blockshape_analysis, p.kernel);
    assert_int_equal(s->n, 1);
    assert_true(block_shape_known(&s->shape[0]));
    assert_int_equal(s->shape[0].b[0], 16);
    assert_int_equal(s->shape[0].b[1], 8);
    assert_false(s->shape[0].from_launch);
    /* Lane 20 of warp 1 is thread 52: x = 52 % 16, y = 52 / 16. */
    long long t[3];
    block_shape_lane(&s->shape[0], 1, 20, t);
    assert_int_equal(t[0], 4);
    assert_int_equal(t[1], 3);
    release(&p);
}

static void test_condition_lanes(void **state)
{
    (void)state;
    struct parsed p;
    parse(&p, "__global__ void k(int n) {\n"
              "  use(threadIdx.x < 16); use(threadIdx.x % 2 == 0); use(n > 3); use(threadIdx.x == n);\n"
              "}\n");
    struct affine_fn *af = analysis_get(p.analyses, &affine_analysis, p.kernel);
    const struct block_shape unknown = {{0, 0, 0}, false, 0};
    struct lanes l;
    assert_true(lanes_of_condition(af, &unknown, p.uses[0], true, &l));
    assert_int_equal(l.m[0], 0xffffu);
    assert_int_equal(l.m[1], 0);
    assert_true(lanes_of_condition(af, &unknown, p.uses[0], false, &l));
    assert_int_equal(l.m[0], 0xffff0000u);
    /* threadIdx.x % 2 is not affine: the lanes are not known. */
    assert_false(lanes_of_condition(af, &unknown, p.uses[1], true, &l));
    /* A uniform condition lets the whole warp through. */
    assert_true(lanes_of_condition(af, &unknown, p.uses[2], true, &l));
    assert_int_equal(l.m[5], 0xffffffffu);
    /* == against an unknown value: at most one lane. */
    assert_true(lanes_of_condition(af, &unknown, p.uses[3], true, &l));
    assert_int_equal(l.m[0], 1u);
    /* A 48-thread block has one and a half warps. */
    const struct block_shape b48 = {{48, 1, 1}, false, 0};
    lanes_all(&l);
    lanes_clip_to_block(&l, &b48);
    assert_int_equal(l.m[0], 0xffffffffu);
    assert_int_equal(l.m[1], 0xffffu);
    assert_int_equal(l.m[2], 0);
    release(&p);
}

static void test_banks(void **state)
{
    (void)state;
    const struct block_shape unknown = {{0, 0, 0}, false, 0};
    uint32_t masks[WARP_LANES] = {0xffffffffu};
    struct bank_access a = {{32, 0, 0}, 0, 4, 0, 4, &unknown, masks};
    struct bank_degree d;
    /* float s[32][32], s[threadIdx.x][0]: every lane in bank 0. */
    assert_int_equal(bank_degree(&a, &d), 32);
    assert_int_equal(d.banks_used, 1);
    assert_int_equal(d.active, 32);
    /* A padded row (33 floats) spreads them over all banks. */
    a.ct[0] = 33;
    assert_int_equal(bank_degree(&a, &d), 1);
    assert_int_equal(d.banks_used, 32);
    /* Consecutive doubles: served a half-warp at a time, no conflict. */
    a.ct[0] = 1;
    a.elem_size = 8;
    a.width = 8;
    assert_int_equal(bank_degree(&a, &d), 1);
    assert_int_equal(d.phase_lanes, 16);
    assert_int_equal(bank_phase_lanes(16), 8);
    /* Half the lanes active, stride 2 words: 2-way within those 16. */
    a.ct[0] = 2;
    a.elem_size = 4;
    a.width = 4;
    masks[0] = 0xffffu;
    assert_int_equal(bank_degree(&a, &d), 1);
    masks[0] = 0xffffffffu;
    assert_int_equal(bank_degree(&a, &d), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_asserted_shape),
        cmocka_unit_test(test_condition_lanes),
        cmocka_unit_test(test_banks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
