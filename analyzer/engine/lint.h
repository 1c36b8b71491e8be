/* lint.h: the lint driver: resolving what a run needs (compile database,
 * toolkit), the per-file pipeline (arguments -> parse passes -> walk -> merge
 * -> suppressions) and the worker pool over files. */
#ifndef CUDALINT_LINT_H
#define CUDALINT_LINT_H

#include "core/options.h"
#include "core/result.h"
#include "clang/clang_api.h"
#include "frontend/parse.h"
#include <pthread.h>
#include <stdbool.h>

/* One run: the command line's options and the state the run owns with them
   (the configuration files loaded and merged, what --fix must know about the
   files read, the compile database and toolkit), which the options of every
   file point to.  A front end makes one per run; the language server's lasts
   its life. */
struct lint_session {
    struct lint_options opts;
};
void lint_session_init(struct lint_session *s);
/* lint_prepare(), then the configuration's start-up checks (config_prepare).
   Returns 0, or -1 with *error set (a usage error). */
int lint_session_prepare(struct lint_session *s, char **error);
void lint_session_release(struct lint_session *s);

/* Loads the compile database and finds the toolkit.  Returns 0, or -1 with
   *error set (malformed database, bad --cuda-path): a usage error. */
int lint_prepare(struct lint_options *o, char **error);
/* Releases what lint_prepare() resolved (it may then run again). */
void lint_unprepare(struct lint_options *o);

/* Lints one file (path on disk, or the editor's text when contents != NULL),
   parsing each pass afresh; only_main_file as in struct lint_passes. */
void lint_file(const struct lint_options *o, const char *path, const char *contents,
               size_t contents_len, bool only_main_file, struct file_result *res);
/* Lints every file of o->paths with o->jobs workers (only shard
   o->shard_k of o->shard_n when sharded), telling o->progress, in this
   process (engine/supervise.h runs the same in a child process it watches). */
void lint_run(const struct lint_options *o, struct lint_run *run);
/* Lints text (standard input) as the file path, as one run of one file:
   path decides configuration, compile database entry and includes; only
   findings in the text itself are kept. */
void lint_run_stdin(const struct lint_options *o, const char *path, const char *text, size_t len,
                    struct lint_run *run);
/* Keeps the files of slice k (1-based) of n, in their order (--shard). */
void lint_shard_select(struct strvec *files, int k, int n);

/* ---- the pieces of lint_run() ---- */

/* The file set of o->paths: files to lint (directories searched, each file
   once), and "PATH\tMESSAGE" lines for paths that cannot be read (errors) and
   directories without CUDA files (notes). */
void lint_collect(const struct lint_options *o, struct strvec *files, struct strvec *errors,
                  struct strvec *notes);
/* Called from the worker threads: file i is about to be linted / is done
   (done takes res over).  parked: file i was linted once, and its result
   waits for the launch sites of every file (it may be linted again,
   started once more, when another file launches its kernels). */
typedef void (*lint_started_fn)(void *data, size_t i);
typedef void (*lint_done_fn)(void *data, size_t i, struct file_result *res);
typedef void (*lint_parked_fn)(void *data, size_t i);
/* Lints files->items[which[k]] for k < n (which NULL: files->items[k]) with
   jobs threads of LINT_THREAD_STACK; returns when all are done.  Two phases:
   every file is linted with the launch sites of its own units, then the
   files whose kernels other files launch are linted again with the run's
   table of launch sites (analysis/launch.h).  A .cu file that another file
   of the set #includes is linted in that file's context: its result is the
   includer's findings located in it. */
void lint_files(const struct lint_options *o, const struct strvec *files, const size_t *which, size_t n,
                int jobs, lint_started_fn started, lint_parked_fn parked, lint_done_fn done, void *data);
/* The run: results[0, n_files) (taken over) in order, then errors and notes
   as lint_collect() made them; the run-wide finding list sorted. */
void lint_run_assemble(struct lint_run *run, struct file_result *results, size_t n_files,
                       const struct strvec *errors, const struct strvec *notes);

/* ---- the per-file pipeline, for front ends that parse their own way ----

   lint_file_with() runs the steps every front end shares: the file's
   configuration, the early outs (excluded, too large, unreadable, empty,
   binary), the parse plan, the result cache, then passes->run() for the
   parses and walks, then the merge of the passes, CU000 notes, suppressions,
   severity overrides and the sort.  The command line's passes parse each file
   afresh; the language server's keep their translation units between edits
   (lsp/lsp_lint.c). */

struct parse_plan;
struct cache_rec;
struct launch_table;
struct launch_facts;

/* What one parse pass found. */
struct lint_pass_result {
    struct diag_list diags;        /* the rules' findings */
    struct diag_list parse_diags;  /* CU000 notes for clang's errors */
    unsigned n_parse_errors;
    char *error;                   /* libclang could not parse: the file's status message */
    double seconds;                /* the pass's parse and walk (wall clock) */
};

struct lint_passes {
    /* Parses and walks (lint_pass_walk) every pass of plan over text, filling
       out[i] (zeroed) for pass i; records the files each parsed pass included
       in cache (NULL: none). */
    void (*run)(struct lint_passes *self, const struct lint_options *o, const char *path,
                const char *text, size_t len, bool unsaved, const struct parse_plan *plan,
                struct lint_pass_result *out, struct cache_rec *cache);
    /* Optional: the file was skipped this time (excluded, too large, binary):
       drop what is kept for it. */
    void (*drop)(struct lint_passes *self);
    /* Report only findings in the file itself, none in headers it includes
       (an editor publishes findings per document). */
    bool only_main_file;
    /* The run's launch sites (NULL: each unit's own launch model, as for a
       lone file); the passes add what their units saw and asked about to
       launch_facts, which a cache hit fills too.  A cached result computed
       with other launch facts is a miss, unless launch_any_digest (the
       first phase of a run, before every file's sites are known). */
    const struct launch_table *launch_table;
    struct launch_facts *launch_facts;
    bool launch_any_digest;
};

void lint_file_with(const struct lint_options *cli, const char *path, const char *contents,
                    size_t contents_len, struct lint_passes *passes, struct file_result *res);
/* After a pass parsed: CU000 notes for its clang errors, then the walk. */
void lint_pass_walk(CXTranslationUnit tu, const struct parse_pass *pass, const char *path,
                    const struct lint_options *o, struct lint_pass_result *out);
/* The same with a run's launch-site table (NULL: as lint_pass_walk), adding
   what the unit saw and asked about to facts. */
void lint_pass_walk_launch(CXTranslationUnit tu, const struct parse_pass *pass, const char *path,
                           const struct lint_options *o, const struct launch_table *table,
                           struct launch_facts *facts, struct lint_pass_result *out);

/* The launch sites the result cache holds for the files under o->workspace
   that still have the contents they were linted with, but path's own: the
   language server's table for the document it lints (a run of the command
   line builds its own, lint_files).  NULL without a workspace; free with
   launch_table_free. */
struct launch_table *lint_workspace_launches(const struct lint_options *o, const char *path);

/* Threads that parse and walk need large stacks: libclang's parser and its
   cursor visits recurse once per level of nesting (about 5 KB a level for
   parentheses), and libclang parses on the calling thread (clang_api.c sets
   LIBCLANG_NOTHREADS).  256 MB of address space, of which only what a file
   needs is ever touched, holds clang's own bracket limit (2048 levels) and
   the walk's bound (WALK_MAX_DEPTH) with room to spare; what nests deeper
   without brackets (long chains of unary operators, nested lambdas) and
   still overflows is contained by the supervisor (engine/supervise.h).
   Starts fn(arg) on such a thread; returns pthread_create's. */
#define LINT_THREAD_STACK ((size_t)256 << 20)
int lint_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
