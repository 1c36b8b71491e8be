/* walk.h: the single AST walk of a parse pass and the context a rule sees.
 *
 * walk_translation_unit() visits every cursor of the files being linted once,
 * keeps the parent chain and the enclosing function, and calls each rule that
 * subscribed to the cursor's kind.  Rules report through ctx_report(). */
#ifndef CUDALINT_WALK_H
#define CUDALINT_WALK_H

#include "core/rule.h"
#include "core/diag.h"
#include "analysis/analysis.h"
#include "clang/astutil.h"
#include "clang/clang_api.h"
#include <stdbool.h>

struct lint_options; /* core/options.h */
struct fn_slot;

struct rule_ctx {
    CXTranslationUnit tu;
    const char *main_file;        /* the .cu being parsed */
    const char *pass_name;        /* "device sm_90", "host", "shim" */
    bool pass_is_device;          /* __CUDA_ARCH__ defined in this pass */
    const struct lint_options *opts;
    const struct rule *rule;      /* the rule being called */
    struct diag_list *out;

    /* The cursor chain from the translation unit down to the current cursor's
       parent: parents[0] is the outermost declaration, parents[depth-1] the
       direct parent. */
    CXCursor *parents;
    unsigned depth, parents_cap;

    /* Innermost enclosing function (or lambda) and where it runs. */
    CXCursor function;            /* clang_getNullCursor() at file scope */
    unsigned function_space;      /* enum exec_space bits, 0 at file scope */
    bool in_device_code;          /* inside __global__/__device__ code (incl. lambdas) */

    /* Per-function rule cache, cleared when the walk leaves a function. */
    struct fn_slot *slots;
    /* The analyses (analysis/) built so far: per function, dropped when the
       walk leaves it, and per translation unit. */
    struct analysis_cache *analyses;

    /* Per-rule state from tu_begin, indexed like rule_registry. */
    void **rule_state;
    /* Internal: which files count as linted, and macro definitions seen. */
    void *walk_private;
};

/* How deep the walk descends: the AST nodes below this many levels of
   nesting are not visited (each level costs stack in libclang's recursive
   cursor visit), and a CU000 note at the first such node says so.  Real code
   nests a few dozen levels; clang's own bracket limit is 2048. */
#define WALK_MAX_DEPTH 4096

/* Runs one walk over tu; appends findings to out. */
void walk_translation_unit(CXTranslationUnit tu, const char *main_file,
                           const char *pass_name, bool pass_is_device,
                           const struct lint_options *opts, struct diag_list *out);
/* The same, with the analyses of the caller's cache (which stays the
   caller's: it may hold facts the caller provided, analysis_cache_provide). */
struct analysis_cache;
void walk_translation_unit_in(CXTranslationUnit tu, const char *main_file, const char *pass_name,
                              bool pass_is_device, const struct lint_options *opts, struct diag_list *out,
                              struct analysis_cache *analyses);

/* The direct parent of the current cursor (n=0), its parent (n=1), ...
   A null cursor when there is none. */
CXCursor ctx_parent(const struct rule_ctx *ctx, unsigned n);
/* The state this rule returned from tu_begin. */
void *ctx_rule_state(const struct rule_ctx *ctx);

/* Is this location in a file being linted (not a system/toolkit header)? */
bool ctx_location_is_linted(const struct rule_ctx *ctx, CXSourceLocation loc);

/* Reports a finding of ctx->rule at cursor's start (its expansion location when
   it comes from a macro).  The returned diag can take notes and fixes.  Returns
   NULL when the location is not in a linted file. */
struct diag *ctx_report(struct rule_ctx *ctx, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct diag *ctx_report_range(struct rule_ctx *ctx, CXSourceRange range,
                              const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds a note at a cursor / a fix replacing a range. */
void ctx_note(struct rule_ctx *ctx, struct diag *d, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ctx_note_range(struct rule_ctx *ctx, struct diag *d, CXSourceRange at,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ctx_fix(struct rule_ctx *ctx, struct diag *d, CXSourceRange range,
             const char *replacement);

/* The facts of an analysis (analysis/analysis.h) for the function being
   walked (ctx->function; the null cursor at file scope), or for the
   translation unit when kind->per_tu: built on first use, then cached until
   the walk leaves the function (the TU).  Rules ask
   ctx_analysis(ctx, &uniformity_analysis) and turn the facts into findings. */
void *ctx_analysis(struct rule_ctx *ctx, const struct analysis_kind *kind);

/* A rule's own per-function data (not an analysis shared with other rules):
   get returns NULL when absent; set takes ownership. */
void *ctx_fn_cache_get(struct rule_ctx *ctx, const char *key);
void ctx_fn_cache_set(struct rule_ctx *ctx, const char *key, void *value,
                      void (*free_fn)(void *));

/* The single-token macro definition named name ("#define SCALE 0.5"), if the
   TU defines it in a linted file: returns true and sets *value_range to the
   range of its replacement token.  known_def (a MacroDefinition cursor, or
   the null cursor) is used when the walk did not see the definition, as
   happens for definitions held in a precompiled preamble. */
bool ctx_macro_single_token(struct rule_ctx *ctx, const char *name, CXCursor known_def,
                            CXSourceRange *value_range);

/* Source text of an expression as the user wrote it at its use: for code
   from a macro, the macro's use ("THIRD"), never the definition's tokens.
   Long texts are cut.  Caller frees. */
char *ctx_use_text(struct rule_ctx *ctx, CXCursor c);
/* Whether the current cursor is inside a template instantiation (libclang
   walks explicit instantiations besides the template): rules judge a template
   once, from its own pattern. */
bool ctx_in_instantiation(const struct rule_ctx *ctx);
/* Whether the walk is at the body of the enclosing function (the current
   cursor's parent is ctx->function): a rule that reads a whole function's
   facts once does it there. */
bool ctx_at_function_body(const struct rule_ctx *ctx);
/* Whether the walk is at the body of a host function or method (the current
   cursor's parent is ctx->function): not device code, not a lambda, not
   inside a template instantiation.  The host-side rules (CU5xx) read a
   function's model (hostapi_analysis) there once. */
bool ctx_at_host_body(const struct rule_ctx *ctx);
/* Whether the current rule reports here: device code always, host code inside
   a function when --host, `host: true` or the rule's own `host` option says so. */
bool ctx_rule_applies_here(const struct rule_ctx *ctx);

#endif
