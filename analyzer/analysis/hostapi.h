/* hostapi.h: the host-side model of CUDA API calls: which calls return a
 * status (cudaError_t, CUresult, cublasStatus_t ...) and what the caller does
 * with it, which calls synchronise, allocate, copy or pin memory, which are
 * deprecated or removed, where host buffers come from (malloc/new/vector or
 * page-locked), and the loops around each call.  Built from a translation unit
 * and a host function; returns facts, no wording.  Launch shapes come from
 * analysis/launch.h. */
#ifndef CUDALINT_HOSTAPI_H
#define CUDALINT_HOSTAPI_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>

/* The status a call returns. */
enum hostapi_status {
    HOSTAPI_STATUS_NONE,
    HOSTAPI_STATUS_RUNTIME, /* cudaError_t */
    HOSTAPI_STATUS_DRIVER,  /* CUresult */
    HOSTAPI_STATUS_LIBRARY, /* cublasStatus_t, cufftResult, cusparseStatus_t, curandStatus_t ... */
};

/* What a call does (bits of hostapi_call.flags). */
#define HOSTAPI_SYNC 0x001u        /* blocks the host until device work is done */
#define HOSTAPI_ALLOC 0x002u       /* allocates device or page-locked memory */
#define HOSTAPI_FREE 0x004u        /* frees it (cudaFree synchronises the device) */
#define HOSTAPI_ERROR_QUERY 0x008u /* cudaGetLastError, cudaPeekAtLastError */
#define HOSTAPI_COPY 0x010u        /* a synchronous copy (cudaMemcpy, cudaMemcpy2D ...) */
#define HOSTAPI_ASYNC_COPY 0x020u  /* cudaMemcpyAsync and relatives */
#define HOSTAPI_PINS 0x040u        /* cudaMallocHost, cudaHostAlloc, cudaHostRegister */
#define HOSTAPI_LAUNCH 0x080u      /* a k<<<...>>> launch */
#define HOSTAPI_CHECKER 0x100u     /* a user function that reads the last error */
#define HOSTAPI_DEVICE_SYNC 0x200u /* cudaDeviceSynchronize, cudaThreadSynchronize, cudaStreamSynchronize */
#define HOSTAPI_API 0x400u         /* a CUDA toolkit or library call */
#define HOSTAPI_ASYNC_ALLOC 0x800u /* stream-ordered: cudaMallocAsync, cudaFreeAsync */
#define HOSTAPI_TIMER 0x1000u      /* reads a clock: std::chrono's now(), clock_gettime, gettimeofday,
                                      clock, omp_get_wtime, cudaEventRecord (when the function reads
                                      an elapsed time) */

/* What the caller does with a returned status. */
enum hostapi_use {
    HOSTAPI_USE_CHECKED,       /* passed on, compared, returned, tested, or stored and read */
    HOSTAPI_USE_DISCARDED,     /* an expression statement (or the left of a comma) */
    HOSTAPI_USE_VOIDED,        /* cast to void */
    HOSTAPI_USE_STORED_UNREAD, /* stored in a local that is not read before it is overwritten */
    HOSTAPI_USE_MACRO_ARG,     /* written as an argument of a macro (which receives it) */
};

/* cudaMemcpyKind of a copy, when constant. */
enum hostapi_copy_kind {
    HOSTAPI_COPY_UNKNOWN = -1,
    HOSTAPI_COPY_H2H = 0,
    HOSTAPI_COPY_H2D = 1,
    HOSTAPI_COPY_D2H = 2,
    HOSTAPI_COPY_D2D = 3,
    HOSTAPI_COPY_DEFAULT = 4,
};

/* Where a host buffer comes from, as far as the function shows. */
enum hostapi_origin {
    HOSTAPI_ORIGIN_UNKNOWN,
    HOSTAPI_ORIGIN_PAGEABLE, /* malloc/calloc/realloc, new, std::vector storage; never registered */
    HOSTAPI_ORIGIN_PINNED,   /* cudaMallocHost, cudaHostAlloc, cudaMallocManaged, cudaHostRegister */
};

/* One branch a call sits in: an if's then (1) or else (2) arm, or for a
   switch the number of the statement of its body (the block of cases)
   that holds the call. */
struct hostapi_arm {
    CXCursor branch;        /* the if, or the switch's body */
    bool is_switch;
    unsigned arm;
};
#define HOSTAPI_MAX_ARMS 8

struct hostapi_call {
    CXCursor call;              /* the CallExpr (or the recovered call of an undeclared name) */
    struct hostapi_arm arms[HOSTAPI_MAX_ARMS]; /* outermost first */
    unsigned n_arms;
    char *name;                 /* callee name */
    unsigned flags;             /* HOSTAPI_* bits */
    enum hostapi_status status; /* what it returns */
    const char *status_type;    /* "cudaError_t", "CUresult", "cublasStatus_t" ...; NULL if none */
    enum hostapi_use use;
    CXCursor stored_in;         /* HOSTAPI_USE_STORED_UNREAD: the variable */
    bool in_macro_body;         /* the call is spelled inside a macro definition */
    char *macro;                /* HOSTAPI_USE_MACRO_ARG: the macro's name */
    int loop;                   /* innermost enclosing loop (index into loops), -1 if none */
    bool exit_path;             /* in a block of that loop that ends with break, return, goto
                                   or throw: runs once, when the loop is left */
    unsigned offset;            /* expansion offset: source order */
    unsigned spelled_at;        /* spelling offset: the order of calls one macro expands to */
    bool before_leaving;        /* the block around it ends by leaving the function (throw,
                                   exit, abort), or is the arm of `if (err != cudaSuccess)`
                                   that returns: an error path that reports on its own */
    /* Copies: the kind and the host-side buffer (dst of D2H, src of H2D). */
    enum hostapi_copy_kind copy_kind;
    CXCursor host_buffer;
    enum hostapi_origin host_origin;
    CXCursor origin_at;         /* where the pageable buffer was obtained */
    CXCursor host_var;          /* pageable buffers: its variable (the pointer or the vector) */
    bool overlaps;              /* asynchronous copies: something runs between the copy and the
                                   host's next wait for it (a launch, another asynchronous call,
                                   a host function call or loop; a loop repeating the copy), and
                                   the host does not touch the buffer before that wait: the code
                                   means the copy to overlap with other work */
    /* Allocations and frees: the variable written or freed (a plain local,
       parameter or member), null when the target is indexed (p[i]). */
    CXCursor target;
    bool size_varies;           /* allocations in a loop: the size names a variable the loop
                                   changes or declares (a loop over sizes or configurations);
                                   frees: the variable is declared inside the loop, or the loop
                                   gives it a buffer some other way (p = make_buffer(n)): a new
                                   buffer each iteration, allocated where this model cannot see */
    bool kept;                  /* allocations in a loop: the loop stores the buffer into a
                                   container or an element it moves through (v.push_back(p),
                                   bufs[i] = p): one distinct buffer kept per iteration */
    bool timed;                 /* allocations and frees: the call is what a timer measures: two
                                   timer reads around it in its own loop, or around its loop in a
                                   function that also times stream-ordered allocation */
    /* Launches: the stream, as the variable named (null cursor: the default
       stream, or an expression that names no variable: see stream_known). */
    CXCursor stream_var;
    bool stream_known;          /* default stream, or a plain variable */
    /* Launches: every path from the launch leaves the function (a return, a
       call that never returns, a throw outside any try) before it leaves a
       block around the launch, with no goto, break or continue that could
       take it out of that block first.  Then only calls from the start of
       that block to the end of the statement that leaves (expansion offsets
       leaves_from and leaves_to) can run after the launch. */
    bool leaves_function;
    unsigned leaves_from, leaves_to;
};

struct hostapi_loop {
    CXCursor stmt;              /* ForStmt, WhileStmt, DoStmt, CXXForRangeStmt */
    int parent;                 /* enclosing loop, -1 */
    bool host_work;             /* body or condition reads host memory (or a __managed__
                                   variable), calls a non-CUDA function, times something, or
                                   keeps each iteration's copied result: the host needs results */
    bool has_launch;            /* a launch anywhere inside */
    bool has_copy;              /* a cudaMemcpy* anywhere inside */
    bool sets_device;           /* cudaSetDevice or a context switch anywhere inside: each
                                   iteration works on another device (its own buffers) */
};

struct hostapi_fn {
    CXCursor fn;
    bool is_destructor;
    struct hostapi_call *calls; /* in source order */
    unsigned n_calls;
    struct hostapi_loop *loops;
    unsigned n_loops;
};

/* The model of one host function (FunctionDecl, CXXMethod, constructor,
   destructor, lambda, function template). */
struct hostapi_fn *hostapi_fn_new(CXTranslationUnit tu, CXCursor fn);
void hostapi_fn_free(struct hostapi_fn *f);
/* The same, as an analysis of a function: facts are a struct hostapi_fn *
   (NULL at file scope). */
extern const struct analysis_kind hostapi_analysis;

/* Is loop `outer` (an index) loop `inner` or one of its enclosing loops? */
bool hostapi_loop_within(const struct hostapi_fn *f, int inner, int outer);
/* Does b run after a in source order (expansion offset, then, for calls
   of one macro's expansion, where the macro's text spells them)? */
bool hostapi_after(const struct hostapi_call *a, const struct hostapi_call *b);
/* Can `later` not run after `first`: `later` is after `first` in the
   source and they sit in the two arms of one if, or in two cases of one
   switch with a break or return between them (and no loop around both brings
   control back); or `first` is a launch whose every path leaves the function
   before it reaches `later` (outside its leaves_from..leaves_to, wherever
   `later` is in the source, loops or not)? */
bool hostapi_exclusive(const struct hostapi_fn *f, const struct hostapi_call *first, const struct hostapi_call *later);
/* Is the variable read (referenced other than by the call at `except`)
   inside the loop's body or condition? */
bool hostapi_loop_reads(const struct hostapi_fn *f, int loop, CXCursor var, CXCursor except);

/* A deprecated or removed API. */
struct hostapi_deprecation {
    const char *name;
    const char *replacement;    /* drop-in replacement (same arguments), or NULL */
    const char *advice;         /* what to do instead ("use X", "remove the call: ..."), NULL with a replacement */
    const char *since;          /* deprecated in this CUDA version */
    const char *removed;        /* removed in this CUDA version, or NULL */
    bool texture_reference;     /* part of the texture/surface reference API */
};
/* The entry for name, or NULL. */
const struct hostapi_deprecation *hostapi_deprecated(const char *name);

/* A struct field CUDA removed (cudaDeviceProp::clockRate in CUDA 13.0). */
struct hostapi_removed_field {
    const char *record;  /* "cudaDeviceProp" */
    const char *field;   /* "clockRate" */
    const char *removed; /* "13.0" */
    const char *advice;  /* "use cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, device)" */
};
/* The entry for record::field, or NULL. */
const struct hostapi_removed_field *hostapi_removed_field(const char *record, const char *field);

/* Does the translation unit's main file call cudaFuncSetAttribute(kernel,
   cudaFuncAttributeMaxDynamicSharedMemorySize, ...) for this kernel (or for a
   kernel it cannot name)? */
bool hostapi_sets_max_dynamic_smem(CXTranslationUnit tu, CXCursor kernel);

/* The macros of the main file that receive a status of the given kind as
   their argument (CUDA_CHECK(cudaMalloc(...))): how many distinct macros,
   and the name of the first.  Caller frees *first (may be NULL). */
unsigned hostapi_checking_macros(CXTranslationUnit tu, enum hostapi_status kind,
                                 const char *status_type, char **first);

#endif
