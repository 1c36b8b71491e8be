/* output_junit.c: JUnit XML for CI test-report views (GitLab, Jenkins,
 * Azure): a test suite per file, a test case per finding.  Findings at or
 * above --fail-level are failures, so the report is red exactly when the
 * exit code is; a clean file is one passing test case. */
#include "output/output.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static void write_junit(FILE *out, const struct lint_run *run, const struct lint_options *o)
{
    size_t n;
    struct output_file_group *g = output_group_by_file(run, &n);
    size_t tests = 0, failures = 0, errors = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        const struct file_result *fr = g[i].result;
        if (fr && fr->status == FILE_ERROR) errors++, tests++;
        else if (fr && fr->status == FILE_SKIPPED) skipped++, tests++;
        else tests += g[i].count ? g[i].count : 1;
        for (size_t k = g[i].first; k < g[i].first + g[i].count; k++)
            if ((int)run->diags.items[k].severity >= o->fail_level) failures++;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out, "<testsuites name=\"cudalint\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
            tests, failures, errors, skipped);
    for (size_t i = 0; i < n; i++) {
        const struct file_result *fr = g[i].result;
        char *path = path_display(g[i].name);
        size_t f_fail = 0;
        for (size_t k = g[i].first; k < g[i].first + g[i].count; k++)
            if ((int)run->diags.items[k].severity >= o->fail_level) f_fail++;
        bool is_error = fr && fr->status == FILE_ERROR;
        bool is_skipped = fr && fr->status == FILE_SKIPPED;
        size_t f_tests = is_error || is_skipped ? 1 : g[i].count ? g[i].count : 1;
        fputs("  <testsuite name=\"", out);
        output_xml_escaped(out, path);
        fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"%d\">\n", f_tests, f_fail,
                is_error, is_skipped);
        if (is_error || is_skipped || g[i].count == 0) {
            fputs("    <testcase classname=\"", out);
            output_xml_escaped(out, path);
            fputs("\" name=\"cudalint\" file=\"", out);
            output_xml_escaped(out, path);
            fputs("\"", out);
            if (is_error || is_skipped) {
                fprintf(out, ">\n      <%s message=\"", is_error ? "error" : "skipped");
                output_xml_escaped(out, fr->message ? fr->message : file_status_name(fr->status));
                fputs("\"/>\n    </testcase>\n", out);
            } else {
                fputs("/>\n", out);
            }
        }
        for (size_t k = g[i].first; k < g[i].first + g[i].count; k++) {
            const struct diag *d = &run->diags.items[k];
            char *name = xasprintf("%s:%u:%u %s %s", path, d->line, d->column, d->rule->code, d->rule->name);
            fputs("    <testcase classname=\"", out);
            output_xml_escaped(out, path);
            fputs("\" name=\"", out);
            output_xml_escaped(out, name);
            fputs("\" file=\"", out);
            output_xml_escaped(out, path);
            fprintf(out, "\" line=\"%u\">\n", d->line);
            struct strbuf body;
            sb_init(&body);
            sb_addf(&body, "%s:%u:%u: %s: %s [%s %s]", path, d->line, d->column, severity_name(d->severity),
                    d->message, d->rule->code, d->rule->name);
            for (size_t m = 0; m < d->n_notes; m++) {
                char *np = path_display(d->notes[m].file);
                sb_addf(&body, "\n%s:%u:%u: note: %s", np, d->notes[m].line, d->notes[m].column,
                        d->notes[m].message);
                free(np);
            }
            bool fails = (int)d->severity >= o->fail_level;
            if (fails) {
                fputs("      <failure type=\"", out);
                output_xml_escaped(out, severity_name(d->severity));
                fputs("\" message=\"", out);
                output_xml_escaped(out, d->message);
                fputs("\">", out);
                output_xml_escaped(out, body.buf);
                fputs("</failure>\n", out);
            } else {
                fputs("      <system-out>", out);
                output_xml_escaped(out, body.buf);
                fputs("</system-out>\n", out);
            }
            fputs("    </testcase>\n", out);
            sb_release(&body);
            free(name);
        }
        fputs("  </testsuite>\n", out);
        free(path);
    }
    fputs("</testsuites>\n", out);
    free(g);
}

const struct output_writer output_writer_junit = {"junit", "JUnit XML: a test suite per file, a failing test case per finding", write_junit};
