/* confirm_model.c: the result of a pair (steps and numbers in the order they
 * were produced) and the kernel pairs read from kernels/<dir>/pair.json. */
#include "confirm/confirm_model.h"
#include "core/rule.h"
#include "base/jsonutil.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- results */

static const char *step_status_name(enum step_status s)
{
    switch (s) {
    case STEP_PASS: return "pass";
    case STEP_FAIL: return "FAIL";
    case STEP_ERROR: return "ERROR";
    case STEP_SKIP: return "skipped";
    default: return "info";
    }
}

static struct measure *pr_add(struct pair_result *r, const char *variant, const char *metric)
{
    XGROW(r->items, r->len, r->cap, 32);
    struct measure *m = &r->items[r->len++];
    memset(m, 0, sizeof *m);
    m->variant = xstrdup(variant ? variant : "");
    m->metric = xstrdup(metric);
    return m;
}

void pr_number(struct pair_result *r, const char *variant, const char *metric, double value)
{
    struct measure *m = pr_add(r, variant, metric);
    m->has_value = true;
    m->value = value;
}

void pr_text(struct pair_result *r, const char *variant, const char *metric, const char *text)
{
    pr_add(r, variant, metric)->text = xstrdup(text ? text : "");
}

void pr_step(struct pair_result *r, const char *step, enum step_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct strbuf detail;
    sb_init(&detail);
    sb_vaddf(&detail, fmt, ap);
    va_end(ap);
    char *metric = xasprintf("step:%s", step);
    char *text = xasprintf("%s: %s", st == STEP_FAIL ? "fail" : st == STEP_ERROR ? "error"
                                                                                 : step_status_name(st),
                           detail.buf);
    struct measure *m = pr_add(r, "", metric);
    m->text = text;
    m->has_value = true;
    m->value = (double)st;
    if (st == STEP_FAIL || st == STEP_ERROR) r->failed = true;
    printf("%s: %s: %s: %s\n", r->pair->name, step, step_status_name(st), detail.buf);
    fflush(stdout);
    free(metric);
    sb_release(&detail);
}

const struct measure *pr_find(const struct pair_result *r, const char *variant, const char *metric)
{
    for (size_t i = r->len; i-- > 0;)
        if (strcmp(r->items[i].metric, metric) == 0 &&
            strcmp(r->items[i].variant, variant ? variant : "") == 0)
            return &r->items[i];
    return NULL;
}

int pr_step_status(const struct pair_result *r, const char *step)
{
    char *metric = xasprintf("step:%s", step);
    const struct measure *m = pr_find(r, "", metric);
    free(metric);
    return m ? (int)m->value : -1;
}

const char *pr_step_detail(const struct pair_result *r, const char *step)
{
    char *metric = xasprintf("step:%s", step);
    const struct measure *m = pr_find(r, "", metric);
    free(metric);
    if (!m || !m->text) return NULL;
    const char *colon = strchr(m->text, ':');
    return colon ? colon + 2 : m->text;
}

void pr_release(struct pair_result *r)
{
    for (size_t i = 0; i < r->len; i++) {
        free(r->items[i].variant);
        free(r->items[i].metric);
        free(r->items[i].text);
    }
    free(r->items);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ pairs */

int pair_load(const char *dir, const char *name, struct pair *p, char **error)
{
    memset(p, 0, sizeof *p);
    p->name = xstrdup(name);
    p->dir = xstrdup(dir);
    p->timing_meaningful = true;
    char *path = path_join(dir, "pair.json"), *text = NULL;
    size_t len = 0;
    int e = read_file(path, &text, &len);
    if (e) {
        *error = xasprintf("%s: %s", path, strerror(e));
        free(path);
        return -1;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    if (!cJSON_IsObject(root)) {
        *error = xasprintf("%s: not a JSON object", path);
        cJSON_Delete(root);
        free(path);
        return -1;
    }
    p->rule = json_dup_str(root, "rule");
    p->title = json_dup_str(root, "title");
    p->expect_message = json_dup_str(root, "expect_message");
    p->static_check = json_dup_str(root, "static");
    p->sanitizer = json_dup_str(root, "sanitizer");
    p->note = json_dup_str(root, "note");
    char *fixed = json_dup_str(root, "fixed");
    p->gpu_min_ratio = json_get_number(root, "gpu_min_ratio", 0);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "timing_meaningful");
    if (cJSON_IsBool(v)) p->timing_meaningful = cJSON_IsTrue(v);
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "ncu_metrics"))
        if (cJSON_IsString(item)) sv_push(&p->ncu_metrics, item->valuestring);
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "ncu_expect"))
    {
        char *metric = json_dup_str(item, "metric");
        double red = json_get_number(item, "min_reduction", NAN);
        if (metric && !isnan(red) && p->n_ncu_expect < CONFIRM_MAX_NCU) {
            p->ncu_expect[p->n_ncu_expect].metric = metric;
            p->ncu_expect[p->n_ncu_expect++].min_reduction = red;
        } else {
            free(metric);
        }
    }
    cJSON_Delete(root);

    const char *missing = !p->rule ? "rule" : !fixed ? "fixed" : !p->static_check ? "static" : NULL;
    if (missing) {
        *error = xasprintf("%s: missing \"%s\"", path, missing);
    } else if (strcmp(fixed, "hand") != 0 && strcmp(fixed, "fix-it") != 0) {
        *error = xasprintf("%s: \"fixed\" must be \"hand\" or \"fix-it\", not \"%s\"", path, fixed);
    } else {
        p->hand_fixed = strcmp(fixed, "hand") == 0;
        const struct rule *r = registry_find(p->rule);
        p->rule_name = xstrdup(r ? r->name : p->rule);
        if (!p->title) p->title = xstrdup(p->name);
        if (!p->expect_message) p->expect_message = xstrdup("");
    }
    free(fixed);
    free(path);
    return *error ? -1 : 0;
}

void pair_release(struct pair *p)
{
    free(p->name);
    free(p->dir);
    free(p->rule);
    free(p->rule_name);
    free(p->title);
    free(p->expect_message);
    free(p->static_check);
    free(p->sanitizer);
    free(p->note);
    sv_release(&p->ncu_metrics);
    for (size_t i = 0; i < p->n_ncu_expect; i++) free(p->ncu_expect[i].metric);
    memset(p, 0, sizeof *p);
}
