/* ptx_lines.h: what nvcc -lineinfo emitted for each line of one source file:
 * PTX instructions attributed to source lines through `.loc` directives. */
#ifndef CUDALINT_PTX_LINES_H
#define CUDALINT_PTX_LINES_H

#include "codegen/asm_mix.h"
#include <stdbool.h>
#include <stddef.h>

#define PTX_LINE_MAX_FUNCTIONS 4
#define PTX_LINE_MAX_CALLS 4

/* The instructions of one source line (inlined code included: an
   instruction whose innermost `.loc` is in another file, a toolkit header's
   pow, counts for the line it was inlined at). */
struct ptx_line {
    unsigned line;
    struct asm_mix mix;         /* instructions, fp64_arith, cvt_*, fdiv, ld/st_shared, ld/st_local */
    long fdiv_other;            /* div.full.f32 / div.approx.f32 (fdiv counts div.rn only) */
    long shared_scalar;         /* ld/st.shared without .v2/.v4 */
    long shared_vector;         /* ld/st.shared.v2 or .v4 */
    long shared_vector_bytes;   /* the widest vector shared access, in bytes */
    long global_accesses;       /* ld/st.global (and ld.global.nc) */
    long global_widest_bytes;   /* the widest of them, in bytes */
    long global_narrowest_bytes;
    char *calls[PTX_LINE_MAX_CALLS]; /* functions called from the line */
    size_t n_calls;
    int functions[PTX_LINE_MAX_FUNCTIONS]; /* indices into ptx_lines.functions */
    size_t n_functions;
};

struct ptx_function {
    char *name;          /* the mangled name of the .entry or .func */
    bool entry;
    long instructions;
    long stack_frame;    /* bytes, from ptxas -v (ptx_lines_add_ptxas); -1: unknown */
};

struct ptx_lines {
    struct ptx_line *lines;   /* sorted by line */
    size_t n_lines;
    struct ptx_function *functions;
    size_t n_functions;
    long instructions;        /* every instruction of the module */
};

/* Reads a PTX text (nvcc -ptx -lineinfo) and attributes its instructions to
   the lines of source (the path as nvcc was given it: the `.file` table's
   name).  Returns false when no `.file` entry names source. */
bool ptx_lines_read(const char *ptx, const char *source, struct ptx_lines *out);
/* Adds the stack frames of `ptxas -v`'s "Function properties for NAME /
   N bytes stack frame" lines. */
void ptx_lines_add_ptxas(struct ptx_lines *pl, const char *ptxas_output);
/* The line's record, or NULL when no instruction is attributed to it. */
const struct ptx_line *ptx_lines_find(const struct ptx_lines *pl, unsigned line);
void ptx_lines_release(struct ptx_lines *pl);

#endif
