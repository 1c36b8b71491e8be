/* blockshape.c: the block shapes a kernel runs with: the one it asserts
 * (assert(blockDim.x == 16)), else those of its launch sites (launch.c),
 * and where each lane of a warp sits in such a block. */
#include "analysis/blockshape.h"
#include "analysis/affine.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* Thread indices of lane l of warp w.  With the block's x extent unknown,
   blockDim.x is taken to be a multiple of 32: the warp is 32 consecutive
   threadIdx.x and one y and z (reported as 0: they are uniform terms then).
   With a stated shape, the linear thread id is split as the hardware does. */
void block_shape_lane(const struct block_shape *sh, unsigned w, unsigned l, long long t[3])
{
    long long id = 32LL * w + l;
    if (sh->b[0] <= 0) {
        t[0] = id;
        t[1] = t[2] = 0;
        return;
    }
    t[0] = id % sh->b[0];
    long long rest = id / sh->b[0];
    if (sh->b[1] > 0) {
        t[1] = rest % sh->b[1];
        t[2] = rest / sh->b[1];
    } else {
        t[1] = rest;
        t[2] = 0;
    }
}

bool block_shape_known(const struct block_shape *sh)
{
    return sh->b[0] > 0;
}

/* Records "blockDim.c == K" terms of an asserted condition (joined by &&). */
static void shape_terms(CXTranslationUnit tu, CXCursor e, struct block_shape *sh)
{
    for (;;) {
        e = ast_strip(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_CXXStaticCastExpr || k == CXCursor_CStyleCastExpr ||
            k == CXCursor_CXXFunctionalCastExpr) {
            CXCursor kids[4];
            unsigned n = ast_children(e, kids, 4);
            if (!n) return;
            e = kids[n - 1];
            continue;
        }
        break;
    }
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator) return;
    enum CXBinaryOperatorKind op = ast_binop(e);
    if (op == CXBinaryOperator_LAnd) {
        shape_terms(tu, ast_child(e, 0), sh);
        shape_terms(tu, ast_child(e, 1), sh);
        return;
    }
    if (op != CXBinaryOperator_EQ) return;
    for (int side = 0; side < 2; side++) {
        int comp;
        long long v;
        if (affine_builtin_member(tu, ast_child(e, side), &comp) == AFFINE_BLOCKDIM &&
            ast_eval_int(ast_child(e, 1 - side), &v) && v > 0 && v <= 1024)
            sh->b[comp] = v;
    }
}

/* assert(blockDim.x == 4 && blockDim.y == 8) among the top-level statements
   of the function states its launch shape (in device code, assert expands
   to a conditional whose other arm calls __assert_fail or a relative). */
static void asserted_shape(CXTranslationUnit tu, CXCursor fn, struct block_shape *sh)
{
    memset(sh, 0, sizeof *sh);
    /* The body is the last child, after template and function parameters. */
    CXCursor kids[128];
    unsigned n = ast_children(fn, kids, 128);
    CXCursor body = n ? kids[n - 1] : clang_getNullCursor();
    if (n && clang_getCursorKind(body) == CXCursor_CompoundStmt) {
        CXCursor stmts[64];
        unsigned m = ast_children(body, stmts, 64);
        for (unsigned i = 0; i < m; i++) {
            CXCursor c = ast_strip(stmts[i]);
            enum CXCursorKind k = clang_getCursorKind(c);
            if (k == CXCursor_CallExpr || k == CXCursor_UnexposedExpr) {
                /* assert() with no declaration in sight (the file relies on
                   nvcc's implicit includes): an unresolved call whose
                   callee still names assert. */
                CXCursor parts[2];
                if (ast_children(c, parts, 2) != 2) continue;
                char *callee = ast_spelling(clang_getCursorReferenced(ast_strip(parts[0])));
                bool is_assert = strcmp(callee, "assert") == 0;
                free(callee);
                if (is_assert) shape_terms(tu, parts[1], sh);
                continue;
            }
            if (k != CXCursor_ConditionalOperator) continue;
            CXCursor arms[3];
            if (ast_children(c, arms, 3) != 3) continue;
            CXCursor call = ast_strip(arms[2]);
            if (clang_getCursorKind(call) != CXCursor_CallExpr) continue;
            /* In a template the call is dependent: its callee names it. */
            char *name = ast_spelling(call);
            if (!*name) {
                free(name);
                name = ast_spelling(clang_getCursorReferenced(ast_strip(ast_child(call, 0))));
            }
            bool is_assert = strstr(name, "assert") != NULL;
            free(name);
            if (is_assert) shape_terms(tu, arms[0], sh);
        }
    }
    /* Only an x extent tells how threads fill a warp. */
    if (sh->b[0] <= 0) memset(sh, 0, sizeof *sh);
}

static void *blockshape_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    struct block_shapes *out = xcalloc(1, sizeof *out);
    out->n = 1;
    if (clang_Cursor_isNull(fn)) return out;
    /* An asserted shape, else each shape the launch sites use (the worst
       counts), else blockDim.x taken as a multiple of 32. */
    asserted_shape(tu, fn, &out->shape[0]);
    if (block_shape_known(&out->shape[0])) return out;
    struct launch_model *m = deps ? analysis_get(deps, &launch_analysis, clang_getNullCursor()) : NULL;
    struct launch_info li;
    unsigned n = 0;
    if (m && launch_function_shapes(m, fn, &li)) {
        for (unsigned i = 0; i < li.n_shapes; i++) {
            memset(&out->shape[n], 0, sizeof out->shape[n]);
            for (int c = 0; c < 3; c++) out->shape[n].b[c] = li.shape[i].b[c];
            out->shape[n].from_launch = true;
            out->shape[n].n_launch = li.n_shapes;
            n++;
        }
    }
    if (n) out->n = n;
    return out;
}

const struct analysis_kind blockshape_analysis = {
    .name = "blockshape",
    .build = blockshape_build,
    .free = free,
};
