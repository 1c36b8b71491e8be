/* cu402_uncoalesced_global_access.c: CU402 flags a global load or store of a
 * kernel whose address puts consecutive lanes of a warp more than one
 * element apart, so that one warp request needs several times the fewest
 * 32-byte sectors.
 *
 * The access must go through a pointer the coalescing analysis follows to the
 * kernel's own parameter (analysis/coalesce.h); its element offset is read as
 * an affine form of threadIdx (analysis/affine.h), plus, for a row per
 * thread, a uniform factor times threadIdx when the thread also walks along
 * its row with an enclosing loop's counter.  The sector model gives the
 * sectors per request against the minimum, with each block shape the launch
 * sites give (analysis/launch.h), or a warp of 32 consecutive threadIdx.x. */
#include "analysis/affine.h"
#include "analysis/coalesce.h"
#include "analysis/divergence.h"
#include "analysis/launch.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

/* A row per thread's stride is a run-time value: taken as this many elements
   (any value of at least one sector per lane gives the same count). */
#define SYMBOLIC_STRIDE 1024

/* The element offset of an access: threadIdx coefficients (constant), and
   for each component a uniform run-time factor times threadIdx. */
struct form {
    long long tid[3];
    bool sym[3];
    long long sym_coeff[3];
    CXCursor sym_factor; /* the uniform factor, for the message */
    bool walks;          /* an enclosing for loop's counter is added */
};

/* Does a loop counter start at a value the same in every thread?  A
   thread-strided loop (`for (i = threadIdx.x; i < n; i += blockDim.x)`)
   does not: consecutive threads hold consecutive i, and `x[i * incx]` in it
   is not a thread walking its own row. */
static bool uniform_start(struct rule_ctx *ctx, CXCursor start)
{
    return !clang_Cursor_isNull(start) && affine_is_uniform(ctx_analysis(ctx, &affine_analysis), start);
}

/* Is sym (a form's uniform term) the counter of a for loop around the
   current cursor, starting at a value the same in every thread? */
static bool is_enclosing_counter(struct rule_ctx *ctx, CXCursor sym)
{
    if (clang_getCursorKind(sym) != CXCursor_VarDecl) return false;
    for (unsigned i = 0; i < ctx->depth; i++) {
        CXCursor p = ctx_parent(ctx, i);
        if (clang_Cursor_isNull(p)) break;
        if (clang_getCursorKind(p) != CXCursor_ForStmt) continue;
        CXCursor init = ast_child(p, 0);
        if (clang_getCursorKind(init) == CXCursor_BinaryOperator &&
            ast_binop(init) == CXBinaryOperator_Assign) {
            /* for (k = 0; ...) with k declared earlier (C style) */
            CXCursor lhs = ast_strip(ast_child(init, 0));
            if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
                clang_equalCursors(clang_getCursorReferenced(lhs), sym))
                return uniform_start(ctx, ast_child(init, 1));
            continue;
        }
        if (clang_getCursorKind(init) != CXCursor_DeclStmt) continue;
        CXCursor vars[4];
        unsigned n = ast_children(init, vars, 4);
        for (unsigned k = 0; k < n; k++)
            if (clang_equalCursors(vars[k], sym)) return uniform_start(ctx, clang_Cursor_getVarDeclInitializer(sym));
    }
    return false;
}

/* A counter of an enclosing for loop that starts at a uniform value and
   steps by one (`for (k = 0; k < n; ++k)`, k declared earlier): whatever
   the thread-dependence analysis says about code after a divergent early
   return, the lanes that run the body hold the same k. */
static bool uniform_walk_counter(struct rule_ctx *ctx, CXCursor var)
{
    for (unsigned i = 0; i < ctx->depth; i++) {
        CXCursor p = ctx_parent(ctx, i);
        if (clang_Cursor_isNull(p)) break;
        if (clang_getCursorKind(p) != CXCursor_ForStmt) continue;
        CXCursor kids[4];
        if (ast_children(p, kids, 4) != 4) continue;
        CXCursor init = kids[0], start = clang_getNullCursor();
        if (clang_getCursorKind(init) == CXCursor_BinaryOperator &&
            ast_binop(init) == CXBinaryOperator_Assign) {
            CXCursor lhs = ast_strip(ast_child(init, 0));
            if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
                clang_equalCursors(clang_getCursorReferenced(lhs), var))
                start = ast_child(init, 1);
        } else if (clang_getCursorKind(init) == CXCursor_DeclStmt &&
                   clang_equalCursors(ast_child(init, 0), var)) {
            start = clang_Cursor_getVarDeclInitializer(var);
        }
        if (clang_Cursor_isNull(start)) continue;
        CXCursor inc = ast_strip(kids[2]);
        if (clang_getCursorKind(inc) != CXCursor_UnaryOperator) return false;
        CXCursor iv = ast_strip(ast_child(inc, 0));
        if (clang_getCursorKind(iv) != CXCursor_DeclRefExpr ||
            !clang_equalCursors(clang_getCursorReferenced(iv), var))
            return false;
        CXCursor cond = ast_strip(kids[1]);
        if (clang_getCursorKind(cond) != CXCursor_BinaryOperator) return false;
        return affine_is_uniform(ctx_analysis(ctx, &affine_analysis), start) &&
               affine_is_uniform(ctx_analysis(ctx, &affine_analysis), ast_child(cond, 1));
    }
    return false;
}

static void form_add_affine(struct rule_ctx *ctx, struct form *f, const struct affine *a, long long k)
{
    for (int c = 0; c < 3; c++) f->tid[c] += k * a->tid[c];
    for (unsigned i = 0; i < a->n_symbols; i++)
        if (a->coeff[i] && is_enclosing_counter(ctx, a->symbol[i])) f->walks = true;
}

static bool form_uniform(const struct form *f)
{
    for (int c = 0; c < 3; c++)
        if (f->tid[c] || f->sym[c]) return false;
    return true;
}

static bool index_form(struct rule_ctx *ctx, const struct global_accesses *g, CXCursor e,
                       struct form *f, long long k, int depth)
{
    if (depth > 12) return false;
    struct affine a;
    if (affine_of(ctx_analysis(ctx, &affine_analysis), e, &a)) {
        form_add_affine(ctx, f, &a, k);
        return true;
    }
    e = ast_strip(e);
    switch (clang_getCursorKind(e)) {
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = ast_binop(e);
        CXCursor l = ast_child(e, 0), r = ast_child(e, 1);
        if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)
            return index_form(ctx, g, l, f, k, depth + 1) &&
                   index_form(ctx, g, r, f, op == CXBinaryOperator_Sub ? -k : k, depth + 1);
        if (op != CXBinaryOperator_Mul) return false;
        /* a uniform factor times a form in threadIdx: constant -> scaled,
           run-time -> a symbolic stride */
        struct form fl, fr;
        memset(&fl, 0, sizeof fl);
        memset(&fr, 0, sizeof fr);
        fl.sym_factor = fr.sym_factor = clang_getNullCursor();
        if (!index_form(ctx, g, l, &fl, 1, depth + 1) || !index_form(ctx, g, r, &fr, 1, depth + 1))
            return false;
        bool lu = form_uniform(&fl), ru = form_uniform(&fr);
        f->walks |= fl.walks || fr.walks;
        if (lu && ru) return true;
        if (!lu && !ru) return false;
        const struct form *t = lu ? &fr : &fl;
        CXCursor u = lu ? l : r;
        long long kc;
        bool constant = ast_eval_int(ast_strip(u), &kc);
        for (int c = 0; c < 3; c++) {
            if (constant) {
                f->tid[c] += k * kc * t->tid[c];
                if (t->sym[c]) {
                    f->sym[c] = true;
                    f->sym_coeff[c] += k * kc * t->sym_coeff[c];
                }
            } else {
                if (t->sym[c]) return false; /* n * m * threadIdx: not read */
                if (!t->tid[c]) continue;
                f->sym[c] = true;
                f->sym_coeff[c] += k * t->tid[c];
            }
        }
        if (constant && !clang_Cursor_isNull(t->sym_factor) && clang_Cursor_isNull(f->sym_factor))
            f->sym_factor = t->sym_factor;
        if (!constant && clang_Cursor_isNull(f->sym_factor)) f->sym_factor = ast_strip(u);
        return true;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(e);
        if (clang_getCursorKind(d) != CXCursor_VarDecl) return false;
        if (uniform_walk_counter(ctx, d)) {
            /* the same in every lane that runs the access */
            f->walks = true;
            return true;
        }
        if (!global_accesses_var_single_def(g, d)) return false;
        CXCursor init = clang_Cursor_getVarDeclInitializer(d);
        if (clang_Cursor_isNull(init)) return false;
        return index_form(ctx, g, init, f, k, depth + 1);
    }
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr: {
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        return n && index_form(ctx, g, kids[n - 1], f, k, depth + 1);
    }
    default:
        return false;
    }
}

/* Does component c of threadIdx vary within a warp of this shape? */
static bool varies_in_warp(const long long block[3], int c)
{
    if (block[0] <= 0) return c == 0; /* 32 consecutive threadIdx.x */
    if (c == 0) return block[0] > 1;
    if (c == 1) return block[1] > 1 && block[0] < 32;
    return block[2] > 1 && block[0] * (block[1] > 0 ? block[1] : 1) < 32;
}

struct verdict {
    struct coalesce_result r;
    long long block[3];
    bool symbolic; /* the stride is a run-time value */
};

static bool judge(const struct global_access *ga, const struct form *f, const long long block[3],
                  struct verdict *v)
{
    /* A warp that spans rows (a 2-D block narrower than a warp, the row
       index in the address) is judged against the same rows read with
       consecutive threadIdx.x on consecutive elements. */
    bool rows_apart = false;
    long long row_span = (f->tid[0] < 0 ? -f->tid[0] : f->tid[0]) * ga->elem_size * (block[0] > 0 ? block[0] : 32);
    for (int c = 1; c < 3; c++) {
        if (!varies_in_warp(block, c) || f->sym[0]) continue;
        long long stride = (f->tid[c] < 0 ? -f->tid[c] : f->tid[c]) * ga->elem_size;
        /* rows of a run-time length, or a constant one past a sector and
           past the row's own lanes */
        if (f->sym[c] || (stride >= 32 && stride >= row_span)) rows_apart = true;
    }
    struct coalesce_pattern p;
    memset(&p, 0, sizeof p);
    memset(v, 0, sizeof *v);
    /* p[i].x: judged as the whole element, whose other members the same
       thread usually reads too (structure-of-arrays advice is not this rule's) */
    p.width = ga->width < ga->elem_size ? ga->elem_size : ga->width;
    for (int c = 0; c < 3; c++) {
        p.block[c] = block[c];
        v->block[c] = block[c];
        long long el = f->tid[c];
        if (f->sym[c] && varies_in_warp(block, c)) {
            if (f->sym_coeff[c] == 0) return false;
            if (c > 0 && !f->sym[0]) {
                /* rows of a run-time length (y * n + x): taken as far apart,
                   each row's lanes judged on their own */
                el += f->sym_coeff[c] * SYMBOLIC_STRIDE;
            } else {
                /* only a thread walking its own row is judged with a run-time stride */
                if (!f->walks) return false;
                el += f->sym_coeff[c] * SYMBOLIC_STRIDE;
                v->symbolic = true;
            }
        }
        p.tid_bytes[c] = el * ga->elem_size;
    }
    coalesce_sectors(&p, &v->r);
    if (rows_apart) {
        /* The fewest sectors these lanes could move: the same rows, with
           consecutive threadIdx.x on consecutive elements. */
        struct coalesce_result ideal;
        p.tid_bytes[0] = ga->elem_size;
        coalesce_sectors(&p, &ideal);
        v->r.min_sectors = v->r.unit_sectors = ideal.sectors;
    }
    return true;
}

/* A for loop around the access that starts at threadIdx.x and steps by a
   constant narrower than a warp (`for (r = threadIdx.x; r < n; r += 4)`):
   the block-stride idiom says blockDim.x is that step, which contradicts
   the default warp of 32 consecutive threadIdx.x. */
static bool narrow_block_stride_loop(struct rule_ctx *ctx)
{
    for (unsigned i = 0; i < ctx->depth; i++) {
        CXCursor p = ctx_parent(ctx, i);
        if (clang_Cursor_isNull(p)) break;
        if (clang_getCursorKind(p) != CXCursor_ForStmt) continue;
        CXCursor kids[4];
        if (ast_children(p, kids, 4) != 4 || clang_getCursorKind(kids[0]) != CXCursor_DeclStmt) continue;
        CXCursor var = ast_child(kids[0], 0);
        CXCursor init = clang_Cursor_getVarDeclInitializer(var);
        struct affine a;
        if (clang_Cursor_isNull(init) || !affine_of(ctx_analysis(ctx, &affine_analysis), init, &a) || a.tid[0] != 1) continue;
        CXCursor inc = ast_strip(kids[2]);
        long long step;
        if (clang_getCursorKind(inc) == CXCursor_CompoundAssignOperator &&
            ast_binop(inc) == CXBinaryOperator_AddAssign && ast_eval_int(ast_child(inc, 1), &step) &&
            step > 0 && step < 32)
            return true;
    }
    return false;
}

struct reported {
    unsigned *line, *ptr;
    size_t n, cap;
};

static void reported_free(void *p)
{
    struct reported *r = p;
    free(r->line);
    free(r->ptr);
    free(r);
}

static void cu402_on_cursor(struct rule_ctx *ctx, CXCursor c)
{
    if (!ctx->in_device_code || ctx_in_instantiation(ctx)) return;
    if ((ctx->function_space & SPACE_GLOBAL) != SPACE_GLOBAL) return;
    struct global_accesses *g = ctx_analysis(ctx, &coalesce_analysis);
    const struct global_access *ga = global_access_find(g, c);
    if (!ga || ga->width > 16 || ga->elem_size > 16) return;

    struct form f;
    memset(&f, 0, sizeof f);
    f.sym_factor = clang_getNullCursor();
    if (!clang_Cursor_isNull(ga->offset) && !index_form(ctx, g, ga->offset, &f, 1, 0)) return;
    if (!index_form(ctx, g, ga->index, &f, 1, 0)) return;

    /* each block shape the launch sites give, else a warp of 32 threadIdx.x */
    long long shapes[LAUNCH_MAX_SHAPES][3];
    unsigned n_shapes = 0;
    struct launch_info li;
    if (launch_block_shapes(ctx_analysis(ctx, &launch_analysis), ctx->function, &li)) {
        for (unsigned i = 0; i < li.n_shapes && n_shapes < LAUNCH_MAX_SHAPES; i++, n_shapes++)
            for (int k = 0; k < 3; k++) shapes[n_shapes][k] = li.shape[i].b[k];
    }
    bool from_launch = n_shapes > 0;
    if (!n_shapes && narrow_block_stride_loop(ctx)) return;
    /* A 2-D index (threadIdx.y or .z in it) with no launch in sight: how
       many rows a warp spans depends on the block's width, so the finding
       must hold for the widths 2-D launches use (8x8, 16x16, 32x8); it is
       judged by the one that wastes least. */
    bool two_d = !n_shapes && (f.tid[1] || f.tid[2] || f.sym[1] || f.sym[2]);
    static const long long common_2d[3][3] = {{32, 8, 1}, {16, 16, 1}, {8, 8, 1}};
    if (two_d) {
        for (unsigned i = 0; i < 3; i++, n_shapes++)
            memcpy(shapes[n_shapes], common_2d[i], sizeof common_2d[i]);
    } else if (!n_shapes) {
        memset(shapes[0], 0, sizeof shapes[0]);
        n_shapes = 1;
    }
    struct verdict worst;
    memset(&worst, 0, sizeof worst);
    bool have = false;
    for (unsigned i = 0; i < n_shapes; i++) {
        struct verdict v;
        if (!judge(ga, &f, shapes[i], &v)) return; /* one shape we cannot judge: silent */
        /* a guessed shape in which nothing is wasted: silent */
        if (two_d && (v.r.sectors <= v.r.min_sectors || v.r.sectors <= v.r.unit_sectors)) return;
        /* launched shapes: the worst one; guessed 2-D shapes: the best */
        bool more = (unsigned long long)v.r.sectors * worst.r.min_sectors >
                    (unsigned long long)worst.r.sectors * v.r.min_sectors;
        if (!have || (two_d ? !more && (unsigned long long)v.r.sectors * worst.r.min_sectors <
                                              (unsigned long long)worst.r.sectors * v.r.min_sectors
                            : more)) {
            worst = v;
            have = true;
        }
    }
    if (!have || worst.r.min_sectors == 0 || worst.r.sectors <= worst.r.min_sectors) return;
    /* No more sectors than the same lanes reading consecutive elements: a
       row index from threadIdx.y in a block narrower than a warp reads one
       element per row, a broadcast; coalescing it would not save a sector. */
    if (worst.r.sectors <= worst.r.unit_sectors) return;
    /* the scalar path of a vectorised one: in[4 * i + k] where the kernel
       also reads ((float4 *)in)[i] (the tail of the array, typically) */
    if (!worst.symbolic && f.tid[0] &&
        global_accesses_has_view(g, ga->param, (f.tid[0] < 0 ? -f.tid[0] : f.tid[0]) * ga->elem_size))
        return;

    /* An access that at most one lane of a warp runs at a time (the tail
       of a vectorised row, the last thread of a block) moves one sector,
       whatever its stride: asked of the solver last, as it costs most. */
    if (divergence_one_lane_reaches(ctx_analysis(ctx, &divergence_analysis), c)) return;

    /* one finding per pointer and line: X[i] = X[i] - X[i - 1] is one place to fix */
    struct reported *rep = ctx_fn_cache_get(ctx, "cu402.reported");
    if (!rep) {
        rep = xcalloc(1, sizeof *rep);
        ctx_fn_cache_set(ctx, "cu402.reported", rep, reported_free);
    }
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    unsigned ph = clang_hashCursor(ga->pointer);
    for (size_t i = 0; i < rep->n; i++)
        if (rep->line[i] == line && rep->ptr[i] == ph) return;
    if (rep->n == rep->cap) {
        rep->cap = rep->cap ? rep->cap * 2 : 16;
        rep->line = xrealloc(rep->line, rep->cap * sizeof *rep->line);
        rep->ptr = xrealloc(rep->ptr, rep->cap * sizeof *rep->ptr);
    }
    rep->line[rep->n] = line;
    rep->ptr[rep->n++] = ph;

    const char *what = ga->load && ga->store ? "read-modify-write" : ga->store ? "store" : "load";
    char *ptr = ast_spelling(ga->pointer);
    struct strbuf m;
    sb_init(&m);
    sb_addf(&m, "uncoalesced global %s of '%s': ", what, ptr);
    if (worst.symbolic) {
        /* the stride's own name, also where it is spelled inside a macro
           (not the macro's use, which reads as the whole index) */
        char *n = ast_macro_spelled_text(ctx->tu, f.sym_factor, true);
        if (!n) n = ctx_use_text(ctx, f.sym_factor);
        long long k = f.sym_coeff[0] ? f.sym_coeff[0] : f.sym_coeff[1] ? f.sym_coeff[1] : f.sym_coeff[2];
        if (k == 1 || k == -1)
            sb_addf(&m, "consecutive threadIdx.x are '%s' elements apart (a run-time "
                        "stride); ", n);
        else
            sb_addf(&m, "consecutive threadIdx.x are %lld * '%s' elements apart (a "
                        "run-time stride); ", k < 0 ? -k : k, n);
        free(n);
    } else if (f.tid[0] && (worst.block[0] <= 0 || worst.block[0] >= 2)) {
        long long s = f.tid[0] < 0 ? -f.tid[0] : f.tid[0];
        sb_addf(&m, "consecutive threadIdx.x are %lld elements (%lld bytes) apart; ", s,
                s * ga->elem_size);
    }
    unsigned ratio10 = worst.r.sectors * 10 / worst.r.min_sectors;
    sb_addf(&m, "a warp request touches %u 32-byte sectors where %u would do (%u.%ux the sectors "
                "moved)",
            worst.r.sectors, worst.r.min_sectors, ratio10 / 10, ratio10 % 10);
    if (from_launch && worst.block[0] > 0)
        sb_addf(&m, " in the %lldx%lldx%lld blocks it is launched with", worst.block[0],
                worst.block[1], worst.block[2]);
    else if (two_d)
        sb_addf(&m, " in a %lldx%lldx%lld block, the least of the common 2-D shapes (its launch is not in sight)",
                worst.block[0], worst.block[1], worst.block[2]);
    struct diag *d = ctx_report(ctx, c, "%s", m.buf);
    if (d) {
        if (worst.symbolic)
            ctx_note(ctx, d, c,
                     "%u sectors per request when the row length is at least %lld elements; let "
                     "consecutive threads take consecutive elements (threadIdx.x on the "
                     "contiguous index), or stage rows through a shared-memory tile",
                     worst.r.sectors, (32 + ga->elem_size - 1) / ga->elem_size);
        else
            ctx_note(ctx, d, c,
                     "let consecutive threads take consecutive elements: a transposed (structure "
                     "of arrays) layout, or a shared-memory tile loaded with unit stride and read "
                     "with this pattern");
    }
    sb_release(&m);
    free(ptr);
}

static const enum CXCursorKind cu402_kinds[] = {CXCursor_ArraySubscriptExpr, 0};

const struct rule rule_cu402 = {
    .code = "CU402",
    .name = "uncoalesced-global-access",
    .summary = "A global load or store puts consecutive threads of a warp more than one element apart, so each request needs several times the fewest 32-byte sectors.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_KERNEL,
    .status = STATUS_PREVIEW,
    .precision = "0.90 (sixth frozen test set of 2026-12-07, after the rule's last change: 18 of 20 sampled findings true, of 81: a 2-D block launched through the driver API in another file; 1 of 1 on the fifth)",
    .version = 2,
    .has_fix = false,
    .doc = "rules/CU402-uncoalesced-global-access.md",
    .kernel = "kernels/cu402_uncoalesced_global_access",
    .subscriptions = cu402_kinds,
    .on_cursor = cu402_on_cursor,
};
