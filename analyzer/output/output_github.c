/* output_github.c: GitHub Actions workflow commands, one annotation per
 * finding (::warning file=...,line=...::message), shown on the pull request's
 * diff without any upload step. */
#include "output/output.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* The runner decodes %25, %0D and %0A in a command's message, and also %3A
   and %2C in its properties, where ':' and ',' are separators. */
static void escaped(FILE *out, const char *s, bool property)
{
    char *clean = utf8_sanitize(s ? s : "");
    for (const char *p = clean; *p; p++) {
        if (*p == '%') fputs("%25", out);
        else if (*p == '\r') fputs("%0D", out);
        else if (*p == '\n') fputs("%0A", out);
        else if (property && *p == ':') fputs("%3A", out);
        else if (property && *p == ',') fputs("%2C", out);
        else fputc(*p, out);
    }
    free(clean);
}

static const char *command_of(enum severity s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "notice";
}

static void write_github(FILE *out, const struct lint_run *run, const struct lint_options *o)
{
    for (size_t i = 0; i < run->diags.len; i++) {
        const struct diag *d = &run->diags.items[i];
        char *path = path_display(d->file);
        fprintf(out, "::%s file=", command_of(d->severity));
        escaped(out, path, true);
        fprintf(out, ",line=%u,col=%u", d->line, d->column);
        if (d->end_line >= d->line) fprintf(out, ",endLine=%u,endColumn=%u", d->end_line, d->end_column);
        fputs(",title=", out);
        char *title = xasprintf("%s %s", d->rule->code, d->rule->name);
        escaped(out, title, true);
        free(title);
        fputs("::", out);
        /* Notes and the fix go into the message: annotations have no room
           for related locations. */
        struct strbuf msg;
        sb_init(&msg);
        sb_add(&msg, d->message);
        for (size_t k = 0; k < d->n_notes; k++) {
            char *np = path_display(d->notes[k].file);
            sb_addf(&msg, "\nnote: %s:%u:%u: %s", np, d->notes[k].line, d->notes[k].column, d->notes[k].message);
            free(np);
        }
        if (d->n_fixes == 1) sb_addf(&msg, "\nfix: replace with '%s' (cudalint --fix)", d->fixes[0].replacement);
        escaped(out, msg.buf, false);
        sb_release(&msg);
        fputc('\n', out);
        free(path);
    }
    for (size_t i = 0; i < run->n_files; i++) {
        const struct file_result *f = &run->files[i];
        if (f->status != FILE_ERROR && (f->status != FILE_SKIPPED || o->quiet)) continue;
        char *path = path_display(f->path);
        fprintf(out, "::%s file=", f->status == FILE_ERROR ? "error" : "notice");
        escaped(out, path, true);
        fputs(",title=cudalint::", out);
        escaped(out, f->message ? f->message : file_status_name(f->status), false);
        fputc('\n', out);
        free(path);
    }
}

const struct output_writer output_writer_github = {"github", "GitHub Actions workflow commands: annotations on the pull request", write_github};
