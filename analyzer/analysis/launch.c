/* launch.c: the host-side launch model: reads every `k<<<grid, block>>>` in
 * the main file of a translation unit and records, per kernel, the block
 * shape of each site when it is a constant.
 *
 * A launch is a call of a __global__ function with a configuration call
 * (__cudaPushCallConfiguration or cudaConfigureCall, whatever the headers
 * declare) among its children; the configuration's second argument is the
 * block.  A block is constant when it is an integer constant expression
 * (literal, macro, enum, constexpr, template argument already substituted),
 * a dim3 built from such, or a local dim3 or integer variable initialised
 * with one and never assigned, incremented or address-taken afterwards.
 * Anything else makes the kernel's shape unknown, and so does passing the
 * kernel to cudaLaunchKernel and relatives, or a kernel defined outside the
 * main file (other translation units may launch it too). */
#include "analysis/launch.h"
#include "analysis/hostexpr.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct site {
    char *usr;          /* the kernel (for a template: the template) */
    char *spec_usr;     /* for a template: the specialisation launched */
    bool known;
    struct launch_shape shape;
    unsigned n_targs;   /* integer template arguments, in order */
    long long targ[LAUNCH_MAX_TARGS];
    bool targ_known[LAUNCH_MAX_TARGS];
    /* What the block's x, y, z and the kernel's arguments are, as keys that
       are equal when the values are: "c:256" for a constant, "v:USR" for a
       variable that keeps its initial value; NULL for anything else. */
    char *bkey[3];
    unsigned n_args;
    char **akey;
    /* Where the launch is ("PATH:OFFSET", the file as an absolute path):
       one site seen by several translation units is one entry. */
    char *loc;
    /* The host side as text: grid, block, arguments and the conditions
       checked before the launch (hostexpr.h); NULL: nothing known. */
    char *rel;
};

/* A kernel passed to cudaLaunchKernel & co. (its shape is then unknown). */
struct indirect {
    char *usr;
    char *loc;
};

struct launch_model {
    CXTranslationUnit tu;
    struct site *sites;
    unsigned n_sites, cap_sites;
    struct indirect *indirect;
    unsigned n_indirect, cap_indirect;
    /* With a run's table (launch_model_new_in): sites in every user file of
       the unit count, then the table's sites that this unit does not see;
       sites[0, n_own) and indirect[0, n_own_indirect) are the unit's own. */
    bool project;
    unsigned n_own, n_own_indirect;
    /* While reading the unit: the top-level declaration being read (where a
       launch's host conditions are looked for). */
    CXCursor scope;
    /* The kernels asked about, and for --statistics those whose shapes came
       from a file other than the kernel's own, and those left unknown. */
    struct strvec queried, elsewhere, unknown;
    /* Calls between the unit's functions (launch_caller_shapes), built on
       the first question. */
    bool calls_built;
    struct call_edge *calls;
    unsigned n_calls, cap_calls;
    struct caller_memo *memo;
    unsigned n_memo, cap_memo;
};

/* A call of a function (by USR, a specialisation as its template) made in
   the body of another (a definition the unit reads). */
struct call_edge {
    char *callee;
    char *caller_usr;
    CXCursor caller;
    CXCursor call;
};

/* What a walk up the callers knows of one function: its shapes (or that
   they are not known), whether code around it indexes rows.  Kept per
   model, so that each function is looked at once however many paths reach
   it (a helper called from a hundred places of a template library). */
struct caller_memo {
    char *usr;
    signed char shapes_state; /* 0 not asked, 1 in progress, 2 known, 3 not known */
    struct launch_info shapes;
    signed char rows_state;   /* 0 not asked, 1 in progress, 2 yes, 3 no */
    signed char body_rows;    /* its own body: -1 not read, 0 no, 1 yes */
};

static char *usr_of(CXCursor decl)
{
    decl = clang_getCanonicalCursor(decl);
    CXString s = clang_getCursorUSR(decl);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

/* The USR naming a kernel: a specialisation counts as its template. */
static char *kernel_usr(CXCursor decl)
{
    CXCursor t = clang_getSpecializedCursorTemplate(decl);
    if (!clang_Cursor_isNull(t)) decl = t;
    decl = clang_getCanonicalCursor(decl);
    CXString s = clang_getCursorUSR(decl);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

static bool is_kernel(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) return false;
    return (ast_exec_space(decl) & SPACE_GLOBAL) == SPACE_GLOBAL;
}

/* ---- is a local variable changed after its initialisation? ---- */

static bool unchanged_in_function(CXCursor var);

/* One scan of a function finds every variable it writes (hashes of their
   declarations): a launch site asks about each of its arguments, and a
   function with a hundred launches of ten arguments each scanned itself a
   thousand times. */
struct modscan {
    unsigned *written;
    size_t n_written, cap_written;
    CXCursor stack[64];
    unsigned depth;
};

/* The last function scanned, per thread (forgotten when a model is built);
   freed when the thread ends. */
struct modscan_cache {
    CXCursor fn;
    bool valid;
    struct modscan scan;
};
static pthread_key_t modscan_key;
static pthread_once_t modscan_once = PTHREAD_ONCE_INIT;

static void modscan_cache_free(void *p)
{
    struct modscan_cache *c = p;
    if (c) free(c->scan.written);
    free(c);
}

static void modscan_key_make(void)
{
    pthread_key_create(&modscan_key, modscan_cache_free);
}

static struct modscan_cache *modscan_cache(void)
{
    pthread_once(&modscan_once, modscan_key_make);
    struct modscan_cache *c = pthread_getspecific(modscan_key);
    if (!c) {
        c = xcalloc(1, sizeof *c);
        pthread_setspecific(modscan_key, c);
    }
    return c;
}

void launch_scan_forget(void)
{
    modscan_cache()->valid = false;
}

static bool is_first_child(CXCursor parent, CXCursor c)
{
    CXCursor k = ast_child(parent, 0);
    return !clang_Cursor_isNull(k) && clang_equalCursors(ast_strip(k), c);
}

/* Is cursor c (a use of the variable, or a member of it) written by its
   parent p? */
static bool written_by(CXCursor p, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(p);
    if (k == CXCursor_UnaryOperator) return true; /* ++, --, & */
    if (k == CXCursor_CompoundAssignOperator) return is_first_child(p, c);
    if (k == CXCursor_BinaryOperator && ast_binop(p) == CXBinaryOperator_Assign) return is_first_child(p, c);
    if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(p) >= 1) {
        /* An overloaded assignment (`dim3 block{512}; ...; block = 128;`)
           or increment writes its first operand. */
        char *name = ast_spelling(clang_getCursorReferenced(p));
        size_t n = strlen(name);
        bool assigns = !strncmp(name, "operator", 8) && n > 8 &&
                       ((name[n - 1] == '=' && strcmp(name, "operator==") && strcmp(name, "operator!=") &&
                         strcmp(name, "operator<=") && strcmp(name, "operator>=")) ||
                        !strcmp(name, "operator++") || !strcmp(name, "operator--"));
        free(name);
        if (assigns) {
            CXCursor first = clang_Cursor_getArgument(p, 0);
            return ast_same_node(first, c) || ast_same_node(ast_strip(first), c);
        }
    }
    return false;
}

static void note_written(struct modscan *m, CXCursor decl)
{
    if (m->n_written == m->cap_written) {
        m->cap_written = m->cap_written ? 2 * m->cap_written : 32;
        m->written = xrealloc(m->written, m->cap_written * sizeof *m->written);
    }
    m->written[m->n_written++] = clang_hashCursor(decl);
}

static enum CXChildVisitResult modscan_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct modscan *m = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor var = clang_getCursorReferenced(c);
        enum CXCursorKind vk = clang_getCursorKind(var);
        if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl) return CXChildVisit_Continue;
        /* The nearest non-wrapper ancestors: the direct user, and for a
           member (block.x) the member's user. */
        CXCursor cur = c;
        unsigned i = m->depth;
        while (i > 0) {
            CXCursor p = m->stack[i - 1];
            enum CXCursorKind pk = clang_getCursorKind(p);
            if (pk == CXCursor_UnexposedExpr || pk == CXCursor_ParenExpr) {
                cur = p;
                i--;
                continue;
            }
            if (written_by(p, ast_strip(cur)) || written_by(p, cur)) {
                note_written(m, var);
                break;
            }
            if (pk == CXCursor_MemberRefExpr && i > 1) {
                cur = p;
                i--;
                continue;
            }
            break;
        }
        return CXChildVisit_Continue;
    }
    if (m->depth < 64) {
        m->stack[m->depth++] = c;
        clang_visitChildren(c, modscan_visit, m);
        m->depth--;
    }
    return CXChildVisit_Continue;
}

/* A local variable of a function, never written after its declaration. */
static bool unchanged_local(CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl) return false;
    return unchanged_in_function(var);
}

/* A local variable or parameter whose function never writes it (after its
   declaration) nor takes its address. */
static bool unchanged_in_function(CXCursor var)
{
    if (clang_Cursor_getStorageClass(var) == CX_SC_Static) return false;
    CXCursor fn = clang_getCursorSemanticParent(var);
    enum CXCursorKind fk = clang_getCursorKind(fn);
    if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_FunctionTemplate)
        return false;
    struct modscan_cache *c = modscan_cache();
    if (!c->valid || !clang_equalCursors(c->fn, fn)) {
        c->scan.n_written = 0;
        c->scan.depth = 0;
        clang_visitChildren(fn, modscan_visit, &c->scan);
        c->fn = fn;
        c->valid = true;
    }
    unsigned h = clang_hashCursor(var);
    for (size_t i = 0; i < c->scan.n_written; i++)
        if (c->scan.written[i] == h) return false;
    return true;
}

/* ---- constant block arguments ---- */

static bool eval_int(CXCursor e, long long *v, int depth)
{
    if (depth > 6) return false;
    e = ast_strip(e);
    if (ast_eval_int(e, v)) return true;
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return false;
    CXCursor var = clang_getCursorReferenced(e);
    if (!ast_is_integer_kind(clang_getCanonicalType(clang_getCursorType(var)).kind)) return false;
    CXCursor init = clang_Cursor_getVarDeclInitializer(var);
    if (clang_Cursor_isNull(init) || !unchanged_local(var)) return false;
    return eval_int(init, v, depth + 1);
}

/* A constant dim3; with zero_ok a zero component counts as constant too
   (an invalid launch, which the launch-configuration rule reports). */
static bool eval_dim3_z(CXCursor e, long long out[3], bool zero_ok)
{
    CXCursor part[3];
    if (!hostexpr_dim3_parts(e, part, unchanged_in_function)) return false;
    for (int i = 0; i < 3; i++) {
        out[i] = 1;
        if (!clang_Cursor_isNull(part[i]) && (!eval_int(part[i], &out[i], 0) || out[i] < (zero_ok ? 0 : 1)))
            return false;
    }
    return true;
}

/* ---- what the block and the arguments are ---- */

/* A key naming e's value: its constant, or the variable it reads when that
   variable (a local or a parameter of the launching function) keeps one value
   all along.  NULL when neither. */
static char *value_key(CXCursor e)
{
    e = ast_strip(e);
    long long v;
    if (eval_int(e, &v, 0)) {
        char buf[32];
        snprintf(buf, sizeof buf, "c:%lld", v);
        return xstrdup(buf);
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return NULL;
    CXCursor var = clang_getCursorReferenced(e);
    enum CXCursorKind vk = clang_getCursorKind(var);
    if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl) return NULL;
    if (!ast_is_integer_kind(clang_getCanonicalType(clang_getCursorType(var)).kind)) return NULL;
    if (vk == CXCursor_VarDecl && clang_Cursor_getStorageClass(var) == CX_SC_Static) return NULL;
    if (!unchanged_in_function(var)) return NULL;
    char *usr = usr_of(var);
    char *r = xmalloc(strlen(usr) + 3);
    memcpy(r, "v:", 2);
    memcpy(r + 2, usr, strlen(usr) + 1);
    free(usr);
    return r;
}

/* The keys of a block argument's x, y and z (as eval_dim3 reads it). */
static void block_keys(CXCursor e, char *out[3])
{
    CXCursor part[3];
    if (!hostexpr_dim3_parts(e, part, unchanged_in_function)) return;
    for (int i = 0; i < 3; i++) out[i] = clang_Cursor_isNull(part[i]) ? xstrdup("c:1") : value_key(part[i]);
}

static bool eval_dim3(CXCursor e, long long out[3])
{
    return eval_dim3_z(e, out, false);
}

/* ---- the walk ---- */

static void add_site(struct launch_model *m, struct site s)
{
    XGROW(m->sites, m->n_sites, m->cap_sites, 16);
    m->sites[m->n_sites++] = s;
}

CXCursor launch_config_call(CXCursor call)
{
    CXCursor kids[3];
    unsigned n = ast_children(call, kids, 3);
    for (unsigned i = 0; i < n; i++) {
        CXCursor k = ast_strip(kids[i]);
        if (clang_getCursorKind(k) != CXCursor_CallExpr) continue;
        char *name = ast_spelling(clang_getCursorReferenced(k));
        bool cfg = strstr(name, "PushCallConfiguration") || strstr(name, "ConfigureCall");
        free(name);
        if (cfg) return k;
    }
    return clang_getNullCursor();
}

/* "PATH:OFFSET" of a cursor's expansion location, the path absolute. */
static char *loc_key(CXCursor c)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
    CXString fs = clang_getFileName(f);
    const char *name = clang_getCString(fs);
    char *abs = path_absolute(name ? name : "");
    char *r = xasprintf("%s:%u", abs, off);
    free(abs);
    clang_disposeString(fs);
    return r;
}

/* The file part of a location key (owned). */
static char *loc_file(const char *loc)
{
    const char *colon = strrchr(loc, ':');
    return colon ? xstrndup(loc, (size_t)(colon - loc)) : xstrdup(loc);
}

/* The file a cursor is in (absolute). */
static char *loc_file_of(CXCursor c)
{
    char *loc = loc_key(c), *f = loc_file(loc);
    free(loc);
    return f;
}

static void record_launch(struct launch_model *m, CXCursor call, CXCursor callee)
{
    CXCursor cfg = launch_config_call(call);
    if (clang_Cursor_isNull(cfg)) return;
    struct site s;
    memset(&s, 0, sizeof s);
    s.loc = loc_key(call);
    s.usr = kernel_usr(callee);
    s.spec_usr = clang_Cursor_isNull(clang_getSpecializedCursorTemplate(callee)) ? NULL : usr_of(callee);
    if (clang_Cursor_getNumArguments(cfg) >= 2) {
        s.known = eval_dim3(clang_Cursor_getArgument(cfg, 1), s.shape.b);
        block_keys(clang_Cursor_getArgument(cfg, 1), s.bkey);
    }
    s.rel = hostexpr_launch(m->scope, call, cfg, unchanged_in_function);
    int na = clang_Cursor_getNumArguments(call);
    if (na > 0) {
        s.n_args = (unsigned)na;
        s.akey = xcalloc(s.n_args, sizeof *s.akey);
        for (unsigned i = 0; i < s.n_args; i++) s.akey[i] = value_key(clang_Cursor_getArgument(call, i));
    }
    int nt = clang_Cursor_getNumTemplateArguments(callee);
    for (int i = 0; i < nt && i < LAUNCH_MAX_TARGS; i++) {
        enum CXTemplateArgumentKind tk = clang_Cursor_getTemplateArgumentKind(callee, (unsigned)i);
        if (tk == CXTemplateArgumentKind_Integral) {
            s.targ[i] = clang_Cursor_getTemplateArgumentValue(callee, (unsigned)i);
            s.targ_known[i] = true;
        }
        s.n_targs = (unsigned)i + 1;
    }
    add_site(m, s);
}

static enum CXChildVisitResult mark_indirect(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct launch_model *m = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(c);
        if (is_kernel(d)) {
            XGROW(m->indirect, m->n_indirect, m->cap_indirect, 4);
            m->indirect[m->n_indirect].usr = kernel_usr(d);
            m->indirect[m->n_indirect].loc = loc_key(c);
            m->n_indirect++;
        }
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult model_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct launch_model *m = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXCursor callee = clang_getCursorReferenced(c);
        if (is_kernel(callee)) {
            record_launch(m, c, callee);
        } else if (!clang_Cursor_isNull(callee)) {
            char *name = ast_spelling(callee);
            if (strncmp(name, "cudaLaunch", 10) == 0 || strncmp(name, "cuLaunch", 8) == 0)
                clang_visitChildren(c, mark_indirect, m);
            free(name);
        }
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct launch_model *m = data;
    CXSourceLocation at = clang_getCursorLocation(c);
    /* With a run's table, launches in the project's headers count too (a
       header's host wrapper); system and toolkit headers launch nothing of
       the project's. */
    if (m->project ? clang_Location_isInSystemHeader(at) : !clang_Location_isFromMainFile(at))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    m->scope = c;
    clang_visitChildren(c, model_visit, data);
    m->scope = clang_getNullCursor();
    return CXChildVisit_Continue;
}

struct launch_model *launch_model_new(CXTranslationUnit tu)
{
    struct launch_model *m = xcalloc(1, sizeof *m);
    m->tu = tu;
    modscan_cache()->valid = false; /* another unit, or this one reparsed */
    clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, m);
    m->n_own = m->n_sites;
    m->n_own_indirect = m->n_indirect;
    return m;
}

static void site_release(struct site *s)
{
    free(s->usr);
    free(s->spec_usr);
    free(s->loc);
    free(s->rel);
    for (unsigned k = 0; k < 3; k++) free(s->bkey[k]);
    for (unsigned k = 0; k < s->n_args; k++) free(s->akey[k]);
    free(s->akey);
}

void launch_model_free(struct launch_model *m)
{
    if (!m) return;
    for (unsigned i = 0; i < m->n_calls; i++) {
        free(m->calls[i].callee);
        free(m->calls[i].caller_usr);
    }
    free(m->calls);
    for (unsigned i = 0; i < m->n_memo; i++) free(m->memo[i].usr);
    free(m->memo);
    for (unsigned i = 0; i < m->n_sites; i++) site_release(&m->sites[i]);
    for (unsigned i = 0; i < m->n_indirect; i++) {
        free(m->indirect[i].usr);
        free(m->indirect[i].loc);
    }
    free(m->sites);
    free(m->indirect);
    sv_release(&m->queried);
    sv_release(&m->elsewhere);
    sv_release(&m->unknown);
    free(m);
}

/* Notes that kernel usr was asked about (what the table may change). */
static void note_query(struct launch_model *m, const char *usr)
{
    if (m->project && *usr && !sv_contains(&m->queried, usr)) sv_push(&m->queried, usr);
}

/* Is site s a launch of kernel (usr: kernel_usr(kernel); spec: the USR of
   kernel itself when it is one specialisation of a template, whose own
   launches are the only ones that count for it)? */
static bool site_of(const struct site *s, const char *usr, const char *spec)
{
    if (strcmp(s->usr, usr) != 0) return false;
    return !spec || (s->spec_usr && strcmp(s->spec_usr, spec) == 0);
}

static char *spec_usr_of(CXCursor kernel)
{
    return clang_Cursor_isNull(clang_getSpecializedCursorTemplate(kernel)) ? NULL : usr_of(kernel);
}

/* The file a kernel is defined in (absolute), for "shapes from another file". */
static char *definition_file(CXCursor kernel)
{
    CXCursor def = clang_getCursorDefinition(kernel);
    return loc_file_of(clang_Cursor_isNull(def) ? kernel : def);
}

bool launch_block_shapes(struct launch_model *m, CXCursor kernel, struct launch_info *out)
{
    memset(out, 0, sizeof *out);
    if (!m || clang_Cursor_isNull(kernel)) return false;
    char *usr = kernel_usr(kernel), *spec = spec_usr_of(kernel);
    note_query(m, usr);
    /* One file's model: only a kernel of the main file, whose other launches
       the file would show.  A run's table: every linted file's launches. */
    bool known = *usr != 0 && (m->project || clang_Location_isFromMainFile(clang_getCursorLocation(kernel)));
    for (unsigned i = 0; i < m->n_indirect && known; i++)
        if (strcmp(m->indirect[i].usr, usr) == 0) known = false;
    char *home = m->project ? definition_file(kernel) : NULL;
    bool elsewhere = false;
    for (unsigned i = 0; i < m->n_sites; i++) {
        struct site *s = &m->sites[i];
        if (!site_of(s, usr, spec)) continue;
        if (home && s->loc) {
            char *f = loc_file(s->loc);
            elsewhere |= strcmp(f, home) != 0;
            free(f);
        }
        out->n_sites++;
        if (!s->known) {
            known = false;
            continue;
        }
        unsigned j;
        for (j = 0; j < out->n_shapes; j++)
            if (memcmp(&out->shape[j], &s->shape, sizeof s->shape) == 0) break;
        if (j == out->n_shapes) {
            if (out->n_shapes == LAUNCH_MAX_SHAPES) known = false;
            else out->shape[out->n_shapes++] = s->shape;
        }
    }
    out->known = known && out->n_sites > 0;
    if (!out->known) out->n_shapes = 0;
    if (m->project && *usr) {
        struct strvec *which = !out->known ? &m->unknown : elsewhere ? &m->elsewhere : NULL;
        if (which && !sv_contains(which, usr)) sv_push(which, usr);
    }
    free(home);
    free(usr);
    free(spec);
    return out->known;
}

/* ---- callers of device functions ---- */

struct call_scan {
    struct launch_model *m;
    CXCursor caller;
};

static bool is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
           k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static enum CXChildVisitResult call_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct call_scan *cs = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr) return CXChildVisit_Recurse;
    CXCursor callee = clang_getCursorReferenced(c);
    if (!is_function_kind(clang_getCursorKind(callee)) || is_kernel(callee)) return CXChildVisit_Recurse;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(callee))) return CXChildVisit_Recurse;
    struct launch_model *m = cs->m;
    XGROW(m->calls, m->n_calls, m->cap_calls, 64);
    m->calls[m->n_calls].callee = kernel_usr(callee);
    m->calls[m->n_calls].caller_usr = kernel_usr(cs->caller);
    m->calls[m->n_calls].caller = cs->caller;
    m->calls[m->n_calls].call = c;
    m->n_calls++;
    return CXChildVisit_Recurse;
}

/* Every function definition the unit reads outside system headers: the
   calls its body makes. */
static enum CXChildVisitResult calls_top_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct launch_model *m = data;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (is_function_kind(k)) {
        if (clang_isCursorDefinition(c)) {
            struct call_scan cs = {m, c};
            clang_visitChildren(c, call_visit, &cs);
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl || k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization)
        return CXChildVisit_Recurse;
    return CXChildVisit_Continue;
}

static struct caller_memo *memo_of(struct launch_model *m, const char *usr)
{
    for (unsigned i = 0; i < m->n_memo; i++)
        if (!strcmp(m->memo[i].usr, usr)) return &m->memo[i];
    XGROW(m->memo, m->n_memo, m->cap_memo, 32);
    struct caller_memo *e = &m->memo[m->n_memo++];
    memset(e, 0, sizeof *e);
    e->usr = xstrdup(usr);
    e->body_rows = -1;
    return e;
}

static void build_calls(struct launch_model *m)
{
    if (m->calls_built) return;
    m->calls_built = true;
    clang_visitChildren(clang_getTranslationUnitCursor(m->tu), calls_top_visit, m);
}

/* The union of the shapes of usr's device-side callers, into out; false
   when one of them is not known or there is none.  A function already in
   progress on this walk (recursion) adds nothing. */
static bool caller_shapes(struct launch_model *m, const char *usr, struct launch_info *out, unsigned depth)
{
    if (depth > 4) return false;
    bool any = false, ok = true;
    for (unsigned i = 0; i < m->n_calls && ok; i++) {
        if (strcmp(m->calls[i].callee, usr) != 0) continue;
        CXCursor caller = m->calls[i].caller;
        unsigned space = ast_exec_space(caller);
        /* Host code runs no barrier; a __host__ __device__ caller may be
           device code too. */
        if (!(space & (SPACE_DEVICE | SPACE_GLOBAL))) continue;
        const char *cu = m->calls[i].caller_usr;
        if (!*cu) {
            ok = false;
            break;
        }
        struct caller_memo *e = memo_of(m, cu);
        if (e->shapes_state == 0) {
            e->shapes_state = 1;
            struct launch_info li;
            memset(&li, 0, sizeof li);
            bool known = is_kernel(caller) ? launch_block_shapes(m, caller, &li) && li.n_shapes > 0
                                           : caller_shapes(m, cu, &li, depth + 1);
            e = memo_of(m, cu); /* the table may have moved */
            e->shapes = li;
            e->shapes_state = known ? 2 : 3;
        }
        if (e->shapes_state == 1) continue;
        if (e->shapes_state == 3) {
            ok = false;
            break;
        }
        const struct launch_info *li = &e->shapes;
        for (unsigned s = 0; s < li->n_shapes && ok; s++) {
            unsigned j;
            for (j = 0; j < out->n_shapes; j++)
                if (memcmp(&out->shape[j], &li->shape[s], sizeof li->shape[s]) == 0) break;
            if (j < out->n_shapes) continue;
            if (out->n_shapes == LAUNCH_MAX_SHAPES) ok = false;
            else out->shape[out->n_shapes++] = li->shape[s];
        }
        out->n_sites += li->n_sites;
        any = true;
    }
    return ok && any;
}

bool launch_caller_shapes(struct launch_model *m, CXCursor fn, struct launch_info *out)
{
    memset(out, 0, sizeof *out);
    /* The calls this unit makes: a function of a header is judged, in each
       unit that includes it, with that unit's callers (findings are joined
       over the units). */
    if (!m || clang_Cursor_isNull(fn) || is_kernel(fn)) return false;
    build_calls(m);
    char *usr = kernel_usr(fn);
    bool ok = *usr && caller_shapes(m, usr, out, 0);
    free(usr);
    out->known = ok && out->n_shapes > 0;
    if (!out->known) out->n_shapes = 0;
    return out->known;
}

unsigned launch_device_calls(struct launch_model *m, CXCursor fn, CXCursor *calls, CXCursor *callers, unsigned max)
{
    if (!m || clang_Cursor_isNull(fn) || is_kernel(fn)) return 0;
    build_calls(m);
    char *usr = kernel_usr(fn);
    unsigned n = 0;
    for (unsigned i = 0; i < m->n_calls && *usr; i++) {
        if (strcmp(m->calls[i].callee, usr) != 0) continue;
        if (!(ast_exec_space(m->calls[i].caller) & (SPACE_DEVICE | SPACE_GLOBAL))) continue;
        if (n == max) {
            n = max + 1;
            break;
        }
        calls[n] = m->calls[i].call;
        callers[n] = m->calls[i].caller;
        n++;
    }
    free(usr);
    return n;
}

bool launch_function_shapes(struct launch_model *m, CXCursor fn, struct launch_info *out)
{
    if (is_kernel(fn)) return launch_block_shapes(m, fn, out);
    return launch_caller_shapes(m, fn, out);
}

/* Does a function's body read threadIdx.y or threadIdx.z? */
struct rows_scan {
    CXTranslationUnit tu;
    bool rows;
};

static enum CXChildVisitResult rows_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct rows_scan *rs = data;
    if (clang_getCursorKind(c) != CXCursor_MemberRefExpr) return CXChildVisit_Recurse;
    CXCursor base = ast_strip(ast_child(c, 0));
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
    char *bn = ast_spelling(base);
    bool tid = !strcmp(bn, "threadIdx");
    free(bn);
    if (!tid) return CXChildVisit_Recurse;
    char comp = ast_builtin_component(rs->tu, c);
    if (comp == 'y' || comp == 'z') {
        rs->rows = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static bool callers_use_rows(struct launch_model *m, const char *usr, unsigned depth)
{
    if (depth > 4) return false;
    for (unsigned i = 0; i < m->n_calls; i++) {
        if (strcmp(m->calls[i].callee, usr) != 0) continue;
        CXCursor caller = m->calls[i].caller;
        if (!(ast_exec_space(caller) & (SPACE_DEVICE | SPACE_GLOBAL))) continue;
        const char *cu = m->calls[i].caller_usr;
        if (!*cu) continue;
        struct caller_memo *e = memo_of(m, cu);
        if (e->rows_state == 0) {
            e->rows_state = 1;
            if (e->body_rows < 0) {
                struct rows_scan rs = {m->tu, false};
                clang_visitChildren(caller, rows_visit, &rs);
                e = memo_of(m, cu);
                e->body_rows = rs.rows;
            }
            bool rows = e->body_rows || (!is_kernel(caller) && callers_use_rows(m, cu, depth + 1));
            e = memo_of(m, cu);
            e->rows_state = rows ? 2 : 3;
        }
        if (e->rows_state == 2) return true;
    }
    return false;
}

bool launch_callers_use_rows(struct launch_model *m, CXCursor fn)
{
    if (!m || clang_Cursor_isNull(fn) || is_kernel(fn)) return false;
    build_calls(m);
    char *usr = kernel_usr(fn);
    bool rows = *usr && callers_use_rows(m, usr, 0);
    free(usr);
    return rows;
}

bool launch_tparam_is_block_x(struct launch_model *m, CXCursor kernel, unsigned index)
{
    struct launch_info li;
    if (index >= LAUNCH_MAX_TARGS || !launch_block_shapes(m, kernel, &li)) return false;
    char *usr = kernel_usr(kernel), *spec = spec_usr_of(kernel);
    bool ok = true;
    for (unsigned i = 0; i < m->n_sites && ok; i++) {
        struct site *s = &m->sites[i];
        if (!site_of(s, usr, spec)) continue;
        ok = index < s->n_targs && s->targ_known[index] && s->targ[index] == s->shape.b[0];
    }
    free(usr);
    free(spec);
    return ok;
}

bool launch_tparam_covers_block_x(struct launch_model *m, CXCursor kernel, unsigned index)
{
    struct launch_info li;
    if (!launch_block_shapes(m, kernel, &li)) return true;
    if (index >= LAUNCH_MAX_TARGS) return false;
    char *usr = kernel_usr(kernel), *spec = spec_usr_of(kernel);
    bool ok = true;
    for (unsigned i = 0; i < m->n_sites && ok; i++) {
        struct site *s = &m->sites[i];
        if (!site_of(s, usr, spec)) continue;
        ok = index < s->n_targs && s->targ_known[index] && s->targ[index] >= s->shape.b[0];
    }
    free(usr);
    free(spec);
    return ok;
}

bool launch_block_x_at_most(struct launch_model *m, CXCursor kernel, long long v)
{
    struct launch_info li;
    if (!launch_block_shapes(m, kernel, &li)) return true;
    for (unsigned i = 0; i < li.n_shapes; i++)
        if (li.shape[i].b[0] > v) return false;
    return true;
}

bool launch_x_multiple_of(const struct launch_info *li, long long k)
{
    if (!li->known || k <= 0) return false;
    for (unsigned i = 0; i < li->n_shapes; i++)
        if (li->shape[i].b[0] % k) return false;
    return true;
}

/* The direct launch sites of kernel (each with its argument keys), for the
   questions about one parameter below; false when the kernel is defined
   outside what the model sees or is also launched indirectly (then no site
   tells the whole truth).  *n_out counts the sites; fn(site, data) decides
   each and stops the walk by returning false. */
static bool each_direct_site(struct launch_model *m, CXCursor kernel, bool (*fn)(const struct site *, void *),
                             void *data, unsigned *n_out)
{
    *n_out = 0;
    if (!m || clang_Cursor_isNull(kernel)) return false;
    if (!m->project && !clang_Location_isFromMainFile(clang_getCursorLocation(kernel))) return false;
    char *usr = kernel_usr(kernel), *spec = spec_usr_of(kernel);
    note_query(m, usr);
    bool ok = *usr != 0;
    for (unsigned i = 0; i < m->n_indirect && ok; i++)
        if (strcmp(m->indirect[i].usr, usr) == 0) ok = false;
    for (unsigned i = 0; i < m->n_sites && ok; i++) {
        if (!site_of(&m->sites[i], usr, spec)) continue;
        ++*n_out;
        ok = fn(&m->sites[i], data);
    }
    free(usr);
    free(spec);
    return ok;
}

struct block_dim_q {
    unsigned param, axis;
};

static bool site_passes_block_dim(const struct site *s, void *data)
{
    const struct block_dim_q *q = data;
    return q->param < s->n_args && s->akey[q->param] && s->bkey[q->axis] &&
           strcmp(s->akey[q->param], s->bkey[q->axis]) == 0;
}

bool launch_param_is_block_dim(struct launch_model *m, CXCursor kernel, unsigned param, unsigned axis)
{
    if (axis > 2) return false;
    struct block_dim_q q = {param, axis};
    unsigned n;
    return each_direct_site(m, kernel, site_passes_block_dim, &q, &n) && n > 0;
}

struct constant_q {
    unsigned param;
    const char *first; /* the first site's key */
};

static bool site_passes_same_constant(const struct site *s, void *data)
{
    struct constant_q *q = data;
    const char *k = q->param < s->n_args ? s->akey[q->param] : NULL;
    if (!k || strncmp(k, "c:", 2) != 0 || (q->first && strcmp(q->first, k) != 0)) return false;
    q->first = k;
    return true;
}

bool launch_param_constant(struct launch_model *m, CXCursor kernel, unsigned param, long long *value)
{
    struct constant_q q = {param, NULL};
    unsigned n;
    if (!each_direct_site(m, kernel, site_passes_same_constant, &q, &n) || n == 0) return false;
    *value = strtoll(q.first + 2, NULL, 10);
    return true;
}

struct views_q {
    struct launch_site_view *out;
    unsigned max, n;
};

static bool site_view(const struct site *s, void *data)
{
    struct views_q *q = data;
    if (q->n == q->max) return false;
    struct launch_site_view *v = &q->out[q->n++];
    v->rel = s->rel;
    v->n_targs = s->n_targs;
    v->targ = s->targ;
    v->targ_known = s->targ_known;
    return true;
}

bool launch_site_views(struct launch_model *m, CXCursor kernel, struct launch_site_view *out, unsigned max,
                       unsigned *n)
{
    struct views_q q = {out, max, 0};
    unsigned seen;
    bool ok = each_direct_site(m, kernel, site_view, &q, &seen) && seen > 0;
    *n = ok ? q.n : 0;
    return ok;
}

static void *launch_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    (void)fn;
    (void)deps;
    return launch_model_new(tu);
}

static void launch_release(void *p)
{
    launch_model_free(p);
}

const struct analysis_kind launch_analysis = {
    .name = "launch",
    .per_tu = true,
    .build = launch_build,
    .free = launch_release,
};

bool launch_site_read(CXCursor call, struct launch_site *out)
{
    memset(out, 0, sizeof *out);
    out->kernel = out->grid_arg = out->block_arg = out->smem_arg = out->stream_arg = clang_getNullCursor();
    if (clang_getCursorKind(call) != CXCursor_CallExpr) return false;
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(callee) || !is_kernel(callee)) return false;
    CXCursor cfg = launch_config_call(call);
    if (clang_Cursor_isNull(cfg)) return false;
    out->kernel = callee;
    int n = clang_Cursor_getNumArguments(cfg);
    if (n >= 1) {
        out->grid_arg = clang_Cursor_getArgument(cfg, 0);
        out->grid_known = eval_dim3_z(out->grid_arg, out->grid, true);
    }
    if (n >= 2) {
        out->block_arg = clang_Cursor_getArgument(cfg, 1);
        out->block_known = eval_dim3_z(out->block_arg, out->block, true);
    }
    if (n >= 3) {
        out->smem_arg = clang_Cursor_getArgument(cfg, 2);
        out->smem_known = eval_int(out->smem_arg, &out->smem, 0);
    }
    if (n >= 4) out->stream_arg = clang_Cursor_getArgument(cfg, 3);
    return true;
}

struct divides_q {
    long long by[2];   /* the block's x extent and its thread count */
    int depth;
    bool found;
};

static bool is_block_size(const struct divides_q *q, CXCursor e)
{
    long long v;
    return eval_int(ast_strip_casts(e), &v, 0) && v > 1 && (v == q->by[0] || v == q->by[1]);
}

static enum CXChildVisitResult divides_visit(CXCursor c, CXCursor parent, CXClientData data);

/* Looks for the division in e itself and below it. */
static void divides_search(struct divides_q *q, CXCursor e)
{
    divides_visit(e, e, q);
    if (!q->found) clang_visitChildren(e, divides_visit, q);
}

static enum CXChildVisitResult divides_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct divides_q *q = data;
    if (q->found) return CXChildVisit_Break;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BinaryOperator && ast_binop(c) == CXBinaryOperator_Div && is_block_size(q, ast_child(c, 1)))
        q->found = true;
    if (k == CXCursor_CallExpr) {
        /* DIV_UP(n, B), ceil_div<T>(n, B): a helper handed the block size */
        int n = clang_Cursor_getNumArguments(c);
        for (int i = 1; i < n && !q->found; i++) q->found = is_block_size(q, clang_Cursor_getArgument(c, (unsigned)i));
    }
    if (!q->found && k == CXCursor_DeclRefExpr && q->depth < 4) {
        CXCursor var = clang_getCursorReferenced(c);
        CXCursor init = clang_getCursorKind(var) == CXCursor_VarDecl ? clang_Cursor_getVarDeclInitializer(var)
                                                                      : clang_getNullCursor();
        if (!clang_Cursor_isNull(init) && unchanged_local(var)) {
            q->depth++;
            divides_search(q, init);
            q->depth--;
        }
    }
    return q->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

bool launch_grid_scales_with_block(const struct launch_site *ls)
{
    if (!ls->block_known || clang_Cursor_isNull(ls->grid_arg)) return false;
    struct divides_q q = {{ls->block[0], ls->block[0] * ls->block[1] * ls->block[2]}, 0, false};
    CXCursor part[3];
    /* a dim3 built elsewhere: look through the argument itself */
    if (!hostexpr_dim3_parts(ls->grid_arg, part, unchanged_in_function)) divides_search(&q, ls->grid_arg);
    else
        for (int i = 0; i < 3 && !q.found; i++)
            if (!clang_Cursor_isNull(part[i])) divides_search(&q, part[i]);
    return q.found;
}

/* ---- the run's table of launch sites ----

   Each linted file's translation units contribute the launch sites they see
   (in any of the project's files); one site seen by several units is one
   entry (same kernel, specialisation and location).  A model built with the
   table (launch_model_new_in) adds the table's sites its own unit does not
   see, so a kernel in a header, or in a .cu another file includes, gets the
   shapes of launches anywhere in the run. */

struct launch_table {
    struct site *sites;
    unsigned n_sites, cap_sites;
    struct indirect *indirect;
    unsigned n_indirect, cap_indirect;
};

struct launch_facts {
    struct launch_table own;   /* what the file's units saw */
    struct strvec queried, elsewhere, unknown;
    char *digest;              /* of the table's facts its findings were computed with */
};

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

static void site_copy(struct site *to, const struct site *from)
{
    *to = *from;
    to->usr = xstrdup(from->usr);
    to->spec_usr = dup_or_null(from->spec_usr);
    to->loc = dup_or_null(from->loc);
    to->rel = dup_or_null(from->rel);
    for (unsigned k = 0; k < 3; k++) to->bkey[k] = dup_or_null(from->bkey[k]);
    to->akey = from->n_args ? xcalloc(from->n_args, sizeof *to->akey) : NULL;
    for (unsigned k = 0; k < from->n_args; k++) to->akey[k] = dup_or_null(from->akey[k]);
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_site(const struct site *a, const struct site *b)
{
    return same_str(a->loc, b->loc) && strcmp(a->usr, b->usr) == 0 && same_str(a->spec_usr, b->spec_usr);
}

static bool has_site(const struct site *sites, unsigned n, const struct site *s)
{
    for (unsigned i = 0; i < n; i++)
        if (same_site(&sites[i], s)) return true;
    return false;
}

static bool has_indirect(const struct indirect *ind, unsigned n, const struct indirect *x)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(ind[i].usr, x->usr) == 0 && same_str(ind[i].loc, x->loc)) return true;
    return false;
}

static void table_add_site(struct launch_table *t, const struct site *s)
{
    if (has_site(t->sites, t->n_sites, s)) return;
    XGROW(t->sites, t->n_sites, t->cap_sites, 16);
    site_copy(&t->sites[t->n_sites++], s);
}

static void table_add_indirect(struct launch_table *t, const struct indirect *x)
{
    if (has_indirect(t->indirect, t->n_indirect, x)) return;
    XGROW(t->indirect, t->n_indirect, t->cap_indirect, 4);
    t->indirect[t->n_indirect].usr = xstrdup(x->usr);
    t->indirect[t->n_indirect].loc = dup_or_null(x->loc);
    t->n_indirect++;
}

static void table_release(struct launch_table *t)
{
    for (unsigned i = 0; i < t->n_sites; i++) site_release(&t->sites[i]);
    for (unsigned i = 0; i < t->n_indirect; i++) {
        free(t->indirect[i].usr);
        free(t->indirect[i].loc);
    }
    free(t->sites);
    free(t->indirect);
    memset(t, 0, sizeof *t);
}

struct launch_table *launch_table_new(void)
{
    return xcalloc(1, sizeof(struct launch_table));
}

void launch_table_free(struct launch_table *t)
{
    if (!t) return;
    table_release(t);
    free(t);
}

void launch_table_add(struct launch_table *t, const struct launch_facts *f)
{
    if (!t || !f) return;
    for (unsigned i = 0; i < f->own.n_sites; i++) table_add_site(t, &f->own.sites[i]);
    for (unsigned i = 0; i < f->own.n_indirect; i++) table_add_indirect(t, &f->own.indirect[i]);
}

unsigned launch_table_sites(const struct launch_table *t)
{
    return t ? t->n_sites : 0;
}

struct launch_model *launch_model_new_in(CXTranslationUnit tu, const struct launch_table *t)
{
    struct launch_model *m = xcalloc(1, sizeof *m);
    m->tu = tu;
    m->project = true;
    modscan_cache()->valid = false;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, m);
    m->n_own = m->n_sites;
    m->n_own_indirect = m->n_indirect;
    for (unsigned i = 0; t && i < t->n_sites; i++) {
        if (has_site(m->sites, m->n_own, &t->sites[i])) continue;
        XGROW(m->sites, m->n_sites, m->cap_sites, 16);
        site_copy(&m->sites[m->n_sites++], &t->sites[i]);
    }
    for (unsigned i = 0; t && i < t->n_indirect; i++) {
        if (has_indirect(m->indirect, m->n_own_indirect, &t->indirect[i])) continue;
        XGROW(m->indirect, m->n_indirect, m->cap_indirect, 4);
        m->indirect[m->n_indirect].usr = xstrdup(t->indirect[i].usr);
        m->indirect[m->n_indirect].loc = dup_or_null(t->indirect[i].loc);
        m->n_indirect++;
    }
    return m;
}

struct launch_facts *launch_facts_new(void)
{
    return xcalloc(1, sizeof(struct launch_facts));
}

void launch_facts_free(struct launch_facts *f)
{
    if (!f) return;
    table_release(&f->own);
    sv_release(&f->queried);
    sv_release(&f->elsewhere);
    sv_release(&f->unknown);
    free(f->digest);
    free(f);
}

static void sv_union(struct strvec *to, const struct strvec *from)
{
    for (size_t i = 0; i < from->len; i++)
        if (!sv_contains(to, from->items[i])) sv_push(to, from->items[i]);
}

void launch_facts_take(struct launch_facts *f, const struct launch_model *m)
{
    if (!f || !m) return;
    for (unsigned i = 0; i < m->n_own; i++) table_add_site(&f->own, &m->sites[i]);
    for (unsigned i = 0; i < m->n_own_indirect; i++) table_add_indirect(&f->own, &m->indirect[i]);
    sv_union(&f->queried, &m->queried);
    sv_union(&f->elsewhere, &m->elsewhere);
    sv_union(&f->unknown, &m->unknown);
}

/* ---- serialisation (the result cache keeps each file's facts) ---- */

static cJSON *str_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *site_json(const struct site *s)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "u", cJSON_CreateString(s->usr));
    cJSON_AddItemToObject(j, "s", str_or_null(s->spec_usr));
    cJSON_AddItemToObject(j, "l", str_or_null(s->loc));
    cJSON_AddBoolToObject(j, "k", s->known);
    cJSON *b = cJSON_AddArrayToObject(j, "b");
    for (int k = 0; k < 3; k++) cJSON_AddItemToArray(b, cJSON_CreateNumber((double)s->shape.b[k]));
    cJSON *t = cJSON_AddArrayToObject(j, "t");
    for (unsigned k = 0; k < s->n_targs; k++)
        cJSON_AddItemToArray(t, s->targ_known[k] ? cJSON_CreateNumber((double)s->targ[k]) : cJSON_CreateNull());
    cJSON *bk = cJSON_AddArrayToObject(j, "bk");
    for (int k = 0; k < 3; k++) cJSON_AddItemToArray(bk, str_or_null(s->bkey[k]));
    cJSON *a = cJSON_AddArrayToObject(j, "a");
    for (unsigned k = 0; k < s->n_args; k++) cJSON_AddItemToArray(a, str_or_null(s->akey[k]));
    if (s->rel) cJSON_AddItemToObject(j, "r", cJSON_CreateString(s->rel));
    return j;
}

static char *json_str_dup(const cJSON *j)
{
    return cJSON_IsString(j) ? xstrdup(j->valuestring) : NULL;
}

static bool site_from_json(const cJSON *j, struct site *s)
{
    memset(s, 0, sizeof *s);
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "u");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "b");
    if (!cJSON_IsString(u) || cJSON_GetArraySize(b) != 3) return false;
    s->usr = xstrdup(u->valuestring);
    s->spec_usr = json_str_dup(cJSON_GetObjectItemCaseSensitive(j, "s"));
    s->loc = json_str_dup(cJSON_GetObjectItemCaseSensitive(j, "l"));
    s->known = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "k"));
    for (int k = 0; k < 3; k++) s->shape.b[k] = (long long)cJSON_GetArrayItem(b, k)->valuedouble;
    const cJSON *e;
    unsigned n = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "t"))
    {
        if (n == LAUNCH_MAX_TARGS) break;
        s->targ_known[n] = cJSON_IsNumber(e);
        s->targ[n] = cJSON_IsNumber(e) ? (long long)e->valuedouble : 0;
        n++;
    }
    s->n_targs = n;
    const cJSON *bk = cJSON_GetObjectItemCaseSensitive(j, "bk");
    for (int k = 0; k < 3; k++) s->bkey[k] = json_str_dup(cJSON_GetArrayItem(bk, k));
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "a");
    s->n_args = (unsigned)cJSON_GetArraySize(a);
    s->akey = s->n_args ? xcalloc(s->n_args, sizeof *s->akey) : NULL;
    for (unsigned k = 0; k < s->n_args; k++) s->akey[k] = json_str_dup(cJSON_GetArrayItem(a, (int)k));
    s->rel = json_str_dup(cJSON_GetObjectItemCaseSensitive(j, "r"));
    return true;
}

static cJSON *strvec_json(const struct strvec *v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < v->len; i++) cJSON_AddItemToArray(a, cJSON_CreateString(v->items[i]));
    return a;
}

static void strvec_from_json(const cJSON *a, struct strvec *v)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
        if (cJSON_IsString(e)) sv_push(v, e->valuestring);
}

static cJSON *indirect_json(const struct indirect *x)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateString(x->usr));
    cJSON_AddItemToArray(a, str_or_null(x->loc));
    return a;
}

char *launch_facts_to_json(const struct launch_facts *f)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "d", str_or_null(f->digest));
    cJSON *s = cJSON_AddArrayToObject(j, "s");
    for (unsigned i = 0; i < f->own.n_sites; i++) cJSON_AddItemToArray(s, site_json(&f->own.sites[i]));
    cJSON *ind = cJSON_AddArrayToObject(j, "i");
    for (unsigned i = 0; i < f->own.n_indirect; i++) cJSON_AddItemToArray(ind, indirect_json(&f->own.indirect[i]));
    cJSON_AddItemToObject(j, "q", strvec_json(&f->queried));
    cJSON_AddItemToObject(j, "e", strvec_json(&f->elsewhere));
    cJSON_AddItemToObject(j, "x", strvec_json(&f->unknown));
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    char *r = xstrdup(text);
    cJSON_free(text);
    return r;
}

struct launch_facts *launch_facts_from_json(const char *text)
{
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return NULL;
    }
    struct launch_facts *f = launch_facts_new();
    f->digest = json_str_dup(cJSON_GetObjectItemCaseSensitive(j, "d"));
    const cJSON *e;
    bool ok = true;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "s"))
    {
        struct site s;
        if (!site_from_json(e, &s)) {
            site_release(&s);
            ok = false;
            break;
        }
        XGROW(f->own.sites, f->own.n_sites, f->own.cap_sites, 16);
        f->own.sites[f->own.n_sites++] = s;
    }
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "i"))
    {
        const cJSON *u = cJSON_GetArrayItem(e, 0);
        if (!cJSON_IsString(u)) {
            ok = false;
            break;
        }
        struct indirect x = {u->valuestring, cJSON_IsString(cJSON_GetArrayItem(e, 1)) ? cJSON_GetArrayItem(e, 1)->valuestring : NULL};
        table_add_indirect(&f->own, &x);
    }
    strvec_from_json(cJSON_GetObjectItemCaseSensitive(j, "q"), &f->queried);
    strvec_from_json(cJSON_GetObjectItemCaseSensitive(j, "e"), &f->elsewhere);
    strvec_from_json(cJSON_GetObjectItemCaseSensitive(j, "x"), &f->unknown);
    cJSON_Delete(j);
    if (!ok) {
        launch_facts_free(f);
        return NULL;
    }
    return f;
}

/* ---- what a file's findings depend on ---- */

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *launch_facts_digest(const struct launch_facts *f, const struct launch_table *t)
{
    if (!f || !t) return xstrdup("0");
    struct strvec parts = {0};
    for (unsigned i = 0; i < t->n_sites; i++) {
        const struct site *s = &t->sites[i];
        if (!sv_contains(&f->queried, s->usr) || has_site(f->own.sites, f->own.n_sites, s)) continue;
        cJSON *j = site_json(s);
        char *text = cJSON_PrintUnformatted(j);
        sv_push(&parts, text);
        cJSON_free(text);
        cJSON_Delete(j);
    }
    for (unsigned i = 0; i < t->n_indirect; i++) {
        const struct indirect *x = &t->indirect[i];
        if (!sv_contains(&f->queried, x->usr) || has_indirect(f->own.indirect, f->own.n_indirect, x)) continue;
        sv_push_owned(&parts, xasprintf("indirect %s %s", x->usr, x->loc ? x->loc : ""));
    }
    if (!parts.len) {
        sv_release(&parts);
        return xstrdup("0");
    }
    qsort(parts.items, parts.len, sizeof *parts.items, cmp_cstr);
    uint64_t h = 0;
    for (size_t i = 0; i < parts.len; i++) {
        uint64_t p = hash_bytes(parts.items[i], strlen(parts.items[i]) + 1);
        h = h * 1099511628211ULL ^ p;
    }
    sv_release(&parts);
    return xasprintf("%016llx", (unsigned long long)h);
}

const char *launch_facts_digest_used(const struct launch_facts *f)
{
    return f && f->digest ? f->digest : "0";
}

void launch_facts_set_digest(struct launch_facts *f, char *digest)
{
    if (!f) {
        free(digest);
        return;
    }
    free(f->digest);
    f->digest = digest;
}

void launch_facts_kernels(const struct launch_facts *f, struct strvec *elsewhere, struct strvec *unknown)
{
    if (!f) return;
    if (elsewhere) sv_union(elsewhere, &f->elsewhere);
    if (unknown) sv_union(unknown, &f->unknown);
}

void launch_facts_merge(struct launch_facts *to, const struct launch_facts *from)
{
    if (!to || !from) return;
    launch_table_add(&to->own, from);
    sv_union(&to->queried, &from->queried);
    sv_union(&to->elsewhere, &from->elsewhere);
    sv_union(&to->unknown, &from->unknown);
    launch_facts_set_digest(to, from->digest ? xstrdup(from->digest) : NULL);
}
