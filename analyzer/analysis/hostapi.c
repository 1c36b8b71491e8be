/* hostapi.c: the host-side model of CUDA API calls.  One walk over a host
 * function records, in source order, every CUDA toolkit or library call (and
 * every <<<...>>> launch and user error-checking call), what the caller does
 * with a returned status, the loops around it, the kind of a copy and where
 * its host buffer comes from.  The tables below say which calls synchronise,
 * allocate, copy, pin memory, or are deprecated. */
#include "analysis/hostapi.h"
#include "analysis/launch.h"
#include "clang/astutil.h"
#include "base/util.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- the tables ---- */

struct api_entry {
    const char *name;
    unsigned flags;
};

/* Calls whose behaviour matters to the host rules; any other call whose
   name and status type say CUDA is still a status-returning API call. */
static const struct api_entry api_table[] = {
    {"cudaGetLastError", HOSTAPI_ERROR_QUERY},
    {"cudaPeekAtLastError", HOSTAPI_ERROR_QUERY},
    {"cudaDeviceSynchronize", HOSTAPI_SYNC | HOSTAPI_DEVICE_SYNC},
    {"cudaThreadSynchronize", HOSTAPI_SYNC | HOSTAPI_DEVICE_SYNC},
    {"cudaStreamSynchronize", HOSTAPI_SYNC | HOSTAPI_DEVICE_SYNC},
    {"cuCtxSynchronize", HOSTAPI_SYNC | HOSTAPI_DEVICE_SYNC},
    {"cuStreamSynchronize", HOSTAPI_SYNC | HOSTAPI_DEVICE_SYNC},
    {"cudaEventSynchronize", HOSTAPI_SYNC},
    {"cuEventSynchronize", HOSTAPI_SYNC},
    {"cudaMemcpy", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpy2D", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpy3D", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpyToSymbol", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpyFromSymbol", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpyToArray", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpyFromArray", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpy2DToArray", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemcpy2DFromArray", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cuMemcpyHtoD", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cuMemcpyDtoH", HOSTAPI_SYNC | HOSTAPI_COPY},
    {"cudaMemset", HOSTAPI_SYNC},
    {"cudaMemcpyAsync", HOSTAPI_ASYNC_COPY},
    {"cudaMemcpy2DAsync", HOSTAPI_ASYNC_COPY},
    {"cudaMemcpy3DAsync", HOSTAPI_ASYNC_COPY},
    {"cudaMemcpyToSymbolAsync", HOSTAPI_ASYNC_COPY},
    {"cudaMemcpyFromSymbolAsync", HOSTAPI_ASYNC_COPY},
    {"cuMemcpyHtoDAsync", HOSTAPI_ASYNC_COPY},
    {"cuMemcpyDtoHAsync", HOSTAPI_ASYNC_COPY},
    {"cudaMalloc", HOSTAPI_ALLOC},
    {"cudaMallocPitch", HOSTAPI_ALLOC},
    {"cudaMalloc3D", HOSTAPI_ALLOC},
    {"cudaMallocArray", HOSTAPI_ALLOC},
    {"cudaMalloc3DArray", HOSTAPI_ALLOC},
    {"cudaMallocManaged", HOSTAPI_ALLOC | HOSTAPI_PINS},
    {"cudaMallocHost", HOSTAPI_ALLOC | HOSTAPI_PINS},
    {"cudaHostAlloc", HOSTAPI_ALLOC | HOSTAPI_PINS},
    {"cudaHostRegister", HOSTAPI_PINS},
    {"cuMemAlloc", HOSTAPI_ALLOC},
    {"cuMemAllocPitch", HOSTAPI_ALLOC},
    {"cuMemAllocHost", HOSTAPI_ALLOC | HOSTAPI_PINS},
    {"cuMemHostAlloc", HOSTAPI_ALLOC | HOSTAPI_PINS},
    {"cuMemAllocManaged", HOSTAPI_ALLOC | HOSTAPI_PINS},
    {"cuMemHostRegister", HOSTAPI_PINS},
    {"cudaFree", HOSTAPI_FREE},
    {"cudaFreeHost", HOSTAPI_FREE},
    {"cudaFreeArray", HOSTAPI_FREE},
    {"cuMemFree", HOSTAPI_FREE},
    {"cuMemFreeHost", HOSTAPI_FREE},
    {"cudaMallocAsync", HOSTAPI_ASYNC_ALLOC},
    {"cudaFreeAsync", HOSTAPI_ASYNC_ALLOC},
    {"cudaMallocFromPoolAsync", HOSTAPI_ASYNC_ALLOC},
};

static const struct api_entry *api_find(const char *name)
{
    for (size_t i = 0; i < sizeof api_table / sizeof api_table[0]; i++)
        if (strcmp(api_table[i].name, name) == 0) return &api_table[i];
    return NULL;
}

static const struct hostapi_deprecation deprecations[] = {
    {"cudaThreadSynchronize", "cudaDeviceSynchronize", NULL, "4.0", "13.0", false},
    {"cudaThreadExit", "cudaDeviceReset", NULL, "4.0", "13.0", false},
    {"cudaThreadSetLimit", "cudaDeviceSetLimit", NULL, "4.0", "13.0", false},
    {"cudaThreadGetLimit", "cudaDeviceGetLimit", NULL, "4.0", "13.0", false},
    {"cudaThreadSetCacheConfig", "cudaDeviceSetCacheConfig", NULL, "4.0", "13.0", false},
    {"cudaThreadGetCacheConfig", "cudaDeviceGetCacheConfig", NULL, "4.0", "13.0", false},
    {"cudaSetDoubleForDevice", NULL, "remove the call: the call has had no effect since CUDA 4.0", "10.0", "12.0", false},
    {"cudaSetDoubleForHost", NULL, "remove the call: the call has had no effect since CUDA 4.0", "10.0", "12.0", false},
    {"cudaConfigureCall", NULL, "use the <<<...>>> syntax or cudaLaunchKernel", "7.0", "12.0", false},
    {"cudaSetupArgument", NULL, "use the <<<...>>> syntax or cudaLaunchKernel", "7.0", "12.0", false},
    {"cudaLaunch", NULL, "use the <<<...>>> syntax or cudaLaunchKernel", "7.0", "12.0", false},
    {"cudaMemcpyToArray", NULL, "use cudaMemcpy2DToArray", "10.1", NULL, false},
    {"cudaMemcpyFromArray", NULL, "use cudaMemcpy2DFromArray", "10.1", NULL, false},
    {"cudaMemcpyToArrayAsync", NULL, "use cudaMemcpy2DToArrayAsync", "10.1", NULL, false},
    {"cudaMemcpyFromArrayAsync", NULL, "use cudaMemcpy2DFromArrayAsync", "10.1", NULL, false},
    {"cudaMemcpyArrayToArray", NULL, "use cudaMemcpy2DArrayToArray", "10.1", NULL, false},
    {"cudaDeviceSetSharedMemConfig", NULL, "remove the call: shared memory bank size is fixed since Maxwell", "12.4", NULL, false},
    {"cudaDeviceGetSharedMemConfig", NULL, "remove the call: shared memory bank size is fixed since Maxwell", "12.4", NULL, false},
    {"cudaFuncSetSharedMemConfig", NULL, "remove the call: shared memory bank size is fixed since Maxwell", "12.4", NULL, false},
    {"cudaLaunchCooperativeKernelMultiDevice", NULL, "use one cudaLaunchCooperativeKernel per device", "11.3", "13.0", false},
    {"cudaProfilerInitialize", NULL, "remove the call (cudaProfilerStart/Stop need no set-up)", "11.0", "12.0", false},
    {"cudaGLSetGLDevice", NULL, "remove the call: the current device is used for interoperability", "5.0", NULL, false},
    {"cudaGLRegisterBufferObject", NULL, "use cudaGraphicsGLRegisterBuffer", "3.0", NULL, false},
    {"cudaGLUnregisterBufferObject", NULL, "use cudaGraphicsUnregisterResource", "3.0", NULL, false},
    {"cudaGLMapBufferObject", NULL, "use cudaGraphicsMapResources and cudaGraphicsResourceGetMappedPointer", "3.0", NULL, false},
    {"cudaGLUnmapBufferObject", NULL, "use cudaGraphicsUnmapResources", "3.0", NULL, false},
    {"cuCtxAttach", NULL, "use cuCtxGetCurrent or the primary context (cuDevicePrimaryCtxRetain)", "4.0", "12.0", false},
    {"cuCtxDetach", NULL, "use cuCtxDestroy or cuDevicePrimaryCtxRelease", "4.0", "12.0", false},
    {"cuDeviceComputeCapability", NULL, "use cuDeviceGetAttribute with CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR", "5.0", NULL, false},
    {"cuDeviceGetProperties", NULL, "use cuDeviceGetAttribute", "5.0", NULL, false},
    {"cudaBindTexture", NULL, "use a texture object (cudaCreateTextureObject)", "11.0", "12.0", true},
    {"cudaBindTexture2D", NULL, "use a texture object (cudaCreateTextureObject)", "11.0", "12.0", true},
    {"cudaBindTextureToArray", NULL, "use a texture object (cudaCreateTextureObject)", "11.0", "12.0", true},
    {"cudaBindTextureToMipmappedArray", NULL, "use a texture object (cudaCreateTextureObject)", "11.0", "12.0", true},
    {"cudaUnbindTexture", NULL, "use cudaDestroyTextureObject", "11.0", "12.0", true},
    {"cudaGetTextureReference", NULL, "use a texture object (cudaCreateTextureObject)", "11.0", "12.0", true},
    {"cudaGetTextureAlignmentOffset", NULL, "use a texture object (cudaCreateTextureObject)", "11.0", "12.0", true},
    {"cudaBindSurfaceToArray", NULL, "use a surface object (cudaCreateSurfaceObject)", "11.0", "12.0", true},
    {"cudaGetSurfaceReference", NULL, "use a surface object (cudaCreateSurfaceObject)", "11.0", "12.0", true},
    {"cuTexRefSetArray", NULL, "use a texture object (cuTexObjectCreate)", "11.0", NULL, true},
    {"cuTexRefSetAddress", NULL, "use a texture object (cuTexObjectCreate)", "11.0", NULL, true},
    {"cuTexRefSetFormat", NULL, "use a texture object (cuTexObjectCreate)", "11.0", NULL, true},
    {"cuModuleGetTexRef", NULL, "use a texture object (cuTexObjectCreate)", "11.0", "12.0", true},
    {"cuModuleGetSurfRef", NULL, "use a surface object (cuSurfObjectCreate)", "11.0", "12.0", true},
};

const struct hostapi_deprecation *hostapi_deprecated(const char *name)
{
    if (!name || name[0] != 'c') return NULL;
    for (size_t i = 0; i < sizeof deprecations / sizeof deprecations[0]; i++)
        if (strcmp(deprecations[i].name, name) == 0) return &deprecations[i];
    return NULL;
}

static const struct hostapi_removed_field removed_fields[] = {
    {"cudaDeviceProp", "clockRate", "13.0", "use cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, device)"},
    {"cudaDeviceProp", "memoryClockRate", "13.0", "use cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, device)"},
    {"cudaDeviceProp", "deviceOverlap", "13.0", "use asyncEngineCount (non-zero: copies overlap kernels)"},
    {"cudaDeviceProp", "kernelExecTimeoutEnabled", "13.0", "use cudaDeviceGetAttribute(&v, cudaDevAttrKernelExecTimeout, device)"},
    {"cudaDeviceProp", "computeMode", "13.0", "use cudaDeviceGetAttribute(&v, cudaDevAttrComputeMode, device)"},
    {"cudaDeviceProp", "maxTexture1DLinear", "13.0", "use cudaDeviceGetTexture1DLinearMaxWidth"},
    {"cudaDeviceProp", "singleToDualPrecisionPerfRatio", "13.0",
     "use cudaDeviceGetAttribute(&v, cudaDevAttrSingleToDoublePrecisionPerfRatio, device)"},
    {"cudaDeviceProp", "cooperativeMultiDeviceLaunch", "13.0",
     "remove the test: multi-device cooperative launch was removed with it"},
};

const struct hostapi_removed_field *hostapi_removed_field(const char *record, const char *field)
{
    for (size_t i = 0; i < sizeof removed_fields / sizeof removed_fields[0]; i++)
        if (!strcmp(removed_fields[i].record, record) && !strcmp(removed_fields[i].field, field))
            return &removed_fields[i];
    return NULL;
}

/* Status types and the name prefixes of the libraries that return them. */
static const struct {
    const char *type;
    enum hostapi_status kind;
} status_types[] = {
    {"cudaError_t", HOSTAPI_STATUS_RUNTIME},    {"cudaError", HOSTAPI_STATUS_RUNTIME},
    {"enum cudaError", HOSTAPI_STATUS_RUNTIME}, {"CUresult", HOSTAPI_STATUS_DRIVER},
    {"cublasStatus_t", HOSTAPI_STATUS_LIBRARY}, {"cublasStatus", HOSTAPI_STATUS_LIBRARY},
    {"cufftResult", HOSTAPI_STATUS_LIBRARY},    {"cufftResult_t", HOSTAPI_STATUS_LIBRARY},
    {"cusparseStatus_t", HOSTAPI_STATUS_LIBRARY}, {"curandStatus_t", HOSTAPI_STATUS_LIBRARY},
    {"cusolverStatus_t", HOSTAPI_STATUS_LIBRARY}, {"cudnnStatus_t", HOSTAPI_STATUS_LIBRARY},
    {"ncclResult_t", HOSTAPI_STATUS_LIBRARY},   {"nvrtcResult", HOSTAPI_STATUS_LIBRARY},
    {"nvjpegStatus_t", HOSTAPI_STATUS_LIBRARY}, {"cutensorStatus_t", HOSTAPI_STATUS_LIBRARY},
    {"curandStatus", HOSTAPI_STATUS_LIBRARY},
};

static bool has_api_prefix(const char *n)
{
    static const char *const prefixes[] = {"cuda", "cublas", "cufft", "cusparse", "curand", "cusolver",
                                           "cudnn", "nccl", "nvrtc", "nvjpeg", "cutensor"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(n, prefixes[i], strlen(prefixes[i])) == 0) return true;
    /* The driver API: cuMemAlloc, cuLaunchKernel ... */
    return n[0] == 'c' && n[1] == 'u' && isupper((unsigned char)n[2]);
}

/* The status a value of type rt is, or NONE. */
static enum hostapi_status status_of_type(CXType rt, const char **type_name)
{
    *type_name = NULL;
    if (rt.kind == CXType_Invalid || rt.kind == CXType_Void) return HOSTAPI_STATUS_NONE;
    CXString s = clang_getTypeSpelling(rt);
    const char *t = clang_getCString(s);
    enum hostapi_status k = HOSTAPI_STATUS_NONE;
    if (t) {
        if (strncmp(t, "const ", 6) == 0) t += 6;
        for (size_t i = 0; i < sizeof status_types / sizeof status_types[0]; i++)
            if (strcmp(status_types[i].type, t) == 0) {
                k = status_types[i].kind;
                *type_name = status_types[i].type;
                if (strcmp(*type_name, "cudaError") == 0 || strcmp(*type_name, "enum cudaError") == 0)
                    *type_name = "cudaError_t";
                break;
            }
    }
    clang_disposeString(s);
    return k;
}

/* The status a function declaration returns, or NONE. */
static enum hostapi_status status_of(CXCursor decl, const char **type_name)
{
    return status_of_type(clang_getCursorResultType(decl), type_name);
}

/* Is the expression a status: of a status type (a variable, a call), or an
   enumerator of one (cudaSuccess)? */
static bool is_status_expr(CXCursor e)
{
    e = ast_strip(e);
    const char *t = NULL;
    if (status_of_type(clang_getCursorType(e), &t) != HOSTAPI_STATUS_NONE) return true;
    if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(e);
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
            CXType et = clang_getCursorType(clang_getCursorSemanticParent(d));
            if (status_of_type(et, &t) != HOSTAPI_STATUS_NONE) return true;
        }
    }
    return false;
}

/* Which branch of an if statement handles a failed status: 1 the then
   branch (if (err != cudaSuccess), if (err)), 2 the else branch
   (if (err == cudaSuccess), if (!err)), 0 when the condition tests no status.
   Error handling (printing, exiting, returning the code) is not work the
   host does with a device result, whatever it calls. */
static int failure_branch(CXCursor ifstmt)
{
    CXCursor cond = ast_strip(ast_child(ifstmt, 0));
    enum CXCursorKind k = clang_getCursorKind(cond);
    if (k == CXCursor_BinaryOperator) {
        enum CXBinaryOperatorKind op = ast_binop(cond);
        if (op != CXBinaryOperator_NE && op != CXBinaryOperator_EQ) return 0;
        if (!is_status_expr(ast_child(cond, 0)) && !is_status_expr(ast_child(cond, 1))) return 0;
        return op == CXBinaryOperator_NE ? 1 : 2;
    }
    if (k == CXCursor_UnaryOperator && ast_unop(cond) == CXUnaryOperator_LNot)
        return is_status_expr(ast_child(cond, 0)) ? 2 : 0;
    return is_status_expr(cond) ? 1 : 0;
}

/* ---- the walk over one function ---- */

struct walk {
    CXTranslationUnit tu;
    struct hostapi_fn *f;
    CXCursor *stack;
    unsigned depth, cap;
    int cur_loop;
    unsigned cap_calls, cap_loops;
    unsigned in_failure_branch; /* depth of branches that handle a failed status */
};

static unsigned offset_of(CXCursor c)
{
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    return off;
}

static bool is_wrapper(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr;
}

static bool is_statement_parent(enum CXCursorKind k)
{
    return k == CXCursor_CompoundStmt || k == CXCursor_IfStmt || k == CXCursor_ForStmt ||
           k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_CaseStmt ||
           k == CXCursor_DefaultStmt || k == CXCursor_LabelStmt || k == CXCursor_CXXForRangeStmt;
}

/* Is the call written as an argument of a macro (its spelling lies after
   the macro name at its expansion point in the same file)?  Sets *macro to
   the macro's name. */
static bool in_macro_arg(CXTranslationUnit tu, CXCursor call, char **macro, bool *in_body)
{
    CXSourceLocation loc = clang_getCursorLocation(call);
    CXFile ef, sf;
    unsigned eo, so;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    *macro = NULL;
    *in_body = false;
    if (!ef || !sf) return false;
    if (eo == so && clang_File_isEqual(ef, sf)) return false;
    if (!clang_File_isEqual(ef, sf) || so < eo) {
        *in_body = true;
        return false;
    }
    /* The macro's name is the token at the expansion point. */
    CXSourceLocation at = clang_getLocationForOffset(tu, ef, eo);
    CXToken *tok = clang_getToken(tu, at);
    if (tok) {
        if (clang_getTokenKind(*tok) == CXToken_Identifier) {
            CXString sp = clang_getTokenSpelling(tu, *tok);
            *macro = xstrdup(clang_getCString(sp));
            clang_disposeString(sp);
        }
        clang_disposeTokens(tu, tok, 1);
    }
    if (!*macro) *macro = xstrdup("?");
    return true;
}

/* ---- reads of a stored status ---- */

/* A write of the variable, and the other arm of each if around it: a store
   in that arm never runs before this write, so this write does not
   overwrite it (`if (a) e = f(); else e = g(); check(e);`). */
#define READ_POS_MAX_ARMS 8
struct write_pos {
    unsigned at;
    unsigned n_arms;
    unsigned other_arm[READ_POS_MAX_ARMS][2]; /* expansion offsets, begin and end */
};

struct read_pos {
    CXCursor var;
    unsigned *reads;
    unsigned n, cap;
    struct write_pos *writes;
    unsigned nw, capw;
    bool escapes;
    CXCursor stack[64];
    unsigned depth;
};

/* The other arms of the ifs on the visitor's stack around self. */
static void note_other_arms(struct read_pos *s, struct write_pos *w, CXCursor self)
{
    w->n_arms = 0;
    for (unsigned d = 0; d < s->depth && w->n_arms < READ_POS_MAX_ARMS; d++) {
        CXCursor p = s->stack[d];
        if (clang_getCursorKind(p) != CXCursor_IfStmt) continue;
        CXCursor inner = d + 1 < s->depth ? s->stack[d + 1] : self;
        CXCursor kids[4];
        unsigned n = ast_children(p, kids, 4);
        /* if (cond) then else, the condition perhaps after an init: the
           child before the two arms is the condition, an expression (an if
           without else, or with a condition variable, is left alone) */
        if (n < 3 || !clang_isExpression(clang_getCursorKind(kids[n - 3]))) continue;
        CXCursor then_arm = kids[n - 2], else_arm = kids[n - 1];
        CXCursor other = clang_equalCursors(inner, then_arm) ? else_arm
                         : clang_equalCursors(inner, else_arm) ? then_arm : clang_getNullCursor();
        if (clang_Cursor_isNull(other)) continue;
        CXSourceRange r = clang_getCursorExtent(other);
        clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &w->other_arm[w->n_arms][0]);
        clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &w->other_arm[w->n_arms][1]);
        w->n_arms++;
    }
}

static enum CXChildVisitResult pos_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct read_pos *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), s->var)) {
        unsigned off = offset_of(c);
        int i = (int)s->depth - 1;
        CXCursor child = c;
        while (i >= 0 && is_wrapper(s->stack[i])) child = s->stack[i--];
        bool write = false;
        if (i >= 0) {
            CXCursor p = s->stack[i];
            enum CXCursorKind pk = clang_getCursorKind(p);
            CXCursor first = ast_child(p, 0);
            bool lhs = !clang_Cursor_isNull(first) && clang_equalCursors(first, child);
            if (pk == CXCursor_BinaryOperator && ast_binop(p) == CXBinaryOperator_Assign && lhs)
                write = true;
            if (pk == CXCursor_UnaryOperator && ast_unop(p) == CXUnaryOperator_AddrOf) s->escapes = true;
        }
        if (write) {
            if (s->nw == s->capw) {
                s->capw = s->capw ? s->capw * 2 : 8;
                s->writes = xrealloc(s->writes, s->capw * sizeof *s->writes);
            }
            struct write_pos *w = &s->writes[s->nw++];
            w->at = off;
            note_other_arms(s, w, c);
        } else {
            if (s->n == s->cap) {
                s->cap = s->cap ? s->cap * 2 : 8;
                s->reads = xrealloc(s->reads, s->cap * sizeof *s->reads);
            }
            s->reads[s->n++] = off;
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_LambdaExpr) s->escapes = true;
    if (s->depth < 64) {
        s->stack[s->depth++] = c;
        clang_visitChildren(c, pos_visit, s);
        s->depth--;
    }
    return CXChildVisit_Continue;
}

/* Is the status stored in var at offset `at` read before it is overwritten
   (or could it be: the variable escapes, is not a local, or a loop may carry
   it round)? */
static bool stored_is_read(CXCursor fn, CXCursor var, unsigned at, bool in_loop)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl) return true; /* a member, a parameter ... */
    if (clang_Cursor_getStorageClass(var) == CX_SC_Static) return true;
    CXCursor sp = clang_getCursorSemanticParent(var);
    enum CXCursorKind pk = clang_getCursorKind(sp);
    if (pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace) return true; /* a global */
    struct read_pos s;
    memset(&s, 0, sizeof s);
    s.var = var;
    clang_visitChildren(fn, pos_visit, &s);
    bool read = s.escapes;
    unsigned next_write = (unsigned)-1;
    for (unsigned i = 0; i < s.nw; i++) {
        const struct write_pos *w = &s.writes[i];
        if (w->at <= at || w->at >= next_write) continue;
        bool exclusive = false;
        for (unsigned k = 0; k < w->n_arms && !exclusive; k++)
            exclusive = w->other_arm[k][0] <= at && at <= w->other_arm[k][1];
        if (!exclusive) next_write = w->at;
    }
    for (unsigned i = 0; i < s.n && !read; i++) {
        /* >=: a read in the same macro expansion as the store shares its offset */
        if (s.reads[i] >= at && s.reads[i] < next_write) read = true;
        /* Inside a loop, a read earlier in the body may see the next
           iteration's value. */
        if (in_loop && s.reads[i] < at) read = true;
    }
    free(s.reads);
    free(s.writes);
    return read;
}

/* Is the unexposed expression p around child what clang keeps of a call it
   could not resolve (a RecoveryExpr: `NAME(child)` with NAME undeclared),
   rather than an implicit conversion?  A conversion spans exactly its
   operand; the recovered call starts with the name before it. */
static bool recovered_call(CXCursor p, CXCursor child)
{
    CXSourceRange pr = clang_getCursorExtent(p), cr = clang_getCursorExtent(child);
    unsigned pb, cb, pe, ce;
    CXFile pf, cf;
    clang_getSpellingLocation(clang_getRangeStart(pr), &pf, NULL, NULL, &pb);
    clang_getSpellingLocation(clang_getRangeStart(cr), &cf, NULL, NULL, &cb);
    clang_getSpellingLocation(clang_getRangeEnd(pr), NULL, NULL, NULL, &pe);
    clang_getSpellingLocation(clang_getRangeEnd(cr), NULL, NULL, NULL, &ce);
    if (!pf || !cf || !clang_File_isEqual(pf, cf)) return false;
    return pb < cb && pe > ce && clang_getCursorType(p).kind != CXType_Invalid &&
           clang_Cursor_isNull(clang_getCursorReferenced(p));
}

/* How the value of the call at stack position `self` is used. */
static enum hostapi_use use_of(struct walk *w, CXCursor call, unsigned self_depth,
                               CXCursor *stored_in, bool in_loop)
{
    *stored_in = clang_getNullCursor();
    int i = (int)self_depth - 1;
    CXCursor child = call;
    while (i >= 0) {
        CXCursor p = w->stack[i];
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_UnexposedExpr && recovered_call(p, child)) {
            /* CHECK(cudaGetLastError()) where CHECK is not declared (its
               header did not parse): the value goes to something the parse
               lost, most likely a checking macro */
            return HOSTAPI_USE_CHECKED;
        }
        if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr) {
            child = p;
            i--;
            continue;
        }
        if (is_statement_parent(k)) {
            /* The condition of an if/while/for/switch is a test; a child
               statement is a discarded value. */
            if (k == CXCursor_IfStmt || k == CXCursor_WhileStmt) {
                CXCursor c0 = ast_child(p, 0);
                if (clang_equalCursors(c0, child)) return HOSTAPI_USE_CHECKED;
            }
            if (k == CXCursor_DoStmt) {
                CXCursor c1 = ast_child(p, 1);
                if (clang_equalCursors(c1, child)) return HOSTAPI_USE_CHECKED;
            }
            if (k == CXCursor_ForStmt) {
                /* Only a for's body or increment discards; a condition tests. */
                CXCursor kids[4];
                unsigned n = ast_children(p, kids, 4);
                if (n >= 2 && clang_equalCursors(kids[n - 1], child)) return HOSTAPI_USE_DISCARDED;
                return HOSTAPI_USE_CHECKED;
            }
            return HOSTAPI_USE_DISCARDED;
        }
        if (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
            k == CXCursor_CXXFunctionalCastExpr) {
            CXType t = clang_getCursorType(p);
            if (t.kind == CXType_Void) return HOSTAPI_USE_VOIDED;
            child = p;
            i--;
            continue;
        }
        if (k == CXCursor_BinaryOperator) {
            enum CXBinaryOperatorKind op = ast_binop(p);
            CXCursor first = ast_child(p, 0);
            bool lhs = clang_equalCursors(first, child);
            if (op == CXBinaryOperator_Comma) {
                if (lhs) return HOSTAPI_USE_DISCARDED;
                child = p;
                i--;
                continue;
            }
            if (op == CXBinaryOperator_Assign && !lhs) {
                CXCursor target = ast_strip(first);
                if (clang_getCursorKind(target) == CXCursor_DeclRefExpr) {
                    CXCursor var = clang_getCursorReferenced(target);
                    if (!stored_is_read(w->f->fn, var, offset_of(call), in_loop)) {
                        *stored_in = var;
                        return HOSTAPI_USE_STORED_UNREAD;
                    }
                }
                return HOSTAPI_USE_CHECKED;
            }
            return HOSTAPI_USE_CHECKED;
        }
        if (k == CXCursor_VarDecl) {
            /* cudaError_t e = call; (auto, const too) */
            CXType t = clang_getCursorType(p);
            if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
                return HOSTAPI_USE_CHECKED;
            if (!stored_is_read(w->f->fn, p, offset_of(call), in_loop)) {
                *stored_in = p;
                return HOSTAPI_USE_STORED_UNREAD;
            }
            return HOSTAPI_USE_CHECKED;
        }
        /* A call's argument, a constructor's argument (RAII wrappers), a
           return, a comparison, a condition, an initializer list ... */
        return HOSTAPI_USE_CHECKED;
    }
    return HOSTAPI_USE_CHECKED;
}

/* Does a function's visible body read the last error (directly or one call
   deeper)?  Without a body, its name decides: check/error/err in it. */
static bool body_reads_last_error(CXCursor c, int depth);

struct lastscan {
    bool found;
    int depth;
};

static enum CXChildVisitResult lastscan_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct lastscan *s = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXCursor callee = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(callee)) {
            char *n = ast_spelling(callee);
            bool q = strcmp(n, "cudaGetLastError") == 0 || strcmp(n, "cudaPeekAtLastError") == 0;
            free(n);
            if (q || (s->depth < 2 && body_reads_last_error(callee, s->depth + 1))) {
                s->found = true;
                return CXChildVisit_Break;
            }
        }
    }
    return CXChildVisit_Recurse;
}

static bool body_reads_last_error(CXCursor callee, int depth)
{
    CXCursor def = clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def)) return false;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(def))) return false;
    struct lastscan s = {false, depth};
    clang_visitChildren(def, lastscan_visit, &s);
    return s.found;
}

static bool name_says_checker(const char *n)
{
    char low[128];
    size_t i = 0;
    for (; n[i] && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)n[i]);
    low[i] = 0;
    return strstr(low, "check") || strstr(low, "error") || strstr(low, "err") || strstr(low, "chk");
}

static bool is_user_checker(CXCursor callee)
{
    CXCursor def = clang_getCursorDefinition(callee);
    if (!clang_Cursor_isNull(def)) return body_reads_last_error(callee, 0);
    char *n = ast_spelling(callee);
    bool r = name_says_checker(n);
    free(n);
    return r;
}

/* ---- copies and host buffers ---- */

static enum hostapi_copy_kind copy_kind_of(CXCursor arg)
{
    long long v;
    CXCursor a = ast_strip(arg);
    if (!ast_eval_int(a, &v)) {
        if (clang_getCursorKind(a) == CXCursor_DeclRefExpr) {
            char *n = ast_spelling(clang_getCursorReferenced(a));
            enum hostapi_copy_kind k = HOSTAPI_COPY_UNKNOWN;
            if (!strcmp(n, "cudaMemcpyHostToDevice")) k = HOSTAPI_COPY_H2D;
            else if (!strcmp(n, "cudaMemcpyDeviceToHost")) k = HOSTAPI_COPY_D2H;
            else if (!strcmp(n, "cudaMemcpyHostToHost")) k = HOSTAPI_COPY_H2H;
            else if (!strcmp(n, "cudaMemcpyDeviceToDevice")) k = HOSTAPI_COPY_D2D;
            else if (!strcmp(n, "cudaMemcpyDefault")) k = HOSTAPI_COPY_DEFAULT;
            free(n);
            return k;
        }
        return HOSTAPI_COPY_UNKNOWN;
    }
    if (v >= 0 && v <= 4) return (enum hostapi_copy_kind)v;
    return HOSTAPI_COPY_UNKNOWN;
}

/* Is the type std::vector<T> with the standard allocator? */
static bool is_std_vector(CXType t)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(clang_getNonReferenceType(t)));
    const char *n = clang_getCString(s);
    bool r = false;
    if (n) {
        if (strncmp(n, "const ", 6) == 0) n += 6;
        r = strncmp(n, "std::vector<", 12) == 0 && strstr(n, "std::allocator<");
        /* libstdc++ spells it std::vector<float>; the allocator may be implicit. */
        if (!r && strncmp(n, "std::vector<", 12) == 0 && !strstr(n, ", ")) r = true;
        if (!r && strncmp(n, "std::vector<", 12) == 0) {
            const char *comma = strrchr(n, ',');
            r = comma && strstr(comma, "std::allocator<");
        }
    }
    clang_disposeString(s);
    return r;
}

/* The variable a pointer expression names (p, (char *)p), or null. */
static CXCursor plain_var(CXCursor e)
{
    e = ast_strip_casts(e);
    /* p + offset: the buffer is p's */
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator &&
        clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Pointer) {
        CXCursor l = ast_strip(ast_child(e, 0));
        if (clang_getCanonicalType(clang_getCursorType(l)).kind == CXType_Pointer) e = l;
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr) return clang_getNullCursor();
    CXCursor v = clang_getCursorReferenced(e);
    if (clang_getCursorKind(v) != CXCursor_VarDecl) return clang_getNullCursor();
    return v;
}

/* vec.data() or &vec[0] on a std::vector: the vector's expression. */
static bool is_vector_storage(CXCursor e, CXCursor *vec)
{
    e = ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CallExpr) {
        char *n = ast_spelling(e);
        bool data = strcmp(n, "data") == 0;
        free(n);
        if (!data) return false;
        CXCursor m = ast_child(e, 0);
        if (clang_getCursorKind(m) != CXCursor_MemberRefExpr) return false;
        CXCursor obj = ast_child(m, 0);
        if (clang_Cursor_isNull(obj) || !is_std_vector(clang_getCursorType(ast_strip(obj)))) return false;
        *vec = ast_strip(obj);
        return true;
    }
    if (k == CXCursor_UnaryOperator && ast_unop(e) == CXUnaryOperator_AddrOf) {
        CXCursor sub = ast_strip(ast_child(e, 0));
        /* &v[0]: an operator[] call on the vector */
        if (clang_getCursorKind(sub) == CXCursor_CallExpr) {
            CXCursor kids[3];
            unsigned n = ast_children(sub, kids, 3);
            for (unsigned i = 0; i < n; i++) {
                CXCursor o = ast_strip(kids[i]);
                if (clang_getCursorKind(o) == CXCursor_DeclRefExpr &&
                    is_std_vector(clang_getCursorType(o))) {
                    *vec = o;
                    return true;
                }
            }
        }
    }
    return false;
}

/* malloc(...), calloc, realloc, new T[n], new T, possibly cast. */
static bool is_pageable_source(CXCursor e)
{
    e = ast_strip_casts(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_CXXNewExpr) return true;
    if (k == CXCursor_CallExpr) {
        char *n = ast_spelling(e);
        bool r = !strcmp(n, "malloc") || !strcmp(n, "calloc") || !strcmp(n, "realloc") ||
                 !strcmp(n, "aligned_alloc");
        free(n);
        return r;
    }
    CXCursor vec;
    return is_vector_storage(e, &vec);
}

struct origin_scan {
    CXCursor var;        /* the pointer variable, or a vector */
    bool is_vector;
    bool pageable_seen, other_seen, pinned;
    CXCursor at;
    CXCursor stack[64];
    unsigned depth;
};

static enum CXChildVisitResult origin_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct origin_scan *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr && s->depth < 64) {
        CXCursor callee = clang_getCursorReferenced(c);
        char *n = clang_Cursor_isNull(callee) ? xstrdup("") : ast_spelling(callee);
        const struct api_entry *e = api_find(n);
        free(n);
        if (e && (e->flags & HOSTAPI_PINS) && clang_Cursor_getNumArguments(c) > 0) {
            /* cudaMallocHost(&p, ...), cudaHostRegister(p, ...), (void **)&p,
               cudaHostRegister(v.data(), ...) */
            CXCursor a = ast_strip(clang_Cursor_getArgument(c, 0));
            for (int g = 0; g < 4; g++) {
                enum CXCursorKind ak = clang_getCursorKind(a);
                if (ak == CXCursor_CStyleCastExpr || ak == CXCursor_CXXReinterpretCastExpr ||
                    ak == CXCursor_CXXStaticCastExpr) {
                    CXCursor kids[3];
                    unsigned nk = ast_children(a, kids, 3);
                    if (!nk) break;
                    a = ast_strip(kids[nk - 1]);
                } else if (ak == CXCursor_UnaryOperator && ast_unop(a) == CXUnaryOperator_AddrOf) {
                    a = ast_strip(ast_child(a, 0));
                } else {
                    break;
                }
            }
            CXCursor vec;
            if (clang_getCursorKind(a) == CXCursor_DeclRefExpr &&
                clang_equalCursors(clang_getCursorReferenced(a), s->var))
                s->pinned = true;
            else if (is_vector_storage(a, &vec) && clang_getCursorKind(vec) == CXCursor_DeclRefExpr &&
                     clang_equalCursors(clang_getCursorReferenced(vec), s->var))
                s->pinned = true;
        }
    }
    if (!s->is_vector && k == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), s->var)) {
        int i = (int)s->depth - 1;
        CXCursor child = c;
        while (i >= 0 && is_wrapper(s->stack[i])) child = s->stack[i--];
        if (i >= 0) {
            CXCursor p = s->stack[i];
            enum CXCursorKind pk = clang_getCursorKind(p);
            CXCursor first = ast_child(p, 0);
            if (pk == CXCursor_BinaryOperator && ast_binop(p) == CXBinaryOperator_Assign &&
                clang_equalCursors(first, child)) {
                CXCursor rhs = ast_child(p, 1);
                if (is_pageable_source(rhs)) {
                    s->pageable_seen = true;
                    if (clang_Cursor_isNull(s->at)) s->at = p;
                } else {
                    CXCursor z = ast_strip(rhs);
                    long long v;
                    bool null_ptr = clang_getCursorKind(z) == CXCursor_CXXNullPtrLiteralExpr ||
                                    clang_getCursorKind(z) == CXCursor_GNUNullExpr ||
                                    (ast_eval_int(z, &v) && v == 0);
                    if (!null_ptr) s->other_seen = true;
                }
            } else if (pk == CXCursor_UnaryOperator && ast_unop(p) == CXUnaryOperator_AddrOf) {
                /* &p handed to something: the allocation may happen there */
                bool pins_call = false;
                for (int j = i - 1; j >= 0 && j >= i - 4; j--) {
                    CXCursor q = s->stack[j];
                    if (clang_getCursorKind(q) == CXCursor_CallExpr) {
                        char *n = ast_spelling(q);
                        const struct api_entry *e = api_find(n);
                        pins_call = e && (e->flags & HOSTAPI_PINS);
                        free(n);
                        break;
                    }
                }
                if (!pins_call) s->other_seen = true;
            }
        }
        return CXChildVisit_Continue;
    }
    if (s->depth < 64) {
        s->stack[s->depth++] = c;
        clang_visitChildren(c, origin_visit, s);
        s->depth--;
    }
    return CXChildVisit_Continue;
}

static enum hostapi_origin origin_of(CXCursor fn, CXCursor buf, CXCursor *at, CXCursor *var)
{
    *at = clang_getNullCursor();
    *var = clang_getNullCursor();
    struct origin_scan s;
    memset(&s, 0, sizeof s);
    s.at = clang_getNullCursor();
    CXCursor vec;
    if (is_vector_storage(buf, &vec)) {
        if (clang_getCursorKind(vec) != CXCursor_DeclRefExpr) return HOSTAPI_ORIGIN_UNKNOWN;
        s.var = clang_getCursorReferenced(vec);
        if (clang_getCursorKind(s.var) != CXCursor_VarDecl) return HOSTAPI_ORIGIN_UNKNOWN;
        if (clang_getCursorType(s.var).kind == CXType_LValueReference) return HOSTAPI_ORIGIN_UNKNOWN;
        s.is_vector = true;
        s.pageable_seen = true;
        s.at = s.var;
    } else {
        s.var = plain_var(buf);
        if (clang_Cursor_isNull(s.var)) return HOSTAPI_ORIGIN_UNKNOWN;
        CXCursor sp = clang_getCursorSemanticParent(s.var);
        enum CXCursorKind pk = clang_getCursorKind(sp);
        if (pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace) return HOSTAPI_ORIGIN_UNKNOWN;
        /* a static local is still this function's: it keeps what it was
           given here */
        CXCursor init = clang_Cursor_getVarDeclInitializer(s.var);
        if (!clang_Cursor_isNull(init)) {
            if (is_pageable_source(init)) {
                s.pageable_seen = true;
                s.at = s.var;
            } else {
                CXCursor z = ast_strip(init);
                long long v;
                bool null_ptr = clang_getCursorKind(z) == CXCursor_CXXNullPtrLiteralExpr ||
                                clang_getCursorKind(z) == CXCursor_GNUNullExpr ||
                                (ast_eval_int(z, &v) && v == 0);
                if (!null_ptr) s.other_seen = true;
            }
        }
    }
    clang_visitChildren(fn, origin_visit, &s);
    if (s.pinned) return HOSTAPI_ORIGIN_PINNED;
    if (s.pageable_seen && !s.other_seen) {
        *at = s.at;
        *var = s.var;
        return HOSTAPI_ORIGIN_PAGEABLE;
    }
    return HOSTAPI_ORIGIN_UNKNOWN;
}

/* ---- allocation targets ---- */

/* The variable an allocation writes (cudaMalloc(&p, n), (void **)&p,
   &obj.member) or a free releases (cudaFree(p)); null when the target is an
   element of an array (p[i], &bufs[i]) or anything else. */
static CXCursor target_of(CXCursor arg, bool address)
{
    CXCursor a = ast_strip(arg);
    for (int g = 0; g < 4; g++) {
        enum CXCursorKind ak = clang_getCursorKind(a);
        if (ak == CXCursor_CStyleCastExpr || ak == CXCursor_CXXReinterpretCastExpr ||
            ak == CXCursor_CXXStaticCastExpr) {
            CXCursor kids[3];
            unsigned n = ast_children(a, kids, 3);
            if (!n) return clang_getNullCursor();
            a = ast_strip(kids[n - 1]);
        } else {
            break;
        }
    }
    if (address) {
        if (clang_getCursorKind(a) != CXCursor_UnaryOperator || ast_unop(a) != CXUnaryOperator_AddrOf)
            return clang_getNullCursor();
        a = ast_strip(ast_child(a, 0));
    }
    enum CXCursorKind k = clang_getCursorKind(a);
    if (k == CXCursor_DeclRefExpr) return clang_getCursorReferenced(a);
    if (k == CXCursor_MemberRefExpr) {
        /* obj.p / this->p: a member, unless reached through an index */
        CXCursor base = ast_strip(ast_child(a, 0));
        if (!clang_Cursor_isNull(base) && clang_getCursorKind(base) == CXCursor_ArraySubscriptExpr)
            return clang_getNullCursor();
        return clang_getCursorReferenced(a);
    }
    return clang_getNullCursor();
}

/* ---- does a loop change what a size expression reads? ---- */

struct loop_writes {
    CXCursor var;
    bool decl_only; /* only a declaration inside the loop counts */
    bool written;
    CXCursor stack[64];
    unsigned depth;
};

static enum CXChildVisitResult writes_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct loop_writes *s = data;
    if (clang_getCursorKind(c) == CXCursor_VarDecl &&
        (clang_equalCursors(c, s->var) || (clang_getCursorKind(s->var) == CXCursor_VarDecl &&
                                           offset_of(c) == offset_of(s->var)))) {
        s->written = true; /* declared inside the loop: a new value each iteration */
        return CXChildVisit_Break;
    }
    if (!s->decl_only && clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), s->var)) {
        int i = (int)s->depth - 1;
        CXCursor child = c;
        while (i >= 0 && is_wrapper(s->stack[i])) child = s->stack[i--];
        if (i >= 0) {
            CXCursor p = s->stack[i];
            enum CXCursorKind pk = clang_getCursorKind(p);
            bool lhs = clang_equalCursors(ast_child(p, 0), child);
            if ((pk == CXCursor_BinaryOperator && ast_binop(p) == CXBinaryOperator_Assign && lhs) ||
                (pk == CXCursor_CompoundAssignOperator && lhs) ||
                (pk == CXCursor_UnaryOperator && (ast_unop_is_incdec(ast_unop(p)) || ast_unop(p) == CXUnaryOperator_AddrOf)))
                s->written = true;
        }
        return s->written ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (s->depth < 64) {
        s->stack[s->depth++] = c;
        clang_visitChildren(c, writes_visit, s);
        s->depth--;
    }
    return s->written ? CXChildVisit_Break : CXChildVisit_Continue;
}

struct size_refs {
    CXCursor loop;
    bool varies;
};

static enum CXChildVisitResult size_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct size_refs *s = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor v = clang_getCursorReferenced(c);
        enum CXCursorKind vk = clang_getCursorKind(v);
        if (vk == CXCursor_VarDecl || vk == CXCursor_ParmDecl) {
            struct loop_writes lw;
            memset(&lw, 0, sizeof lw);
            lw.var = v;
            clang_visitChildren(s->loop, writes_visit, &lw);
            if (lw.written) {
                s->varies = true;
                return CXChildVisit_Break;
            }
        }
    }
    if (clang_getCursorKind(c) == CXCursor_CallExpr || clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr ||
        clang_getCursorKind(c) == CXCursor_MemberRefExpr) {
        /* sizes[i], v.size(), cfg->bytes: may change with the loop; the
           variables inside decide (sizes[i] names i) */
    }
    return CXChildVisit_Recurse;
}

/* ---- the walk ---- */

static void push(struct walk *w, CXCursor c)
{
    if (w->depth == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 64;
        w->stack = xrealloc(w->stack, w->cap * sizeof *w->stack);
    }
    w->stack[w->depth++] = c;
}

static enum CXChildVisitResult leaves_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    /* throw, as a statement of its own */
    if (k == CXCursor_UnexposedExpr || k == CXCursor_CXXThrowExpr) {
        if (k == CXCursor_CXXThrowExpr || clang_getCursorKind(ast_child(c, 0)) == CXCursor_CXXThrowExpr) {
            *(bool *)data = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

/* Is the current position inside a block (of the innermost loop) that ends
   by leaving the loop: the innermost compound statement around it holds a
   break, return, goto or throw at its own level? */
static bool on_exit_path(struct walk *w)
{
    CXCursor loop = w->f->loops[w->cur_loop].stmt;
    for (int i = (int)w->depth - 1; i >= 0; i--) {
        CXCursor p = w->stack[i];
        if (clang_equalCursors(p, loop)) return false;
        if (clang_getCursorKind(p) != CXCursor_CompoundStmt) continue;
        bool leaves = false;
        clang_visitChildren(p, leaves_visit, &leaves);
        return leaves;
    }
    return false;
}

/* Does statement s leave the switch around it: break, return, goto, throw,
   or a case label or block whose last statement does? */
static bool leaves_switch(CXCursor s, int depth)
{
    if (depth > 8) return false;
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_CXXThrowExpr)
        return true;
    if (k == CXCursor_UnexposedExpr) return clang_getCursorKind(ast_child(s, 0)) == CXCursor_CXXThrowExpr;
    if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt || k == CXCursor_CompoundStmt) {
        CXCursor kids[256];
        unsigned n = ast_children(s, kids, 256);
        return n > 0 && n < 256 && leaves_switch(kids[n - 1], depth + 1);
    }
    return false;
}

/* Does a statement of a switch's body from number `from` up to (not
   including) `to` leave the switch?  Asked only of the pairs a rule
   compares, not for every call. */
static bool leaves_between(CXCursor body, unsigned from, unsigned to)
{
    CXCursor stmts[512];
    unsigned n = ast_children(body, stmts, 512);
    for (unsigned j = from; j < to && j < n; j++)
        if (leaves_switch(stmts[j], 0)) return true;
    return false;
}

/* The if and switch arms around the call being added (w's stack). */
static void record_arms(struct walk *w, struct hostapi_call *c, CXCursor call)
{
    c->n_arms = 0;
    for (unsigned i = 0; i < w->depth && c->n_arms < HOSTAPI_MAX_ARMS; i++) {
        CXCursor p = w->stack[i];
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k != CXCursor_IfStmt && k != CXCursor_SwitchStmt) continue;
        CXCursor next = i + 1 < w->depth ? w->stack[i + 1] : call;
        CXCursor kids[256];
        unsigned n = ast_children(p, kids, 256), at = n;
        for (unsigned j = 0; j < n; j++)
            if (clang_equalCursors(kids[j], next)) at = j;
        if (at == n) continue;
        struct hostapi_arm a = {p, k == CXCursor_SwitchStmt, 0};
        if (k == CXCursor_IfStmt) {
            /* children: condition, then[, else]; an init statement or a
               condition variable comes first (then taken to have an else
               when there are four or more children) */
            if (n == 2) a.arm = at == 1 ? 1 : 0;
            else if (n == 3) a.arm = at == 1 ? 1 : at == 2 ? 2 : 0;
            else a.arm = at == n - 1 ? 2 : at == n - 2 ? 1 : 0;
            if (a.arm == 0) continue; /* the condition */
        } else {
            /* the body: a block whose statements are the cases */
            if (clang_getCursorKind(next) != CXCursor_CompoundStmt || i + 2 > w->depth) continue;
            CXCursor stmt = i + 2 < w->depth ? w->stack[i + 2] : call;
            CXCursor body[512];
            unsigned nb = ast_children(next, body, 512);
            unsigned idx = nb;
            for (unsigned j = 0; j < nb; j++)
                if (clang_equalCursors(body[j], stmt)) idx = j;
            if (idx == nb || nb == 512) continue;
            a.branch = next;
            a.arm = idx;
        }
        c->arms[c->n_arms++] = a;
    }
}

bool hostapi_after(const struct hostapi_call *a, const struct hostapi_call *b)
{
    if (b->offset != a->offset) return b->offset > a->offset;
    return b->spelled_at > a->spelled_at;
}

/* Does the innermost block around the call end by leaving the function
   for good: a throw, or a call that never returns (exit, abort, an
   assertion failure)? */
static bool block_ends_leaving(struct walk *w)
{
    for (int i = (int)w->depth - 1; i >= 0; i--) {
        CXCursor p = w->stack[i];
        if (clang_getCursorKind(p) != CXCursor_CompoundStmt) continue;
        CXCursor kids[256];
        unsigned n = ast_children(p, kids, 256);
        if (n == 0 || n == 256) return false;
        CXCursor last = kids[n - 1];
        enum CXCursorKind k = clang_getCursorKind(last);
        if (k == CXCursor_CXXThrowExpr) return true;
        if (k == CXCursor_UnexposedExpr && clang_getCursorKind(ast_child(last, 0)) == CXCursor_CXXThrowExpr)
            return true;
        if (k == CXCursor_CallExpr) return ast_call_never_returns(last);
        /* The arm of `if (err != cudaSuccess)` that returns: it hands a
           failure back to the caller, and what it calls on the way out (the
           clean-up of what was allocated) has no better status to give. */
        if (k == CXCursor_ReturnStmt && ast_children(last, kids, 1) == 1 && i > 0 &&
            clang_getCursorKind(w->stack[i - 1]) == CXCursor_IfStmt) {
            CXCursor arms[3];
            unsigned na = ast_children(w->stack[i - 1], arms, 3);
            int fb = failure_branch(w->stack[i - 1]);
            return fb > 0 && (unsigned)fb < na && ast_same_node(arms[fb], p);
        }
        return false;
    }
    return false;
}

struct jump_scan {
    unsigned loops, switches; /* around the node visited, inside the statement scanned */
    bool found;
};

static enum CXChildVisitResult jump_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct jump_scan *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr) return CXChildVisit_Continue; /* a function of its own */
    if (k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt || (k == CXCursor_ContinueStmt && s->loops == 0) ||
        (k == CXCursor_BreakStmt && s->loops == 0 && s->switches == 0)) {
        s->found = true;
        return CXChildVisit_Break;
    }
    bool loop = k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
                k == CXCursor_CXXForRangeStmt;
    if (loop || k == CXCursor_SwitchStmt) {
        struct jump_scan inner = {s->loops + (loop ? 1u : 0u), s->switches + (loop ? 0u : 1u), false};
        clang_visitChildren(c, jump_visit, &inner);
        s->found = inner.found;
        return inner.found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

/* Can control leave statement s other than at its end or by leaving the
   function: a goto, or a break or continue of a loop or switch outside s? */
static bool may_jump_out(CXCursor s)
{
    struct jump_scan j = {0, 0, false};
    if (jump_visit(s, s, &j) == CXChildVisit_Recurse) clang_visitChildren(s, jump_visit, &j);
    return j.found;
}

/* Does statement s leave the function: return, throw (with no try around,
   which the caller sees to), or a call that never returns? */
static bool leaves_function(CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_ReturnStmt || k == CXCursor_CXXThrowExpr) return true;
    if (k == CXCursor_UnexposedExpr) return clang_getCursorKind(ast_child(s, 0)) == CXCursor_CXXThrowExpr;
    return k == CXCursor_CallExpr && ast_call_never_returns(s);
}

/* A launch in `if (...) { k<<<...>>>(...); return 0; }` is the last thing its
   path does with CUDA: the calls after the if never run after it.  Walks out
   from the launch (w's stack) block by block to the first statement after
   it, at a block's own level, that leaves the function; gives up at a
   statement that could jump out of its block first, at a goto in a loop
   that runs the launch again, and inside a try (a handler outside the block
   may catch what a call between throws). */
static void record_leaving_path(struct walk *w, struct hostapi_call *hc, CXCursor call)
{
    for (unsigned i = 0; i < w->depth; i++)
        if (clang_getCursorKind(w->stack[i]) == CXCursor_CXXTryStmt) return;
    CXCursor child = call;
    for (int i = (int)w->depth - 1; i >= 0; i--) {
        CXCursor p = w->stack[i];
        enum CXCursorKind k = clang_getCursorKind(p);
        if (clang_isDeclaration(k)) return; /* the function itself: its end returns to the caller anyway */
        if (k == CXCursor_CompoundStmt) {
            CXCursor kids[512];
            unsigned n = ast_children(p, kids, 512), at = n;
            if (n == 512) return;
            for (unsigned j = 0; j < n && at == n; j++)
                if (clang_equalCursors(kids[j], child)) at = j;
            if (at == n) return;
            for (unsigned j = at + 1; j < n; j++) {
                if (leaves_function(kids[j])) {
                    CXSourceRange from = clang_getCursorExtent(p), to = clang_getCursorExtent(kids[j]);
                    clang_getExpansionLocation(clang_getRangeStart(from), NULL, NULL, NULL, &hc->leaves_from);
                    clang_getExpansionLocation(clang_getRangeEnd(to), NULL, NULL, NULL, &hc->leaves_to);
                    hc->leaves_function = true;
                    return;
                }
                if (may_jump_out(kids[j])) return;
            }
        } else {
            /* An if left from the arm that holds the launch continues after
               the if, and a switch left from its body after the switch; a
               loop runs its body again (a goto in it may leave the block),
               and from an if's condition either arm can follow. */
            bool arm = k == CXCursor_SwitchStmt && clang_getCursorKind(child) == CXCursor_CompoundStmt;
            if (k == CXCursor_IfStmt) {
                /* children: condition, then[, else], after an init statement
                   or a condition variable (as record_arms reads them) */
                CXCursor kids[8];
                unsigned n = ast_children(p, kids, 8), at = n;
                for (unsigned j = 0; j < n; j++)
                    if (clang_equalCursors(kids[j], child)) at = j;
                arm = at < n && (n <= 3 ? at >= 1 : at >= n - 2);
            }
            if (!arm && may_jump_out(p)) return;
        }
        child = p;
    }
}

bool hostapi_exclusive(const struct hostapi_fn *f, const struct hostapi_call *first, const struct hostapi_call *later)
{
    /* Every path from first leaves the function inside the block that holds
       it: a call outside that block never runs after first, loops or not. */
    if (first->leaves_function && (later->offset < first->leaves_from || later->offset > first->leaves_to))
        return true;
    /* A loop around both runs the branch again: the other arm can follow. */
    if (first->loop >= 0 && later->loop >= 0 &&
        (hostapi_loop_within(f, later->loop, first->loop) || hostapi_loop_within(f, first->loop, later->loop)))
        return false;
    for (unsigned i = 0; i < first->n_arms; i++)
        for (unsigned j = 0; j < later->n_arms; j++) {
            const struct hostapi_arm *a = &first->arms[i], *b = &later->arms[j];
            if (a->is_switch != b->is_switch || !clang_equalCursors(a->branch, b->branch)) continue;
            if (!a->is_switch && a->arm != b->arm) return true;
            if (a->is_switch && b->arm > a->arm && leaves_between(a->branch, a->arm, b->arm)) return true;
        }
    return false;
}

static bool switches_device(const char *name)
{
    return !strcmp(name, "cudaSetDevice") || !strcmp(name, "cuCtxSetCurrent") || !strcmp(name, "cuCtxPushCurrent") ||
           !strcmp(name, "cuCtxPushCurrent_v2");
}

static struct hostapi_call *add_call(struct walk *w, CXCursor call, char *name, unsigned flags)
{
    struct hostapi_fn *f = w->f;
    if (switches_device(name))
        for (int l = w->cur_loop; l >= 0; l = f->loops[l].parent) f->loops[l].sets_device = true;
    if (f->n_calls == w->cap_calls) {
        w->cap_calls = w->cap_calls ? w->cap_calls * 2 : 16;
        f->calls = xrealloc(f->calls, w->cap_calls * sizeof *f->calls);
    }
    struct hostapi_call *c = &f->calls[f->n_calls++];
    memset(c, 0, sizeof *c);
    c->call = call;
    c->name = name;
    c->flags = flags;
    c->stored_in = c->host_buffer = c->host_var = c->origin_at = c->target = c->stream_var = clang_getNullCursor();
    c->loop = w->cur_loop;
    c->exit_path = w->cur_loop >= 0 && on_exit_path(w);
    c->offset = offset_of(call);
    clang_getSpellingLocation(clang_getCursorLocation(call), NULL, NULL, NULL, &c->spelled_at);
    c->before_leaving = block_ends_leaving(w);
    record_arms(w, c, call);
    c->copy_kind = HOSTAPI_COPY_UNKNOWN;
    c->use = HOSTAPI_USE_CHECKED;
    return c;
}

static void mark_launch_in_loops(struct walk *w)
{
    for (int l = w->cur_loop; l >= 0; l = w->f->loops[l].parent) w->f->loops[l].has_launch = true;
}

static void mark_host_work(struct walk *w)
{
    if (w->in_failure_branch) return;
    for (int l = w->cur_loop; l >= 0; l = w->f->loops[l].parent) w->f->loops[l].host_work = true;
}

/* A statement that repeats.  do { ... } while (0), the body of most
   checking macros (and of hand-written blocks), runs once: not a loop. */
static bool is_loop(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DoStmt) {
        long long v;
        CXCursor cond = ast_child(c, 1);
        return !(ast_eval_int(cond, &v) && v == 0);
    }
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt;
}

static bool harmless_host_call(const char *n)
{
    /* pointer swaps of ping-pong buffers and the like need no device result */
    return !strcmp(n, "swap") || !strcmp(n, "dim3") || !strcmp(n, "min") || !strcmp(n, "max") ||
           !strcmp(n, "operator=") || !strcmp(n, "move");
}

/* The name as the code writes it: headers rename some functions with macros
   (cuMemFree -> cuMemFree_v2, cublasSaxpy -> cublasSaxpy_v2).  Takes name. */
static char *written_name(CXTranslationUnit tu, CXCursor call, char *name)
{
    CXSourceLocation loc = clang_getCursorLocation(call);
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    if (!f) return name;
    CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, f, off));
    if (!tok) return name;
    if (clang_getTokenKind(*tok) == CXToken_Identifier) {
        CXString sp = clang_getTokenSpelling(tu, *tok);
        const char *t = clang_getCString(sp);
        size_t n = strlen(t);
        if (n && n < strlen(name) && strncmp(name, t, n) == 0 && name[n] == '_') {
            free(name);
            name = xstrdup(t);
        }
        clang_disposeString(sp);
    }
    clang_disposeTokens(tu, tok, 1);
    return name;
}

/* Does the call read a clock: std::chrono's now() on a *_clock,
   clock_gettime, gettimeofday, clock, omp_get_wtime, MPI_Wtime? */
static bool is_timer(CXCursor callee, const char *name)
{
    static const char *const clocks[] = {"clock_gettime", "gettimeofday", "clock", "omp_get_wtime",
                                         "MPI_Wtime", "timespec_get"};
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++)
        if (!strcmp(name, clocks[i])) return true;
    if (strcmp(name, "now") != 0) return false;
    char *cls = ast_spelling(clang_getCursorSemanticParent(callee));
    size_t n = strlen(cls);
    bool r = n >= 5 && strcmp(cls + n - 5, "clock") == 0;
    free(cls);
    return r;
}

/* Is the variable declared __managed__ (written by kernels, read by the
   host without a copy)?  libclang exposes no cursor for the attribute, so
   the declaration's tokens decide. */
static bool is_managed_var(CXTranslationUnit tu, CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl) return false;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(var))) return false; /* std::cout */
    enum CXCursorKind scope = clang_getCursorKind(clang_getCursorSemanticParent(var));
    if (scope != CXCursor_TranslationUnit && scope != CXCursor_Namespace &&
        clang_Cursor_getStorageClass(var) != CX_SC_Static && clang_Cursor_getStorageClass(var) != CX_SC_Extern)
        return false;
    /* the extent begins inside the qualifier's macro expansion: tokenize
       the file range it expands from */
    CXSourceRange ext = clang_getCursorExtent(var);
    CXFile fb, fe;
    unsigned ob, oe;
    clang_getExpansionLocation(clang_getRangeStart(ext), &fb, NULL, NULL, &ob);
    clang_getExpansionLocation(clang_getRangeEnd(ext), &fe, NULL, NULL, &oe);
    if (!fb || !fe || !clang_File_isEqual(fb, fe) || oe <= ob) return false;
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, fb, ob), clang_getLocationForOffset(tu, fe, oe)),
                   &toks, &n);
    bool managed = false;
    for (unsigned i = 0; i < n && !managed; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier) continue;
        CXString sp = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(sp);
        managed = t && (!strcmp(t, "__managed__") || !strcmp(t, "managed"));
        clang_disposeString(sp);
    }
    if (toks) clang_disposeTokens(tu, toks, n);
    return managed;
}

/* ---- what a loop does with a buffer variable ---- */

struct var_uses {
    CXCursor var;
    CXCursor loop;
    bool found;
    CXCursor stack[64];
    unsigned depth;
};

/* Does the loop change what the expression reads (an index it moves)? */
static bool varies_in_loop(CXCursor loop, CXCursor e)
{
    struct size_refs sr = {loop, false};
    size_visit(e, clang_getNullCursor(), &sr);
    if (!sr.varies) clang_visitChildren(e, size_visit, &sr);
    return sr.varies;
}

static bool is_null_constant(CXCursor e)
{
    e = ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    long long v;
    return k == CXCursor_CXXNullPtrLiteralExpr || k == CXCursor_GNUNullExpr || (ast_eval_int(e, &v) && v == 0);
}

static bool callee_is_alloc_api(CXCursor call)
{
    char *n = ast_spelling(clang_getCursorReferenced(call));
    const struct api_entry *e = api_find(n);
    bool r = e && (e->flags & HOSTAPI_ALLOC);
    free(n);
    return r;
}

/* The position of a reference to the variable: the parent beyond parens and
   implicit conversions, and the child on the way to it. */
static CXCursor use_parent(struct var_uses *s, CXCursor ref, CXCursor *child, int *at)
{
    int i = (int)s->depth - 1;
    *child = ref;
    while (i >= 0 && is_wrapper(s->stack[i])) *child = s->stack[i--];
    *at = i;
    return i >= 0 ? s->stack[i] : clang_getNullCursor();
}

/* Kept: the variable is handed to a container's insertion (push_back,
   emplace_back, insert ...) or assigned to an element or member the loop
   moves through (bufs[i] = p). */
static enum CXChildVisitResult kept_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct var_uses *s = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), s->var)) {
        CXCursor child;
        int at;
        CXCursor p = use_parent(s, c, &child, &at);
        while (!clang_Cursor_isNull(p) && (clang_getCursorKind(p) == CXCursor_CStyleCastExpr ||
                                           clang_getCursorKind(p) == CXCursor_CXXStaticCastExpr ||
                                           clang_getCursorKind(p) == CXCursor_CXXReinterpretCastExpr)) {
            child = p;
            p = --at >= 0 ? s->stack[at] : clang_getNullCursor();
            while (at >= 0 && is_wrapper(p)) {
                child = p;
                p = --at >= 0 ? s->stack[at] : clang_getNullCursor();
            }
        }
        if (clang_Cursor_isNull(p)) return CXChildVisit_Continue;
        enum CXCursorKind pk = clang_getCursorKind(p);
        if (pk == CXCursor_CallExpr) {
            char *n = ast_spelling(clang_getCursorReferenced(p));
            static const char *const inserts[] = {"push_back", "emplace_back", "push_front", "emplace_front",
                                                  "insert", "emplace", "push", "append"};
            for (size_t i = 0; i < sizeof inserts / sizeof inserts[0] && !s->found; i++)
                if (!strcmp(n, inserts[i])) s->found = true;
            free(n);
        } else if (pk == CXCursor_BinaryOperator && ast_binop(p) == CXBinaryOperator_Assign &&
                   !clang_equalCursors(ast_child(p, 0), child)) {
            CXCursor lhs = ast_strip(ast_child(p, 0));
            if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr && varies_in_loop(s->loop, lhs)) s->found = true;
        }
        return s->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (s->depth < 64) {
        s->stack[s->depth++] = c;
        clang_visitChildren(c, kept_visit, s);
        s->depth--;
    }
    return s->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Obtained: the loop gives the variable a buffer other than through an
   allocation this model sees: p = make_buffer(n), or get_buffer(&p). */
static enum CXChildVisitResult obtained_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct var_uses *s = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), s->var)) {
        CXCursor child;
        int at;
        CXCursor p = use_parent(s, c, &child, &at);
        if (clang_Cursor_isNull(p)) return CXChildVisit_Continue;
        enum CXCursorKind pk = clang_getCursorKind(p);
        if (pk == CXCursor_BinaryOperator && ast_binop(p) == CXBinaryOperator_Assign &&
            clang_equalCursors(ast_child(p, 0), child) && !is_null_constant(ast_child(p, 1))) {
            s->found = true;
        } else if (pk == CXCursor_UnaryOperator && ast_unop(p) == CXUnaryOperator_AddrOf) {
            /* &p handed to a call that is not a CUDA allocation */
            for (int i = at - 1; i >= 0; i--) {
                CXCursor q = s->stack[i];
                enum CXCursorKind qk = clang_getCursorKind(q);
                if (is_wrapper(q) || qk == CXCursor_CStyleCastExpr || qk == CXCursor_CXXStaticCastExpr ||
                    qk == CXCursor_CXXReinterpretCastExpr)
                    continue;
                if (qk == CXCursor_CallExpr && !callee_is_alloc_api(q) && !clang_Cursor_isNull(clang_getCursorReferenced(q))) {
                    char *n = ast_spelling(clang_getCursorReferenced(q));
                    if (!has_api_prefix(n)) s->found = true;
                    free(n);
                }
                break;
            }
        }
        return s->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (s->depth < 64) {
        s->stack[s->depth++] = c;
        clang_visitChildren(c, obtained_visit, s);
        s->depth--;
    }
    return s->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool loop_uses_var(CXCursor loop, CXCursor var, CXCursorVisitor visit)
{
    struct var_uses s;
    memset(&s, 0, sizeof s);
    s.var = var;
    s.loop = loop;
    clang_visitChildren(loop, visit, &s);
    return s.found;
}

/* Is call the configuration call of the launch around it?  A launch whose
   kernel clang could not resolve (a kernel template given an argument of a
   type the parse lost, or launched from a template) is no launch_site, and
   the walk reaches its configuration call.  That call is part of the <<<...>>>,
   not a CUDA call the code makes; the toolkit's headers name it
   __cudaPushCallConfiguration, which has no API name, but the declarations
   header cudaConfigureCall, which has: counted as an API call, it made a
   launcher look like a function that goes on calling CUDA in shim mode only. */
static bool is_launch_configuration(struct walk *w, CXCursor call)
{
    for (int i = (int)w->depth - 1; i >= 0; i--) {
        CXCursor p = w->stack[i];
        if (is_wrapper(p)) continue;
        return clang_getCursorKind(p) == CXCursor_CallExpr && ast_same_node(launch_config_call(p), call);
    }
    return false;
}

static void handle_call(struct walk *w, CXCursor c)
{
    CXCursor callee = clang_getCursorReferenced(c);
    struct launch_site ls;
    if (launch_site_read(c, &ls)) {
        struct hostapi_call *hc = add_call(w, c, ast_spelling(callee), HOSTAPI_LAUNCH);
        hc->stream_known = true;
        if (!clang_Cursor_isNull(ls.stream_arg)) {
            CXCursor a = ast_strip(ls.stream_arg);
            long long v;
            enum CXCursorKind ak = clang_getCursorKind(a);
            bool defaulted = ak == CXCursor_UnexposedExpr && clang_Cursor_isNull(ast_child(a, 0));
            if (defaulted || ak == CXCursor_CXXNullPtrLiteralExpr || ak == CXCursor_GNUNullExpr ||
                (ast_eval_int(a, &v) && v == 0)) {
                /* the default stream */
            } else {
                CXCursor v2 = plain_var(a);
                if (!clang_Cursor_isNull(v2)) hc->stream_var = v2;
                else if (ak == CXCursor_MemberRefExpr || ak == CXCursor_DeclRefExpr)
                    hc->stream_var = clang_getCursorReferenced(a);
                else
                    hc->stream_known = false;
            }
        }
        record_leaving_path(w, hc, c);
        mark_launch_in_loops(w);
        return;
    }
    char *name = NULL;
    if (clang_Cursor_isNull(callee)) {
        /* an undeclared function: the name of the call */
        name = ast_spelling(c);
        if (!name[0]) {
            free(name);
            return;
        }
        if (!has_api_prefix(name)) {
            mark_host_work(w);
            free(name);
            return;
        }
        struct hostapi_call *hc = add_call(w, c, name, HOSTAPI_API);
        const struct api_entry *e = api_find(name);
        if (e) hc->flags |= e->flags;
        return;
    }
    enum CXCursorKind ck = clang_getCursorKind(callee);
    if (ck != CXCursor_FunctionDecl && ck != CXCursor_CXXMethod && ck != CXCursor_FunctionTemplate) {
        /* constructors, conversions: host work only when not a dim3 */
        char *n = ast_spelling(callee);
        if (!harmless_host_call(n) && ck != CXCursor_Constructor) mark_host_work(w);
        free(n);
        return;
    }
    name = written_name(w->tu, c, ast_spelling(callee));
    const char *st = NULL;
    enum hostapi_status status = status_of(callee, &st);
    const struct api_entry *e = api_find(name);
    bool api = has_api_prefix(name) && !is_launch_configuration(w, c) &&
               (status != HOSTAPI_STATUS_NONE || e || clang_Location_isInSystemHeader(clang_getCursorLocation(callee)));
    if (!api) {
        /* a user function: a checker of the last error, or host work */
        bool checker = is_user_checker(callee);
        if (checker) {
            add_call(w, c, name, HOSTAPI_CHECKER);
        } else {
            /* check(cudaDeviceSynchronize()): a function receiving a CUDA
               status checks it; that needs no device result */
            bool receives_status = false;
            int na = clang_Cursor_getNumArguments(c);
            for (int i = 0; i < na && !receives_status; i++) {
                CXCursor a = ast_strip(clang_Cursor_getArgument(c, (unsigned)i));
                if (clang_getCursorKind(a) != CXCursor_CallExpr) continue;
                CXCursor ac = clang_getCursorReferenced(a);
                const char *st2 = NULL;
                if (!clang_Cursor_isNull(ac) && status_of(ac, &st2) != HOSTAPI_STATUS_NONE) receives_status = true;
            }
            if (!receives_status && !harmless_host_call(name)) mark_host_work(w);
            if (is_timer(callee, name)) add_call(w, c, name, HOSTAPI_TIMER);
            else free(name);
        }
        return;
    }
    struct hostapi_call *hc = add_call(w, c, name, HOSTAPI_API | (e ? e->flags : 0));
    hc->status = status;
    hc->status_type = st;
    if (!strcmp(name, "cudaEventElapsedTime") || !strcmp(name, "cudaEventQuery") ||
        !strcmp(name, "cudaStreamQuery"))
        mark_host_work(w); /* timing or polling: the host wants to know */
    if (status != HOSTAPI_STATUS_NONE) {
        bool body = false;
        if (in_macro_arg(w->tu, c, &hc->macro, &body)) {
            hc->use = HOSTAPI_USE_MACRO_ARG;
        } else {
            hc->in_macro_body = body;
            hc->use = use_of(w, c, w->depth, &hc->stored_in, w->cur_loop >= 0);
        }
    }
    int nargs = clang_Cursor_getNumArguments(c);
    if ((hc->flags & (HOSTAPI_COPY | HOSTAPI_ASYNC_COPY)) && nargs >= 4) {
        /* cudaMemcpy(dst, src, n, kind), cudaMemcpyAsync(dst, src, n, kind, s),
           cudaMemcpy2D(dst, dp, src, sp, w, h, kind) */
        int kind_arg = -1, dst = 0, src = 1;
        if (!strncmp(name, "cudaMemcpy2D", 12) && nargs >= 7) {
            kind_arg = 6;
            src = 2;
        } else if (!strcmp(name, "cudaMemcpy") || !strcmp(name, "cudaMemcpyAsync")) {
            kind_arg = 3;
        }
        if (kind_arg >= 0) {
            hc->copy_kind = copy_kind_of(clang_Cursor_getArgument(c, (unsigned)kind_arg));
            int host = hc->copy_kind == HOSTAPI_COPY_H2D ? src : hc->copy_kind == HOSTAPI_COPY_D2H ? dst : -1;
            if (host >= 0) {
                hc->host_buffer = clang_Cursor_getArgument(c, (unsigned)host);
                hc->host_origin = origin_of(w->f->fn, hc->host_buffer, &hc->origin_at, &hc->host_var);
            }
        }
    }
    if ((hc->flags & HOSTAPI_ALLOC) && nargs >= 1)
        hc->target = target_of(clang_Cursor_getArgument(c, 0), true);
    if ((hc->flags & HOSTAPI_ALLOC) && w->cur_loop >= 0) {
        struct size_refs sr = {w->f->loops[w->cur_loop].stmt, false};
        for (int i = 1; i < nargs && !sr.varies; i++) {
            CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
            size_visit(a, c, &sr);
            if (!sr.varies) clang_visitChildren(a, size_visit, &sr);
        }
        hc->size_varies = sr.varies;
    }
    if ((hc->flags & HOSTAPI_ALLOC) && w->cur_loop >= 0 && !clang_Cursor_isNull(hc->target))
        hc->kept = loop_uses_var(w->f->loops[w->cur_loop].stmt, hc->target, kept_visit);
    if ((hc->flags & HOSTAPI_FREE) && nargs >= 1)
        hc->target = target_of(clang_Cursor_getArgument(c, 0), false);
    if ((hc->flags & HOSTAPI_FREE) && w->cur_loop >= 0 && !clang_Cursor_isNull(hc->target)) {
        /* freeing a variable declared in the loop, or one the loop gets a
           buffer for from elsewhere: allocated there too, where this model
           may not see (one new buffer each iteration, or its size unknown) */
        struct loop_writes lw;
        memset(&lw, 0, sizeof lw);
        lw.var = hc->target;
        lw.decl_only = true;
        CXCursor loop = w->f->loops[w->cur_loop].stmt;
        clang_visitChildren(loop, writes_visit, &lw);
        hc->size_varies = lw.written || loop_uses_var(loop, hc->target, obtained_visit);
    }
    if (hc->flags & HOSTAPI_COPY)
        for (int l = w->cur_loop; l >= 0; l = w->f->loops[l].parent) w->f->loops[l].has_copy = true;
}

static enum CXChildVisitResult fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* nested classes, functions and lambdas are functions of their own */
    if ((clang_isDeclaration(k) && k != CXCursor_VarDecl) || k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    int saved_loop = w->cur_loop;
    if (is_loop(c)) {
        struct hostapi_fn *f = w->f;
        if (f->n_loops == w->cap_loops) {
            w->cap_loops = w->cap_loops ? w->cap_loops * 2 : 8;
            f->loops = xrealloc(f->loops, w->cap_loops * sizeof *f->loops);
        }
        struct hostapi_loop *l = &f->loops[f->n_loops];
        memset(l, 0, sizeof *l);
        l->stmt = c;
        l->parent = w->cur_loop;
        w->cur_loop = (int)f->n_loops++;
    }
    bool skip_children = false;
    if (k == CXCursor_CallExpr) {
        unsigned before = w->f->n_calls;
        handle_call(w, c);
        /* a launch's arguments are not host reads of results */
        if (w->f->n_calls > before && (w->f->calls[before].flags & HOSTAPI_LAUNCH)) skip_children = true;
    } else if (k == CXCursor_ArraySubscriptExpr ||
               (k == CXCursor_UnaryOperator && ast_unop(c) == CXUnaryOperator_Deref) ||
               k == CXCursor_CXXThrowExpr || k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
               k == CXCursor_GotoStmt) {
        /* reads host memory or leaves the loop on a condition: the host may need results */
        bool inside_api_args = false;
        for (int i = (int)w->depth - 1; i >= 0 && !inside_api_args; i--) {
            CXCursor p = w->stack[i];
            if (clang_getCursorKind(p) != CXCursor_CallExpr) continue;
            CXCursor callee = clang_getCursorReferenced(p);
            if (clang_Cursor_isNull(callee)) break;
            char *n = ast_spelling(callee);
            inside_api_args = has_api_prefix(n);
            free(n);
            break;
        }
        if (!inside_api_args) mark_host_work(w);
    } else if (k == CXCursor_DeclRefExpr && is_managed_var(w->tu, clang_getCursorReferenced(c))) {
        /* a __managed__ variable: kernels write it, the host reads it in place */
        mark_host_work(w);
    } else if (k == CXCursor_MemberRefExpr) {
        /* p->field reads memory; s.field of a local struct does not need the device */
        CXCursor base = ast_strip(ast_child(c, 0));
        if (!clang_Cursor_isNull(base) && clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer) {
            mark_host_work(w);
        }
    }
    if (k == CXCursor_IfStmt && !skip_children) {
        /* the condition and the success branch as usual; the branch that
           handles a failed status marks no host work */
        int failure = failure_branch(c);
        CXCursor kids[4];
        unsigned n = ast_children(c, kids, 4);
        push(w, c);
        for (unsigned i = 0; i < n; i++) {
            bool fails = failure != 0 && n <= 3 && (int)i == failure;
            if (fails) w->in_failure_branch++;
            fn_visit(kids[i], c, w);
            if (fails) w->in_failure_branch--;
        }
        w->depth--;
        skip_children = true;
    }
    if (!skip_children) {
        push(w, c);
        clang_visitChildren(c, fn_visit, w);
        w->depth--;
    }
    w->cur_loop = saved_loop;
    return CXChildVisit_Continue;
}

/* A synchronous device-to-host copy in a loop is host work of that loop
   when each iteration needs its result on the host: the loop reads what it
   copied (while (residual > tol)), or the copy lands in a slice of host
   memory the loop moves through (h + c * n: a chunked copy out of a reused
   device buffer, which the next iteration overwrites). */
/* Timers: cudaEventRecord is one only where the function reads an elapsed
   time.  An allocation or free is timed when two timer reads bracket it
   inside a loop around it (each iteration measures it), or anywhere around
   it in a function that also times stream-ordered allocation (a comparison
   of allocators).  The allocation is then what is measured: hoisting it
   would change the benchmark, not speed up a program. */
static void mark_timed(struct hostapi_fn *f)
{
    bool elapsed = false, async_alloc = false;
    for (unsigned i = 0; i < f->n_calls; i++) {
        if (!strcmp(f->calls[i].name, "cudaEventElapsedTime")) elapsed = true;
        if (f->calls[i].flags & HOSTAPI_ASYNC_ALLOC) async_alloc = true;
    }
    for (unsigned i = 0; i < f->n_calls; i++)
        if (elapsed && !strcmp(f->calls[i].name, "cudaEventRecord")) f->calls[i].flags |= HOSTAPI_TIMER;
    for (unsigned i = 0; i < f->n_calls; i++) {
        struct hostapi_call *c = &f->calls[i];
        if (!(c->flags & (HOSTAPI_ALLOC | HOSTAPI_FREE))) continue;
        for (unsigned a = 0; a < f->n_calls && !c->timed; a++) {
            const struct hostapi_call *t1 = &f->calls[a];
            if (!(t1->flags & HOSTAPI_TIMER) || t1->offset >= c->offset) continue;
            if (t1->loop >= 0 ? !hostapi_loop_within(f, c->loop, t1->loop) : !async_alloc) continue;
            if (t1->loop < 0 && c->loop < 0) continue;
            for (unsigned b = 0; b < f->n_calls && !c->timed; b++) {
                const struct hostapi_call *t2 = &f->calls[b];
                if ((t2->flags & HOSTAPI_TIMER) && t2->offset > c->offset && t2->loop == t1->loop) c->timed = true;
            }
        }
    }
}

static void mark_kept_results(struct hostapi_fn *f)
{
    for (unsigned i = 0; i < f->n_calls; i++) {
        const struct hostapi_call *c = &f->calls[i];
        if (c->loop < 0 || !(c->flags & HOSTAPI_COPY) || c->copy_kind != HOSTAPI_COPY_D2H) continue;
        if (clang_Cursor_isNull(c->host_buffer)) continue;
        CXCursor v = plain_var(c->host_buffer);
        bool needed = !clang_Cursor_isNull(v) && hostapi_loop_reads(f, c->loop, v, c->call);
        if (!needed) {
            struct size_refs sr = {f->loops[c->loop].stmt, false};
            size_visit(c->host_buffer, c->call, &sr);
            if (!sr.varies) clang_visitChildren(c->host_buffer, size_visit, &sr);
            needed = sr.varies;
        }
        if (needed)
            for (int l = c->loop; l >= 0; l = f->loops[l].parent) f->loops[l].host_work = true;
    }
}

/* ---- what an asynchronous copy overlaps with ---- */

/* The host's own work and its uses of one buffer between a copy and the
   host's wait, outside the CUDA calls the model records (a reference inside
   cudaMemcpyAsync's arguments is the device's use, not the host's). */
struct overlap_scan {
    CXCursor var;                  /* the buffer's variable (pointer or vector) */
    unsigned from, to;             /* after the copy, before the wait (expansion offsets) */
    const unsigned (*calls)[2];    /* the recorded calls' extents (expansion offsets) */
    unsigned n_calls;
    bool work, touched;
};

static bool inside_recorded_call(const struct overlap_scan *s, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
    for (unsigned i = 0; i < s->n_calls; i++)
        if (s->calls[i][0] <= b && e <= s->calls[i][1]) return true;
    return false;
}

/* Is the call the host's work: not a constructor, conversion, operator or
   pointer swap, and resolved (a template's dependent call is not known to
   be work)? */
static bool host_work_call(CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(callee)) return false;
    enum CXCursorKind ck = clang_getCursorKind(callee);
    if (ck == CXCursor_Constructor || ck == CXCursor_ConversionFunction) return false;
    char *n = ast_spelling(callee);
    bool work = !harmless_host_call(n) && strncmp(n, "operator", 8) != 0;
    free(n);
    return work;
}

static enum CXChildVisitResult overlap_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct overlap_scan *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    unsigned at = offset_of(c);
    bool between = at > s->from && at < s->to;
    if (k == CXCursor_DeclRefExpr) {
        if (between && clang_equalCursors(clang_getCursorReferenced(c), s->var) && !inside_recorded_call(s, c))
            s->touched = true;
        return CXChildVisit_Continue;
    }
    if (between && !s->work && (is_loop(c) || (k == CXCursor_CallExpr && host_work_call(c))) &&
        !inside_recorded_call(s, c))
        s->work = true;
    return CXChildVisit_Recurse;
}

/* Pageable asynchronous copies overlap nothing when the host waits for them
   at once (the next call synchronises), or when the host reads or writes
   the buffer before any wait: that code relies on the staged copy being
   finished when the call returns, and pinning the buffer as CU506 advises
   would turn it into a race.  Only a copy followed by other work before the
   host waits is meant to run asynchronously. */
static void mark_overlaps(struct hostapi_fn *f)
{
    unsigned (*extents)[2] = NULL;
    for (unsigned i = 0; i < f->n_calls; i++) {
        struct hostapi_call *c = &f->calls[i];
        if (!(c->flags & HOSTAPI_ASYNC_COPY) || c->host_origin != HOSTAPI_ORIGIN_PAGEABLE ||
            clang_Cursor_isNull(c->host_var))
            continue;
        if (!extents) {
            extents = xcalloc(f->n_calls, sizeof *extents);
            for (unsigned j = 0; j < f->n_calls; j++) {
                CXSourceRange r = clang_getCursorExtent(f->calls[j].call);
                clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &extents[j][0]);
                clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &extents[j][1]);
            }
        }
        /* the wait: the first synchronising call after the copy; device
           work issued before it (a launch, another asynchronous call) is
           what the copy would overlap */
        unsigned wait = UINT_MAX, device_work = UINT_MAX;
        for (unsigned j = 0; j < f->n_calls; j++) {
            const struct hostapi_call *o = &f->calls[j];
            if (j == i || !hostapi_after(c, o) || hostapi_exclusive(f, c, o)) continue;
            if (o->flags & (HOSTAPI_SYNC | HOSTAPI_DEVICE_SYNC | HOSTAPI_COPY | HOSTAPI_FREE)) {
                if (o->offset < wait) wait = o->offset;
            } else if ((o->flags & (HOSTAPI_LAUNCH | HOSTAPI_ASYNC_COPY | HOSTAPI_ASYNC_ALLOC)) && o->offset < device_work) {
                device_work = o->offset;
            }
        }
        struct overlap_scan s = {c->host_var, c->offset, wait, (const unsigned (*)[2])extents, f->n_calls, false, false};
        clang_visitChildren(f->fn, overlap_visit, &s);
        /* a loop that repeats the copy with no wait after it in the loop:
           the next iteration's copy is issued while this one could run */
        bool repeats = c->loop >= 0 && wait == UINT_MAX;
        c->overlaps = (device_work < wait || s.work || repeats) && !s.touched;
    }
    free(extents);
}

struct hostapi_fn *hostapi_fn_new(CXTranslationUnit tu, CXCursor fn)
{
    struct hostapi_fn *f = xcalloc(1, sizeof *f);
    f->fn = fn;
    f->is_destructor = clang_getCursorKind(fn) == CXCursor_Destructor;
    struct walk w;
    memset(&w, 0, sizeof w);
    w.tu = tu;
    w.f = f;
    w.cur_loop = -1;
    /* the body only: parameters and initialisers of members are not calls */
    CXCursor kids[64];
    unsigned n = ast_children(fn, kids, 64);
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k == CXCursor_CompoundStmt || k == CXCursor_MemberRef || clang_isExpression(k)) {
            push(&w, fn);
            fn_visit(kids[i], fn, &w);
            w.depth = 0;
        }
    }
    free(w.stack);
    mark_kept_results(f);
    mark_timed(f);
    mark_overlaps(f);
    return f;
}

void hostapi_fn_free(struct hostapi_fn *f)
{
    if (!f) return;
    for (unsigned i = 0; i < f->n_calls; i++) {
        free(f->calls[i].name);
        free(f->calls[i].macro);
    }
    free(f->calls);
    free(f->loops);
    free(f);
}

static void *hostapi_build(CXTranslationUnit tu, CXCursor fn, struct analysis_cache *deps)
{
    (void)deps;
    if (clang_Cursor_isNull(fn)) return NULL;
    return hostapi_fn_new(tu, fn);
}

static void hostapi_release(void *facts)
{
    hostapi_fn_free(facts);
}

const struct analysis_kind hostapi_analysis = {
    .name = "hostapi",
    .build = hostapi_build,
    .free = hostapi_release,
};

bool hostapi_loop_within(const struct hostapi_fn *f, int inner, int outer)
{
    for (int l = inner; l >= 0; l = f->loops[l].parent)
        if (l == outer) return true;
    return false;
}

struct loop_read {
    CXCursor var;
    unsigned except_begin, except_end; /* the extent of the call to leave out */
    bool found;
};

static enum CXChildVisitResult loop_read_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct loop_read *s = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), s->var)) {
        unsigned off = offset_of(c);
        if (off >= s->except_begin && off < s->except_end) return CXChildVisit_Continue;
        s->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

bool hostapi_loop_reads(const struct hostapi_fn *f, int loop, CXCursor var, CXCursor except)
{
    if (loop < 0 || (unsigned)loop >= f->n_loops) return false;
    struct loop_read s;
    memset(&s, 0, sizeof s);
    s.var = var;
    CXSourceRange r = clang_getCursorExtent(except);
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &s.except_begin);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &s.except_end);
    if (s.except_end <= s.except_begin) s.except_end = s.except_begin + 1;
    clang_visitChildren(f->loops[loop].stmt, loop_read_visit, &s);
    return s.found;
}

/* ---- translation-unit scans ---- */

struct smem_scan {
    char *kernel;
    bool found;
};

static enum CXChildVisitResult smem_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct smem_scan *s = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        char *n = ast_spelling(c);
        bool attr = !strcmp(n, "cudaFuncSetAttribute") || !strcmp(n, "cuFuncSetAttribute");
        free(n);
        if (attr) {
            int na = clang_Cursor_getNumArguments(c);
            bool max_dyn = na < 2;
            CXCursor target = clang_getNullCursor();
            if (na >= 2) {
                CXCursor a = ast_strip(clang_Cursor_getArgument(c, 1));
                char *an = ast_spelling(clang_getCursorReferenced(a));
                max_dyn = strstr(an, "MaxDynamicSharedMemorySize") != NULL;
                long long v;
                if (!max_dyn && ast_eval_int(a, &v)) max_dyn = v == 8; /* cudaFuncAttributeMaxDynamicSharedMemorySize */
                free(an);
                target = clang_Cursor_getArgument(c, 0);
            }
            if (max_dyn) {
                /* the kernel it names, when a plain reference */
                char *t = NULL;
                CXCursor r = clang_Cursor_isNull(target) ? target : clang_getCursorReferenced(ast_strip(target));
                if (!clang_Cursor_isNull(r)) t = ast_spelling(r);
                if (!t || !t[0] || !s->kernel || !strcmp(t, s->kernel)) s->found = true;
                else {
                    /* a function pointer variable or a template: cannot tell which */
                    enum CXCursorKind rk = clang_getCursorKind(r);
                    if (rk != CXCursor_FunctionDecl && rk != CXCursor_FunctionTemplate) s->found = true;
                }
                free(t);
            }
        }
    }
    return s->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static enum CXChildVisitResult smem_top(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    clang_visitChildren(c, smem_visit, data);
    return ((struct smem_scan *)data)->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

bool hostapi_sets_max_dynamic_smem(CXTranslationUnit tu, CXCursor kernel)
{
    struct smem_scan s;
    s.kernel = clang_Cursor_isNull(kernel) ? NULL : ast_spelling(kernel);
    s.found = false;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), smem_top, &s);
    free(s.kernel);
    return s.found;
}

struct macro_scan {
    CXTranslationUnit tu;
    enum hostapi_status kind;
    const char *type;
    char **names;
    unsigned n, cap;
};

static enum CXChildVisitResult macro_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct macro_scan *s = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr) return CXChildVisit_Recurse;
    CXCursor callee = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(callee)) return CXChildVisit_Recurse;
    const char *st = NULL;
    if (status_of(callee, &st) != s->kind || !st || strcmp(st, s->type) != 0) return CXChildVisit_Recurse;
    char *n = ast_spelling(callee);
    bool api = has_api_prefix(n);
    free(n);
    if (!api) return CXChildVisit_Recurse;
    char *macro = NULL;
    bool body = false;
    if (in_macro_arg(s->tu, c, &macro, &body) && strcmp(macro, "?") != 0) {
        bool seen = false;
        for (unsigned i = 0; i < s->n && !seen; i++) seen = !strcmp(s->names[i], macro);
        if (!seen) {
            if (s->n == s->cap) {
                s->cap = s->cap ? s->cap * 2 : 4;
                s->names = xrealloc(s->names, s->cap * sizeof *s->names);
            }
            s->names[s->n++] = macro;
            macro = NULL;
        }
    }
    free(macro);
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult macro_top(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_ClassDecl ||
        k == CXCursor_StructDecl)
        return CXChildVisit_Recurse;
    clang_visitChildren(c, macro_visit, data);
    return CXChildVisit_Continue;
}

unsigned hostapi_checking_macros(CXTranslationUnit tu, enum hostapi_status kind,
                                 const char *status_type, char **first)
{
    struct macro_scan s;
    memset(&s, 0, sizeof s);
    s.tu = tu;
    s.kind = kind;
    s.type = status_type ? status_type : "";
    clang_visitChildren(clang_getTranslationUnitCursor(tu), macro_top, &s);
    *first = s.n ? s.names[0] : NULL;
    for (unsigned i = 1; i < s.n; i++) free(s.names[i]);
    free(s.names);
    return s.n;
}
