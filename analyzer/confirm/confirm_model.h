/* confirm_model.h: what the parts of `cudalint confirm` share:
 * the kernel pairs, the result of a pair (every step and number), the run's
 * options and what it found about the machine. */
#ifndef CUDALINT_CONFIRM_MODEL_H
#define CUDALINT_CONFIRM_MODEL_H

#include "base/util.h"
#include <stdbool.h>
#include <stddef.h>

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
    char *static_check;   /* "fp64", "barrier-skip"...: a row of static_checks[] (confirm_static.c) */
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

/* Time limits of the tools, in seconds: generous, but a hung GPU or tool
   cannot stall the whole run. */
enum { TIMEOUT_NVCC = 180, TIMEOUT_HARNESS = 300, TIMEOUT_PROFILER = 300 };

#endif
