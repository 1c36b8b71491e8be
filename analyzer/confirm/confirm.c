/* confirm.c: `cudalint confirm`: for each kernel pair under kernels/, lint,
 * fix, compile, compare the instruction mix, and on a GPU check, time and
 * profile the bad and the fixed kernel; every result goes to sqlite and the
 * report.
 *
 * The steps of a pair, in order (each recorded with pass/fail/error/skipped):
 *   lint-bad    the bad kernel carries the rule's expected finding
 *   fix         the fixed kernel: cudalint's own fix-it applied (or fixed.cu)
 *   lint-fixed  the fixed kernel has no finding of the rule
 *   build-ptx   nvcc -ptx of both           static       the rule's PTX difference
 *   build-sass  cuobjdump -sass of both     static-sass  the same on SASS
 *   build-gpu   the harness executable      check        outputs agree
 *   timing      median time ratio           ncu          Nsight Compute counters
 *   synccheck   compute-sanitizer's view of the barriers
 * A missing tool skips its steps; it never fails them. */
#include "confirm/confirm.h"
#include "base/report.h"
#include "core/cmdline.h"
#include "codegen/asm_mix.h"
#include "confirm/confirm_db.h"
#include "confirm/confirm_gpu.h"
#include "confirm/confirm_model.h"
#include "base/proc.h"
#include "confirm/confirm_report.h"
#include "confirm/confirm_static.h"
#include "core/rule.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CUDALINT_VERSION
#define CUDALINT_VERSION "unknown"
#endif


static void usage(FILE *out)
{
    fputs("usage: cudalint confirm [options] [CODE|NAME|PAIR...]\n"
          "\n"
          "Proves each rule's effect on its kernel pair under kernels/: the bad kernel\n"
          "must be flagged and the fixed one (built with cudalint's own fix-it where the\n"
          "rule has one) must not; both are compiled with nvcc and their instruction mix\n"
          "compared (PTX, and SASS when cuobjdump is installed); on a GPU both run, their\n"
          "outputs are compared, they are timed, and Nsight Compute counters and\n"
          "compute-sanitizer synccheck output are collected where those tools exist.\n"
          "Every result, failures and skipped steps included, goes to a sqlite database.\n"
          "\n"
          "With neither --static nor --gpu: the static steps, plus the GPU steps when a\n"
          "GPU is detected.\n"
          "\n",
          out);
    cmdline_print_help(out, CMD_CONFIRM);
    fputs("\n"
          "Select pairs by rule code (CU401), rule name (shared-bank-conflict), a glob\n"
          "(CU4*) or pair directory name; default: every pair.\n"
          "\n"
          "Exit status: 0 every step that ran passed (skipped steps are fine), 1 an\n"
          "expectation failed or a step failed (build, output mismatch, launch error,\n"
          "tool error), 2 usage error.\n",
          out);
}

/* Directories of kernels/ that hold a pair.json, sorted. */
static void discover_pairs(const char *kernels, struct strvec *names)
{
    DIR *d = opendir(kernels);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char *dir = path_join(kernels, e->d_name), *json = path_join(dir, "pair.json");
        if (path_is_dir(dir) && path_exists(json)) sv_push(names, e->d_name);
        free(dir);
        free(json);
    }
    closedir(d);
    sv_sort(names);
}

static bool selected(const struct confirm_opts *o, const struct pair *p)
{
    if (o->selectors.len == 0) return true;
    for (size_t i = 0; i < o->selectors.len; i++) {
        const char *s = o->selectors.items[i];
        if (strcmp(s, p->name) == 0 || glob_match_ci(s, p->rule) || glob_match_ci(s, p->rule_name))
            return true;
    }
    return false;
}

/* ------------------------------------------------------------- utilities */

static char *iso_time_utc(void)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    char buf[32];
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return xstrdup(buf);
}

/* A tool in nvcc's directory, on PATH, or in /usr/local/cuda/bin. */
static char *find_tool(const char *nvcc, const char *name)
{
    if (nvcc) {
        char *dir = path_dirname(nvcc), *p = path_join(dir, name);
        free(dir);
        if (access(p, X_OK) == 0) return p;
        free(p);
    }
    char *p = path_find_executable(name);
    if (p) return p;
    p = path_join("/usr/local/cuda/bin", name);
    if (access(p, X_OK) == 0) return p;
    free(p);
    /* Nsight Compute and compute-sanitizer also live in their own directories
       of the toolkit (and Nsight Compute in /opt when installed alone). */
    char *root = NULL;
    if (nvcc) {
        char *bin = path_dirname(nvcc);
        root = path_dirname(bin);
        free(bin);
    }
    char *patterns[3] = {
        root ? xasprintf("%s/nsight-compute*/%s", root, name) : NULL,
        root ? xasprintf("%s/compute-sanitizer/%s", root, name) : NULL,
        xasprintf("/opt/nvidia/nsight-compute/*/%s", name),
    };
    char *found = NULL;
    for (size_t i = 0; i < 3; i++) {
        char *pat = patterns[i];
        if (!pat || found) {
            free(pat);
            continue;
        }
        glob_t g;
        if (glob(pat, 0, NULL, &g) == 0) {
            /* the last match: the newest version when several are installed */
            for (size_t k = g.gl_pathc; k-- > 0 && !found;)
                if (access(g.gl_pathv[k], X_OK) == 0) found = xstrdup(g.gl_pathv[k]);
            globfree(&g);
        }
        free(pat);
    }
    free(root);
    return found;
}

/* The kernels directory: --kernels, beside the binary (build/cudalint ->
   kernels/), an installed share/cudalint/kernels, then the current directory
   and its parents. */
static char *find_kernels_dir(const char *given)
{
    if (given) return path_absolute(given);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *bin = path_dirname(exe), *up = path_dirname(bin);
        const char *tries[] = {"kernels", "share/cudalint/kernels"};
        for (size_t i = 0; i < 2; i++) {
            char *k = path_join(up, tries[i]), *h = path_join(k, "harness.cu");
            bool ok = path_exists(h);
            free(h);
            if (ok) {
                free(bin);
                free(up);
                return k;
            }
            free(k);
        }
        free(bin);
        free(up);
    }
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return NULL;
    char *dir = xstrdup(cwd);
    for (;;) {
        char *k = path_join(dir, "kernels"), *h = path_join(k, "harness.cu");
        bool ok = path_exists(h);
        free(h);
        if (ok) {
            free(dir);
            return k;
        }
        free(k);
        if (strcmp(dir, "/") == 0) break;
        char *up = path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    return NULL;
}

/* ------------------------------------------------------------------ tools */

static char *nvcc_release(const char *nvcc, const char *scratch)
{
    char *argv[] = {(char *)nvcc, "--version", NULL};
    struct proc_result pr;
    proc_run(argv, NULL, scratch, 60, true, NULL, &pr);
    char *version = NULL;
    const char *rel = strstr(pr.out, "release ");
    if (pr.exit_code == 0 && rel) {
        rel += 8;
        size_t n = strcspn(rel, ",\n");
        const char *v = strstr(rel, ", V");
        if (v && v < strchr(rel, '\n'))
            version = xasprintf("%.*s (V%.*s)", (int)n, rel, (int)strcspn(v + 3, " \n"), v + 3);
        else
            version = xstrndup(rel, n);
    }
    proc_result_release(&pr);
    return version;
}

static bool gpu_device_present(void)
{
    if (path_exists("/dev/nvidia0") || path_exists("/dev/dxg")) return true;
    DIR *d = opendir("/proc/driver/nvidia/gpus");
    if (!d) return false;
    bool any = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') any = true;
    closedir(d);
    return any;
}

/* GPU name, driver version and compute capability from nvidia-smi. */
static void query_nvidia_smi(struct confirm_env *env, char **cc)
{
    *cc = NULL;
    if (!env->nvidia_smi) return;
    char *argv[] = {env->nvidia_smi, "--query-gpu=name,driver_version,compute_cap",
                    "--format=csv,noheader", "-i", "0", NULL};
    struct proc_result pr;
    proc_run(argv, NULL, env->work, 60, false, NULL, &pr);
    if (pr.exit_code != 0) {
        /* older drivers lack compute_cap */
        proc_result_release(&pr);
        argv[1] = "--query-gpu=name,driver_version";
        proc_run(argv, NULL, env->work, 60, false, NULL, &pr);
    }
    if (pr.exit_code == 0 && pr.out[0]) {
        char *line = xstrndup(pr.out, strcspn(pr.out, "\n"));
        char *save = NULL, *f[3] = {NULL, NULL, NULL};
        int k = 0;
        for (char *t = strtok_r(line, ",", &save); t && k < 3; t = strtok_r(NULL, ",", &save)) {
            while (*t == ' ') t++;
            f[k++] = t;
        }
        if (f[0] && !env->ri->gpu) env->ri->gpu = xstrdup(f[0]);
        if (f[1]) {
            free(env->ri->driver);
            env->ri->driver = xstrdup(f[1]);
        }
        if (f[2] && strchr(f[2], '.')) *cc = xstrdup(f[2]);
        free(line);
    }
    proc_result_release(&pr);
}

static char *cc_to_arch(const char *cc)
{
    int major = 0, minor = 0;
    if (sscanf(cc, "%d.%d", &major, &minor) != 2) return NULL;
    return xasprintf("sm_%d%d", major, minor);
}

/* ------------------------------------------------------------------- main */

static void confirm_pair(struct confirm_env *env, struct pair_result *r)
{
    const struct pair *p = r->pair;
    printf("\n== %s: %s %s: %s\n", p->name, p->rule, p->rule_name, p->title);
    fflush(stdout);
    char *pwork = path_join(env->work, p->name);
    int e = mkdir_p(pwork, 0777);
    if (e) {
        pr_step(r, "lint-bad", STEP_ERROR, "cannot create %s: %s", pwork, strerror(e));
        free(pwork);
        return;
    }
    bool have_fixed = confirm_lint_and_fix(env, r, pwork);
    if (!have_fixed) {
        pr_step(r, "static", STEP_SKIP, "%s",
                pr_step_status(r, "lint-bad") == STEP_PASS
                    ? "no fixed kernel to compare with"
                    : "bad.cu is not flagged as expected, so there is no fix to measure");
        free(pwork);
        return;
    }
    if (!env->nvcc) {
        pr_step(r, "static", STEP_SKIP,
                "nvcc not found (looked at --nvcc, $CUDA_PATH/bin, PATH, /usr/local/cuda/bin)");
        free(pwork);
        return;
    }
    confirm_static_steps(env, r, pwork);
    if (env->gpu_mode && !strcmp(p->static_check, "removed-intrinsic")) {
        /* The bad kernel does not compile: there is nothing to run it against. */
        pr_step(r, "check", STEP_SKIP, "the bad kernel does not compile with this toolkit (the rule's point)");
        free(pwork);
        return;
    }
    if (!env->gpu_mode) {
        free(pwork);
        return;
    }
    if (env->gpu_gone) {
        pr_step(r, "check", STEP_SKIP, "%s", env->gpu_skip_reason);
        free(pwork);
        return;
    }
    char *exe = NULL;
    if (confirm_build_harness(env, r, pwork, &exe)) {
        confirm_run_harness(env, r, pwork, exe);
        if (!env->gpu_gone && pr_step_status(r, "build-gpu") == STEP_PASS &&
            pr_step_status(r, "check") != STEP_ERROR) {
            confirm_ncu_step(env, r, pwork, exe);
            confirm_sanitizer_step(env, r, pwork, exe);
        }
    }
    free(exe);
    free(pwork);
}

static void replace(char **field, const char *value)
{
    free(*field);
    *field = xstrdup(value);
}

/* confirm's options of the option table. */
static int on_option(void *data, int id, const char *val, char **error)
{
    struct confirm_opts *o = data;
    switch (id) {
    case ID_HELP: usage(stdout); return 1;
    case ID_STATIC: o->want_static_only = true; return 0;
    case ID_GPU: o->want_gpu = true; return 0;
    case ID_LIST: o->list = true; return 0;
    case ID_ARCH: {
        /* sm_ then at least two digits, then at most a feature suffix (sm_90a) */
        bool good = strncmp(val, "sm_", 3) == 0;
        if (good) {
            size_t digits = strspn(val + 3, "0123456789");
            const char *rest = val + 3 + digits;
            good = digits >= 2 && strspn(rest, "af") == strlen(rest) && strlen(rest) <= 1;
        }
        if (!good) {
            *error = xasprintf("--arch wants sm_XX (like sm_90), not %s", val);
            return -1;
        }
        replace(&o->arch, val);
        o->arch_given = true;
        return 0;
    }
    case ID_DB: replace(&o->db_path, val); return 0;
    case ID_REPORT: replace(&o->report_dir, val); return 0;
    case ID_NVCC: replace(&o->nvcc, val); return 0;
    case ID_KEEP: replace(&o->keep_dir, val); return 0;
    case ID_KERNELS: replace(&o->kernels_dir, val); return 0;
    case ID_INSPECT: replace(&o->inspect, val); return 0;
    case ID_RUNS: {
        char *end;
        long n = strtol(val, &end, 10);
        if (*end || n < 20 || n > 100000) {
            *error = xasprintf("--runs wants a number from 20 up, not %s", val);
            return -1;
        }
        o->runs = (int)n;
        return 0;
    }
    default: return 0;
    }
}

/* Returns 0 to go on, 1 when answered (--help), 2 on a usage error. */
static int parse_args(int argc, char **argv, struct confirm_opts *o)
{
    memset(o, 0, sizeof *o);
    o->runs = 30;
    char *error = NULL;
    int rc = cmdline_parse(CMD_CONFIRM, argc, argv, NULL, on_option, o, &o->selectors, &error);
    if (rc < 0) {
        report_error("%s (see cudalint confirm --help)", error);
        free(error);
        return 2;
    }
    if (rc > 0) return 1;
    if (o->want_static_only && o->want_gpu) {
        report_error("--static and --gpu exclude each other (--gpu runs the static steps too)");
        return 2;
    }
    return 0;
}

static void opts_release(struct confirm_opts *o)
{
    free(o->arch);
    free(o->db_path);
    free(o->report_dir);
    free(o->nvcc);
    free(o->keep_dir);
    free(o->kernels_dir);
    free(o->inspect);
    sv_release(&o->selectors);
}

static int inspect_file(const char *path)
{
    char *text = file_read_text(path);
    if (!text) {
        report_error("cannot read %s: %s", path, strerror(errno));
        return 2;
    }
    struct asm_mix m;
    asm_mix_count(text, &m);
    asm_mix_print(stdout, &m);
    free(text);
    return 0;
}

static void run_info_release(struct run_info *ri)
{
    free(ri->time);
    free(ri->host);
    free(ri->gpu);
    free(ri->gpu_cc);
    free(ri->driver);
    free(ri->cuda_version);
    free(ri->cuda_runtime);
    free(ri->version);
    free(ri->arch);
    free(ri->command);
    free(ri->nvcc);
}

/* One `cudalint confirm` run: its options, what it found about the machine,
   the pairs and their results. */
struct confirm_run {
    struct confirm_opts o;
    struct confirm_env env;
    struct run_info ri;
    struct strvec names;
    struct pair *pairs;
    size_t n_pairs;
    struct pair_result *results;
    size_t n_sel;
    struct confirm_db *db;
    char *db_path;
    bool gpu_present;
};

/* Reads every kernels/<dir>/pair.json and checks the selectors and the rule
   records against them.  Returns 0, 1 (a broken pair: go on) or 2 (stop). */
static int load_pairs(struct confirm_run *c)
{
    int rc = 0;
    c->env.kernels = find_kernels_dir(c->o.kernels_dir);
    if (!c->env.kernels || !path_is_dir(c->env.kernels)) {
        report_error("no kernels directory found%s%s; give one with --kernels DIR", c->o.kernels_dir ? ": " : "",
                     c->o.kernels_dir ? c->o.kernels_dir : "");
        return 2;
    }
    discover_pairs(c->env.kernels, &c->names);
    c->pairs = xcalloc(c->names.len + 1, sizeof *c->pairs);
    for (size_t i = 0; i < c->names.len; i++) {
        char *dir = path_join(c->env.kernels, c->names.items[i]), *error = NULL;
        if (pair_load(dir, c->names.items[i], &c->pairs[c->n_pairs], &error) != 0) {
            report_error("%s", error);
            free(error);
            pair_release(&c->pairs[c->n_pairs]);
            rc = 1;
        } else {
            c->n_pairs++;
        }
        free(dir);
    }
    /* every selector must name something */
    for (size_t s = 0; s < c->o.selectors.len; s++) {
        bool any = false;
        for (size_t i = 0; i < c->n_pairs && !any; i++) {
            struct confirm_opts one = {0};
            one.selectors.items = &c->o.selectors.items[s];
            one.selectors.len = 1;
            any = selected(&one, &c->pairs[i]);
        }
        if (!any) {
            report_error("%s names no kernel pair (see cudalint confirm --list)", c->o.selectors.items[s]);
            return 2;
        }
    }
    /* a rule record naming a kernel directory without a pair is a broken promise */
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *rule = rule_registry[i];
        if (!rule->kernel) continue;
        const char *base = strrchr(rule->kernel, '/') ? strrchr(rule->kernel, '/') + 1 : rule->kernel;
        bool found = false;
        for (size_t k = 0; k < c->n_pairs; k++)
            if (!strcmp(c->pairs[k].name, base)) found = true;
        if (!found) {
            report_error("%s names %s, which has no pair.json", rule->code, rule->kernel);
            rc = 1;
        }
    }
    return rc;
}

/* The scratch (or --keep) directory and the results database, before any
   work, so that a bad path fails fast.  Returns 0 or 2. */
static int open_work_and_db(struct confirm_run *c)
{
    if (c->o.keep_dir) {
        c->env.work = path_absolute(c->o.keep_dir);
        int e = mkdir_p(c->env.work, 0777);
        if (e) {
            report_error("--keep %s: %s", c->o.keep_dir, strerror(e));
            return 2;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        char *tmpl = xasprintf("%s/cudalint-confirm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(tmpl)) {
            report_error("cannot create a scratch directory: %s", strerror(errno));
            free(tmpl);
            return 2;
        }
        c->env.work = tmpl;
        c->env.work_is_temp = true;
    }
    if (c->o.db_path) {
        c->db_path = path_absolute(c->o.db_path);
    } else {
        char *cache = user_cache_dir();
        c->db_path = path_join(cache, "confirm.sqlite");
        free(cache);
    }
    char *db_error = NULL;
    c->db = confirm_db_open(c->db_path, &db_error);
    if (!c->db) {
        report_error("cannot open the results database %s", db_error);
        free(db_error);
        return 2;
    }
    return 0;
}

/* nvcc and the tools beside it, the GPU, and the arch.  Returns 0 or 2. */
static int find_tools(struct confirm_run *c)
{
    struct confirm_env *env = &c->env;
    if (c->o.nvcc) {
        env->nvcc = access(c->o.nvcc, X_OK) == 0 ? xstrdup(c->o.nvcc) : NULL;
        if (!env->nvcc) {
            report_error("--nvcc %s is not an executable", c->o.nvcc);
            return 2;
        }
    } else {
        const char *cp = getenv("CUDA_PATH");
        if (cp && *cp) {
            char *nv = path_join(cp, "bin/nvcc");
            if (access(nv, X_OK) == 0) env->nvcc = nv;
            else free(nv);
        }
        if (!env->nvcc) env->nvcc = path_find_executable("nvcc");
        if (!env->nvcc && access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
            env->nvcc = xstrdup("/usr/local/cuda/bin/nvcc");
    }
    if (env->nvcc) {
        env->cuobjdump = find_tool(env->nvcc, "cuobjdump");
        c->ri.cuda_version = nvcc_release(env->nvcc, env->work);
    }
    env->nvidia_smi = path_find_executable("nvidia-smi");
    c->gpu_present = gpu_device_present();
    env->gpu_mode = !c->o.want_static_only && (c->o.want_gpu || c->gpu_present);
    if (env->gpu_mode) {
        env->ncu = find_tool(env->nvcc, "ncu");
        env->sanitizer = find_tool(env->nvcc, "compute-sanitizer");
    }
    char *cc = NULL;
    if (env->gpu_mode) query_nvidia_smi(env, &cc);
    if (!c->o.arch_given) {
        c->o.arch = cc && env->gpu_mode ? cc_to_arch(cc) : NULL;
        if (!c->o.arch) c->o.arch = xstrdup("sm_90");
    }
    free(cc);
    return 0;
}

/* Records the run in the database and says what it will do.  Returns 0 or 2. */
static int start_run(struct confirm_run *c, int argc, char **argv)
{
    struct run_info *ri = &c->ri;
    const struct confirm_env *env = &c->env;
    ri->time = iso_time_utc();
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    ri->host = xstrdup(host);
    ri->version = xstrdup(CUDALINT_VERSION);
    ri->arch = xstrdup(c->o.arch);
    ri->nvcc = env->nvcc ? xstrdup(env->nvcc) : NULL;
    struct strbuf cmd;
    sb_init(&cmd);
    sb_add(&cmd, "cudalint");
    for (int i = 0; i < argc; i++) sb_addf(&cmd, " %s", argv[i]);
    ri->command = sb_detach(&cmd);
    char *db_error = NULL;
    if (confirm_db_run(c->db, ri, &db_error) != 0) {
        report_error("%s", db_error);
        free(db_error);
        return 2;
    }

    printf("cudalint confirm %s: arch %s; nvcc: %s%s%s%s\n", ri->version, ri->arch,
           env->nvcc ? env->nvcc : "not found (static steps skipped)", ri->cuda_version ? " (CUDA " : "",
           ri->cuda_version ? ri->cuda_version : "", ri->cuda_version ? ")" : "");
    if (env->nvcc)
        printf("  cuobjdump: %s\n", env->cuobjdump ? env->cuobjdump : "not installed (PTX evidence only)");
    if (c->o.want_static_only)
        printf("  GPU steps: not requested (--static)\n");
    else if (!env->gpu_mode)
        printf("  GPU steps: skipped: no GPU detected (use --gpu to try anyway)\n");
    else
        printf("  GPU steps: %s; ncu: %s; compute-sanitizer: %s\n",
               ri->gpu ? ri->gpu : (c->gpu_present ? "GPU detected" : "no GPU detected, trying (--gpu)"),
               env->ncu ? env->ncu : "not installed", env->sanitizer ? env->sanitizer : "not installed");
    if (!env->nvcc && env->gpu_mode) c->env.gpu_mode = false;
    printf("  results database: %s (run %lld)\n", c->db_path, ri->db_id);
    fflush(stdout);
    return 0;
}

/* Every selected pair, each stored as soon as it is done.  Returns 0 or 1. */
static int run_pairs(struct confirm_run *c)
{
    int rc = 0;
    c->results = xcalloc(c->n_pairs + 1, sizeof *c->results);
    for (size_t i = 0; i < c->n_pairs; i++) {
        if (!selected(&c->o, &c->pairs[i])) continue;
        struct pair_result *r = &c->results[c->n_sel++];
        r->pair = &c->pairs[i];
        pr_text(r, "", "pair.title", c->pairs[i].title);
        confirm_pair(&c->env, r);
        if (!c->env.gpu_mode && !c->o.want_static_only && c->env.nvcc && pr_step_status(r, "static") >= 0)
            pr_step(r, "gpu", STEP_SKIP, "no GPU detected");
        size_t stored = 0;
        char *db_error = NULL;
        if (confirm_db_pair(c->db, &c->ri, r, &stored, &db_error) != 0) {
            report_error("%s", db_error);
            free(db_error);
            rc = 1;
        }
        if (r->failed) rc = 1;
    }
    return rc;
}

/* The table, the report and the run's last rows.  Returns the exit code. */
static int finish_run(struct confirm_run *c, int rc)
{
    char *db_error = NULL;
    /* the GPU's identity is known only after the harness ran */
    if (confirm_db_run(c->db, &c->ri, &db_error) != 0) {
        report_error("%s", db_error);
        free(db_error);
        db_error = NULL;
    }
    printf("\n");
    confirm_print_table(stdout, &c->ri, c->results, c->n_sel);
    if (c->o.report_dir) {
        char *error = NULL;
        if (confirm_write_report(c->o.report_dir, &c->ri, c->results, c->n_sel, c->db_path, &error) != 0) {
            report_error("report: %s", error);
            free(error);
            rc = rc ? rc : 1;
        } else {
            printf("report: %s/RESULTS.md, %s/ratios.svg\n", c->o.report_dir, c->o.report_dir);
        }
    }
    const struct {
        const char *metric;
        double value;
        const char *text;
    } notes[] = {{"run.command", 0, c->ri.command}, {"run.seconds", c->ri.seconds, NULL}, {"run.exit_code", rc, NULL}};
    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++) {
        confirm_db_note(c->db, &c->ri, notes[i].metric, notes[i].value, notes[i].text, &db_error);
        free(db_error);
        db_error = NULL;
    }
    printf("%s in %.0f s; exit %d\n", rc == 0 ? "confirm: every step that ran passed" : "confirm: some steps FAILED",
           c->ri.seconds, rc);
    return rc;
}

static void confirm_run_release(struct confirm_run *c)
{
    for (size_t i = 0; i < c->n_sel; i++) pr_release(&c->results[i]);
    free(c->results);
    for (size_t i = 0; i < c->n_pairs; i++) pair_release(&c->pairs[i]);
    free(c->pairs);
    sv_release(&c->names);
    confirm_db_close(c->db);
    free(c->db_path);
    struct confirm_env *env = &c->env;
    if (env->work && env->work_is_temp) remove_tree(env->work);
    free(env->work);
    free(env->kernels);
    free(env->nvcc);
    free(env->cuobjdump);
    free(env->ncu);
    free(env->sanitizer);
    free(env->nvidia_smi);
    free(env->harness_obj);
    free(env->harness_error);
    free(env->gpu_skip_reason);
    run_info_release(&c->ri);
    opts_release(&c->o);
}

int confirm_main(int argc, char **argv)
{
    report_set_program("cudalint confirm");
    struct confirm_run c;
    memset(&c, 0, sizeof c);
    c.env.o = &c.o;
    c.env.ri = &c.ri;
    int prc = parse_args(argc, argv, &c.o);
    if (prc || c.o.inspect) {
        int rc = prc ? (prc == 1 ? 0 : 2) : inspect_file(c.o.inspect);
        opts_release(&c.o);
        return rc;
    }
    double started = monotonic_seconds();
    int rc = load_pairs(&c);
    if (rc == 2) goto out;
    if (c.o.list) {
        for (size_t i = 0; i < c.n_pairs; i++)
            if (selected(&c.o, &c.pairs[i]))
                printf("%-34s %s %-22s %s%s\n", c.pairs[i].name, c.pairs[i].rule, c.pairs[i].rule_name,
                       c.pairs[i].title, c.pairs[i].hand_fixed ? " (hand-fixed)" : "");
        goto out;
    }
    if (open_work_and_db(&c) || find_tools(&c) || start_run(&c, argc, argv)) {
        rc = 2;
        goto out;
    }
    if (run_pairs(&c) && !rc) rc = 1;
    c.ri.seconds = monotonic_seconds() - started;
    rc = finish_run(&c, rc);
out:
    confirm_run_release(&c);
    return rc;
}
