/* launch.h: the host-side launch model: for a kernel, the block shapes of its
 * launch sites (`k<<<grid, block>>>`) in this translation unit, or "unknown".
 * Built from a translation unit alone; rules and analyses ask it what
 * blockDim is (CU401's warp layout, CU101's padded loops, later rules'
 * "block size a multiple of 32"). */
#ifndef CUDALINT_LAUNCH_H
#define CUDALINT_LAUNCH_H

#include "analysis/analysis.h"
#include "clang/clang_api.h"
#include <stdbool.h>

#define LAUNCH_MAX_SHAPES 8
#define LAUNCH_MAX_TARGS 8

#include "base/util.h"

/* One block shape: blockDim.x, .y, .z (each at least 1). */
struct launch_shape {
    long long b[3];
};

/* What the launch sites of one kernel say. */
struct launch_info {
    unsigned n_sites;      /* launches of the kernel seen in the main file (with a
                              run's table: in every linted file) */
    /* Every site's block argument is a constant (a literal, constexpr, macro,
       enum, or a local dim3/int initialised with constants and not changed),
       the kernel is defined in the main file (with a run's table: anywhere),
       and nothing else launches it (cudaLaunchKernel and relatives): only
       then are the shapes the truth. */
    bool known;
    unsigned n_shapes;     /* distinct shapes, in order of first appearance */
    struct launch_shape shape[LAUNCH_MAX_SHAPES];
};

struct launch_model;

/* Reads the launch sites of every kernel in the main file of tu. */
struct launch_model *launch_model_new(CXTranslationUnit tu);
void launch_model_free(struct launch_model *m);
/* The same, as an analysis of the translation unit (per_tu): facts are a
   struct launch_model *. */
extern const struct analysis_kind launch_analysis;

/* ---- the run's table: launch sites from every linted file ----

   A run collects, per linted file, the launch sites its translation units
   see (launch_facts_take after the walk) and the kernels its analyses asked
   about; launch_table_add merges them into one table, in which a kernel is
   named by its USR (stable across units; a template's specialisations count
   as the template).  A model built with the table sees the sites of every
   linted file.  A file's findings depend on the table only through the
   kernels it asked about: launch_facts_digest names those facts, so a run
   (and the result cache) can tell when a file must be linted again. */
struct launch_table;
struct launch_facts;

struct launch_table *launch_table_new(void);
void launch_table_free(struct launch_table *t);
/* Adds a file's sites (each site once, however many units saw it). */
void launch_table_add(struct launch_table *t, const struct launch_facts *f);
unsigned launch_table_sites(const struct launch_table *t);

/* Reads the launch sites of every project file of tu (system headers
   excepted), then takes the table's other sites (t may be empty: the file's
   own sites are then the whole truth). */
struct launch_model *launch_model_new_in(CXTranslationUnit tu, const struct launch_table *t);

struct launch_facts *launch_facts_new(void);
void launch_facts_free(struct launch_facts *f);
/* Adds what model m (built with launch_model_new_in) saw of its own unit and
   was asked. */
void launch_facts_take(struct launch_facts *f, const struct launch_model *m);
/* Names the facts of t about the kernels f asked about that f did not see
   itself ("0": none).  Equal digests, equal findings. */
char *launch_facts_digest(const struct launch_facts *f, const struct launch_table *t);
/* The digest f's findings were computed with ("0" when not set), and setting
   it (takes digest). */
const char *launch_facts_digest_used(const struct launch_facts *f);
void launch_facts_set_digest(struct launch_facts *f, char *digest);
/* Adds from's facts to to's (and its digest). */
void launch_facts_merge(struct launch_facts *to, const struct launch_facts *from);
/* Text for the result cache, and back (NULL when malformed). */
char *launch_facts_to_json(const struct launch_facts *f);
struct launch_facts *launch_facts_from_json(const char *text);
/* For --statistics: adds the USRs of the kernels asked about whose shapes
   came from a launch in another file than the kernel's, and of those whose
   shapes stayed unknown. */
void launch_facts_kernels(const struct launch_facts *f, struct strvec *elsewhere, struct strvec *unknown);

/* The launch sites of kernel (its FunctionDecl, or the FunctionTemplate of a
   kernel template, whose specialisations' launches all count).  Returns
   out->known. */
bool launch_block_shapes(struct launch_model *m, CXCursor kernel, struct launch_info *out);
/* For a device function (not a kernel): the block shapes it runs with in
   this unit, the union of its callers' (kernels, and device functions whose
   own callers are known), when every call of it from device code that the
   unit reads sits in a function whose shapes are known.  False (and no
   shapes) when a caller's shapes are not known or nothing in the unit calls
   it.  A header's function is judged in each unit with that unit's callers. */
bool launch_caller_shapes(struct launch_model *m, CXCursor fn, struct launch_info *out);
/* A kernel's shapes (launch_block_shapes) or a device function's
   (launch_caller_shapes). */
bool launch_function_shapes(struct launch_model *m, CXCursor fn, struct launch_info *out);
/* The calls of device function fn the unit makes from device code, with
   the function each sits in: their number (max + 1 when there are more). */
unsigned launch_device_calls(struct launch_model *m, CXCursor fn, CXCursor *calls, CXCursor *callers, unsigned max);
/* Does a device function's caller in the unit (or a caller's caller) read
   threadIdx.y or .z: blocks of rows, so a row may be a single warp? */
bool launch_callers_use_rows(struct launch_model *m, CXCursor fn);

/* For a kernel template: is its template parameter number `index` (in
   declaration order) a constant equal to blockDim.x at every launch site
   (`k<256><<<g, 256>>>`), with every site's shape known? */
bool launch_tparam_is_block_x(struct launch_model *m, CXCursor kernel, unsigned index);

/* For a kernel template: is its template parameter number `index` a
   constant at least blockDim.x at every launch site (every thread's
   threadIdx.x is below it)?  True when the launch shape is unknown (no site,
   or a site that is not constant): then nothing is known to contradict the
   convention that such a step is the block size. */
bool launch_tparam_covers_block_x(struct launch_model *m, CXCursor kernel, unsigned index);

/* Is blockDim.x at most v at every launch site (true when unknown, as
   above)? */
bool launch_block_x_at_most(struct launch_model *m, CXCursor kernel, long long v);

/* Is the kernel's parameter number `param` given, at every launch site, the
   value of blockDim.x (axis 0), .y or .z at that site: the same constant, or
   the same variable, unchanged in the launching function, as the block's
   component (`dim3 block(n); k<<<g, block>>>(x, n)`)?  False when the kernel
   has no launch site here, is launched through cudaLaunchKernel and
   relatives, or is defined outside the main file. */
bool launch_param_is_block_dim(struct launch_model *m, CXCursor kernel, unsigned param, unsigned axis);

/* Is the kernel's parameter number `param` given the same integer constant
   at every launch site (`k<<<g, 128>>>(p, 1024)` and no other launch)?  Sets
   *value when it is.  False when the kernel has no launch site, is launched
   through cudaLaunchKernel and relatives, or (without a run's table) is
   defined outside the main file. */
bool launch_param_constant(struct launch_model *m, CXCursor kernel, unsigned param, long long *value);

/* What each launch site of a kernel says of its host side: the relation
   text (hostexpr.h; NULL: nothing) and the integer template arguments of
   the specialisation launched.  Pointers into the model, valid while it
   lives.  False (and *n = 0) when the kernel has no launch site, more than
   max of them, or is launched through cudaLaunchKernel and relatives: then
   no launch says anything for sure. */
struct launch_site_view {
    const char *rel;
    unsigned n_targs;
    const long long *targ;
    const bool *targ_known;
};
bool launch_site_views(struct launch_model *m, CXCursor kernel, struct launch_site_view *out, unsigned max,
                       unsigned *n);

/* Does the shape divide into whole warps along x: blockDim.x a multiple of 32
   at every site?  (False when unknown.) */
bool launch_x_multiple_of(const struct launch_info *li, long long k);

/* Forgets the calling thread's scan of the last launching function (which
   variables it writes): the engine calls it when it starts a walk, as a
   reparsed or new unit may reuse its cursors' pointers. */
void launch_scan_forget(void);

/* One launch site's configuration, for the launch-configuration rule: the
   kernel, and grid, block and dynamic shared memory when constant (zero
   components included, unlike the shapes above). */
struct launch_site {
    CXCursor kernel;
    bool grid_known, block_known, smem_known;
    long long grid[3], block[3], smem;
    CXCursor grid_arg, block_arg, smem_arg;
    CXCursor stream_arg;    /* null when not written */
};
/* Is call a k<<<...>>> launch?  Fills out when it is. */
bool launch_site_read(CXCursor call, struct launch_site *out);
/* The configuration call clang makes of a launch's <<<...>>>
   (__cudaPushCallConfiguration or cudaConfigureCall, whatever the headers
   declare) among the children of call, also where clang could not resolve
   the kernel (a template launched with an argument of unknown type, or from
   a template); a null cursor when call is no launch. */
CXCursor launch_config_call(CXCursor call);
/* Is the grid sized from the work by the block's size: a grid extent that
   divides by the block's x extent or its thread count ((n + B - 1) / B,
   n / B, DIV_UP(n, B), ceil(n / (float)B)), written in the launch or in the
   initialiser of a local it reads?  Then the block size is a free tiling
   parameter; otherwise it is usually the size of a fixed piece of work. */
bool launch_grid_scales_with_block(const struct launch_site *ls);

#endif
