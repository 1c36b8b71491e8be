/* walk.c: the single AST walk per parse pass.  Keeps the parent chain and the
 * enclosing function, decides which code is being linted (not system or
 * toolkit headers) and dispatches each cursor to the rules that subscribed to
 * its kind.  Also the reporting helpers rules use. */
#include "engine/walk.h"
#include "clang/astutil.h"
#include "analysis/launch.h"
#include "core/options.h"
#include "core/rule.h"
#include "base/phasetime.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_KIND 1024

struct fn_slot {
    unsigned fn_hash;
    char *key;
    void *value;
    void (*free_fn)(void *);
    struct fn_slot *next;
};

struct file_verdict {
    CXFileUniqueID id;
    bool linted;
};

struct macro_def {
    char *name;
    CXCursor cursor;
};

struct walk_state {
    uint64_t kind_mask[MAX_KIND]; /* bit i: rule_registry[i] wants this kind */
    bool enabled[64];
    bool host[64];                /* rule_registry[i] also reports in host code */
    struct file_verdict *files;
    size_t n_files, cap_files;
    struct macro_def *macros;
    size_t n_macros, cap_macros;
    char *main_abs;
    /* The walk did not descend below WALK_MAX_DEPTH: where it first stopped. */
    bool cut;
    CXCursor cut_at;
    /* Function templates the main file uses (calls, launches, takes the
       address of, instantiates explicitly): canonical cursor hashes, listed
       on the first question. */
    bool used_listed;
    unsigned *used;
    size_t n_used, cap_used;
};

static struct walk_state *state_of(const struct rule_ctx *ctx)
{
    return ctx->walk_private;
}

/* ---- which files are linted ---- */

static bool file_is_linted_uncached(const struct rule_ctx *ctx, CXFile file,
                                    CXSourceLocation loc)
{
    if (clang_Location_isInSystemHeader(loc)) return false;
    CXString name = clang_getFileName(file);
    const char *n = clang_getCString(name);
    bool linted = false;
    if (n) {
        char *abs = path_absolute(n);
        if (strcmp(abs, state_of(ctx)->main_abs) == 0) {
            linted = true;
        } else if (ctx->opts) {
            /* A header counts when it lies under a path the user asked to lint. */
            for (size_t i = 0; i < ctx->opts->roots.len && !linted; i++)
                linted = path_has_prefix_dir(abs, ctx->opts->roots.items[i]);
        }
        free(abs);
    }
    clang_disposeString(name);
    return linted;
}

bool ctx_location_is_linted(const struct rule_ctx *ctx, CXSourceLocation loc)
{
    CXFile file = NULL;
    unsigned line, col, off;
    clang_getExpansionLocation(loc, &file, &line, &col, &off);
    if (!file) return false;
    CXFileUniqueID id;
    /* A file that exists only as editor text, standard input or a built-in
       header (no inode) has no unique ID, or one all such files share:
       decided by name each time. */
    static const CXFileUniqueID none;
    if (clang_getFileUniqueID(file, &id) != 0 || memcmp(&id, &none, sizeof id) == 0)
        return file_is_linted_uncached(ctx, file, loc);
    struct walk_state *st = state_of(ctx);
    for (size_t i = 0; i < st->n_files; i++)
        if (memcmp(&st->files[i].id, &id, sizeof id) == 0) return st->files[i].linted;
    bool linted = file_is_linted_uncached(ctx, file, loc);
    XGROW(st->files, st->n_files, st->cap_files, 16);
    st->files[st->n_files].id = id;
    st->files[st->n_files].linted = linted;
    st->n_files++;
    return linted;
}

/* ---- per-function cache ---- */

void *ctx_fn_cache_get(struct rule_ctx *ctx, const char *key)
{
    unsigned h = clang_hashCursor(ctx->function);
    for (struct fn_slot *s = ctx->slots; s; s = s->next)
        if (s->fn_hash == h && strcmp(s->key, key) == 0) return s->value;
    return NULL;
}

void ctx_fn_cache_set(struct rule_ctx *ctx, const char *key, void *value,
                      void (*free_fn)(void *))
{
    struct fn_slot *s = xcalloc(1, sizeof *s);
    s->fn_hash = clang_hashCursor(ctx->function);
    s->key = xstrdup(key);
    s->value = value;
    s->free_fn = free_fn;
    s->next = ctx->slots;
    ctx->slots = s;
}

static void fn_cache_drop(struct rule_ctx *ctx, unsigned fn_hash)
{
    struct fn_slot **pp = &ctx->slots;
    while (*pp) {
        struct fn_slot *s = *pp;
        if (s->fn_hash == fn_hash) {
            *pp = s->next;
            if (s->free_fn) s->free_fn(s->value);
            free(s->key);
            free(s);
        } else {
            pp = &s->next;
        }
    }
}

/* Frees every rule cache entry (at the end of a TU). */
static void ctx_fn_cache_clear(struct rule_ctx *ctx)
{
    while (ctx->slots) {
        struct fn_slot *s = ctx->slots;
        ctx->slots = s->next;
        if (s->free_fn) s->free_fn(s->value);
        free(s->key);
        free(s);
    }
}

void *ctx_analysis(struct rule_ctx *ctx, const struct analysis_kind *kind)
{
    if (!ctx->analyses) ctx->analyses = analysis_cache_new(ctx->tu);
    return analysis_get(ctx->analyses, kind, ctx->function);
}

/* ---- function templates nothing uses ---- */

static void note_used_template(struct walk_state *st, CXCursor t)
{
    if (clang_Cursor_isNull(t) || clang_getCursorKind(t) != CXCursor_FunctionTemplate) return;
    unsigned h = clang_hashCursor(clang_getCanonicalCursor(t));
    for (size_t i = 0; i < st->n_used; i++)
        if (st->used[i] == h) return;
    XGROW(st->used, st->n_used, st->cap_used, 16);
    st->used[st->n_used++] = h;
}

static enum CXChildVisitResult used_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    struct walk_state *st = data;
    /* Only the main file's code: a template it defines is used after it. */
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit &&
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* An explicit instantiation (or specialization) is a use. */
    if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod)
        note_used_template(st, clang_getSpecializedCursorTemplate(c));
    if (k == CXCursor_OverloadedDeclRef) {
        unsigned n = clang_getNumOverloadedDecls(c);
        for (unsigned i = 0; i < n; i++) note_used_template(st, clang_getOverloadedDecl(c, i));
    } else if ((k >= CXCursor_FirstRef && k <= CXCursor_LastRef) || (k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr)) {
        CXCursor r = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(r)) {
            enum CXCursorKind rk = clang_getCursorKind(r);
            if (rk == CXCursor_FunctionTemplate) note_used_template(st, r);
            else if (rk == CXCursor_FunctionDecl || rk == CXCursor_CXXMethod)
                note_used_template(st, clang_getSpecializedCursorTemplate(r));
        }
    }
    return CXChildVisit_Recurse;
}

/* Is the current cursor inside a function template of the main file that
   nothing in the main file uses?  nvcc emits no code for it, so what a
   performance rule says about its code generation has nothing to measure.
   A template in a header is left alone: the files that include it use it. */
static bool in_unused_template(const struct rule_ctx *ctx)
{
    struct walk_state *st = state_of(ctx);
    for (unsigned n = 0;; n++) {
        CXCursor p = ctx_parent(ctx, n);
        if (clang_Cursor_isNull(p)) return false;
        if (clang_getCursorKind(p) != CXCursor_FunctionTemplate) continue;
        if (!clang_Location_isFromMainFile(clang_getCursorLocation(p))) return false;
        if (!st->used_listed) {
            clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), used_cb, st);
            st->used_listed = true;
        }
        unsigned h = clang_hashCursor(clang_getCanonicalCursor(p));
        for (size_t i = 0; i < st->n_used; i++)
            if (st->used[i] == h) return false;
        return true;
    }
}

/* ---- reporting ---- */

static char *file_name(CXFile f)
{
    CXString s = clang_getFileName(f);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "<unknown>");
    clang_disposeString(s);
    return r;
}

static struct diag *report_at(struct rule_ctx *ctx, CXSourceRange range, const char *fmt,
                              va_list ap)
{
    CXSourceLocation start = clang_getRangeStart(range), end = clang_getRangeEnd(range);
    if (!ctx_location_is_linted(ctx, start)) return NULL;
    if (ctx->rule && ctx->rule->category && !strcmp(ctx->rule->category, "performance") && in_unused_template(ctx))
        return NULL;
    CXFile f, fe;
    unsigned line, col, off, eline, ecol, eoff;
    clang_getExpansionLocation(start, &f, &line, &col, &off);
    clang_getExpansionLocation(end, &fe, &eline, &ecol, &eoff);
    /* A range that ends in another file (or before it starts) is a point. */
    if (!(fe && clang_File_isEqual(f, fe) && (eline > line || (eline == line && ecol > col)))) {
        eline = line;
        ecol = col + 1;
    }
    char *file = file_name(f);
    struct diag *d = diag_new(ctx->out, ctx->rule, file, line, col, eline, ecol, xvasprintf(fmt, ap));
    free(file);
    if (!clang_Cursor_isNull(ctx->function)) {
        CXString s = clang_getCursorSpelling(ctx->function);
        const char *name = clang_getCString(s);
        d->function = xstrdup(name && *name ? name : "<lambda>");
        clang_disposeString(s);
    }
    return d;
}

struct diag *ctx_report(struct rule_ctx *ctx, CXCursor at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct diag *d = report_at(ctx, clang_getCursorExtent(at), fmt, ap);
    va_end(ap);
    return d;
}

struct diag *ctx_report_range(struct rule_ctx *ctx, CXSourceRange range, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct diag *d = report_at(ctx, range, fmt, ap);
    va_end(ap);
    return d;
}

static void note_at(struct diag *d, CXSourceLocation loc, const char *fmt, va_list ap)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(loc, &f, &line, &col, &off);
    char *message = xvasprintf(fmt, ap);
    char *name = f ? file_name(f) : xstrdup(d->file);
    diag_add_note(d, name, line, col, "%s", message);
    free(name);
    free(message);
}

void ctx_note(struct rule_ctx *ctx, struct diag *d, CXCursor at, const char *fmt, ...)
{
    (void)ctx;
    if (!d) return;
    va_list ap;
    va_start(ap, fmt);
    note_at(d, clang_getCursorLocation(at), fmt, ap);
    va_end(ap);
}

void ctx_note_range(struct rule_ctx *ctx, struct diag *d, CXSourceRange at, const char *fmt, ...)
{
    (void)ctx;
    if (!d) return;
    va_list ap;
    va_start(ap, fmt);
    note_at(d, clang_getRangeStart(at), fmt, ap);
    va_end(ap);
}

void ctx_fix(struct rule_ctx *ctx, struct diag *d, CXSourceRange range, const char *replacement)
{
    if (!d) return;
    CXFile f, fe;
    unsigned line, col, off, eline, ecol, eoff;
    clang_getExpansionLocation(clang_getRangeStart(range), &f, &line, &col, &off);
    clang_getExpansionLocation(clang_getRangeEnd(range), &fe, &eline, &ecol, &eoff);
    if (!f || !fe || !clang_File_isEqual(f, fe) || eoff < off) return;
    /* Never edit files the user did not ask to lint. */
    if (!ctx_location_is_linted(ctx, clang_getRangeStart(range))) return;
    char *name = file_name(f);
    diag_add_fix(d, name, line, col, eline, ecol, off, eoff, replacement);
    free(name);
}

CXCursor ctx_parent(const struct rule_ctx *ctx, unsigned n)
{
    if (n >= ctx->depth) return clang_getNullCursor();
    return ctx->parents[ctx->depth - 1 - n];
}

void *ctx_rule_state(const struct rule_ctx *ctx)
{
    for (size_t i = 0; i < rule_registry_len; i++)
        if (rule_registry[i] == ctx->rule) return ctx->rule_state[i];
    return NULL;
}

static bool single_token_definition(struct rule_ctx *ctx, CXCursor def, CXSourceRange *value_range)
{
    if (clang_Cursor_isMacroFunctionLike(def)) return false;
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(ctx->tu, clang_getCursorExtent(def), &toks, &n);
    bool ok = n == 2;
    if (ok) *value_range = clang_getTokenExtent(ctx->tu, toks[1]);
    clang_disposeTokens(ctx->tu, toks, n);
    return ok;
}

bool ctx_macro_single_token(struct rule_ctx *ctx, const char *name, CXCursor known_def,
                            CXSourceRange *value_range)
{
    struct walk_state *st = state_of(ctx);
    for (size_t i = st->n_macros; i-- > 0;)
        if (strcmp(st->macros[i].name, name) == 0) return single_token_definition(ctx, st->macros[i].cursor, value_range);
    /* Definitions in a precompiled preamble (the language server's) are not
       visited: the caller's own cursor stands in, when it is in a linted file. */
    if (clang_getCursorKind(known_def) != CXCursor_MacroDefinition ||
        !ctx_location_is_linted(ctx, clang_getCursorLocation(known_def)))
        return false;
    char *def_name = ast_spelling(known_def);
    bool same = strcmp(def_name, name) == 0;
    free(def_name);
    return same && single_token_definition(ctx, known_def, value_range);
}

/* Source text of an expression as the user wrote it at its use: for code
   from a macro, the macro's use ("THIRD"), never the definition's tokens.
   Long texts are cut.  Caller frees. */
char *ctx_use_text(struct rule_ctx *ctx, CXCursor c)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    CXFile f1, f2;
    unsigned o1, o2;
    clang_getExpansionLocation(clang_getRangeStart(ext), &f1, NULL, NULL, &o1);
    clang_getExpansionLocation(clang_getRangeEnd(ext), &f2, NULL, NULL, &o2);
    if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 < o1) return xstrdup("this expression");
    CXSourceRange r = clang_getRange(clang_getLocationForOffset(ctx->tu, f1, o1),
                                     clang_getLocationForOffset(ctx->tu, f1, o2));
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(ctx->tu, r, &toks, &n);
    struct strbuf sb;
    sb_init(&sb);
    for (unsigned i = 0; i < n; i++) {
        unsigned off;
        clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL, NULL, NULL, &off);
        if (off >= o2 && i > 0) break;
        CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
        const char *t = clang_getCString(s);
        /* spaces only around binary-looking tokens keep "a[i + k]" readable */
        bool tight = i == 0 || strcmp(t, ")") == 0 || strcmp(t, "]") == 0 || strcmp(t, ".") == 0 ||
                     strcmp(t, "(") == 0 || strcmp(t, "[") == 0 || strcmp(t, ",") == 0 ||
                     strcmp(t, "->") == 0 || strcmp(t, "::") == 0 ||
                     (sb.len && strchr("([.", sb.buf[sb.len - 1])) ||
                     (sb.len > 1 && (strcmp(sb.buf + sb.len - 2, "->") == 0 ||
                                     strcmp(sb.buf + sb.len - 2, "::") == 0));
        if (!tight) sb_addc(&sb, ' ');
        sb_add(&sb, t);
        if (strcmp(t, ",") == 0) sb_addc(&sb, ' ');
        clang_disposeString(s);
    }
    clang_disposeTokens(ctx->tu, toks, n);
    if (sb.len > 60) {
        sb.buf[57] = '\0';
        sb.len = 57;
        sb_add(&sb, "...");
    }
    if (sb.len == 0) sb_add(&sb, "this expression");
    return sb_detach(&sb);
}

/* Is the current cursor inside a template instantiation (an explicit
   instantiation's body, which libclang walks besides the template itself)?
   A template is judged once, from its own pattern: arithmetic that depends on
   a template parameter may be float in one instantiation and double in
   another.  An instantiation sits at its template's location; an explicit
   specialization is code the user wrote elsewhere and is judged as such. */
bool ctx_in_instantiation(const struct rule_ctx *ctx)
{
    for (unsigned n = 0;; n++) {
        CXCursor p = ctx_parent(ctx, n);
        if (clang_Cursor_isNull(p)) return false;
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_Constructor &&
            k != CXCursor_Destructor && k != CXCursor_ClassDecl && k != CXCursor_StructDecl)
            continue;
        CXCursor t = clang_getSpecializedCursorTemplate(p);
        if (clang_Cursor_isNull(t)) continue;
        CXFile tf, pf;
        unsigned to, po;
        clang_getSpellingLocation(clang_getCursorLocation(t), &tf, NULL, NULL, &to);
        clang_getSpellingLocation(clang_getCursorLocation(p), &pf, NULL, NULL, &po);
        if (tf && pf && clang_File_isEqual(tf, pf) && to == po) return true;
    }
}

bool ctx_at_function_body(const struct rule_ctx *ctx)
{
    return !clang_Cursor_isNull(ctx->function) && clang_equalCursors(ctx_parent(ctx, 0), ctx->function);
}

bool ctx_at_host_body(const struct rule_ctx *ctx)
{
    if (ctx->in_device_code || !ctx_at_function_body(ctx)) return false;
    if (clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr) return false;
    return !ctx_in_instantiation(ctx);
}

bool ctx_rule_applies_here(const struct rule_ctx *ctx)
{
    if (ctx->in_device_code) return true;
    if (clang_Cursor_isNull(ctx->function)) return false;
    const struct walk_state *st = state_of(ctx);
    for (size_t i = 0; i < rule_registry_len && i < 64; i++)
        if (rule_registry[i] == ctx->rule) return st->host[i];
    return false;
}

/* ---- the walk ---- */

static bool is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
           k == CXCursor_FunctionTemplate || k == CXCursor_LambdaExpr;
}

static void push_parent(struct rule_ctx *ctx, CXCursor c)
{
    XGROW(ctx->parents, ctx->depth, ctx->parents_cap, 64);
    ctx->parents[ctx->depth++] = c;
}

static void dispatch(struct rule_ctx *ctx, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((unsigned)k >= MAX_KIND) return;
    uint64_t mask = state_of(ctx)->kind_mask[k];
    bool timed = phasetime_detail();
    for (size_t i = 0; mask; i++, mask >>= 1) {
        if (!(mask & 1)) continue;
        ctx->rule = rule_registry[i];
        if (!timed) {
            rule_registry[i]->on_cursor(ctx, c);
            continue;
        }
        struct phasetime_mark m = phasetime_begin();
        rule_registry[i]->on_cursor(ctx, c);
        phasetime_end(m, rule_registry[i]->code);
    }
    ctx->rule = NULL;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct rule_ctx *ctx = data;
    enum CXCursorKind k = clang_getCursorKind(c);

    if (k == CXCursor_MacroDefinition) {
        if (ctx_location_is_linted(ctx, clang_getCursorLocation(c))) {
            struct walk_state *st = state_of(ctx);
            XGROW(st->macros, st->n_macros, st->cap_macros, 32);
            st->macros[st->n_macros].name = ast_spelling(c);
            st->macros[st->n_macros].cursor = c;
            st->n_macros++;
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_MacroExpansion || k == CXCursor_InclusionDirective)
        return CXChildVisit_Continue;
    /* Declarations decide what is linted: anything declared in a system or
       toolkit header is skipped with all it contains. */
    if (clang_isDeclaration(k) && !ctx_location_is_linted(ctx, clang_getCursorLocation(c))) {
        bool container = k == CXCursor_Namespace || k == CXCursor_LinkageSpec;
        if (!container) return CXChildVisit_Continue;
    }

    dispatch(ctx, c);

    bool is_fn = is_function_kind(k);
    CXCursor saved_fn = ctx->function;
    unsigned saved_space = ctx->function_space;
    bool saved_device = ctx->in_device_code;
    if (is_fn) {
        ctx->function = c;
        if (k == CXCursor_LambdaExpr) {
            unsigned own = ast_exec_space(c);
            ctx->function_space = saved_device ? saved_space : own;
            ctx->in_device_code = saved_device || (own & SPACE_DEVICE);
        } else {
            ctx->function_space = ast_exec_space(c);
            ctx->in_device_code = (ctx->function_space & SPACE_DEVICE) != 0;
        }
    }
    push_parent(ctx, c);
    if (ctx->depth < WALK_MAX_DEPTH) {
        clang_visitChildren(c, visit, ctx);
    } else if (!state_of(ctx)->cut) {
        state_of(ctx)->cut = true;
        state_of(ctx)->cut_at = c;
    }
    ctx->depth--;
    if (is_fn) {
        fn_cache_drop(ctx, clang_hashCursor(c));
        analysis_cache_drop(ctx->analyses, c);
        ctx->function = saved_fn;
        ctx->function_space = saved_space;
        ctx->in_device_code = saved_device;
    }
    return CXChildVisit_Continue;
}

void walk_translation_unit(CXTranslationUnit tu, const char *main_file, const char *pass_name,
                           bool pass_is_device, const struct lint_options *opts,
                           struct diag_list *out)
{
    walk_translation_unit_in(tu, main_file, pass_name, pass_is_device, opts, out, NULL);
}

void walk_translation_unit_in(CXTranslationUnit tu, const char *main_file, const char *pass_name,
                              bool pass_is_device, const struct lint_options *opts, struct diag_list *out,
                              struct analysis_cache *analyses)
{
    struct walk_state st;
    memset(&st, 0, sizeof st);
    st.main_abs = path_absolute(main_file);
    void *states[64] = {0};
    ast_file_contents_forget(); /* a new unit, or this one reparsed */
    launch_scan_forget();

    struct rule_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.tu = tu;
    ctx.main_file = main_file;
    ctx.pass_name = pass_name;
    ctx.pass_is_device = pass_is_device;
    ctx.opts = opts;
    ctx.out = out;
    ctx.function = clang_getNullCursor();
    ctx.rule_state = states;
    ctx.walk_private = &st;
    ctx.analyses = analyses;

    for (size_t i = 0; i < rule_registry_len && i < 64; i++) {
        const struct rule *r = rule_registry[i];
        if (!r->on_cursor || !r->subscriptions) continue;
        if (opts && !lint_rule_enabled(opts, r)) continue;
        /* Host-side rules read host code, which toolkit mode parses in its
           host pass; its device passes skip them.  The shim mode's single
           pass sees host code too and keeps them. */
        if (r->scope == SCOPE_HOST && pass_is_device && pass_name && !str_starts_with(pass_name, "shim"))
            continue;
        /* And the other way round: device-code rules read device code,
           which the device pass parses as the GPU compiler does (and with
           its host code alongside), so the host pass skips them, unless
           --host applies them to host code.  This halves the walk. */
        if ((r->scope == SCOPE_DEVICE || r->scope == SCOPE_KERNEL) && !pass_is_device && pass_name &&
            strcmp(pass_name, "host") == 0 && !(opts && lint_rule_host(opts, r)))
            continue;
        st.enabled[i] = true;
        st.host[i] = opts && lint_rule_host(opts, r);
        for (const enum CXCursorKind *k = r->subscriptions; *k; k++)
            if ((unsigned)*k < MAX_KIND) st.kind_mask[*k] |= (uint64_t)1 << i;
    }
    for (size_t i = 0; i < rule_registry_len && i < 64; i++) {
        if (!st.enabled[i] || !rule_registry[i]->tu_begin) continue;
        ctx.rule = rule_registry[i];
        struct phasetime_mark m = phasetime_begin();
        states[i] = rule_registry[i]->tu_begin(&ctx);
        phasetime_end(m, rule_registry[i]->code);
    }
    ctx.rule = NULL;

    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &ctx);
    if (st.cut && (!opts || lint_rule_enabled(opts, &rule_cu000))) {
        CXFile f;
        unsigned line, col, off;
        clang_getExpansionLocation(clang_getCursorLocation(st.cut_at), &f, &line, &col, &off);
        char *file = f ? file_name(f) : NULL;
        diag_new(out, &rule_cu000, file ? file : main_file, line ? line : 1, col ? col : 1, line ? line : 1,
                 (col ? col : 1) + 1,
                 xasprintf("code nested deeper than %u levels: not analysed below this point (%s pass)",
                           (unsigned)WALK_MAX_DEPTH, pass_name));
        free(file);
    }

    for (size_t i = 0; i < rule_registry_len && i < 64; i++) {
        if (!st.enabled[i] || !rule_registry[i]->tu_end) continue;
        ctx.rule = rule_registry[i];
        ctx.function = clang_getNullCursor();
        struct phasetime_mark m = phasetime_begin();
        rule_registry[i]->tu_end(&ctx, states[i]);
        phasetime_end(m, rule_registry[i]->code);
    }

    ctx_fn_cache_clear(&ctx);
    if (!analyses) analysis_cache_free(ctx.analyses);
    ast_file_contents_forget();
    free(ctx.parents);
    for (size_t i = 0; i < st.n_macros; i++) free(st.macros[i].name);
    free(st.macros);
    free(st.files);
    free(st.used);
    free(st.main_abs);
}
