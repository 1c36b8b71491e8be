/* cli.c: the lint command line: parses options into struct lint_options,
 * answers --help, --version, --list-rules, --explain and --dump-config, runs
 * the lint, then the baseline, --fix/--diff and the writer, and turns the
 * result into an exit code. */
#include "cli/cli.h"
#include "base/report.h"
#include "cli/progress.h"
#include "cli/watch.h"
#include "core/cmdline.h"
#include "fix/fixapply.h"
#include "output/output.h"
#include "output/output_statistics.h"
#include "frontend/include_guess.h"
#include "output/baseline.h"
#include "config/config.h"
#include "core/docs.h"
#include "fix/fixwrite.h"
#include "engine/lint.h"
#include "engine/supervise.h"
#include "output/writers.h"
#include "core/rule.h"
#include "base/util.h"
#include "base/jsonutil.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fputs("usage: cudalint [options] PATH... [-- CLANG_ARGS...]\n"
          "       cudalint lsp                 run the language server on stdio\n"
          "       cudalint confirm [--help]    prove each rule's effect on its kernels\n"
          "\n"
          "Lints CUDA C/C++ files (.cu, .cuh); directories are searched recursively.\n"
          "\n",
          out);
    cmdline_print_help(out, CMD_LINT);
    fputs("\nExit codes: 0 no findings at or above the fail level, 1 findings, 2 usage, config or input error.\n",
          out);
}

/* The measured precision as one token for the aligned table: "0.97", or "-"
   when not measured. */
static const char *precision_token(const struct rule *r, char *buf, size_t size)
{
    if (!r->precision) return "-";
    size_t n = strcspn(r->precision, " ");
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), r->precision);
    return buf;
}

/* The rule table as JSON: one object per rule, with its status and measured
   precision (null when not measured). */
static void list_rules_json(void)
{
    cJSON *rules = cJSON_CreateArray();
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *r = rule_registry[i];
        cJSON *o = cJSON_CreateObject();
        json_add_str(o, "code", r->code);
        json_add_str(o, "name", r->name);
        json_add_str(o, "severity", severity_name(r->severity));
        json_add_str(o, "category", r->category);
        json_add_str(o, "scope", rule_scope_name(r->scope));
        json_add_str(o, "status", rule_status_name(r->status));
        if (r->precision) json_add_str(o, "precision", r->precision);
        else cJSON_AddNullToObject(o, "precision");
        cJSON_AddBoolToObject(o, "fix", r->has_fix);
        json_add_str(o, "summary", r->summary);
        json_add_str(o, "doc", r->doc);
        cJSON_AddItemToArray(rules, o);
    }
    json_write_doc(stdout, rules);
}

/* The rule table: aligned text, or (--format markdown) the README's table. */
static void list_rules(bool markdown)
{
    if (markdown) {
        printf("| code | name | severity | category | scope | status | precision | fix | summary |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    } else {
        printf("%-6s %-26s %-8s %-12s %-7s %-8s %-9s %-3s %s\n", "code", "name", "severity", "category", "scope",
               "status", "precision", "fix", "summary");
    }
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *r = rule_registry[i];
        char prec[32];
        if (markdown)
            printf("| %s | [%s](%s) | %s | %s | %s | %s | %s | %s | %s |\n", r->code, r->name, r->doc,
                   severity_name(r->severity), r->category, rule_scope_name(r->scope), rule_status_name(r->status),
                   r->precision ? r->precision : "not measured", r->has_fix ? "yes" : "no", r->summary);
        else
            printf("%-6s %-26s %-8s %-12s %-7s %-8s %-9s %-3s %s\n", r->code, r->name, severity_name(r->severity),
                   r->category, rule_scope_name(r->scope), rule_status_name(r->status),
                   precision_token(r, prec, sizeof prec), r->has_fix ? "yes" : "no", r->summary);
    }
}

/* A rule's doc, with its status and measured precision after the title. */
static int explain(const char *what)
{
    const struct rule *r = registry_find(what);
    if (!r) {
        report_error("no rule named '%s' (see --list-rules)", what);
        return EXIT_USAGE;
    }
    const char *doc = rule_doc_text(r);
    const char *eol = strchr(doc, '\n');
    size_t title = eol ? (size_t)(eol - doc + 1) : strlen(doc);
    printf("%.*s\n", (int)title, doc);
    printf("Status: %s (%s). Measured precision: %s.\n", rule_status_name(r->status),
           r->status == STATUS_STABLE ? "on by default"
                                      : "off unless --preview, or selected by its code or name",
           r->precision ? r->precision : "not measured");
    printf("%s", doc + title);
    return EXIT_CLEAN;
}

/* Whether a --select selector turns on nothing without --preview: a prefix,
   glob or ALL that names only preview rules (ruff warns about the same). */
static bool selects_only_preview(const char *sel)
{
    bool any = false;
    for (size_t r = 0; r < rule_registry_len; r++) {
        const struct rule *rule = rule_registry[r];
        if (!registry_selector_matches(sel, rule)) continue;
        if (rule->status == STATUS_STABLE || registry_selector_exact(sel, rule)) return false;
        any = true;
    }
    return any;
}

static int check_selectors(const struct strvec *sv, const char *flag, bool preview)
{
    for (size_t i = 0; i < sv->len; i++) {
        if (!registry_selector_known(sv->items[i])) {
            report_error("%s %s: matches no rule (see --list-rules)", flag, sv->items[i]);
            return -1;
        }
        if (!preview && !strcmp(flag, "--select") && selects_only_preview(sv->items[i]))
            report_warning("--select %s names only preview rules, which a prefix, glob or ALL turns on only with "
                           "--preview (or `preview: true`); select them by code, or add --preview",
                           sv->items[i]);
    }
    return 0;
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *message = xvasprintf(fmt, ap);
    va_end(ap);
    report_error("%s\nTry 'cudalint --help'.", message);
    free(message);
    return EXIT_USAGE;
}

/* Standard input, whole (--stdin-filename).  Returns 0 or an errno. */
static int read_stdin(char **text, size_t *len)
{
    struct strbuf b;
    sb_init(&b);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) sb_addn(&b, buf, n);
    if (ferror(stdin)) {
        int e = errno ? errno : EIO;
        sb_release(&b);
        return e;
    }
    *len = b.len;
    *text = b.buf;
    return 0;
}

/* The report in the chosen format (or --statistics) to out. */
static void write_report(FILE *out, const struct output_writer *writer, const struct lint_run *run,
                         const struct lint_options *o)
{
    if (o->statistics) output_statistics(out, run, o, strcmp(o->format, "json") == 0);
    else writer->write(out, run, o);
}

/* What the text writer says on stderr besides the findings, for the reports
   that print none (--statistics): unreadable and skipped files, the summary. */
static void write_stderr_summary(const struct lint_run *run, const struct lint_options *o)
{
    for (size_t i = 0; i < run->n_files; i++) {
        const struct file_result *f = &run->files[i];
        if (f->status == FILE_ERROR) report_error("%s: %s", f->path, f->message);
        else if (f->status == FILE_SKIPPED && !o->quiet) fprintf(stderr, "cudalint: note: %s: %s\n", f->path, f->message);
    }
    if (!o->quiet) {
        size_t linted = output_linted_files(run);
        fprintf(stderr, "%zu finding%s in %zu file%s\n", run->diags.len, run->diags.len == 1 ? "" : "s", linted,
                linted == 1 ? "" : "s");
    }
}

/* --verbose: the include folders guessed for files without a compile
   command, one line each on stderr. */
static void report_guessed_includes(const struct lint_run *run, const struct lint_options *o)
{
    char **abs = xcalloc(run->n_files + 1, sizeof *abs);
    size_t n = 0;
    for (size_t i = 0; i < run->n_files; i++)
        if (file_status_linted(run->files[i].status)) abs[n++] = path_absolute(run->files[i].path);
    struct include_guess_summary g;
    include_guess_summarize(o, (const char *const *)abs, n, &g);
    char cwd[4096];
    bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    for (size_t i = 0; i < g.folders.len; i++) {
        char *shown = have_cwd ? path_relative(g.folders.items[i], cwd) : xstrdup(g.folders.items[i]);
        report_info("include folder guessed: %s (%zu file%s without a compile command)", shown, g.files[i],
                    g.files[i] == 1 ? "" : "s");
        free(shown);
    }
    include_guess_summary_release(&g);
    for (size_t i = 0; i < n; i++) free(abs[i]);
    free(abs);
}

/* The report: to stdout, or (-o FILE) to FILE, written atomically, with the
   text report on the terminal.  Returns 0, or -1 when FILE could not be
   written. */
static int emit_report(const struct output_writer *writer, const struct lint_run *run,
                       const struct lint_options *o)
{
    if (o->verbose && !o->statistics) report_guessed_includes(run, o);
    if (!o->output_file) {
        write_report(stdout, writer, run, o);
        if (o->statistics) write_stderr_summary(run, o);
        fflush(stdout);
        return 0;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        report_error("-o %s: %s", o->output_file, strerror(errno));
        return -1;
    }
    /* Colour codes never go into a file.  The text writer's summary still
       goes to stderr: the terminal keeps it. */
    struct lint_options plain = *o;
    if (plain.color == -1) plain.color = 0;
    write_report(mem, writer, run, &plain);
    fclose(mem);
    char *error = NULL;
    int rc = fixwrite_save(o->output_file, buf, len, &error);
    free(buf);
    if (rc != 0) {
        report_error("-o %s: %s", o->output_file, error);
        free(error);
        return -1;
    }
    /* The terminal: the text report (findings on stdout, summary on
       stderr) when the file holds another format. */
    if (o->statistics) {
        write_stderr_summary(run, o);
    } else if (strcmp(writer->name, "text") != 0) {
        output_find("text")->write(stdout, run, o);
        fflush(stdout);
    }
    return 0;
}

/* --fix with --stdin-filename: the fixed text goes to stdout (as ruff and
   clang-format do); the findings left go to stderr in the chosen format. */
static int fix_stdin(const struct lint_options *o, struct lint_run *run,
                     const char *text, size_t len)
{
    size_t out_len, applied = 0, skipped = 0;
    char *fixed = fix_apply(text, len, o->stdin_filename, &run->diags, &out_len, &applied, &skipped);
    fwrite(fixed, 1, out_len, stdout);
    fflush(stdout);
    free(fixed);
    /* Findings fixed are gone; the rest keep their positions only when
       nothing moved, so they are reported against the input only when nothing
       was applied. */
    size_t left = run->diags.len - applied;
    if (!o->quiet)
        report_info("fixed %zu finding%s in %s, %zu left%s", applied, applied == 1 ? "" : "s",
                    o->stdin_filename, left, left && applied ? " (lint the fixed text again to see them)" : "");
    if (!applied && left && !o->quiet) output_find("text")->write(stderr, run, o);
    bool failing = false;
    for (size_t i = 0; i < run->diags.len; i++)
        if ((int)run->diags.items[i].severity >= o->fail_level) failing = true;
    if (run->input_errors) return EXIT_USAGE;
    /* Exit 1 only when findings are left after the fixes (as ruff --fix). */
    return failing && left && !o->exit_zero ? EXIT_FINDINGS : EXIT_CLEAN;
}

static int run_lint_report(struct lint_options *o, const struct output_writer *writer, struct lint_run *run_p);
static void note_preview_configured(const struct lint_options *o, struct lint_run *run);

/* --watch: a run, then a new one after every change, until interrupted.  The
   watch is set up before each run, so a change made during it is not lost. */
static int watch_loop(struct lint_options *o, const struct output_writer *writer)
{
    bool clear = isatty(STDOUT_FILENO) && strcmp(writer->name, "text") == 0;
    for (unsigned round = 0;; round++) {
        char *error = NULL;
        struct watch *w = watch_new(o, &error);
        if (!w) {
            report_error("%s", error);
            free(error);
            return EXIT_USAGE;
        }
        if (clear && round) fputs("\033[2J\033[H", stdout);
        double t0 = monotonic_seconds();
        struct progress *pg = progress_wanted(o) ? progress_begin(o, 1.0) : NULL;
        struct lint_run run;
        lint_run_supervised(o, &run);
        progress_end(pg, o);
        note_preview_configured(o, &run);
        run_lint_report(o, writer, &run);
        fflush(stdout);
        if (!o->quiet)
            report_info("linted in %.1fs; watching %zu director%s for changes (Ctrl-C stops)",
                        monotonic_seconds() - t0, watch_count(w), watch_count(w) == 1 ? "y" : "ies");
        int rc = watch_wait(w, o);
        watch_free(w);
        if (rc != 0) {
            report_error("--watch: %s", strerror(errno));
            return EXIT_USAGE;
        }
    }
}

/* The run from the file set to the exit code, once the options are valid. */
/* Whether a linted file's configuration turns the preview rules on: then the
   summary does not offer them as "off by default". */
static void note_preview_configured(const struct lint_options *o, struct lint_run *run)
{
    for (size_t i = 0; i < run->n_files && !o->preview && !run->preview_configured; i++) {
        char *error = NULL;
        const struct lint_options *fo = config_options_for_file(o, run->files[i].path, &error);
        free(error);
        run->preview_configured = fo && fo->preview;
    }
}

static int run_lint(struct lint_options *o, const struct output_writer *writer)
{
    int status = EXIT_CLEAN;
    struct lint_run run;
    char *stdin_text = NULL;
    size_t stdin_len = 0;
    if (o->stdin_filename) {
        int e = read_stdin(&stdin_text, &stdin_len);
        if (e) {
            report_error("cannot read standard input: %s", strerror(e));
            return EXIT_USAGE;
        }
        source_override(o->stdin_filename, stdin_text, stdin_len);
        lint_run_stdin(o, o->stdin_filename, stdin_text, stdin_len, &run);
        if (o->fix && !o->write_baseline) {
            if (o->baseline) {
                char *error = NULL;
                size_t hidden, stale;
                if (baseline_filter(o->baseline, &run, &hidden, &stale, &error) != 0) {
                    report_error("%s", error);
                    free(error);
                    lint_run_release(&run);
                    free(stdin_text);
                    return EXIT_USAGE;
                }
            }
            status = fix_stdin(o, &run, stdin_text, stdin_len);
            source_override(NULL, NULL, 0);
            lint_run_release(&run);
            free(stdin_text);
            return status;
        }
    } else if (o->watch) {
        return watch_loop(o, writer);
    } else {
        struct progress *pg = progress_wanted(o) ? progress_begin(o, 1.0) : NULL;
        lint_run_supervised(o, &run);
        progress_end(pg, o);
    }
    note_preview_configured(o, &run);
    status = run_lint_report(o, writer, &run);
    source_override(NULL, NULL, 0);
    free(stdin_text);
    return status;
}

/* Baseline, fixes and the report of a finished run; releases it. */
static int run_lint_report(struct lint_options *o, const struct output_writer *writer, struct lint_run *run_p)
{
    int status = EXIT_CLEAN;
    struct lint_run run = *run_p;
    if (o->write_baseline) {
        char *error = NULL;
        long n = baseline_write(o->write_baseline, &run, &error);
        if (n < 0) {
            report_error("--write-baseline %s", error);
            free(error);
            status = EXIT_USAGE;
        } else {
            if (!o->quiet)
                report_info("wrote %ld finding%s to %s", n, n == 1 ? "" : "s", o->write_baseline);
            /* Files that could not be read are not in the baseline: say so. */
            for (size_t i = 0; i < run.n_files; i++)
                if (run.files[i].status == FILE_ERROR)
                    report_error("%s: %s", run.files[i].path, run.files[i].message);
            status = run.input_errors ? EXIT_USAGE : EXIT_CLEAN;
        }
        lint_run_release(&run);
        return status;
    }
    if (o->baseline) {
        char *error = NULL;
        size_t hidden, stale;
        if (baseline_filter(o->baseline, &run, &hidden, &stale, &error) != 0) {
            report_error("%s", error);
            free(error);
            lint_run_release(&run);
            return EXIT_USAGE;
        }
        if (!o->quiet && (hidden || stale))
            report_info("baseline %s: %zu known finding%s not shown", o->baseline, hidden,
                        hidden == 1 ? "" : "s");
        if (stale)
            report_info("baseline %s: %zu entr%s stale (%s finding%s gone); --write-baseline %s drops %s",
                        o->baseline, stale, stale == 1 ? "y is" : "ies are", stale == 1 ? "its" : "their",
                        stale == 1 ? " is" : "s are", o->baseline, stale == 1 ? "it" : "them");
    }
    bool fix_failed = false;
    if (o->diff) {
        struct strbuf diff;
        sb_init(&diff);
        struct fixwrite_summary s;
        fixwrite_run(o->fix_memory, &run, false, &diff, o->quiet, &s);
        fputs(diff.buf, stdout);
        fflush(stdout);
        sb_release(&diff);
        if (!o->quiet)
            report_info("%zu fix%s in %zu file%s (cudalint --fix applies them)", s.fixed,
                        s.fixed == 1 ? "" : "es", s.files, s.files == 1 ? "" : "s");
        if (run.input_errors) status = EXIT_USAGE;
        else if (s.fixed && !o->exit_zero) status = EXIT_FINDINGS;
        lint_run_release(&run);
        return status;
    }
    if (o->fix) {
        struct fixwrite_summary s;
        fixwrite_run(o->fix_memory, &run, true, NULL, o->quiet, &s);
        if (!o->quiet && (s.fixed || s.overlapping || s.files_skipped))
            report_info("fixed %zu finding%s in %zu file%s", s.fixed, s.fixed == 1 ? "" : "s",
                        s.files, s.files == 1 ? "" : "s");
        fix_failed = s.files_failed > 0;
    }
    if (emit_report(writer, &run, o) != 0) fix_failed = true;
    bool failing = false;
    for (size_t i = 0; i < run.diags.len; i++)
        if ((int)run.diags.items[i].severity >= o->fail_level) failing = true;
    if (run.input_errors || fix_failed) status = EXIT_USAGE;
    else if (failing && !o->exit_zero) status = EXIT_FINDINGS;
    lint_run_release(&run);
    return status;
}

struct command_state {
    int status;
    bool want_list;
};

/* The lint command's own options of the option table. */
static int on_option(void *data, int id, const char *value, char **error)
{
    struct command_state *st = data;
    switch (id) {
    case ID_VERSION: printf("cudalint %s (libclang %s)\n", cudalint_version, CUDALINT_LLVM_VERSION); return 1;
    case ID_HELP: usage(stdout); return 1;
    case ID_LIST_RULES: st->want_list = true; return 0;
    case ID_EXPLAIN: st->status = explain(value); return 1;
    default: return 0;
    }
}

int cli_lint_main(int argc, char **argv)
{
    struct lint_session session;
    lint_session_init(&session);
    struct lint_options *o = &session.opts;
    int status = EXIT_CLEAN;

    struct command_state st = {EXIT_CLEAN, false};
    char *error = NULL;
    int rc = cmdline_parse(CMD_LINT, argc, argv, o, on_option, &st, &o->paths, &error);
    if (rc < 0) {
        status = usage_error("%s", error);
        free(error);
        goto done;
    }
    if (rc > 0) {
        status = st.status;
        goto done;
    }
    if (st.want_list) {
        if (strcmp(o->format, "json") == 0) list_rules_json();
        else list_rules(strcmp(o->format, "markdown") == 0);
        goto done;
    }

    if (check_selectors(&o->select, "--select", o->preview) || check_selectors(&o->ignore, "--ignore", o->preview)) {
        status = EXIT_USAGE;
        goto done;
    }
    const struct output_writer *writer = output_find(o->format);
    if (!writer) {
        struct strbuf names;
        sb_init(&names);
        for (size_t i = 0; i < output_writers_len; i++) sb_addf(&names, "%s%s", i ? ", " : "", output_writers[i]->name);
        report_error("unknown --format '%s' (one of: %s)", o->format, names.buf);
        sb_release(&names);
        status = EXIT_USAGE;
        goto done;
    }
    if (o->stdin_filename) {
        /* "-" names standard input, as for ruff; any other path is a mistake. */
        for (size_t i = 0; i < o->paths.len; i++)
            if (strcmp(o->paths.items[i], "-") != 0) {
                status = usage_error("--stdin-filename lints standard input: no PATH (%s) can be given with it",
                                     o->paths.items[i]);
                goto done;
            }
        sv_release(&o->paths);
        if (o->diff || o->shard_n || o->dump_config) {
            status = usage_error("--stdin-filename cannot be combined with %s",
                                 o->diff ? "--diff" : o->shard_n ? "--shard" : "--dump-config");
            goto done;
        }
    }
    if (o->statistics && strcmp(o->format, "text") != 0 && strcmp(o->format, "json") != 0) {
        status = usage_error("--statistics is printed as text or json, not --format %s", o->format);
        goto done;
    }
    if (o->watch && (o->fix || o->diff || o->write_baseline || o->stdin_filename)) {
        status = usage_error("--watch cannot be combined with %s",
                             o->fix ? "--fix" : o->diff ? "--diff" : o->write_baseline ? "--write-baseline"
                                                                                       : "--stdin-filename");
        goto done;
    }
    if (o->output_file && o->diff) {
        status = usage_error("%s", "--diff prints to stdout: -o cannot be combined with it");
        goto done;
    }
    if (o->paths.len == 0 && !o->dump_config && !o->stdin_filename) {
        status = usage_error("%s", "no paths given");
        goto done;
    }
    if (o->write_baseline && (o->baseline || o->fix || o->diff)) {
        status = usage_error("%s", "--write-baseline records every current finding: it cannot be combined with "
                                   "--baseline, --fix or --diff");
        goto done;
    }
    /* Editors pipe the buffer at every check (Flycheck, ALE, efm): an nvcc
       compile each time is too slow, as in the language server, unless
       --codegen asks for it. */
    if (o->stdin_filename && o->codegen < 0) o->codegen = 0;
    if (lint_session_prepare(&session, &error) != 0) {
        report_error("%s", error);
        free(error);
        status = EXIT_USAGE;
        goto done;
    }
    if (o->dump_config) {
        if (config_dump(stdout, o, o->paths.len ? o->paths.items[0] : ".", &error) != 0) {
            report_error("%s", error);
            free(error);
            status = EXIT_USAGE;
        }
        goto done;
    }
    status = run_lint(o, writer);
done:
    lint_session_release(&session);
    return status;
}
