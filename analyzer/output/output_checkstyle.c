/* output_checkstyle.c: Checkstyle XML (<checkstyle><file><error/></file>),
 * which Jenkins warnings-ng, reviewdog and many CI dashboards read. */
#include "output/output.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* Checkstyle's severities are error, warning, info. */
static const char *severity_of(enum severity s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "info";
}

static void write_checkstyle(FILE *out, const struct lint_run *run, const struct lint_options *o)
{
    (void)o;
    size_t n;
    struct output_file_group *g = output_group_by_file(run, &n);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n", out);
    for (size_t i = 0; i < n; i++) {
        const struct file_result *fr = g[i].result;
        bool failed = fr && fr->status == FILE_ERROR;
        if (fr && !failed && fr->status == FILE_SKIPPED) continue;
        char *path = path_display(g[i].name);
        fputs("  <file name=\"", out);
        output_xml_escaped(out, path);
        fputs("\">\n", out);
        for (size_t k = g[i].first; k < g[i].first + g[i].count; k++) {
            const struct diag *d = &run->diags.items[k];
            struct strbuf msg;
            sb_init(&msg);
            sb_addf(&msg, "%s [%s %s]", d->message, d->rule->code, d->rule->name);
            fprintf(out, "    <error line=\"%u\" column=\"%u\" severity=\"%s\" message=\"", d->line, d->column,
                    severity_of(d->severity));
            output_xml_escaped(out, msg.buf);
            fputs("\" source=\"cudalint.", out);
            output_xml_escaped(out, d->rule->code);
            fputs("\"/>\n", out);
            sb_release(&msg);
        }
        if (failed) {
            fputs("    <error line=\"1\" column=\"1\" severity=\"error\" message=\"", out);
            output_xml_escaped(out, fr->message ? fr->message : "could not be linted");
            fputs("\" source=\"cudalint.input\"/>\n", out);
        }
        fputs("  </file>\n", out);
        free(path);
    }
    fputs("</checkstyle>\n", out);
    free(g);
}

const struct output_writer output_writer_checkstyle = {"checkstyle", "Checkstyle XML (Jenkins warnings-ng, reviewdog, ...)", write_checkstyle};
