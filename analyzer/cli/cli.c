/* cli.c: the lint command line: parses options into struct lint_options,
 * answers --help, --version, --list-rules, --explain and --dump-config, runs
 * the lint, then the baseline, --fix/--diff and the writer, and turns the
 * result into an exit code. */
#include "cli/cli.h"
#include "base/report.h"
#include "core/cmdline.h"
#include "output/baseline.h"
#include "config/config.h"
#include "core/docs.h"
#include "fix/fixwrite.h"
#include "engine/lint.h"
#include "engine/supervise.h"
#include "output/writers.h"
#include "core/rule.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The rule table: aligned text, or (--format markdown) the README's table. */
static void list_rules(bool markdown)
{
    if (markdown) {
        printf("| code | name | severity | category | scope | status | fix | summary |\n");
        printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    } else {
        printf("%-6s %-26s %-8s %-12s %-7s %-8s %-3s %s\n", "code", "name", "severity", "category", "scope",
               "status", "fix", "summary");
    }
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *r = rule_registry[i];
        if (markdown)
            printf("| %s | [%s](%s) | %s | %s | %s | %s | %s | %s |\n", r->code, r->name, r->doc,
                   severity_name(r->severity), r->category, rule_scope_name(r->scope), rule_status_name(r->status),
                   r->has_fix ? "yes" : "no", r->summary);
        else
            printf("%-6s %-26s %-8s %-12s %-7s %-8s %-3s %s\n", r->code, r->name, severity_name(r->severity),
                   r->category, rule_scope_name(r->scope), rule_status_name(r->status), r->has_fix ? "yes" : "no",
                   r->summary);
    }
}

static int explain(const char *what)
{
    const struct rule *r = registry_find(what);
    if (!r) {
        report_error("no rule named '%s' (see --list-rules)", what);
        return EXIT_USAGE;
    }
    printf("%s", rule_doc_text(r));
    return EXIT_CLEAN;
}

static int check_selectors(const struct strvec *sv, const char *flag)
{
    for (size_t i = 0; i < sv->len; i++)
        if (!registry_selector_known(sv->items[i])) {
            report_error("%s %s: matches no rule (see --list-rules)", flag, sv->items[i]);
            return -1;
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

/* The run from the file set to the exit code, once the options are valid. */
static int run_lint(struct lint_options *o, const struct output_writer *writer)
{
    int status = EXIT_CLEAN;
    struct lint_run run;
    lint_run_supervised(o, &run);
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
    writer->write(stdout, &run, o);
    fflush(stdout);
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
        list_rules(strcmp(o->format, "markdown") == 0);
        goto done;
    }

    if (check_selectors(&o->select, "--select") || check_selectors(&o->ignore, "--ignore")) {
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
    if (o->paths.len == 0 && !o->dump_config) {
        status = usage_error("%s", "no paths given");
        goto done;
    }
    if (o->write_baseline && (o->baseline || o->fix || o->diff)) {
        status = usage_error("%s", "--write-baseline records every current finding: it cannot be combined with "
                                   "--baseline, --fix or --diff");
        goto done;
    }
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
