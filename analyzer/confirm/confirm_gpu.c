/* confirm_gpu.c: the GPU steps of `cudalint confirm`: build the harness,
 * run it (output check and timing, read from its JSON lines), Nsight Compute
 * counters and compute-sanitizer, each recorded as measurements of the pair. */
#include "confirm/confirm_gpu.h"
#include "base/proc.h"
#include "confirm/confirm_static.h"
#include "base/jsonutil.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Human-readable count: 65600000 -> "65.6 M". */
static char *fmt_count(double v)
{
    if (fabs(v) >= 1e9) return xasprintf("%.2f G", v / 1e9);
    if (fabs(v) >= 1e6) return xasprintf("%.2f M", v / 1e6);
    if (fabs(v) >= 1e4) return xasprintf("%.1f k", v / 1e3);
    return xasprintf("%.0f", v);
}

bool confirm_build_harness(struct confirm_env *env, struct pair_result *r, const char *pwork,
                          char **exe)
{
    const struct pair *p = r->pair;
    char *log = path_join(pwork, "nvcc.log");
    *exe = NULL;
    if (!env->harness_obj && !env->harness_failed) {
        char *hdir = path_join(env->work, "_harness");
        mkdir_p(hdir, 0777);
        char *obj = path_join(hdir, "harness.o");
        struct strvec a = {0};
        sv_push(&a, "-O3");
        sv_push_owned(&a, xasprintf("-arch=%s", env->o->arch));
        sv_push(&a, "-c");
        sv_push_owned(&a, path_join(env->kernels, "harness.cu"));
        sv_push(&a, "-o");
        sv_push(&a, obj);
        if (confirm_nvcc(env, r, "build-gpu", &a, log, NULL)) {
            env->harness_obj = obj;
        } else {
            env->harness_failed = true;
            env->harness_error = xstrdup(pr_step_detail(r, "build-gpu"));
            free(obj);
        }
        sv_release(&a);
        free(hdir);
        if (env->harness_failed) {
            free(log);
            return false;
        }
    } else if (env->harness_failed) {
        pr_step(r, "build-gpu", STEP_FAIL, "harness.cu did not build: %s", env->harness_error);
        free(log);
        return false;
    }
    const char *variants[2] = {"bad", "fixed"};
    bool ok = true;
    for (int v = 0; v < 2 && ok; v++) {
        struct strvec a = {0};
        char *obj = xasprintf("%s/%s.o", pwork, variants[v]);
        confirm_variant_command(env, p, pwork, variants[v], "-c", obj, &a);
        free(obj);
        ok = confirm_nvcc(env, r, "build-gpu", &a, log, NULL);
        sv_release(&a);
    }
    if (ok) {
        struct strvec a = {0};
        sv_push_owned(&a, xasprintf("-arch=%s", env->o->arch));
        sv_push(&a, env->harness_obj);
        sv_push_owned(&a, xasprintf("%s/bad.o", pwork));
        sv_push_owned(&a, xasprintf("%s/fixed.o", pwork));
        sv_push(&a, "-o");
        *exe = path_join(pwork, "harness");
        sv_push(&a, *exe);
        ok = confirm_nvcc(env, r, "build-gpu", &a, log, NULL);
        sv_release(&a);
        if (!ok) {
            free(*exe);
            *exe = NULL;
        }
    }
    if (ok) pr_step(r, "build-gpu", STEP_PASS, "harness built for %s", env->o->arch);
    free(log);
    return ok;
}

/* Saves a tool's output beside the pair's other files. */
static void save_log(const char *pwork, const char *name, const struct proc_result *pr)
{
    char *path = path_join(pwork, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(pr->out ? pr->out : "", f);
        if (pr->err && pr->err[0]) fprintf(f, "\n--- stderr ---\n%s", pr->err);
        fclose(f);
    }
    free(path);
}

/* Applies the harness's device line to the run (the first one wins). */
static void take_device(struct confirm_env *env, const cJSON *ev)
{
    struct run_info *ri = env->ri;
    const char *name = json_get_str(ev, "name"), *cc = json_get_str(ev, "cc"), *rt = json_get_str(ev, "runtime"),
               *drv = json_get_str(ev, "driver_api");
    if (name && !ri->gpu) ri->gpu = xstrdup(name);
    if (cc && !ri->gpu_cc) ri->gpu_cc = xstrdup(cc);
    double sms = json_get_number(ev, "sm_count", NAN);
    if (!ri->gpu_sms && !isnan(sms)) ri->gpu_sms = (int)sms;
    if (rt && !ri->cuda_runtime) ri->cuda_runtime = xstrdup(rt);
    if (drv && !ri->driver) ri->driver = xasprintf("CUDA driver API %s", drv);
}

/* check and timing, from one harness run. */
void confirm_run_harness(struct confirm_env *env, struct pair_result *r, const char *pwork,
                        const char *exe)
{
    const struct pair *p = r->pair;
    char runs[16];
    snprintf(runs, sizeof runs, "%d", env->o->runs);
    char *argv[] = {(char *)exe, "--mode", "all", "--runs", runs, NULL};
    struct proc_result pr;
    proc_run(argv, pwork, pwork, TIMEOUT_HARNESS, false, NULL, &pr);
    save_log(pwork, "harness.log", &pr);
    pr_number(r, "", "gpu.harness_seconds", pr.seconds);

    if (pr.exit_code == 3) {
        env->gpu_gone = true;
        free(env->gpu_skip_reason);
        const char *m = strstr(pr.out, "\"message\":\"");
        env->gpu_skip_reason = m ? xasprintf("no usable GPU: %.*s", (int)strcspn(m + 11, "\""), m + 11)
                                 : xstrdup("no usable GPU");
        pr_step(r, "check", STEP_SKIP, "%s", env->gpu_skip_reason);
        pr_step(r, "timing", STEP_SKIP, "%s", env->gpu_skip_reason);
        proc_result_release(&pr);
        return;
    }

    bool saw_check = false, saw_ratio = false, check_failed = false, any_difference = false;
    struct strbuf check_detail;
    sb_init(&check_detail);
    const char *error_msg = NULL;
    cJSON *error_ev = NULL;
    double ratio = NAN;
    const char *line = pr.out;
    cJSON *events[64];
    size_t n_events = 0;
    while (line && *line) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        if (len && line[0] == '{' && n_events < 64) {
            cJSON *ev = cJSON_ParseWithLength(line, len);
            if (ev) events[n_events++] = ev;
        }
        line = eol ? eol + 1 : NULL;
    }
    for (size_t i = 0; i < n_events; i++) {
        cJSON *ev = events[i];
        const char *kind = json_get_str(ev, "event");
        if (!kind) continue;
        if (!strcmp(kind, "device")) {
            take_device(env, ev);
        } else if (!strcmp(kind, "config")) {
            char *text = cJSON_PrintUnformatted(ev);
            pr_text(r, "", "gpu.config", text);
            free(text);
        } else if (!strcmp(kind, "check")) {
            saw_check = true;
            const char *buf = json_get_str(ev, "buffer");
            bool match = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "match"));
            bool may_differ = json_get_str(ev, "expect") && !strcmp(json_get_str(ev, "expect"), "may-differ");
            double mism = json_get_number(ev, "mismatches", NAN), elems = json_get_number(ev, "elements", NAN);
            pr_number(r, "", "check.mismatches", mism);
            pr_number(r, "", "check.elements", elems);
            pr_number(r, "", "check.max_abs_err", json_get_number(ev, "max_abs_err", NAN));
            pr_number(r, "", "check.max_rel_err", json_get_number(ev, "max_rel_err", NAN));
            const char *cmp = json_get_str(ev, "compare");
            char *what;
            if (match)
                what = xasprintf("%s: %s agree on all %.0f elements (%s%s)", buf ? buf : "output",
                                 "bad and fixed", elems, cmp ? cmp : "?",
                                 cmp && !strcmp(cmp, "tolerance") ? " compare" : " compare, bitwise");
            else
                what = xasprintf("%s: %.0f of %.0f elements differ (first at %.0f: bad %.9g, fixed "
                                 "%.9g; max abs err %.3g, max rel err %.3g)%s%s",
                                 buf ? buf : "output", mism, elems, json_get_number(ev, "first_mismatch", NAN),
                                 json_get_number(ev, "bad_value", NAN), json_get_number(ev, "fixed_value", NAN),
                                 json_get_number(ev, "max_abs_err", NAN), json_get_number(ev, "max_rel_err", NAN),
                                 may_differ ? "; expected: " : "",
                                 may_differ && json_get_str(ev, "note") ? json_get_str(ev, "note") : "");
            if (check_detail.len) sb_add(&check_detail, "; ");
            sb_add(&check_detail, what);
            free(what);
            if (!match && !may_differ) check_failed = true;
            if (!match) any_difference = true;
            if (may_differ) pr_text(r, "", "check.expectation", "may-differ");
        } else if (!strcmp(kind, "time")) {
            const char *variant = json_get_str(ev, "variant");
            const char *keys[] = {"median_ms", "min_ms", "max_ms", "q1_ms", "q3_ms", "mean_ms", "runs"};
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                char *metric = xasprintf("gpu.%s", keys[k]);
                pr_number(r, variant, metric, json_get_number(ev, keys[k], NAN));
                free(metric);
            }
        } else if (!strcmp(kind, "ratio")) {
            saw_ratio = true;
            ratio = json_get_number(ev, "value", NAN);
            pr_number(r, "", "gpu.ratio", ratio);
        } else if (!strcmp(kind, "error")) {
            error_ev = ev;
            error_msg = json_get_str(ev, "message");
        }
    }

    if (error_ev) {
        const char *where = json_get_str(error_ev, "where");
        char *msg = xasprintf("CUDA error %s in %s: %s", json_get_str(error_ev, "name") ? json_get_str(error_ev, "name") : "?",
                              where ? where : "?", error_msg ? error_msg : "?");
        pr_text(r, "", "gpu.error", msg);
        if (!saw_check) pr_step(r, "check", STEP_ERROR, "%s", msg);
        pr_step(r, "timing", STEP_ERROR, "%s", msg);
        free(msg);
    } else if (pr.exit_code != 0 && pr.exit_code != 1) {
        char *tail = text_tail(pr.err && pr.err[0] ? pr.err : pr.out, 4);
        pr_step(r, "check", STEP_ERROR, "harness %s (exit %d): %s",
                pr.timed_out ? "timed out" : "failed", pr.exit_code, tail);
        free(tail);
    }
    if (saw_check)
        pr_step(r, "check", check_failed ? STEP_FAIL : any_difference ? STEP_INFO : STEP_PASS, "%s",
                check_detail.buf);
    if (saw_ratio) {
        const struct measure *mb = pr_find(r, "bad", "gpu.median_ms");
        const struct measure *mf = pr_find(r, "fixed", "gpu.median_ms");
        const struct measure *nb = pr_find(r, "bad", "gpu.runs");
        char *base = xasprintf("bad/fixed median time %.2fx (bad %.4f ms, fixed %.4f ms, %.0f "
                               "runs each)",
                               ratio, mb ? mb->value : NAN, mf ? mf->value : NAN,
                               nb ? nb->value : NAN);
        if (!p->timing_meaningful)
            pr_step(r, "timing", STEP_INFO, "%s; timing cannot confirm %s (reported only)", base,
                    p->rule);
        else if (p->gpu_min_ratio > 0)
            pr_step(r, "timing", ratio >= p->gpu_min_ratio ? STEP_PASS : STEP_FAIL,
                    "%s; target at least %.2fx", base, p->gpu_min_ratio);
        else
            pr_step(r, "timing", STEP_INFO, "%s; no target (reported only)", base);
        free(base);
    } else if (!error_ev && pr.exit_code <= 1) {
        pr_step(r, "timing", STEP_ERROR, "the harness printed no timing");
    }
    for (size_t i = 0; i < n_events; i++) cJSON_Delete(events[i]);
    sb_release(&check_detail);
    proc_result_release(&pr);
}

/* Reads "Metric Name" and "Metric Value" columns of ncu --csv output. */
static void parse_ncu_csv(const char *out, struct pair_result *r, const char *variant,
                          size_t *n_values)
{
    int col_name = -1, col_value = -1;
    const char *line = out;
    *n_values = 0;
    while (line && *line) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        if (len > 1 && line[0] == '"') {
            /* split "a","b","c" */
            char *cells[64];
            int n = 0;
            char *copy = xstrndup(line, len);
            char *p = copy;
            while (*p && n < 64) {
                if (*p != '"') break;
                char *start = ++p;
                char *q = start;
                while (*p && !(*p == '"' && (p[1] == ',' || p[1] == '\0' || p[1] == '\r'))) {
                    if (*p == '"' && p[1] == '"') p++;
                    *q++ = *p++;
                }
                if (*p == '"') p++;
                *q = '\0';
                cells[n++] = start;
                if (*p == ',') p++;
                else break;
            }
            if (col_name < 0) {
                for (int i = 0; i < n; i++) {
                    if (!strcmp(cells[i], "Metric Name")) col_name = i;
                    if (!strcmp(cells[i], "Metric Value")) col_value = i;
                }
            } else if (col_name < n && col_value < n) {
                char num[64];
                size_t k = 0;
                for (const char *c = cells[col_value]; *c && k + 1 < sizeof num; c++)
                    if (*c != ',') num[k++] = *c;
                num[k] = '\0';
                char *end;
                double v = strtod(num, &end);
                if (end != num) {
                    char *metric = xasprintf("ncu.%s", cells[col_name]);
                    pr_number(r, variant, metric, v);
                    free(metric);
                    (*n_values)++;
                }
            }
            free(copy);
        }
        line = eol ? eol + 1 : NULL;
    }
}

void confirm_ncu_step(struct confirm_env *env, struct pair_result *r, const char *pwork,
                     const char *exe)
{
    const struct pair *p = r->pair;
    if (!p->ncu_metrics.len) return;
    if (!env->ncu) {
        pr_step(r, "ncu", STEP_SKIP, "Nsight Compute (ncu) not installed: no hardware counters");
        return;
    }
    struct strbuf metrics;
    sb_init(&metrics);
    for (size_t i = 0; i < p->ncu_metrics.len; i++)
        sb_addf(&metrics, "%s%s", i ? "," : "", p->ncu_metrics.items[i]);
    const char *variants[2] = {"bad", "fixed"};
    const char *env_c[] = {"LC_ALL=C", NULL};
    bool ok = true;
    for (int v = 0; v < 2 && ok; v++) {
        char *argv[] = {env->ncu, "--csv", "--print-units", "base", "--metrics", metrics.buf,
                        (char *)exe, "--mode", "profile", "--variant", (char *)variants[v], NULL};
        struct proc_result pr;
        proc_run(argv, pwork, pwork, TIMEOUT_PROFILER, false, env_c, &pr);
        char *logname = xasprintf("ncu-%s.log", variants[v]);
        save_log(pwork, logname, &pr);
        free(logname);
        size_t n = 0;
        parse_ncu_csv(pr.out, r, variants[v], &n);
        if (pr.exit_code != 0 || n == 0) {
            char *tail = text_tail(pr.err && strstr(pr.err, "ERR") ? pr.err : pr.out, 3);
            pr_step(r, "ncu", STEP_ERROR, "ncu on the %s kernel %s (exit %d, %zu values): %s",
                    variants[v], pr.timed_out ? "timed out" : "failed", pr.exit_code, n, tail);
            free(tail);
            ok = false;
        }
        proc_result_release(&pr);
    }
    if (ok) {
        struct strbuf d;
        sb_init(&d);
        enum step_status st = p->n_ncu_expect ? STEP_PASS : STEP_INFO;
        for (size_t i = 0; i < p->ncu_metrics.len; i++) {
            char *metric = xasprintf("ncu.%s", p->ncu_metrics.items[i]);
            const struct measure *b = pr_find(r, "bad", metric), *f = pr_find(r, "fixed", metric);
            if (b && f) {
                char *sb_ = fmt_count(b->value), *sf = fmt_count(f->value);
                sb_addf(&d, "%s%s: bad %s, fixed %s", d.len ? "; " : "", p->ncu_metrics.items[i],
                        sb_, sf);
                if (b->value > 0)
                    sb_addf(&d, " (%+.1f%%)", 100.0 * (f->value - b->value) / b->value);
                free(sb_);
                free(sf);
            }
            free(metric);
        }
        struct strbuf sum;
        sb_init(&sum);
        for (size_t i = 0; i < p->ncu_metrics.len && i < (p->n_ncu_expect ? p->n_ncu_expect : 1); i++) {
            const char *name = p->n_ncu_expect ? p->ncu_expect[i].metric : p->ncu_metrics.items[0];
            char *metric = xasprintf("ncu.%s", name);
            const struct measure *b = pr_find(r, "bad", metric), *f = pr_find(r, "fixed", metric);
            if (b && f) {
                char *sb_ = fmt_count(b->value), *sf = fmt_count(f->value);
                sb_addf(&sum, "%s%s %s -> %s", sum.len ? "; " : "", name, sb_, sf);
                if (b->value > 0) sb_addf(&sum, " (%+.2f%%)", 100.0 * (f->value - b->value) / b->value);
                free(sb_);
                free(sf);
            }
            free(metric);
        }
        pr_text(r, "", "ncu.summary", sum.buf);
        sb_release(&sum);
        for (size_t i = 0; i < p->n_ncu_expect; i++) {
            char *metric = xasprintf("ncu.%s", p->ncu_expect[i].metric);
            const struct measure *b = pr_find(r, "bad", metric), *f = pr_find(r, "fixed", metric);
            double red = b && f && b->value > 0 ? (b->value - f->value) / b->value : NAN;
            pr_number(r, "", "ncu.reduction", red);
            bool pass = !isnan(red) && red >= p->ncu_expect[i].min_reduction;
            sb_addf(&d, "; expected %s down by at least %.1f%%: %s", p->ncu_expect[i].metric,
                    100.0 * p->ncu_expect[i].min_reduction,
                    isnan(red) ? "no value" : pass ? "yes" : "no");
            if (!isnan(red)) sb_addf(&d, " (%.2f%%)", 100.0 * red);
            if (!pass) st = STEP_FAIL;
            free(metric);
        }
        pr_step(r, "ncu", st, "%s", d.buf);
        sb_release(&d);
    }
    sb_release(&metrics);
}

void confirm_sanitizer_step(struct confirm_env *env, struct pair_result *r, const char *pwork,
                           const char *exe)
{
    const struct pair *p = r->pair;
    if (!p->sanitizer) return;
    if (!env->sanitizer) {
        pr_step(r, p->sanitizer, STEP_SKIP, "compute-sanitizer not installed");
        return;
    }
    const char *variants[2] = {"bad", "fixed"};
    long errors[2] = {-1, -1};
    char *first[2] = {NULL, NULL};
    bool tool_ok = true;
    for (int v = 0; v < 2; v++) {
        char *argv[] = {env->sanitizer, "--tool", p->sanitizer, (char *)exe, "--mode", "profile",
                        "--variant", (char *)variants[v], NULL};
        struct proc_result pr;
        proc_run(argv, pwork, pwork, TIMEOUT_PROFILER, true, NULL, &pr);
        char *logname = xasprintf("%s-%s.log", p->sanitizer, variants[v]);
        save_log(pwork, logname, &pr);
        free(logname);
        /* memcheck and synccheck end with "ERROR SUMMARY: N errors"; racecheck
           with "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)",
           where a warning is a hazard too (CU102's warp-level races are
           reported as warnings). */
        const char *sum = strstr(pr.out, "ERROR SUMMARY:");
        if (sum) errors[v] = strtol(sum + 14, NULL, 10);
        else if ((sum = strstr(pr.out, "RACECHECK SUMMARY:")) != NULL)
            errors[v] = strtol(sum + 18, NULL, 10);
        /* the first reported problem, for the report */
        const char *e = strstr(pr.out, "========= ");
        while (e && errors[v] > 0) {
            const char *eol = strchr(e, '\n');
            size_t len = eol ? (size_t)(eol - e) : strlen(e);
            if (len > 10 && !strstr(e, "COMPUTE-SANITIZER") && strncmp(e + 10, " ", 1) != 0) {
                first[v] = xstrndup(e + 10, len - 10);
                break;
            }
            e = eol ? strstr(eol, "========= ") : NULL;
        }
        if (!sum) {
            char *tail = text_tail(pr.out, 3);
            pr_step(r, p->sanitizer, STEP_ERROR, "compute-sanitizer on the %s kernel %s: %s",
                    variants[v], pr.timed_out ? "timed out" : "gave no summary", tail);
            free(tail);
            tool_ok = false;
        }
        char *metric = xasprintf("%s.errors", p->sanitizer);
        if (errors[v] >= 0) pr_number(r, variants[v], metric, (double)errors[v]);
        if (first[v]) pr_text(r, variants[v], "sanitizer.first", first[v]);
        free(metric);
        proc_result_release(&pr);
        if (!tool_ok) break;
    }
    if (tool_ok) {
        /* The fixed kernel must be clean; what it sees in the bad one is reported as is. */
        enum step_status st = errors[1] > 0 ? STEP_FAIL : STEP_INFO;
        char *sum = xasprintf("%s errors: bad %ld, fixed %ld", p->sanitizer, errors[0], errors[1]);
        pr_text(r, "", "sanitizer.summary", sum);
        free(sum);
        pr_step(r, p->sanitizer, st,
                "bad: %ld error(s)%s%s%s; fixed: %ld error(s).%s%s", errors[0],
                first[0] ? " (first: " : "", first[0] ? first[0] : "", first[0] ? ")" : "", errors[1],
                strcmp(p->rule, "CU101") ? "" : "  ", strcmp(p->rule, "CU101") ? "" :
                "synccheck misses the early-exit and thread-dependent trip-count shapes on Volta and "
                "later, where such barriers do not hang");
    }
    free(first[0]);
    free(first[1]);
}
