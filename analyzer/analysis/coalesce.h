/* coalesce.h: global-memory coalescing facts for CU402.
 *
 * Two parts, both free of rule wording:
 *  - the accesses of one kernel that go through a pointer the analysis can
 *    follow to global memory: a subscript of the kernel's own pointer
 *    parameter, or of a local pointer initialised once from one
 *    (`const float *row = a + blockIdx.x * n;`), with the index expressions
 *    whose sum is the element offset, the element size and whether the
 *    access loads, stores or both.  Built from a translation unit and the
 *    kernel's cursor.
 *  - the sector model: for the lanes of one warp, given the byte address of
 *    each as a function of threadIdx, how many 32-byte sectors one request
 *    touches, against the fewest that the same bytes could take. */
#ifndef CUDALINT_COALESCE_H
#define CUDALINT_COALESCE_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stddef.h>

/* ---- accesses of a kernel ---- */

struct global_access {
    CXCursor expr;        /* the subscript expression p[i] */
    CXCursor param;       /* the kernel's pointer parameter it goes back to */
    CXCursor pointer;     /* the pointer subscripted: the parameter or a local */
    CXCursor offset;      /* the local pointer's offset from the parameter, or null */
    CXCursor index;       /* the subscript's index */
    long long elem_size;  /* bytes of one element of the subscripted pointer */
    long long width;      /* bytes this access moves (a member's size for p[i].x) */
    long long field_off;  /* byte offset of that member in the element */
    bool load, store;
};

struct global_accesses {
    struct global_access *items;
    size_t n, cap;
    /* the kernel's pointer parameters cast to pointers of other element
       sizes ((uint4 *)in): a vectorised view of the same data */
    unsigned *view_param;
    long long *view_size;
    size_t n_views, cap_views;
    /* variables written after their declaration (assignments, ++/--,
       address taken): a local's initialiser is its value only otherwise */
    unsigned *written;
    size_t n_written, cap_written;
    /* items' indices ordered by clang_hashCursor(expr), for a lookup that
       does not scan every access (a kernel of 100,000 statements) */
    size_t *by_hash;
    unsigned *hashes; /* hashes[k]: the hash of items[by_hash[k]].expr */
};

/* The followable global accesses of kernel (a __global__ function
   definition); never NULL. */
struct global_accesses *global_accesses_new(CXTranslationUnit tu, CXCursor kernel);
void global_accesses_free(struct global_accesses *g);
/* The same as an analysis kind (facts: struct global_accesses *): a rule
   asks ctx_analysis(ctx, &coalesce_analysis). */
extern const struct analysis_kind coalesce_analysis;
/* The entry for a subscript expression, or NULL. */
const struct global_access *global_access_find(const struct global_accesses *g, CXCursor expr);
/* Is param also read or written through a cast to a pointer whose element
   is size bytes ((uint4 *)param for size 16)? */
bool global_accesses_has_view(const struct global_accesses *g, CXCursor param, long long size);
/* Is var (a VarDecl of the kernel) never written after its initialiser? */
bool global_accesses_var_single_def(const struct global_accesses *g, CXCursor var);

/* ---- the sector model ---- */

#define COALESCE_WARP 32
#define COALESCE_SECTOR 32

struct coalesce_pattern {
    long long tid_bytes[3]; /* byte distance per unit of threadIdx.x, .y, .z */
    long long width;        /* bytes each lane moves (1 .. 16) */
    long long block[3];     /* block shape; block[0] == 0: unknown, blockDim.x
                               taken to be a multiple of 32 */
};

struct coalesce_result {
    unsigned sectors;     /* 32-byte sectors one warp request touches, worst warp,
                             at the best alignment of the array */
    unsigned min_sectors; /* sectors of the same bytes laid out contiguously */
    unsigned lanes;       /* lanes in that warp */
    unsigned unit_sectors; /* sectors when those lanes read consecutive elements
                              (what coalescing buys): a request that touches no
                              more than this, as a broadcast of a few elements
                              to many lanes does, costs nothing to fix */
};

void coalesce_sectors(const struct coalesce_pattern *p, struct coalesce_result *out);

#endif
