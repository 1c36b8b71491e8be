/* cli.c: the lint command line: parses options into struct lint_options,
 * answers --help, --version, --list-rules, --explain and --dump-config, runs
 * the lint, then the baseline, --fix/--diff and the writer, and turns the
 * result into an exit code. */
#include "cli/cli.h"
#include "output/baseline.h"
#include "config/config.h"
#include "core/docs.h"
#include "fix/fixwrite.h"
#include "engine/lint.h"
#include "output/writers.h"
#include "core/rule.h"
#include "base/util.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usage_text[] =
    "usage: cudalint [options] PATH... [-- CLANG_ARGS...]\n"
    "       cudalint lsp                 run the language server on stdio\n"
    "       cudalint confirm [--help]    prove each rule's effect on its kernels\n"
    "\n"
    "Lints CUDA C/C++ files (.cu, .cuh); directories are searched recursively.\n"
    "\n"
    "Selecting rules:\n"
    "  --select LIST          only these rules: codes, names, prefixes (CU2) or globs, comma-separated\n"
    "  --ignore LIST          never these rules\n"
    "  --host                 also apply device-code rules to host code\n"
    "  --list-rules           print the rule table and exit\n"
    "  --explain CODE|NAME    print a rule's documentation and exit\n"
    "\n"
    "Parsing:\n"
    "  --cuda-path DIR        the CUDA Toolkit (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda)\n"
    "  --cuda-arch LIST       device passes for these archs (default sm_90; several allowed)\n"
    "  --no-cuda-headers      use the built-in declarations header instead of the toolkit's\n"
    "  -p DIR                 read compile_commands.json from DIR (default: ./ or ./build/)\n"
    "  --extensions LIST      extra file extensions to lint in directories (.cu and .cuh always)\n"
    "  --show-parse-errors    report every clang error as a CU000 note, not just the first\n"
    "  --max-file-size MB     skip larger files with a note (default 4)\n"
    "  -- ARGS                pass the remaining arguments to clang\n"
    "\n"
    "Configuration (.cudalint.yaml in the file's directory or the nearest parent):\n"
    "  --config FILE          use this configuration file for every file\n"
    "  --no-config            ignore .cudalint.yaml files\n"
    "  --dump-config          print the effective configuration for the first PATH (or .) and exit\n"
    "\n"
    "Baseline, fixes and cache:\n"
    "  --write-baseline FILE  record the current findings in FILE (JSON) and exit 0\n"
    "  --baseline FILE        report only findings not recorded in FILE; say how many entries are stale\n"
    "  --fix                  apply safe fixes in place (atomically), then report what is left\n"
    "  --diff                 print the fixes as a unified diff instead; exit 1 when there are any\n"
    "  --cache-dir DIR        where results are cached (default: $XDG_CACHE_HOME/cudalint)\n"
    "  --no-cache             neither read nor write cached results\n"
    "\n"
    "Output:\n"
    "  --format NAME          text (default), json, sarif, github, checkstyle, junit or gitlab\n"
    "  --color WHEN           auto (default), always or never; NO_COLOR disables auto\n"
    "  -q, --quiet            no summary line, no notes about skipped files\n"
    "  --fail-level LEVEL     lowest severity that makes the exit code 1: note, warning (default), error\n"
    "  --exit-zero            exit 0 even with findings (2 still means the run failed)\n"
    "\n"
    "  -j, --jobs N           files linted in parallel (default: number of cores)\n"
    "  --version              print the version\n"
    "  -h, --help             print this help\n"
    "\n"
    "Exit codes: 0 no findings at or above the fail level, 1 findings, 2 usage, config or input error.\n";

static void split_list(struct strvec *sv, const char *list)
{
    const char *p = list;
    while (*p) {
        while (*p == ',' || *p == ' ') p++;
        const char *e = p;
        while (*e && *e != ',') e++;
        const char *t = e;
        while (t > p && t[-1] == ' ') t--;
        if (t > p) sv_push_owned(sv, xstrndup(p, (size_t)(t - p)));
        p = e;
    }
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
        fprintf(stderr, "cudalint: error: no rule named '%s' (see --list-rules)\n", what);
        return EXIT_USAGE;
    }
    printf("%s", rule_doc_text(r));
    return EXIT_CLEAN;
}

static int parse_severity(const char *s)
{
    if (strcasecmp(s, "note") == 0) return SEV_NOTE;
    if (strcasecmp(s, "warning") == 0) return SEV_WARNING;
    if (strcasecmp(s, "error") == 0) return SEV_ERROR;
    return -1;
}

static int check_selectors(const struct strvec *sv, const char *flag)
{
    for (size_t i = 0; i < sv->len; i++) {
        const char *s = sv->items[i];
        bool any = strcasecmp(s, "ALL") == 0;
        for (size_t r = 0; r < rule_registry_len && !any; r++) {
            const struct rule *rule = rule_registry[r];
            any = strcasecmp(s, rule->code) == 0 || strcasecmp(s, rule->name) == 0 ||
                  strncasecmp(rule->code, s, strlen(s)) == 0 || glob_match_ci(s, rule->code) ||
                  glob_match_ci(s, rule->name);
        }
        if (!any) {
            fprintf(stderr, "cudalint: error: %s %s: matches no rule (see --list-rules)\n", flag, s);
            return -1;
        }
    }
    return 0;
}

enum {
    OPT_SELECT = 256, OPT_IGNORE, OPT_FORMAT, OPT_CUDA_PATH, OPT_CUDA_ARCH, OPT_NO_CUDA_HEADERS,
    OPT_EXIT_ZERO, OPT_COLOR, OPT_VERSION, OPT_LIST_RULES, OPT_EXPLAIN, OPT_SHOW_PARSE_ERRORS,
    OPT_EXTENSIONS, OPT_HOST, OPT_FAIL_LEVEL, OPT_MAX_FILE_SIZE, OPT_CONFIG, OPT_NO_CONFIG,
    OPT_DUMP_CONFIG, OPT_BASELINE, OPT_WRITE_BASELINE, OPT_FIX, OPT_DIFF, OPT_CACHE_DIR, OPT_NO_CACHE,
};

static const struct option long_options[] = {
    {"select", required_argument, 0, OPT_SELECT},
    {"ignore", required_argument, 0, OPT_IGNORE},
    {"format", required_argument, 0, OPT_FORMAT},
    {"cuda-path", required_argument, 0, OPT_CUDA_PATH},
    {"cuda-arch", required_argument, 0, OPT_CUDA_ARCH},
    {"no-cuda-headers", no_argument, 0, OPT_NO_CUDA_HEADERS},
    {"exit-zero", no_argument, 0, OPT_EXIT_ZERO},
    {"color", required_argument, 0, OPT_COLOR},
    {"quiet", no_argument, 0, 'q'},
    {"jobs", required_argument, 0, 'j'},
    {"version", no_argument, 0, OPT_VERSION},
    {"help", no_argument, 0, 'h'},
    {"list-rules", no_argument, 0, OPT_LIST_RULES},
    {"explain", required_argument, 0, OPT_EXPLAIN},
    {"show-parse-errors", no_argument, 0, OPT_SHOW_PARSE_ERRORS},
    {"extensions", required_argument, 0, OPT_EXTENSIONS},
    {"host", no_argument, 0, OPT_HOST},
    {"fail-level", required_argument, 0, OPT_FAIL_LEVEL},
    {"max-file-size", required_argument, 0, OPT_MAX_FILE_SIZE},
    {"config", required_argument, 0, OPT_CONFIG},
    {"no-config", no_argument, 0, OPT_NO_CONFIG},
    {"dump-config", no_argument, 0, OPT_DUMP_CONFIG},
    {"baseline", required_argument, 0, OPT_BASELINE},
    {"write-baseline", required_argument, 0, OPT_WRITE_BASELINE},
    {"fix", no_argument, 0, OPT_FIX},
    {"diff", no_argument, 0, OPT_DIFF},
    {"cache-dir", required_argument, 0, OPT_CACHE_DIR},
    {"no-cache", no_argument, 0, OPT_NO_CACHE},
    {0, 0, 0, 0},
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cudalint: error: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'cudalint --help'.\n");
    va_end(ap);
    return EXIT_USAGE;
}

/* The run from the file set to the exit code, once the options are valid. */
static int run_lint(struct lint_options *o, const struct output_writer *writer)
{
    int status = EXIT_CLEAN;
    struct lint_run run;
    lint_run(o, &run);
    if (o->write_baseline) {
        char *error = NULL;
        long n = baseline_write(o->write_baseline, &run, &error);
        if (n < 0) {
            fprintf(stderr, "cudalint: error: --write-baseline %s\n", error);
            free(error);
            status = EXIT_USAGE;
        } else {
            if (!o->quiet)
                fprintf(stderr, "cudalint: wrote %ld finding%s to %s\n", n, n == 1 ? "" : "s", o->write_baseline);
            /* Files that could not be read are not in the baseline: say so. */
            for (size_t i = 0; i < run.n_files; i++)
                if (strcmp(run.files[i].status, "error") == 0)
                    fprintf(stderr, "cudalint: error: %s: %s\n", run.files[i].path, run.files[i].message);
            status = run.input_errors ? EXIT_USAGE : EXIT_CLEAN;
        }
        lint_run_release(&run);
        return status;
    }
    if (o->baseline) {
        char *error = NULL;
        size_t hidden, stale;
        if (baseline_filter(o->baseline, &run, &hidden, &stale, &error) != 0) {
            fprintf(stderr, "cudalint: error: %s\n", error);
            free(error);
            lint_run_release(&run);
            return EXIT_USAGE;
        }
        if (!o->quiet && (hidden || stale))
            fprintf(stderr, "cudalint: baseline %s: %zu known finding%s not shown\n", o->baseline, hidden,
                    hidden == 1 ? "" : "s");
        if (stale)
            fprintf(stderr,
                    "cudalint: baseline %s: %zu entr%s stale (%s finding%s gone); --write-baseline %s drops %s\n",
                    o->baseline, stale, stale == 1 ? "y is" : "ies are", stale == 1 ? "its" : "their",
                    stale == 1 ? " is" : "s are", o->baseline, stale == 1 ? "it" : "them");
    }
    bool fix_failed = false;
    if (o->diff) {
        struct strbuf diff;
        sb_init(&diff);
        struct fixwrite_summary s;
        fixwrite_run(&run, false, &diff, o->quiet, &s);
        fputs(diff.buf, stdout);
        fflush(stdout);
        sb_release(&diff);
        if (!o->quiet)
            fprintf(stderr, "cudalint: %zu fix%s in %zu file%s (cudalint --fix applies them)\n", s.fixed,
                    s.fixed == 1 ? "" : "es", s.files, s.files == 1 ? "" : "s");
        if (run.input_errors) status = EXIT_USAGE;
        else if (s.fixed && !o->exit_zero) status = EXIT_FINDINGS;
        lint_run_release(&run);
        return status;
    }
    if (o->fix) {
        struct fixwrite_summary s;
        fixwrite_run(&run, true, NULL, o->quiet, &s);
        if (!o->quiet && (s.fixed || s.overlapping || s.files_skipped))
            fprintf(stderr, "cudalint: fixed %zu finding%s in %zu file%s\n", s.fixed, s.fixed == 1 ? "" : "s",
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

int cli_lint_main(int argc, char **argv)
{
    struct lint_options o;
    lint_options_init(&o);
    int status = EXIT_CLEAN;
    bool want_list = false;

    /* Everything after "--" goes to clang untouched. */
    int dashdash = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            dashdash = i;
            break;
        }
    for (int i = dashdash + 1; i < argc; i++) sv_push(&o.extra_args, argv[i]);

    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(dashdash, argv, ":p:j:qh", long_options, NULL)) != -1) {
        switch (c) {
        case OPT_SELECT: split_list(&o.select, optarg); break;
        case OPT_IGNORE: split_list(&o.ignore, optarg); break;
        case OPT_FORMAT:
            free(o.format);
            o.format = xstrdup(optarg);
            break;
        case OPT_CUDA_PATH:
            free(o.cuda_path);
            o.cuda_path = xstrdup(optarg);
            if (o.headers == HEADERS_AUTO) o.headers = HEADERS_TOOLKIT;
            break;
        case OPT_CUDA_ARCH:
            split_list(&o.archs, optarg);
            o.explicit_archs = true;
            break;
        case OPT_NO_CUDA_HEADERS: o.headers = HEADERS_SHIM; break;
        case OPT_EXIT_ZERO: o.exit_zero = true; break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") == 0) o.color = -1;
            else if (strcmp(optarg, "always") == 0) o.color = 1;
            else if (strcmp(optarg, "never") == 0) o.color = 0;
            else {
                status = usage_error("--color must be auto, always or never, not '%s'", optarg);
                goto done;
            }
            break;
        case 'q': o.quiet = true; break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 1024) {
                status = usage_error("-j needs a number of jobs from 1 to 1024, not '%s'", optarg);
                goto done;
            }
            o.jobs = (int)n;
            break;
        }
        case 'p':
            free(o.compdb_dir);
            o.compdb_dir = xstrdup(optarg);
            break;
        case OPT_VERSION:
            printf("cudalint %s (libclang %s)\n", cudalint_version, CUDALINT_LLVM_VERSION);
            goto done;
        case 'h': fputs(usage_text, stdout); goto done;
        case OPT_LIST_RULES: want_list = true; break;
        case OPT_EXPLAIN: status = explain(optarg); goto done;
        case OPT_SHOW_PARSE_ERRORS: o.show_parse_errors = true; break;
        case OPT_EXTENSIONS: {
            struct strvec exts = {0};
            split_list(&exts, optarg);
            for (size_t i = 0; i < exts.len; i++) {
                char *e = exts.items[i][0] == '.' ? xstrdup(exts.items[i]) : xasprintf(".%s", exts.items[i]);
                if (!sv_contains(&o.extensions, e)) sv_push(&o.extensions, e);
                free(e);
            }
            sv_release(&exts);
            break;
        }
        case OPT_HOST: o.host = true; break;
        case OPT_FAIL_LEVEL:
            o.fail_level = parse_severity(optarg);
            if (o.fail_level < 0) {
                status = usage_error("--fail-level must be note, warning or error, not '%s'", optarg);
                goto done;
            }
            break;
        case OPT_MAX_FILE_SIZE: {
            char *end;
            double mb = strtod(optarg, &end);
            if (*end || mb <= 0) {
                status = usage_error("--max-file-size needs a size in MB, not '%s'", optarg);
                goto done;
            }
            o.max_file_size = (long long)(mb * 1e6);
            break;
        }
        case OPT_CONFIG:
            free(o.config_path);
            o.config_path = xstrdup(optarg);
            break;
        case OPT_NO_CONFIG: o.no_config = true; break;
        case OPT_DUMP_CONFIG: o.dump_config = true; break;
        case OPT_BASELINE:
            free(o.baseline);
            o.baseline = xstrdup(optarg);
            break;
        case OPT_WRITE_BASELINE:
            free(o.write_baseline);
            o.write_baseline = xstrdup(optarg);
            break;
        case OPT_FIX: o.fix = true; break;
        case OPT_DIFF: o.diff = true; break;
        case OPT_CACHE_DIR:
            free(o.cache_dir);
            o.cache_dir = xstrdup(optarg);
            break;
        case OPT_NO_CACHE: o.no_cache = true; break;
        case ':': status = usage_error("option %s needs a value", argv[optind - 1]); goto done;
        default: status = usage_error("unknown option '%s'", argv[optind - 1]); goto done;
        }
    }
    for (int i = optind; i < dashdash; i++) sv_push(&o.paths, argv[i]);
    if (want_list) {
        list_rules(strcmp(o.format, "markdown") == 0);
        goto done;
    }

    if (check_selectors(&o.select, "--select") || check_selectors(&o.ignore, "--ignore")) {
        status = EXIT_USAGE;
        goto done;
    }
    const struct output_writer *writer = output_find(o.format);
    if (!writer) {
        struct strbuf names;
        sb_init(&names);
        for (size_t i = 0; i < output_writers_len; i++) sb_addf(&names, "%s%s", i ? ", " : "", output_writers[i]->name);
        fprintf(stderr, "cudalint: error: unknown --format '%s' (one of: %s)\n", o.format, names.buf);
        sb_release(&names);
        status = EXIT_USAGE;
        goto done;
    }
    if (o.paths.len == 0 && !o.dump_config) {
        status = usage_error("%s", "no paths given");
        goto done;
    }
    if (o.write_baseline && (o.baseline || o.fix || o.diff)) {
        status = usage_error("%s", "--write-baseline records every current finding: it cannot be combined with "
                                   "--baseline, --fix or --diff");
        goto done;
    }
    char *error = NULL;
    if (lint_prepare(&o, &error) != 0 || config_prepare(&o, &error) != 0) {
        fprintf(stderr, "cudalint: error: %s\n", error);
        free(error);
        status = EXIT_USAGE;
        goto done;
    }
    if (o.dump_config) {
        if (config_dump(stdout, &o, o.paths.len ? o.paths.items[0] : ".", &error) != 0) {
            fprintf(stderr, "cudalint: error: %s\n", error);
            free(error);
            status = EXIT_USAGE;
        }
        goto done;
    }
    status = run_lint(&o, writer);
done:
    config_release_all();
    fixwrite_forget_all();
    lint_unprepare(&o);
    lint_options_release(&o);
    return status;
}
