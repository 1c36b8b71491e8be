/* confirm_report.c: what `cudalint confirm` shows: the summary table on
 * stdout, and with --report DIR a Markdown report (RESULTS.md) and a plain
 * hand-written SVG bar chart of the bad/fixed time ratio per pair. */
#include "confirm/confirm_report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Short cell text for a step's outcome; "-" when it did not run. */
static const char *cell(const struct pair_result *r, const char *step)
{
    int st = pr_step_status(r, step);
    switch (st) {
    case STEP_PASS: return "pass";
    case STEP_FAIL: return "FAIL";
    case STEP_ERROR: return "ERROR";
    case STEP_SKIP: return "skip";
    case STEP_INFO: return "info";
    default: return "-";
    }
}

/* The worse of two steps' outcomes (fail > error > pass > info > skip > -). */
static const char *worst(const struct pair_result *r, const char *a, const char *b)
{
    static const int rank[] = {[STEP_PASS] = 3, [STEP_FAIL] = 6, [STEP_ERROR] = 5,
                               [STEP_SKIP] = 1, [STEP_INFO] = 2};
    int sa = pr_step_status(r, a), sb = pr_step_status(r, b);
    int ra = sa >= 0 ? rank[sa] : 0, rb = sb >= 0 ? rank[sb] : 0;
    return ra >= rb ? cell(r, a) : cell(r, b);
}

static double number(const struct pair_result *r, const char *variant, const char *metric)
{
    const struct measure *m = pr_find(r, variant, metric);
    return m && m->has_value ? m->value : NAN;
}

static const char *counters_step(const struct pair_result *r)
{
    if (pr_step_status(r, "ncu") >= 0) return "ncu";
    if (r->pair->sanitizer && pr_step_status(r, r->pair->sanitizer) >= 0) return r->pair->sanitizer;
    return "ncu";
}

void confirm_print_table(FILE *out, const struct run_info *ri, struct pair_result *results,
                         size_t n)
{
    fprintf(out, "%-32s %-6s %-5s %-5s %-6s %-7s %-9s %-8s %s\n", "pair", "rule", "lint", "fix",
            "static", "outputs", "ratio", "counters", "verdict");
    for (size_t i = 0; i < n; i++) {
        const struct pair_result *r = &results[i];
        double ratio = number(r, "", "gpu.ratio");
        char ratio_text[32] = "-";
        if (!isnan(ratio)) snprintf(ratio_text, sizeof ratio_text, "%.2fx", ratio);
        const char *fix = r->pair->hand_fixed ? "hand" : cell(r, "fix");
        fprintf(out, "%-32s %-6s %-5s %-5s %-6s %-7s %-9s %-8s %s\n", r->pair->name, r->pair->rule,
                worst(r, "lint-bad", "lint-fixed"), fix, worst(r, "static", "static-sass"),
                cell(r, "check"), ratio_text, cell(r, counters_step(r)),
                r->failed ? "FAIL" : "pass");
    }
    fprintf(out, "GPU: %s\n", ri->gpu ? ri->gpu : "none (no GPU evidence in this run)");
}

/* ---- Markdown ---- */

static void md_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|') fputs("\\|", f);
        else if (*s == '\n') fputc(' ', f);
        else fputc(*s, f);
    }
}

/* The command line as run, with the paths it names cut to their last
   component: the report is meant to be committed, the machine's paths are not. */
static void md_command(FILE *f, const char *command)
{
    static const char *const path_opts[] = {"--db", "--report", "--keep", "--kernels", "--nvcc", NULL};
    char *copy = xstrdup(command), *save = NULL;
    bool path_next = false, first = true;
    fputc('`', f);
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (!first) fputc(' ', f);
        first = false;
        char *eq = strchr(t, '=');
        bool is_opt = false;
        for (size_t i = 0; path_opts[i]; i++) {
            size_t len = strlen(path_opts[i]);
            if (strncmp(t, path_opts[i], len) == 0 && (t[len] == '\0' || t[len] == '=')) is_opt = true;
        }
        if (path_next || (is_opt && eq)) {
            char *value = path_next ? t : eq + 1;
            if (!path_next) fprintf(f, "%.*s", (int)(value - t), t);
            char *base = strrchr(value, '/');
            fputs(base && base[1] ? base + 1 : value, f);
            path_next = false;
        } else {
            fputs(t, f);
            path_next = is_opt && !eq;
        }
    }
    fputc('`', f);
    free(copy);
}

static void md_mix_table(FILE *f, const struct pair_result *r, const char *prefix)
{
    static const char *const rows[][2] = {
        {"instructions", "instructions"},
        {"loop_instructions", "instructions inside loops"},
        {"fp64_arith", "FP64 arithmetic"},
        {"cvt_f64_f32", "conversions f32 -> f64"},
        {"cvt_f32_f64", "conversions f64 -> f32"},
        {"int_mul", "integer multiply(-add)s"},
        {"loop_int_mul", "integer multiply(-add)s inside loops"},
        {"ld_shared", "shared loads"},
        {"st_shared", "shared stores"},
        {"shared_bytes", "shared memory declared (bytes)"},
        {"barriers", "barriers"},
        {"barrier_skips", "conditional branches over a barrier"},
    };
    char metric[64];
    snprintf(metric, sizeof metric, "%s.instructions", prefix);
    if (isnan(number(r, "bad", metric))) return;
    fprintf(f, "\n| %s instruction mix | bad | fixed |\n| --- | ---: | ---: |\n",
            !strcmp(prefix, "ptx") ? "PTX" : "SASS");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(metric, sizeof metric, "%s.%s", prefix, rows[i][0]);
        double b = number(r, "bad", metric), x = number(r, "fixed", metric);
        if (isnan(b) && isnan(x)) continue;
        fprintf(f, "| %s | %.0f | %.0f |\n", rows[i][1], b, x);
    }
}

static void md_pair(FILE *f, const struct pair_result *r)
{
    const struct pair *p = r->pair;
    fprintf(f, "\n### %s: %s %s\n\n", p->name, p->rule, p->rule_name);
    md_escape(f, p->title);
    fputs(".", f);
    if (p->note) {
        fputc(' ', f);
        md_escape(f, p->note);
    }
    fprintf(f, "\n\nFixed kernel: %s.\n\n| Step | Result | Detail |\n| --- | --- | --- |\n",
            p->hand_fixed ? "written by hand (`fixed.cu`)" : "cudalint's own fix-it applied to `bad.cu`");
    for (size_t i = 0; i < r->len; i++) {
        const struct measure *m = &r->items[i];
        if (strncmp(m->metric, "step:", 5) != 0 || !m->text) continue;
        const char *colon = strchr(m->text, ':');
        fprintf(f, "| %s | %.*s | ", m->metric + 5, colon ? (int)(colon - m->text) : 0, m->text);
        md_escape(f, colon ? colon + 2 : m->text);
        fputs(" |\n", f);
    }
    md_mix_table(f, r, "ptx");
    md_mix_table(f, r, "sass");

    if (!isnan(number(r, "bad", "gpu.median_ms"))) {
        fputs("\n| Time (ms, CUDA events) | median | min | q1 | q3 | max | runs |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
              f);
        const char *variants[2] = {"bad", "fixed"};
        for (int v = 0; v < 2; v++)
            fprintf(f, "| %s | %.4f | %.4f | %.4f | %.4f | %.4f | %.0f |\n", variants[v],
                    number(r, variants[v], "gpu.median_ms"), number(r, variants[v], "gpu.min_ms"),
                    number(r, variants[v], "gpu.q1_ms"), number(r, variants[v], "gpu.q3_ms"),
                    number(r, variants[v], "gpu.max_ms"), number(r, variants[v], "gpu.runs"));
    }
    bool header = false;
    for (size_t i = 0; i < p->ncu_metrics.len; i++) {
        char *metric = xasprintf("ncu.%s", p->ncu_metrics.items[i]);
        double b = number(r, "bad", metric), x = number(r, "fixed", metric);
        free(metric);
        if (isnan(b) && isnan(x)) continue;
        if (!header) {
            fputs("\n| Nsight Compute counter | bad | fixed | change |\n| --- | ---: | ---: | ---: |\n", f);
            header = true;
        }
        fprintf(f, "| `%s` | %.0f | %.0f | ", p->ncu_metrics.items[i], b, x);
        if (b > 0) fprintf(f, "%+.2f%%", 100.0 * (x - b) / b);
        fputs(" |\n", f);
    }
}

static int write_markdown(const char *path, const struct run_info *ri,
                          struct pair_result *results, size_t n, const char *db_path)
{
    FILE *f = fopen(path, "w");
    if (!f) return errno;
    fputs("# cudalint confirm: measured effect of each rule\n\n"
          "Each rule's kernel pair under `kernels/` (a kernel cudalint flags and its fixed version) "
          "was linted, compiled, compared instruction by instruction and, where a GPU was present, "
          "run, checked for equal outputs and timed by `cudalint confirm`.\n\n"
          "| | |\n| --- | --- |\n",
          f);
    fprintf(f, "| Date (UTC) | %s |\n", ri->time);
    fprintf(f, "| GPU | ");
    if (ri->gpu) {
        md_escape(f, ri->gpu);
        if (ri->gpu_cc) fprintf(f, " (compute capability %s", ri->gpu_cc);
        if (ri->gpu_cc && ri->gpu_sms) fprintf(f, ", %d SMs", ri->gpu_sms);
        if (ri->gpu_cc) fputc(')', f);
    } else {
        fputs("none: static evidence only", f);
    }
    fprintf(f, " |\n| Driver | %s |\n", ri->driver ? ri->driver : "-");
    fprintf(f, "| CUDA | nvcc %s%s%s |\n", ri->cuda_version ? ri->cuda_version : "not found",
            ri->cuda_runtime ? "; runtime " : "", ri->cuda_runtime ? ri->cuda_runtime : "");
    fprintf(f, "| cudalint | %s |\n| Architecture | %s |\n", ri->version, ri->arch);
    fputs("| Command | ", f);
    md_command(f, ri->command ? ri->command : "cudalint confirm");
    fprintf(f, " |\n| Duration | %.0f s |\n", ri->seconds);
    const char *db_base = db_path ? strrchr(db_path, '/') : NULL;
    fprintf(f, "| Database | run %lld in `%s` |\n", ri->db_id,
            db_base ? db_base + 1 : db_path ? db_path : "-");

    fputs("\n## Summary\n\n"
          "| Pair | Rule | Lint bad / fixed | Static evidence | Outputs | Median time bad / fixed | "
          "Ratio | Counters | Verdict |\n"
          "| --- | --- | --- | --- | --- | --- | ---: | --- | --- |\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const struct pair_result *r = &results[i];
        fprintf(f, "| `%s` | %s %s | %s / %s | %s: ", r->pair->name, r->pair->rule,
                r->pair->rule_name, cell(r, "lint-bad"), cell(r, "lint-fixed"), cell(r, "static"));
        const struct measure *ss = pr_find(r, "", "static.summary");
        const char *sd = ss ? ss->text : pr_step_detail(r, "static");
        md_escape(f, sd ? sd : "not run");
        const struct measure *sa = pr_find(r, "", "static-sass.summary");
        if (sa) {
            fprintf(f, "; %s: ", cell(r, "static-sass"));
            md_escape(f, sa->text);
        }
        fprintf(f, " | %s", cell(r, "check"));
        double mb = number(r, "bad", "gpu.median_ms"), mf = number(r, "fixed", "gpu.median_ms");
        double ratio = number(r, "", "gpu.ratio");
        if (!isnan(mb)) fprintf(f, " | %.4f / %.4f ms", mb, mf);
        else fputs(" | -", f);
        if (!isnan(ratio)) fprintf(f, " | %.2fx", ratio);
        else fputs(" | -", f);
        const char *cs = counters_step(r);
        const struct measure *cm = pr_find(r, "", "ncu.summary");
        if (!cm) cm = pr_find(r, "", "sanitizer.summary");
        const char *cd = cm ? cm->text : pr_step_detail(r, cs);
        fprintf(f, " | %s", cell(r, cs));
        if (cd && pr_step_status(r, cs) != STEP_SKIP) {
            fputs(": ", f);
            md_escape(f, cd);
        }
        fprintf(f, " | %s |\n", r->failed ? "**FAIL**" : "pass");
    }
    fputs("\nRatio: median kernel time of the bad kernel over the fixed one (CUDA events; the two "
          "alternate run by run and rotate through several input sets).  Outputs: the two kernels' "
          "results compared on the same inputs.\n\n"
          "![bad/fixed time ratio per pair](ratios.svg)\n\n## Pairs\n",
          f);
    for (size_t i = 0; i < n; i++) md_pair(f, &results[i]);
    return fclose(f) == 0 ? 0 : errno;
}

/* ---- SVG ---- */

static void xml_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '&') fputs("&amp;", f);
        else if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

static int write_svg(const char *path, const struct run_info *ri, struct pair_result *results,
                     size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) return errno;
    const int width = 820, left = 300, bar_w = 380, row_h = 34, top = 64;
    const int height = top + (int)n * row_h + 48;
    double max_ratio = 2.0;
    for (size_t i = 0; i < n; i++) {
        double v = number(&results[i], "", "gpu.ratio");
        if (!isnan(v) && v > max_ratio) max_ratio = v;
        if (results[i].pair->gpu_min_ratio > max_ratio) max_ratio = results[i].pair->gpu_min_ratio;
    }
    max_ratio *= 1.1;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\" font-size=\"13\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"12\" y=\"24\" font-size=\"16\" font-weight=\"bold\">bad / fixed median kernel "
            "time per pair (higher: the fix helps more)</text>\n<text x=\"12\" y=\"44\" fill=\"#555\">",
            width, height, width, height);
    xml_escape(f, ri->gpu ? ri->gpu : "no GPU in this run: nothing measured");
    if (ri->cuda_version) {
        fputs(", CUDA ", f);
        xml_escape(f, ri->cuda_version);
    }
    fprintf(f, ", %s, %s</text>\n", ri->arch, ri->time);

    double x1 = left + bar_w * (1.0 / max_ratio);
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\" stroke-dasharray=\"3,3\"/>\n"
            "<text x=\"%.1f\" y=\"%d\" fill=\"#333\" text-anchor=\"middle\">1x (no change)</text>\n",
            x1, top - 6, x1, top + (int)n * row_h, x1, top + (int)n * row_h + 18);
    for (size_t i = 0; i < n; i++) {
        const struct pair_result *r = &results[i];
        int y = top + (int)i * row_h;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 10, y + 21);
        xml_escape(f, r->pair->rule);
        fputc(' ', f);
        xml_escape(f, r->pair->name);
        fputs("</text>\n", f);
        double v = number(r, "", "gpu.ratio");
        if (isnan(v)) {
            fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#888\">not measured</text>\n", left + 6, y + 21);
            continue;
        }
        int st = pr_step_status(r, "timing");
        const char *color = st == STEP_PASS ? "#2e7d32" : st == STEP_FAIL ? "#c62828" : "#607d8b";
        double w = bar_w * (v / max_ratio);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", left, y + 6,
                w, row_h - 12, color);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\">%.2fx%s</text>\n", left + w + 6, y + 21, v,
                r->pair->timing_meaningful ? "" : " (timing cannot confirm this rule)");
        if (r->pair->gpu_min_ratio > 0) {
            double tx = left + bar_w * (r->pair->gpu_min_ratio / max_ratio);
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" "
                    "stroke-width=\"2\"><title>target %.2fx</title></line>\n",
                    tx, y + 3, tx, y + row_h - 3, r->pair->gpu_min_ratio);
        }
    }
    fprintf(f,
            "<text x=\"12\" y=\"%d\" fill=\"#555\">green: meets its target (black tick); red: "
            "misses it; grey: no target, reported only</text>\n</svg>\n",
            height - 8);
    return fclose(f) == 0 ? 0 : errno;
}

int confirm_write_report(const char *dir, const struct run_info *ri,
                         struct pair_result *results, size_t n, const char *db_path,
                         char **error)
{
    int e = mkdir_p(dir, 0777);
    if (e) {
        *error = xasprintf("cannot create %s: %s", dir, strerror(e));
        return -1;
    }
    char *md = path_join(dir, "RESULTS.md"), *svg = path_join(dir, "ratios.svg");
    int rc = 0;
    if ((e = write_markdown(md, ri, results, n, db_path)) != 0) {
        *error = xasprintf("cannot write %s: %s", md, strerror(e));
        rc = -1;
    } else if ((e = write_svg(svg, ri, results, n)) != 0) {
        *error = xasprintf("cannot write %s: %s", svg, strerror(e));
        rc = -1;
    }
    free(md);
    free(svg);
    return rc;
}
