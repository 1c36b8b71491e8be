/* confirm_impl.h: what the parts of `cudalint confirm` share: the pair and
 * result model, the assembly instruction mix, subprocesses, the database and
 * the report writers.  Private to analyzer/confirm*.c. */
#ifndef CUDALINT_CONFIRM_IMPL_H
#define CUDALINT_CONFIRM_IMPL_H

#include "base/util.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- kernel pairs (kernels/<dir>/pair.json) ---- */

#define CONFIRM_MAX_NCU 8

struct ncu_expect {
    char *metric;
    double min_reduction; /* (bad - fixed) / bad must reach this */
};

struct pair {
    char *name;           /* directory name: "cu201_double_literal" */
    char *dir;            /* absolute path of kernels/<name> */
    char *rule;           /* "CU201" */
    char *rule_name;      /* "double-literal" (from the registry, or the code) */
    char *title;          /* one line for the report */
    char *expect_message; /* fragment the bad kernel's finding must contain */
    bool hand_fixed;      /* fixed.cu written by hand (else cudalint's fix-it) */
    char *static_check;   /* "fp64", "loop-int-mul", "shared-padding", "barrier-skip" */
    double gpu_min_ratio; /* 0: report the ratio, no target */
    bool timing_meaningful;
    struct strvec ncu_metrics;
    struct ncu_expect ncu_expect[CONFIRM_MAX_NCU];
    size_t n_ncu_expect;
    char *sanitizer;      /* "synccheck" or NULL */
    char *note;           /* shown in the report, or NULL */
};

/* Reads dir/pair.json.  Returns 0, or -1 with *error (malloc'd). */
int pair_load(const char *dir, const char *name, struct pair *p, char **error);
void pair_release(struct pair *p);

/* ---- results: every step and number, in the order they were produced ---- */

enum step_status { STEP_PASS, STEP_FAIL, STEP_ERROR, STEP_SKIP, STEP_INFO };
const char *step_status_name(enum step_status s);

struct measure {
    char *variant; /* "bad", "fixed", or "" for the pair */
    char *metric;  /* "ptx.fp64_arith", "step:static", ... */
    bool has_value;
    double value;
    char *text;    /* for steps: "pass: detail"; NULL for plain numbers */
};

struct pair_result {
    const struct pair *pair;
    struct measure *items;
    size_t len, cap;
    bool failed;       /* a step failed or errored */
};

void pr_number(struct pair_result *r, const char *variant, const char *metric, double value);
void pr_text(struct pair_result *r, const char *variant, const char *metric, const char *text);
/* Records a step outcome and prints "pair: step: status: detail". */
void pr_step(struct pair_result *r, const char *step, enum step_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const struct measure *pr_find(const struct pair_result *r, const char *variant, const char *metric);
/* Status of a recorded step, or -1 when the step did not run. */
int pr_step_status(const struct pair_result *r, const char *step);
const char *pr_step_detail(const struct pair_result *r, const char *step);
void pr_release(struct pair_result *r);

/* ---- instruction mix of PTX and SASS ---- */

struct asm_mix {
    bool sass;
    long entries;            /* kernels (.entry / Function :) */
    long instructions;
    long loop_instructions;  /* inside a backward branch's range */
    long fp64_arith;         /* add/sub/mul/fma/div/... .f64, DADD/DMUL/DFMA/DSETP... */
    long cvt_f64_f32;        /* float -> double */
    long cvt_f32_f64;        /* double -> float */
    long int_mul;            /* integer mul/mad (PTX mul.lo/mul.wide/mad.lo, SASS IMAD/IMUL) */
    long loop_int_mul;
    long ld_shared, st_shared, atom_shared;
    long shared_bytes;       /* PTX .shared declarations; -1 for SASS */
    long barriers;           /* bar.sync / barrier.sync / BAR.SYNC (not warp syncs) */
    long barrier_skips;      /* conditional forward branches that jump over a barrier */
};

/* Counts the instruction mix of a PTX text (nvcc -ptx) or a SASS listing
   (cuobjdump -sass); the format is recognised from the text. */
void asm_mix_count(const char *text, struct asm_mix *m);
/* Prints the mix as "key value" lines (for --inspect and the logs). */
void asm_mix_print(FILE *out, const struct asm_mix *m);

/* ---- subprocesses ---- */

struct proc_result {
    int exit_code;   /* -1 when it could not start or was killed */
    bool timed_out;
    bool not_found;
    char *out;       /* captured stdout (and stderr when merged) */
    char *err;       /* captured stderr, NULL when merged into out */
    double seconds;
};

/* Runs argv (argv[0] a path or a name looked up on PATH) in cwd (NULL: ours),
   capturing its output through files in scratch_dir; kills its process group
   after timeout_s.  extra_env: "NAME=value" strings set in the child, or NULL. */
void proc_run(char *const argv[], const char *cwd, const char *scratch_dir, int timeout_s,
              bool merge_stderr, const char *const *extra_env, struct proc_result *r);
void proc_result_release(struct proc_result *r);
/* The last n lines of text as one line ("a | b | c"), malloc'd. */
char *text_tail(const char *text, int n);
/* Full path of an executable named name on PATH, or NULL. */
char *find_on_path(const char *name);

/* ---- the run as a whole ---- */

struct run_info {
    char *time;          /* ISO 8601, UTC */
    char *host;
    char *gpu;           /* "NVIDIA H100 80GB HBM3", or NULL */
    char *gpu_cc;        /* "9.0" */
    int gpu_sms;
    char *driver;        /* "580.65.06" or "CUDA driver API 13.0" */
    char *cuda_version;  /* nvcc's release, "13.0 (V13.0.88)" */
    char *cuda_runtime;  /* from the harness, "13.0" */
    char *version;       /* cudalint's */
    char *arch;
    char *command;
    char *nvcc;
    long long db_id;     /* run.id, 0 when no database */
    double seconds;
};

/* ---- the run's options and what it found about the machine ---- */

struct confirm_opts {
    bool want_static_only, want_gpu;
    char *arch;
    bool arch_given;
    char *db_path, *report_dir, *nvcc, *keep_dir, *kernels_dir, *inspect;
    int runs;
    bool list;
    struct strvec selectors;
};

/* What the run found about the machine; shared by every pair. */
struct confirm_env {
    struct confirm_opts *o;
    char *kernels;          /* absolute kernels/ directory */
    char *work;             /* scratch or --keep directory */
    bool work_is_temp;
    char *nvcc, *cuobjdump, *ncu, *sanitizer, *nvidia_smi;
    bool gpu_mode;          /* run the GPU steps */
    bool gpu_gone;          /* the harness said there is no GPU: skip the rest */
    char *gpu_skip_reason;
    char *harness_obj;      /* built once, NULL until then */
    bool harness_failed;
    char *harness_error;
    struct run_info *ri;
};

/* ---- steps (confirm_static.c, confirm_gpu.c) ---- */

/* Time limits of the tools, in seconds: generous, but a hung GPU or tool
   cannot stall the whole run. */
enum { TIMEOUT_NVCC = 180, TIMEOUT_HARNESS = 300, TIMEOUT_PROFILER = 300 };

/* Runs nvcc with args; on failure records step as failed with the output's
   tail.  log_path collects the command lines and output; *warnings (when
   non-NULL) gets the tail of a successful build's output. */
bool confirm_nvcc(struct confirm_env *env, struct pair_result *r, const char *step,
                  struct strvec *args, const char *log_path, char **warnings);
/* nvcc arguments that compile kernels/variant.cu as one variant of a pair. */
void confirm_variant_args(struct confirm_env *env, const struct pair *p, const char *pwork,
                          const char *variant, struct strvec *a);
/* lint-bad, fix, lint-fixed; writes pwork/bad.cu and pwork/fixed.cu.
   False when there is no fixed kernel to go on with. */
bool confirm_lint_and_fix(struct confirm_env *env, struct pair_result *r, const char *pwork);
/* build-ptx, static, build-sass, static-sass. */
void confirm_static_steps(struct confirm_env *env, struct pair_result *r, const char *pwork);
/* build-gpu: the harness executable for the pair (*exe, malloc'd). */
bool confirm_build_harness(struct confirm_env *env, struct pair_result *r, const char *pwork,
                           char **exe);
/* check and timing from one harness run. */
void confirm_run_harness(struct confirm_env *env, struct pair_result *r, const char *pwork,
                         const char *exe);
void confirm_ncu_step(struct confirm_env *env, struct pair_result *r, const char *pwork,
                      const char *exe);
void confirm_sanitizer_step(struct confirm_env *env, struct pair_result *r, const char *pwork,
                            const char *exe);

/* Whole-file helpers (confirm_proc.c). */
bool file_write_text(const char *path, const char *text, size_t len);
char *file_read_text(const char *path); /* NULL when unreadable */

/* ---- database ---- */

struct confirm_db;
/* Opens (creating the file, its directory and the tables).  NULL with *error. */
struct confirm_db *confirm_db_open(const char *path, char **error);
/* Inserts the run row and sets ri->db_id; updates it when already inserted. */
int confirm_db_run(struct confirm_db *db, struct run_info *ri, char **error);
/* Appends every measurement of a pair result not yet stored. */
int confirm_db_pair(struct confirm_db *db, const struct run_info *ri, struct pair_result *r,
                    size_t *stored, char **error);
/* A run-level row (rule and kernel empty). */
int confirm_db_note(struct confirm_db *db, const struct run_info *ri, const char *metric,
                    double value, const char *text, char **error);
void confirm_db_close(struct confirm_db *db);

/* ---- reports ---- */

void confirm_print_table(FILE *out, const struct run_info *ri, struct pair_result *results,
                         size_t n);
/* Writes dir/RESULTS.md and dir/ratios.svg.  Returns 0 or -1 with *error. */
int confirm_write_report(const char *dir, const struct run_info *ri,
                         struct pair_result *results, size_t n, const char *db_path,
                         char **error);

/* mkdir -p; 0 or an errno. */
int mkdir_p(const char *path);

#endif
