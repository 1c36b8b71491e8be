/* cu601_removed_warp_intrinsic.c: the CU601 removed-warp-intrinsic rule: a
 * call of a warp shuffle or vote without a mask (__shfl, __shfl_up,
 * __shfl_down, __shfl_xor, __ballot, __any, __all).  CUDA 9 deprecated them,
 * they do not compile for sm_70 and later, and CUDA 13's headers no longer
 * declare them.  cudalint's declarations header keeps them (and clang's CUDA
 * headers define them) so that such code parses and is reported here.
 *
 * The fix-it rewrites the call to its _sync form with the full mask when no
 * lane of a warp can skip the call (the warp view, analysis/warp.h);
 * otherwise a note says which mask to pass. */
#include "analysis/warp.h"
#include "clang/astutil.h"
#include "clang/ppcond.h"
#include "core/rule.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

static const char *const removed[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                                      "__ballot", "__any", "__all"};

static const char *removed_name(const char *name)
{
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++)
        if (!strcmp(name, removed[i])) return removed[i];
    return NULL;
}

/* The declaration the call names: its referenced function, or for a call
   in a template that is resolved only at instantiation, the first
   candidate of the overload set. */
static CXCursor callee_decl(CXCursor call)
{
    CXCursor d = clang_getCursorReferenced(call);
    if (!clang_Cursor_isNull(d) && d.kind != CXCursor_OverloadedDeclRef) return d;
    CXCursor first = ast_child(call, 0);
    for (int i = 0; i < 4 && !clang_Cursor_isNull(first); i++) {
        if (first.kind == CXCursor_OverloadedDeclRef) {
            if (clang_getNumOverloadedDecls(first) > 0) return clang_getOverloadedDecl(first, 0);
            return clang_getNullCursor();
        }
        if (first.kind == CXCursor_DeclRefExpr) return clang_getCursorReferenced(first);
        first = ast_child(first, 0);
    }
    return clang_getNullCursor();
}

/* Is the location the same in the file as where it is spelled (not inside
   a macro's expansion)? */
static bool spelled_in_place(CXSourceLocation loc)
{
    CXFile fs, fe;
    unsigned os, oe;
    clang_getSpellingLocation(loc, &fs, NULL, NULL, &os);
    clang_getExpansionLocation(loc, &fe, NULL, NULL, &oe);
    return fs && fe && clang_File_isEqual(fs, fe) && os == oe;
}

/* The callee name's token range and the first argument's start, when both
   are written in the file itself (no macro), for the fix-it. */
static bool fix_range(struct rule_ctx *ctx, CXCursor call, const char *name, CXSourceRange *out)
{
    if (clang_Cursor_getNumArguments(call) < 1) return false;
    CXCursor arg0 = clang_Cursor_getArgument(call, 0);
    CXSourceRange callr = clang_getCursorExtent(call);
    CXSourceLocation start = clang_getRangeStart(callr);
    CXSourceLocation argstart = clang_getRangeStart(clang_getCursorExtent(arg0));
    if (!spelled_in_place(start) || !spelled_in_place(argstart)) return false;
    /* The tokens from the name to the first argument must be exactly
       "name (" : no comments-between tricks, no qualified name. */
    CXToken *toks = NULL;
    unsigned n = 0;
    CXSourceRange head = clang_getRange(start, argstart);
    clang_tokenize(ctx->tu, head, &toks, &n);
    bool ok = false;
    if (n >= 2) {
        CXString s0 = clang_getTokenSpelling(ctx->tu, toks[0]);
        CXString s1 = clang_getTokenSpelling(ctx->tu, toks[1]);
        ok = !strcmp(clang_getCString(s0), name) && !strcmp(clang_getCString(s1), "(");
        clang_disposeString(s0);
        clang_disposeString(s1);
    }
    if (toks) clang_disposeTokens(ctx->tu, toks, n);
    if (ok) *out = head;
    return ok;
}

/* Is the call in one arm of a preprocessor conditional whose other arm
   calls the _sync form (`#if HAVE_SHFL_SYNC ... __shfl_down_sync ... #else
   ... __shfl_down ... #endif`)?  Such a wrapper is already migrated; which
   arm nvcc compiles depends on a configuration macro this parse may not
   see (a header the build generates), so nothing is said. */
static bool migrated_in_other_arm(struct rule_ctx *ctx, CXCursor call, const char *name)
{
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(call), &f, NULL, NULL, &off);
    if (!f) return false;
    size_t len = 0;
    const char *text = ast_file_contents(ctx->tu, f, &len);
    if (!text || off >= len) return false;
    /* Conditions on the CUDA version or architecture are evaluated as nvcc
       does (its macros are predefined): the arm parsed is the arm compiled. */
    static const char *const known[] = {"CUDART_VERSION", "CUDA_VERSION", "__CUDACC_VER_MAJOR__",
                                        "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__", "__CUDACC_VER__",
                                        "__CUDA_API_VERSION", "__CUDA_ARCH__", "__NVCC__", "__CUDACC__",
                                        NULL};
    char *sync = xasprintf("%s_sync", name);
    bool r = ppcond_other_arm_mentions(text, len, off, sync, known);
    free(sync);
    return r;
}

static void cu601_on_cursor(struct rule_ctx *ctx, CXCursor cursor)
{
    if (!ctx_rule_applies_here(ctx) || ctx_in_instantiation(ctx)) return;
    if (!ctx_location_is_linted(ctx, clang_getCursorLocation(cursor))) return;
    char *spelled = ast_spelling(cursor);
    const char *name = removed_name(spelled);
    free(spelled);
    if (!name) return;
    CXCursor call = cursor;
    CXCursor decl = clang_getNullCursor();
    if (cursor.kind == CXCursor_OverloadedDeclRef) {
        if (clang_getNumOverloadedDecls(cursor) > 0) decl = clang_getOverloadedDecl(cursor, 0);
        /* In a template, a call whose overload is picked only at
           instantiation: the callee is an overload set; the call is its
           parent (through implicit wrappers). */
        call = clang_getNullCursor();
        for (unsigned up = 0; up < 3; up++) {
            CXCursor p = ctx_parent(ctx, up);
            if (p.kind == CXCursor_CallExpr) {
                call = p;
                break;
            }
            /* libclang shows the unresolved lookup as a nameless
               DeclRefExpr around the overload set. */
            if (p.kind != CXCursor_UnexposedExpr && p.kind != CXCursor_DeclRefExpr) break;
        }
        if (clang_Cursor_isNull(call)) return;
    }
    /* Only the toolkit's (or cudalint's) intrinsic: a function of the same
       name that the code itself defines is not the removed one. */
    if (clang_Cursor_isNull(decl)) decl = callee_decl(call);
    if (clang_Cursor_isNull(decl) || !clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return;

    if (migrated_in_other_arm(ctx, call, name)) return;

    bool vote = name[2] == 'b' || name[2] == 'a';
    struct diag *d = ctx_report(ctx, call,
                                "'%s' has no mask: the mask-less warp %s were deprecated in CUDA 9, do "
                                "not compile for sm_70 and later, and are gone from CUDA 13; use "
                                "'%s_sync(mask, ...)'",
                                name, vote ? "votes" : "shuffles", name);
    if (!d) return;
    struct warp_view *w = ctx_analysis(ctx, &warp_analysis);
    struct warp_divergence dv;
    bool divergent = !w || warp_stmt_lane_divergent(w, call, vote, &dv);
    CXSourceRange head;
    if (!divergent && fix_range(ctx, call, name, &head)) {
        char *rep = xasprintf("%s_sync(0xffffffff, ", name);
        ctx_fix(ctx, d, head, rep);
        free(rep);
        return;
    }
    if (w && divergent && !clang_Cursor_isNull(dv.at))
        ctx_note(ctx, d, dv.at,
                 "not every lane of a warp reaches the call (%s): the full mask 0xffffffff would name "
                 "lanes that never arrive; pass the lanes that do, e.g. a mask from "
                 "'__ballot_sync(0xffffffff, condition)' computed before the branch",
                 dv.why);
}

static const enum CXCursorKind cu601_kinds[] = {CXCursor_CallExpr, CXCursor_OverloadedDeclRef, 0};

const struct rule rule_cu601 = {
    .code = "CU601",
    .name = "removed-warp-intrinsic",
    .summary = "A warp shuffle or vote without a mask (__shfl_down, __ballot, ...): removed in CUDA 13.",
    .severity = SEV_ERROR,
    .category = "portability",
    .scope = SCOPE_DEVICE,
    .status = STATUS_PREVIEW,
    .precision = "0.00 (sixth frozen test set of 2026-12-07: 0 of 11 findings true: a compatibility wrapper whose arm a generated configuration header picks; the first set of 2026-11-28 read 20 of 20)",
    .version = 2,
    .has_fix = true,
    .doc = "rules/CU601-removed-warp-intrinsic.md",
    .kernel = "kernels/cu601_removed_warp_intrinsic",
    .subscriptions = cu601_kinds,
    .on_cursor = cu601_on_cursor,
};
