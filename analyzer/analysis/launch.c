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
#include "clang/astutil.h"
#include "base/util.h"

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
};

struct launch_model {
    CXTranslationUnit tu;
    struct site *sites;
    unsigned n_sites, cap_sites;
    char **indirect;    /* kernels passed to cudaLaunchKernel & co. */
    unsigned n_indirect, cap_indirect;
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

struct modscan {
    CXCursor var;
    bool modified;
    CXCursor stack[64];
    unsigned depth;
};

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
    return false;
}

static enum CXChildVisitResult modscan_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct modscan *m = data;
    if (m->modified) return CXChildVisit_Break;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), m->var)) {
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
            if (written_by(p, ast_strip(cur)) || written_by(p, cur)) m->modified = true;
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
    return m->modified ? CXChildVisit_Break : CXChildVisit_Continue;
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
    struct modscan m;
    memset(&m, 0, sizeof m);
    m.var = var;
    clang_visitChildren(fn, modscan_visit, &m);
    return !m.modified;
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

static bool is_dim3_type(CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(t));
    const char *n = clang_getCString(s);
    bool r = n && (strcmp(n, "dim3") == 0 || strcmp(n, "struct dim3") == 0 || strcmp(n, "const dim3") == 0 ||
                   strcmp(n, "const struct dim3") == 0 || strcmp(n, "uint3") == 0);
    clang_disposeString(s);
    return r;
}

/* A constant dim3; with zero_ok a zero component counts as constant too
   (an invalid launch, which the launch-configuration rule reports). */
static bool eval_dim3_z(CXCursor e, long long out[3], int depth, bool zero_ok)
{
    if (depth > 8) return false;
    e = ast_strip(e);
    long long v;
    long long lo = zero_ok ? 0 : 1;
    if (ast_is_integer_kind(clang_getCanonicalType(clang_getCursorType(e)).kind)) {
        if (!eval_int(e, &v, 0) || v < lo) return false;
        out[0] = v;
        out[1] = out[2] = 1;
        return true;
    }
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CXXFunctionalCastExpr || k == CXCursor_CStyleCastExpr) {
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        return n > 0 && eval_dim3_z(kids[n - 1], out, depth + 1, zero_ok);
    }
    if (k == CXCursor_CallExpr) {
        /* A dim3 constructor: the arguments written (dim3's defaults are 1),
           or a copy of another dim3. */
        CXCursor kids[4];
        unsigned n = 0, all = ast_children(e, kids, 4);
        CXCursor args[3];
        for (unsigned i = 0; i < all; i++) {
            if (clang_getCursorKind(kids[i]) == CXCursor_TypeRef) continue;
            if (n == 3) return false;
            args[n++] = kids[i];
        }
        if (n == 1 && is_dim3_type(clang_getCursorType(ast_strip(args[0]))))
            return eval_dim3_z(args[0], out, depth + 1, zero_ok);
        out[0] = out[1] = out[2] = 1;
        for (unsigned i = 0; i < n; i++)
            if (!eval_int(args[i], &out[i], 0) || out[i] < lo) return false;
        return n > 0;
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor var = clang_getCursorReferenced(e);
        CXCursor init = clang_Cursor_getVarDeclInitializer(var);
        if (clang_Cursor_isNull(init) || !unchanged_local(var)) return false;
        return eval_dim3_z(init, out, depth + 1, zero_ok);
    }
    return false;
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
static void block_keys(CXCursor e, char *out[3], int depth)
{
    if (depth > 8) return;
    e = ast_strip(e);
    if (ast_is_integer_kind(clang_getCanonicalType(clang_getCursorType(e)).kind)) {
        out[0] = value_key(e);
        out[1] = xstrdup("c:1");
        out[2] = xstrdup("c:1");
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CXXFunctionalCastExpr || k == CXCursor_CStyleCastExpr) {
        CXCursor kids[4];
        unsigned n = ast_children(e, kids, 4);
        if (n > 0) block_keys(kids[n - 1], out, depth + 1);
        return;
    }
    if (k == CXCursor_CallExpr) {
        CXCursor kids[4];
        unsigned n = 0, all = ast_children(e, kids, 4);
        CXCursor args[3];
        for (unsigned i = 0; i < all; i++) {
            if (clang_getCursorKind(kids[i]) == CXCursor_TypeRef) continue;
            if (n == 3) return;
            args[n++] = kids[i];
        }
        if (n == 1 && is_dim3_type(clang_getCursorType(ast_strip(args[0])))) {
            block_keys(args[0], out, depth + 1);
            return;
        }
        for (unsigned i = 0; i < 3; i++) out[i] = i < n ? value_key(args[i]) : xstrdup("c:1");
        return;
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor var = clang_getCursorReferenced(e);
        CXCursor init = clang_Cursor_getVarDeclInitializer(var);
        if (clang_Cursor_isNull(init) || !unchanged_local(var)) return;
        block_keys(init, out, depth + 1);
    }
}

static bool eval_dim3(CXCursor e, long long out[3], int depth)
{
    return eval_dim3_z(e, out, depth, false);
}

/* ---- the walk ---- */

static void add_site(struct launch_model *m, struct site s)
{
    XGROW(m->sites, m->n_sites, m->cap_sites, 16);
    m->sites[m->n_sites++] = s;
}

/* The configuration call among a launch's children, or a null cursor. */
static CXCursor config_call(CXCursor call)
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

static void record_launch(struct launch_model *m, CXCursor call, CXCursor callee)
{
    CXCursor cfg = config_call(call);
    if (clang_Cursor_isNull(cfg)) return;
    struct site s;
    memset(&s, 0, sizeof s);
    s.usr = kernel_usr(callee);
    s.spec_usr = clang_Cursor_isNull(clang_getSpecializedCursorTemplate(callee)) ? NULL : usr_of(callee);
    if (clang_Cursor_getNumArguments(cfg) >= 2) {
        s.known = eval_dim3(clang_Cursor_getArgument(cfg, 1), s.shape.b, 0);
        block_keys(clang_Cursor_getArgument(cfg, 1), s.bkey, 0);
    }
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
            m->indirect[m->n_indirect++] = kernel_usr(d);
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
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    clang_visitChildren(c, model_visit, data);
    return CXChildVisit_Continue;
}

struct launch_model *launch_model_new(CXTranslationUnit tu)
{
    struct launch_model *m = xcalloc(1, sizeof *m);
    m->tu = tu;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, m);
    return m;
}

void launch_model_free(struct launch_model *m)
{
    if (!m) return;
    for (unsigned i = 0; i < m->n_sites; i++) {
        struct site *s = &m->sites[i];
        free(s->usr);
        free(s->spec_usr);
        for (unsigned k = 0; k < 3; k++) free(s->bkey[k]);
        for (unsigned k = 0; k < s->n_args; k++) free(s->akey[k]);
        free(s->akey);
    }
    for (unsigned i = 0; i < m->n_indirect; i++) free(m->indirect[i]);
    free(m->sites);
    free(m->indirect);
    free(m);
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

bool launch_block_shapes(struct launch_model *m, CXCursor kernel, struct launch_info *out)
{
    memset(out, 0, sizeof *out);
    if (!m || clang_Cursor_isNull(kernel)) return false;
    char *usr = kernel_usr(kernel), *spec = spec_usr_of(kernel);
    bool known = *usr != 0 && clang_Location_isFromMainFile(clang_getCursorLocation(kernel));
    for (unsigned i = 0; i < m->n_indirect && known; i++)
        if (strcmp(m->indirect[i], usr) == 0) known = false;
    for (unsigned i = 0; i < m->n_sites; i++) {
        struct site *s = &m->sites[i];
        if (!site_of(s, usr, spec)) continue;
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
    free(usr);
    free(spec);
    out->known = known && out->n_sites > 0;
    if (!out->known) out->n_shapes = 0;
    return out->known;
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

bool launch_param_is_block_dim(struct launch_model *m, CXCursor kernel, unsigned param, unsigned axis)
{
    if (!m || clang_Cursor_isNull(kernel) || axis > 2) return false;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(kernel))) return false;
    char *usr = kernel_usr(kernel), *spec = spec_usr_of(kernel);
    bool ok = *usr != 0;
    for (unsigned i = 0; i < m->n_indirect && ok; i++)
        if (strcmp(m->indirect[i], usr) == 0) ok = false;
    unsigned n = 0;
    for (unsigned i = 0; i < m->n_sites && ok; i++) {
        struct site *s = &m->sites[i];
        if (!site_of(s, usr, spec)) continue;
        n++;
        ok = param < s->n_args && s->akey[param] && s->bkey[axis] && strcmp(s->akey[param], s->bkey[axis]) == 0;
    }
    free(usr);
    free(spec);
    return ok && n > 0;
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
    CXCursor cfg = config_call(call);
    if (clang_Cursor_isNull(cfg)) return false;
    out->kernel = callee;
    int n = clang_Cursor_getNumArguments(cfg);
    if (n >= 1) {
        out->grid_arg = clang_Cursor_getArgument(cfg, 0);
        out->grid_known = eval_dim3_z(out->grid_arg, out->grid, 0, true);
    }
    if (n >= 2) {
        out->block_arg = clang_Cursor_getArgument(cfg, 1);
        out->block_known = eval_dim3_z(out->block_arg, out->block, 0, true);
    }
    if (n >= 3) {
        out->smem_arg = clang_Cursor_getArgument(cfg, 2);
        out->smem_known = eval_int(out->smem_arg, &out->smem, 0);
    }
    if (n >= 4) out->stream_arg = clang_Cursor_getArgument(cfg, 3);
    return true;
}
