/* cu507_deprecated_runtime_api.c: CU507 flags calls of CUDA runtime and driver API functions that CUDA deprecated or removed (with a fix-it to a drop-in replacement), texture and surface references (removed in CUDA 12) as errors, and reads of cudaDeviceProp fields CUDA 13 removed; silent in a header that its project includes only under a CUDA-version conditional. */
#include "analysis/hostapi.h"
#include "clang/astutil.h"
#include "core/rule.h"
#include "frontend/includers.h"
#include "base/util.h"
#include "engine/walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The range of the name at cursor c (a DeclRefExpr or OverloadedDeclRef),
   when it is written in the file, not produced by a macro. */
static bool name_range(struct rule_ctx *ctx, CXCursor c, const char *name, CXSourceRange *out)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile ef, sf;
    unsigned eo, so;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    if (!ef || !sf || !clang_File_isEqual(ef, sf) || eo != so) return false;
    CXToken *tok = clang_getToken(ctx->tu, loc);
    if (!tok) return false;
    CXString sp = clang_getTokenSpelling(ctx->tu, *tok);
    bool same = strcmp(clang_getCString(sp), name) == 0;
    clang_disposeString(sp);
    if (same) *out = clang_getTokenExtent(ctx->tu, *tok);
    clang_disposeTokens(ctx->tu, tok, 1);
    return same;
}

/* Per translation unit: is the main file compiled only for older toolkits
   (every file of the tree that includes it does so under a CUDA-version
   conditional)?  Then the API it uses is what those toolkits had.  Asked
   when there is something to report: the answer reads the tree's includes. */
struct state {
    int older_toolkits_only; /* -1: not asked yet */
};

static void *cu507_begin(struct rule_ctx *ctx)
{
    (void)ctx;
    struct state *st = xcalloc(1, sizeof *st);
    st->older_toolkits_only = -1;
    return st;
}

static void cu507_end(struct rule_ctx *ctx, void *state)
{
    (void)ctx;
    free(state);
}

static bool older_toolkits_only(struct rule_ctx *ctx)
{
    struct state *st = ctx_rule_state(ctx);
    if (!st) return false;
    if (st->older_toolkits_only < 0) {
        st->older_toolkits_only = 0;
        if (ctx->opts && ctx->main_file) {
            char *abs = path_absolute(ctx->main_file);
            st->older_toolkits_only = includers_only_under_version_guard(ctx->opts, abs);
            free(abs);
        }
    }
    return st->older_toolkits_only == 1;
}

static void report_call(struct rule_ctx *ctx, CXCursor at, const char *name)
{
    const struct hostapi_deprecation *dp = hostapi_deprecated(name);
    if (!dp || older_toolkits_only(ctx)) return;
    struct diag *d;
    if (dp->texture_reference) {
        d = ctx_report(ctx, at,
                       "'%s' belongs to the texture and surface reference API, %s in CUDA %s: %s",
                       name, dp->removed ? "removed" : "deprecated", dp->removed ? dp->removed : dp->since,
                       dp->advice);
        if (d && dp->removed) d->severity = SEV_ERROR;
        return;
    }
    char removed[48] = "";
    if (dp->removed) snprintf(removed, sizeof removed, " and removed in CUDA %s", dp->removed);
    if (dp->replacement) {
        d = ctx_report(ctx, at, "'%s' is deprecated since CUDA %s%s: use '%s', which takes the same arguments",
                       name, dp->since, removed, dp->replacement);
        CXSourceRange r;
        if (d && name_range(ctx, at, name, &r)) ctx_fix(ctx, d, r, dp->replacement);
    } else {
        ctx_report(ctx, at, "'%s' is deprecated since CUDA %s%s: %s", name, dp->since, removed,
                   dp->advice);
    }
}

/* texture<T, dim, mode> name; / surface<void, dim> name; at file or
   namespace scope.  The template is declared again for old code
   (cudalint/removed_api.h), but a broken declaration (other headers) has no
   type to ask: the tokens tell. */
static void check_reference_decl(struct rule_ctx *ctx, CXCursor var)
{
    CXCursor sp = clang_getCursorSemanticParent(var);
    enum CXCursorKind pk = clang_getCursorKind(sp);
    if (pk != CXCursor_TranslationUnit && pk != CXCursor_Namespace) return;
    CXSourceRange ext = clang_getCursorExtent(var);
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(ctx->tu, ext, &toks, &n);
    const char *which = NULL;
    for (unsigned i = 0; i + 1 < n && i < 4; i++) {
        CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
        const char *t = clang_getCString(s);
        bool qualifier = !strcmp(t, "static") || !strcmp(t, "extern") || !strcmp(t, "const");
        if (!strcmp(t, "texture") || !strcmp(t, "surface")) {
            CXString s2 = clang_getTokenSpelling(ctx->tu, toks[i + 1]);
            if (!strcmp(clang_getCString(s2), "<")) which = t[0] == 't' ? "texture" : "surface";
            clang_disposeString(s2);
        }
        clang_disposeString(s);
        if (which || !qualifier) break;
    }
    clang_disposeTokens(ctx->tu, toks, n);
    if (!which || older_toolkits_only(ctx)) return;
    char *name = ast_spelling(var);
    struct diag *d = ctx_report(ctx, var,
                                "%s reference '%s': %s references were removed in CUDA 12.0; use a %s "
                                "object (cuda%sObject_t, created with cudaCreate%sObject and passed "
                                "to the kernel)",
                                which, name, which, which, which[0] == 't' ? "Texture" : "Surface",
                                which[0] == 't' ? "Texture" : "Surface");
    if (d) d->severity = SEV_ERROR;
    free(name);
}

/* prop.clockRate: a field CUDA removed, of the toolkit's (or the
   declarations header's) struct, which both still declare for old code. */
static void check_removed_field(struct rule_ctx *ctx, CXCursor member)
{
    CXCursor field = clang_getCursorReferenced(member);
    if (clang_getCursorKind(field) != CXCursor_FieldDecl) return;
    if (!clang_Location_isInSystemHeader(clang_getCursorLocation(field))) return;
    char *record = ast_spelling(clang_getCursorSemanticParent(field));
    char *name = ast_spelling(field);
    const struct hostapi_removed_field *rf = hostapi_removed_field(record, name);
    if (rf && !older_toolkits_only(ctx))
        ctx_report(ctx, member, "'%s::%s' was removed in CUDA %s: %s", record, name, rf->removed, rf->advice);
    free(record);
    free(name);
}

static void cu507_on_cursor(struct rule_ctx *ctx, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_MemberRefExpr) {
        if (!ctx->in_device_code && !clang_Cursor_isNull(ctx->function) && !ctx_in_instantiation(ctx))
            check_removed_field(ctx, c);
        return;
    }
    if (k == CXCursor_VarDecl) {
        if (clang_Cursor_isNull(ctx->function)) check_reference_decl(ctx, c);
        return;
    }
    if (ctx->in_device_code || clang_Cursor_isNull(ctx->function)) return;
    if (ctx_in_instantiation(ctx)) return;
    char *name = NULL;
    if (k == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(ref) || clang_getCursorKind(ref) != CXCursor_FunctionDecl) return;
        name = ast_spelling(c);
        /* The toolkit's or the declarations header's function, not a
           project's own function of the same name. */
        if (!name[0] || !hostapi_deprecated(name) ||
            !clang_Location_isInSystemHeader(clang_getCursorLocation(ref))) {
            free(name);
            return;
        }
    } else if (k == CXCursor_OverloadedDeclRef) {
        /* A name the headers no longer declare (removed APIs with the
           toolkit's own headers). */
        name = ast_spelling(c);
        if (clang_getNumOverloadedDecls(c) != 0 && !hostapi_deprecated(name)) {
            free(name);
            return;
        }
    } else {
        return;
    }
    /* A <<<...>>> launch is lowered to an implicit configuration call
       (cudaConfigureCall with some headers), also inside macros. */
    if (!strcmp(name, "cudaConfigureCall")) {
        /* The implicit call is located at the `<<<` it stands for (in a
           macro's definition when the launch is written in one, and whatever
           the callee: in a template it is not resolved). */
        CXFile sf;
        unsigned so;
        size_t size = 0;
        clang_getSpellingLocation(clang_getCursorLocation(c), &sf, NULL, NULL, &so);
        const char *txt = sf ? ast_file_contents(ctx->tu, sf, &size) : NULL;
        if (txt && so + 3 <= size && memcmp(txt + so, "<<<", 3) == 0) {
            free(name);
            return;
        }
        for (unsigned n = 0; n < 4; n++) {
            CXCursor p = ctx_parent(ctx, n);
            if (clang_Cursor_isNull(p)) break;
            if (clang_getCursorKind(p) != CXCursor_CallExpr) continue;
            CXCursor callee = clang_getCursorReferenced(p);
            if (!clang_Cursor_isNull(callee) && (ast_exec_space(callee) & SPACE_GLOBAL) == SPACE_GLOBAL) {
                free(name);
                return;
            }
        }
    }
    /* The name must be written here (or come from a macro). */
    CXSourceRange r;
    CXFile ef, sf;
    unsigned eo, so;
    clang_getExpansionLocation(clang_getCursorLocation(c), &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(clang_getCursorLocation(c), &sf, NULL, NULL, &so);
    bool from_macro = !ef || !sf || !clang_File_isEqual(ef, sf) || eo != so;
    if (from_macro || name_range(ctx, c, name, &r)) report_call(ctx, c, name);
    free(name);
}

static const enum CXCursorKind cu507_kinds[] = {CXCursor_DeclRefExpr, CXCursor_OverloadedDeclRef,
                                                CXCursor_VarDecl, CXCursor_MemberRefExpr, 0};

const struct rule rule_cu507 = {
    .code = "CU507",
    .name = "deprecated-runtime-api",
    .summary = "A CUDA runtime or driver API function that CUDA deprecated or removed; texture references are errors.",
    .severity = SEV_WARNING,
    .category = "portability",
    .scope = SCOPE_HOST,
    .status = STATUS_STABLE,
    .precision = "1.00 (seventh frozen test set of 2026-12-08: 1 of 1; 20 of 20 sampled on the sixth, of 155, after the rule's last change; 20 of 20 on the fourth, 4 of 4 on the fifth)",
    .version = 2,
    .has_fix = true,
    .doc = "rules/CU507-deprecated-runtime-api.md",
    .kernel = "kernels/cu507_deprecated_runtime_api",
    .subscriptions = cu507_kinds,
    .on_cursor = cu507_on_cursor,
    .tu_begin = cu507_begin,
    .tu_end = cu507_end,
};
