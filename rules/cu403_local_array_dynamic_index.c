/* cu403_local_array_dynamic_index.c: CU403 flags a per-thread array indexed
 * with a value that is not a compile-time constant after unrolling, in the
 * shapes where nvcc (CUDA 13.0, sm_90) was measured to keep the array in
 * local memory rather than registers.
 *
 * The verdicts come from analysis/constidx (constant after full unrolling of
 * constant-trip loops, run-time, or unknown: never reported).  ptxas turns a
 * small array with a dynamic index into register selects, so a run-time
 * index is reported only where the measurements put the array in local
 * memory: 8-byte elements always; 4-byte elements when written with a
 * dynamic index inside a loop that stays a loop (8 elements or more), read
 * with one there (16 or more), or read or written with one elsewhere (128 or
 * more); and when the
 * index is a loop counter whose trip count the array's extent bounds, from 32
 * elements written or 64 read. */
#include "analysis/constidx.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

/* Element counts from which a dynamic index puts a 4-byte-element array in
   local memory (ptxas -v stack frame, kernels/candidates/measure.py). */
#define MIN_ELEMS_WRITE 8
#define MIN_ELEMS_LOOP_READ 16
#define MIN_ELEMS_READ 128
/* The index is a loop counter with a constant start and step: the compiler
   may bound the loop by the array's extent and unroll it (measured: up to
   32 elements read, 16 written, stay in registers). */
#define MIN_ELEMS_BOUNDED_WRITE 32
#define MIN_ELEMS_BOUNDED_READ 64

/* Does this use put the array in local memory, by the measurements? */
static bool goes_local(const struct local_arrays *la, const struct local_index *u)
{
    if (u->verdict != IDX_RUNTIME || u->forwarded) return false;
    const struct local_array *a = &la->arrays[u->array];
    if (!a->scalar) return false;
    if (a->elem_size == 8) return true;
    if (a->elem_size != 4) return false;
    if (u->counter_bounded)
        return a->elems >= (u->write ? MIN_ELEMS_BOUNDED_WRITE : MIN_ELEMS_BOUNDED_READ);
    if (u->write) return a->elems >= (u->in_loop ? MIN_ELEMS_WRITE : MIN_ELEMS_READ);
    if (u->in_loop) return a->elems >= MIN_ELEMS_LOOP_READ;
    return a->elems >= MIN_ELEMS_READ;
}

static const char *type_word(CXCursor decl)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    while (t.kind == CXType_ConstantArray) t = clang_getCanonicalType(clang_getArrayElementType(t));
    switch (t.kind) {
    case CXType_Float: return "floats";
    case CXType_Double: return "doubles";
    case CXType_Int: return "ints";
    case CXType_UInt: return "unsigned ints";
    default: return "elements";
    }
}

/* The index as written: where it is a macro's argument (CHECK(t[i + 1])),
   the argument's own text, not the macro's name; elsewhere what the user
   wrote at the use (a macro used as the whole index keeps its name). */
static char *index_text(struct rule_ctx *ctx, CXCursor index)
{
    char *t = ast_macro_spelled_text(ctx->tu, index, false);
    if (t && strlen(t) > 60) strcpy(t + 57, "...");
    return t ? t : ctx_use_text(ctx, index);
}

static void cu403_on_cursor(struct rule_ctx *ctx, CXCursor c)
{
    if (!ctx->in_device_code || ctx_in_instantiation(ctx)) return;
    if (clang_Cursor_isNull(ctx->function)) return;
    struct local_arrays *la = ctx_analysis(ctx, &constidx_analysis);
    if (!la) return;
    const struct local_index *u = local_arrays_find(la, c);
    if (!u || !goes_local(la, u)) return;
    /* one finding per array: at its first such use */
    for (size_t i = 0; i < la->n_uses; i++) {
        const struct local_index *o = &la->uses[i];
        if (o == u) break;
        if (o->array == u->array && goes_local(la, o)) return;
    }
    const struct local_array *a = &la->arrays[u->array];
    char *name = ast_spelling(a->decl);
    char *idx = index_text(ctx, u->index);
    struct diag *d = ctx_report(
        ctx, c,
        "per-thread array '%s' (%lld %s, %lld bytes) is %s with '%s', which is not a "
        "compile-time constant even after unrolling: the array is placed in local memory "
        "(off-chip, cached in L1) instead of registers",
        name, a->elems, type_word(a->decl), a->elems * a->elem_size,
        u->write ? "written" : "read", idx);
    if (d) {
        ctx_note(ctx, d, a->decl, "'%s' is declared here", name);
        ctx_note(ctx, d, c,
                 "index it only with constants and the counters of loops with constant trip "
                 "counts (nvcc unrolls those fully): loop over the whole array and select with a "
                 "condition, or keep the data in shared memory");
    }
    free(idx);
    free(name);
}

static const enum CXCursorKind cu403_kinds[] = {CXCursor_ArraySubscriptExpr, 0};

const struct rule rule_cu403 = {
    .code = "CU403",
    .name = "local-array-dynamic-index",
    .summary = "A per-thread array is indexed with a value that is not a constant after unrolling, so it lives in local memory instead of registers.",
    .severity = SEV_WARNING,
    .category = "performance",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "0.94 (frozen test sets: 13 of 14 findings true on the sixth frozen test set of 2026-12-07, an 8 KB array in local memory whatever its index; 3 of 3 on the fourth, 1 of 1 on the third)",
    .version = 2,
    .has_fix = false,
    .doc = "rules/CU403-local-array-dynamic-index.md",
    .kernel = "kernels/cu403_local_array_dynamic_index",
    .subscriptions = cu403_kinds,
    .on_cursor = cu403_on_cursor,
};
