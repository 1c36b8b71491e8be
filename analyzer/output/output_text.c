/* output_text.c: the default, clang-style text writer: location, severity,
 * message, [CODE name], the source line with a caret, notes, fix hints. */
#include "output/output.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct palette {
    const char *bold, *red, *magenta, *cyan, *green, *reset;
};

static const struct palette plain = {"", "", "", "", "", ""};
static const struct palette ansi = {"\033[1m", "\033[1;31m", "\033[1;35m", "\033[1;36m", "\033[32m", "\033[0m"};

static bool use_color(FILE *out, const struct lint_options *o)
{
    if (o->color == 0) return false;
    if (o->color == 1) return true;
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return false;
    return isatty(fileno(out));
}

static void print_snippet(FILE *out, struct source_cache *lc, const char *file, unsigned line,
                          unsigned col, unsigned end_line, unsigned end_col, const struct palette *c,
                          const char *fix_text)
{
    size_t n;
    const char *src = source_line(lc, file, line, &n);
    if (!src) return;
    fprintf(out, "%5u | ", line);
    for (size_t i = 0; i < n; i++) fputc(src[i] == '\t' ? ' ' : src[i], out);
    fputc('\n', out);
    fputs("      | ", out);
    /* Tabs become one space above, so columns stay aligned byte for byte. */
    for (unsigned i = 1; i < col && i <= n; i++) fputc(' ', out);
    unsigned width = (end_line == line && end_col > col) ? end_col - col : 1;
    fprintf(out, "%s^", c->green);
    for (unsigned i = 1; i < width; i++) fputc('~', out);
    fprintf(out, "%s\n", c->reset);
    if (fix_text) {
        fputs("      | ", out);
        for (unsigned i = 1; i < col && i <= n; i++) fputc(' ', out);
        fprintf(out, "%s%s%s\n", c->green, fix_text, c->reset);
    }
}

static void write_text(FILE *out, const struct lint_run *run, const struct lint_options *o)
{
    const struct palette *c = use_color(out, o) ? &ansi : &plain;
    struct source_cache lc = {0};
    size_t counts[3] = {0};
    for (size_t i = 0; i < run->diags.len; i++) {
        const struct diag *d = &run->diags.items[i];
        counts[d->severity]++;
        const char *sev_color = d->severity == SEV_ERROR ? c->red : d->severity == SEV_WARNING ? c->magenta : c->cyan;
        fprintf(out, "%s%s:%u:%u: %s%s:%s %s%s [%s %s]%s\n", c->bold, d->file, d->line, d->column,
                sev_color, severity_name(d->severity), c->reset, c->bold, d->message, d->rule->code,
                d->rule->name, c->reset);
        /* The fix is shown under the caret when it replaces the flagged text. */
        const char *hint = NULL;
        if (d->n_fixes == 1 && d->fixes[0].line == d->line && d->fixes[0].column == d->column &&
            strcmp(d->fixes[0].file, d->file) == 0)
            hint = d->fixes[0].replacement;
        print_snippet(out, &lc, d->file, d->line, d->column, d->end_line, d->end_column, c, hint);
        for (size_t k = 0; k < d->n_notes; k++) {
            const struct diag_note *nt = &d->notes[k];
            fprintf(out, "%s%s:%u:%u: %snote:%s %s\n", c->bold, nt->file, nt->line, nt->column, c->cyan,
                    c->reset, nt->message);
            print_snippet(out, &lc, nt->file, nt->line, nt->column, nt->line, nt->column + 1, c, NULL);
        }
        for (size_t k = 0; k < d->n_fixes; k++) {
            const struct diag_fix *f = &d->fixes[k];
            if (hint && k == 0) continue;
            fprintf(out, "%s%s:%u:%u: %sfix:%s replace with '%s'\n", c->bold, f->file, f->line, f->column,
                    c->green, c->reset, f->replacement);
        }
    }
    source_cache_release(&lc);
    /* The findings reach the terminal (or a pipe that merges both streams)
       before the summary and the notes on stderr, never cut by them. */
    fflush(out);
    for (size_t i = 0; i < run->n_files; i++) {
        const struct file_result *f = &run->files[i];
        if (f->status == FILE_ERROR)
            fprintf(stderr, "cudalint: error: %s: %s\n", f->path, f->message);
        else if (f->status == FILE_SKIPPED && !o->quiet)
            fprintf(stderr, "cudalint: note: %s: %s\n", f->path, f->message);
    }
    if (!o->quiet) {
        size_t total = counts[0] + counts[1] + counts[2];
        size_t linted = output_linted_files(run);
        fprintf(stderr, "%zu finding%s (%zu error%s, %zu warning%s, %zu note%s) in %zu file%s\n", total,
                total == 1 ? "" : "s", counts[2], counts[2] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s",
                counts[0], counts[0] == 1 ? "" : "s", linted, linted == 1 ? "" : "s");
        /* The default set is the stable rules: say what else there is, once,
           when the run chose nothing itself. */
        size_t off = 0;
        for (size_t r = 0; !o->preview && !run->preview_configured && o->select.len == 0 && r < rule_registry_len; r++)
            if (rule_registry[r]->status == STATUS_PREVIEW) off++;
        if (off)
            fprintf(stderr, "%zu preview rule%s off by default: --preview or `preview: true` in .cudalint.yaml "
                    "turns %s on (cudalint --list-rules shows each rule's status)\n", off,
                    off == 1 ? " is" : "s are", off == 1 ? "it" : "them");
    }
}

const struct output_writer output_writer_text = {"text", "clang-style lines with the source line, a caret, notes and fix hints", write_text};
