/* options.h: the options one file is linted with (the command line, merged
 * with the file's .cudalint.yaml by config/), and which rules they enable. */
#ifndef CUDALINT_OPTIONS_H
#define CUDALINT_OPTIONS_H

#include "base/util.h"
#include "core/rule.h"
#include <stdbool.h>

struct compdb;
struct cuda_toolkit;
struct config_set;
struct fix_memory;
struct file_result;

enum header_mode { HEADERS_AUTO, HEADERS_TOOLKIT, HEADERS_SHIM };

/* A rule option from the configuration's `options: {CODE: {key: value}}`. */
struct rule_option {
    const struct rule *rule;
    char *key, *value;
};

/* --time-limit's default, in seconds: far above what any real file needs
   (the slowest file of the corpora takes a few seconds), low enough that a
   pre-commit hook does not hang on a pathological one. */
#define LINT_DEFAULT_TIME_LIMIT 120.0

struct lint_options {
    struct strvec paths;          /* files/directories given by the user */
    struct strvec roots;          /* the same, absolute: headers under them are linted */
    struct strvec extensions;     /* ".cu", ".cuh", plus --extensions */
    struct strvec select, ignore; /* codes, names, prefixes, globs */
    struct strvec archs;          /* "sm_90" ... */
    bool all_archs;               /* --all-cuda-archs: a device pass per arch, always */
    struct strvec extra_args;     /* after "--": passed to clang */
    char *cuda_path;              /* explicit --cuda-path, or NULL */
    char *compdb_dir;             /* -p DIR, or NULL (auto-discovery) */
    char *workspace;              /* the language server's workspace root, whose files' cached
                                     launch sites a document's kernels use (NULL: none) */
    enum header_mode headers;
    bool host;                    /* also report rules in host code (--host) */
    bool preview;                 /* preview rules on (--preview, `preview: true`) */
    bool show_parse_errors;
    bool exit_zero, quiet;
    int jobs;
    char *format;                 /* "text", "json", ... */
    int color;                    /* 0 never, 1 always, -1 auto */
    int fail_level;               /* lowest enum severity that fails the run */
    long long max_file_size;      /* larger files are skipped with a note */
    /* Containment (engine/supervise.h): a file whose lint takes longer than
       time_limit seconds (0: no limit) gets an error status; memory_limit
       (bytes; 0: none, -1: the default of supervise_memory_limit()) bounds
       the address space of the process that lints. */
    double time_limit;
    long long memory_limit;

    /* Integrations (configuration, baseline, fixes, cache). */
    char *config_path;            /* --config FILE, or NULL: nearest .cudalint.yaml */
    bool no_config, dump_config;
    char *baseline, *write_baseline;
    bool fix, diff;
    char *cache_dir;              /* --cache-dir, or NULL: the user cache dir */
    bool no_cache;

    /* Input, output and scale (issue 16). */
    char *stdin_filename;         /* --stdin-filename PATH: lint stdin as PATH */
    char *output_file;            /* -o FILE: the format goes there (atomically) */
    bool statistics;              /* --statistics: a count per rule instead of findings */
    bool verbose;                 /* --verbose: say which include folders were guessed */
    int shard_k, shard_n;         /* --shard K/N (1-based); shard_n 0: no sharding */
    bool watch;                   /* --watch: lint again after each change */

    /* Codegen evidence (codegen/): -1 auto (on when a toolkit is found; the
       language server turns auto off), 0 --no-codegen, 1 --codegen. */
    int codegen;
    bool show_disproved;          /* --show-disproved: keep the findings nvcc's code disproves */

    /* Rule options of the file's configuration (borrowed from config/; none
       on the command line's own options). */
    const struct rule_option *rule_options;
    size_t n_rule_options;

    /* Per-run state, owned by the run's session (engine/lint.h) and shared by
       the options merged for each file: */
    struct config_set *config;    /* .cudalint.yaml files loaded and merged (config/) */
    struct fix_memory *fix_memory; /* what files held when read, for --fix/--diff (fix/) */
    /* Told how far lint_run() is (a progress line), or NULL: start() once with
       the number of files, file_done() after each file, from any worker
       thread but never two at once. */
    const struct lint_progress *progress;

    /* Resolved once per run by lint_prepare() (engine/lint.h): */
    struct compdb *compdb;        /* NULL without a compile database */
    struct cuda_toolkit *toolkit; /* NULL when none was found or shim mode */
    bool explicit_archs;          /* --cuda-arch given: wins over the database */
};

struct lint_progress {
    void (*start)(void *data, size_t n_files);
    void (*file_done)(void *data, const struct file_result *res);
    void *data;
};

void lint_options_init(struct lint_options *o);
/* Frees what the options own; what lint_prepare() resolved (compile database,
   toolkit) is released by lint_unprepare() first. */
void lint_options_release(struct lint_options *o);
/* --select/--ignore: a selector matches a rule by code, name, code prefix
   ("CU2"), glob or ALL.  Without --select, the stable rules are on (every rule
   with --preview).  A preview rule is selected only by its exact code or name,
   or by any selector with --preview (ruff's semantics: `--select CU1` turns on
   the stable CU1xx rules, `--select CU1 --preview` all of them). */
bool lint_rule_enabled(const struct lint_options *o, const struct rule *r);
/* A rule option from the configuration, as written, or NULL. */
const char *lint_rule_option(const struct lint_options *o, const struct rule *r, const char *key);
/* Whether a rule also reports in host code: --host, `host: true`, or the
   rule's own `options: {CODE: {host: true}}`. */
bool lint_rule_host(const struct lint_options *o, const struct rule *r);

#endif
