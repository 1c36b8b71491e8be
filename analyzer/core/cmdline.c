/* cmdline.c: the table of every command-line option, its parser, and --help
 * generated from it. */
#include "core/cmdline.h"
#include "core/rule.h"
#include "base/util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(f) .offset = offsetof(struct lint_options, f)
#define LINT_LSP (CMD_LINT | CMD_LSP)

/* ---- options that check their value ---- */

static int apply_cuda_path(struct lint_options *o, const char *v, char **error)
{
    free(o->cuda_path);
    o->cuda_path = xstrdup(v);
    if (o->headers == HEADERS_AUTO) o->headers = HEADERS_TOOLKIT;
    return 0;
}

/* sm_NN, sm_NNa or sm_NNf (as .cudalint.yaml's cuda-arch accepts). */
static bool valid_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) != 0 || s[3] < '0' || s[3] > '9') return false;
    const char *p = s + 3;
    while (*p >= '0' && *p <= '9') p++;
    if (*p == 'a' || *p == 'f') p++;
    return *p == '\0' && p - s <= 8;
}

static int apply_cuda_arch(struct lint_options *o, const char *v, char **error)
{
    struct strvec archs = {0};
    sv_split_list(&archs, v);
    for (size_t i = 0; i < archs.len; i++)
        if (!valid_arch(archs.items[i])) {
            *error = xasprintf("--cuda-arch: '%s' is not a GPU arch like sm_90 or sm_90a", archs.items[i]);
            sv_release(&archs);
            return -1;
        }
    sv_release(&archs);
    sv_split_list(&o->archs, v);
    o->explicit_archs = true;
    return 0;
}

static int apply_no_cuda_headers(struct lint_options *o, const char *v, char **error)
{
    o->headers = HEADERS_SHIM;
    return 0;
}

static int apply_codegen(struct lint_options *o, const char *v, char **error)
{
    o->codegen = 1;
    return 0;
}

static int apply_no_codegen(struct lint_options *o, const char *v, char **error)
{
    o->codegen = 0;
    return 0;
}

static int apply_extensions(struct lint_options *o, const char *v, char **error)
{
    struct strvec exts = {0};
    sv_split_list(&exts, v);
    for (size_t i = 0; i < exts.len; i++) {
        char *e = exts.items[i][0] == '.' ? xstrdup(exts.items[i]) : xasprintf(".%s", exts.items[i]);
        if (!sv_contains(&o->extensions, e)) sv_push(&o->extensions, e);
        free(e);
    }
    sv_release(&exts);
    return 0;
}

static int apply_max_file_size(struct lint_options *o, const char *v, char **error)
{
    char *end;
    double mb = strtod(v, &end);
    if (end == v || *end || !(mb > 0) || mb > 1e9) {
        *error = xasprintf("--max-file-size needs a size in MB, not '%s'", v);
        return -1;
    }
    o->max_file_size = (long long)(mb * 1e6);
    return 0;
}

static int apply_color(struct lint_options *o, const char *v, char **error)
{
    if (strcmp(v, "auto") == 0) o->color = -1;
    else if (strcmp(v, "always") == 0) o->color = 1;
    else if (strcmp(v, "never") == 0) o->color = 0;
    else {
        *error = xasprintf("--color must be auto, always or never, not '%s'", v);
        return -1;
    }
    return 0;
}

static int apply_fail_level(struct lint_options *o, const char *v, char **error)
{
    int s = severity_parse(v);
    if (s < 0) {
        *error = xasprintf("--fail-level must be note, warning or error, not '%s'", v);
        return -1;
    }
    o->fail_level = s;
    return 0;
}

static int apply_jobs(struct lint_options *o, const char *v, char **error)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < 1 || n > 1024) {
        *error = xasprintf("-j needs a number of jobs from 1 to 1024, not '%s'", v);
        return -1;
    }
    o->jobs = (int)n;
    return 0;
}

static int apply_time_limit(struct lint_options *o, const char *v, char **error)
{
    char *end;
    double s = strtod(v, &end);
    if (end == v || *end || !(s >= 0) || s > 1e6) {
        *error = xasprintf("--time-limit needs a number of seconds (0: no limit), not '%s'", v);
        return -1;
    }
    o->time_limit = s;
    return 0;
}

static int apply_memory_limit(struct lint_options *o, const char *v, char **error)
{
    char *end;
    double mb = strtod(v, &end);
    if (end == v || *end || !(mb >= 0) || mb > 1e9 || (mb > 0 && mb < 64)) {
        *error = xasprintf("--memory-limit needs a size in MB of at least 64 (0: no limit), not '%s'", v);
        return -1;
    }
    o->memory_limit = (long long)(mb * 1e6);
    return 0;
}

static int apply_shard(struct lint_options *o, const char *v, char **error)
{
    char *end;
    long k = strtol(v, &end, 10), n = 0;
    if (*end == '/') n = strtol(end + 1, &end, 10);
    if (*end || n < 1 || n > 100000 || k < 1 || k > n) {
        *error = xasprintf("--shard needs K/N with 1 <= K <= N (such as 2/4), not '%s'", v);
        return -1;
    }
    o->shard_k = (int)k;
    o->shard_n = (int)n;
    return 0;
}

/* ---- the table ---- */

const struct cmdline_option cmdline_options[] = {
    {"select", 0, "LIST", LINT_LSP, "Selecting rules",
     "only these rules: codes, names, prefixes (CU2), globs or ALL, comma-separated; a preview rule is selected "
     "by its exact code or name, by a prefix, glob or ALL only with --preview", OPT_LIST, FIELD(select)},
    {"ignore", 0, "LIST", LINT_LSP, NULL, "never these rules", OPT_LIST, FIELD(ignore)},
    {"preview", 0, NULL, LINT_LSP, NULL,
     "also run the preview rules (default: only the stable ones; --list-rules shows each rule's status)", OPT_TRUE,
     FIELD(preview)},
    {"host", 0, NULL, LINT_LSP, NULL, "also apply device-code rules to host code", OPT_TRUE, FIELD(host)},
    {"list-rules", 0, NULL, CMD_LINT, NULL,
     "print the rule table (status and measured precision included) and exit; --format markdown or json for those forms", OPT_COMMAND, .id = ID_LIST_RULES},
    {"explain", 0, "CODE|NAME", CMD_LINT, NULL, "print a rule's documentation and exit", OPT_COMMAND,
     .id = ID_EXPLAIN},

    {"cuda-path", 0, "DIR", LINT_LSP, "Parsing",
     "the CUDA Toolkit (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda)", OPT_APPLY, .apply = apply_cuda_path},
    {"cuda-arch", 0, "LIST", LINT_LSP, NULL,
     "GPU archs (default sm_90, or the compile database's): the newest gets the device pass, the others one each "
     "only where the file or a project header tests __CUDA_ARCH__", OPT_APPLY, .apply = apply_cuda_arch},
    {"all-cuda-archs", 0, NULL, LINT_LSP, NULL,
     "a device pass for every arch of --cuda-arch or the compile database, even where the code cannot differ",
     OPT_TRUE, FIELD(all_archs)},
    {"no-cuda-headers", 0, NULL, LINT_LSP, NULL, "use the built-in declarations header instead of the toolkit's",
     OPT_APPLY, .apply = apply_no_cuda_headers},
    {NULL, 'p', "DIR", LINT_LSP, NULL, "read compile_commands.json from DIR (default: ./ or ./build/)", OPT_STRING,
     FIELD(compdb_dir)},
    {"extensions", 0, "LIST", CMD_LINT, NULL, "extra file extensions to lint in directories (.cu and .cuh always)",
     OPT_APPLY, .apply = apply_extensions},
    {"stdin-filename", 0, "PATH", CMD_LINT, NULL,
     "lint standard input as if it were PATH (with --fix: the fixed source goes to stdout)", OPT_STRING,
     FIELD(stdin_filename)},
    {"show-parse-errors", 0, NULL, LINT_LSP, NULL, "report every clang error as a CU000 note, not just the first",
     OPT_TRUE, FIELD(show_parse_errors)},
    {"max-file-size", 0, "MB", LINT_LSP, NULL, "skip larger files with a note (default 4)", OPT_APPLY,
     .apply = apply_max_file_size},
    {"time-limit", 0, "SECONDS", LINT_LSP, NULL,
     "give up on a file after this long and report it as an error, with the phase it was in (default 120; "
     "0: no limit; up to as much again building or waiting for a shared precompiled header is not counted)", OPT_APPLY,
     .apply = apply_time_limit},
    {"memory-limit", 0, "MB", LINT_LSP, NULL,
     "memory of the process that lints; a file that needs more is reported as an error (default: 2000 per job, at least 4000, at most the machine's; 0: no limit)",
     OPT_APPLY, .apply = apply_memory_limit},
    {NULL, 0, "ARGS", LINT_LSP, NULL, "pass the remaining arguments to clang", OPT_COMMAND, .id = ID_DASHDASH},

    {"codegen", 0, NULL, LINT_LSP, "Codegen evidence (nvcc -ptx -O3 -lineinfo on the file's flags)",
     "check performance findings (CU201-CU204, CU301, CU401-CU403) in the PTX nvcc emits for their line "
     "(default: on when a toolkit is found; off in the language server and with --stdin-filename)", OPT_APPLY, .apply = apply_codegen},
    {"no-codegen", 0, NULL, LINT_LSP, NULL, "never run nvcc: the static findings only", OPT_APPLY,
     .apply = apply_no_codegen},
    {"show-disproved", 0, NULL, LINT_LSP, NULL,
     "keep the findings nvcc's code disproves, marked so (for debugging the rules)", OPT_TRUE,
     FIELD(show_disproved)},

    {"config", 0, "FILE", LINT_LSP, "Configuration (.cudalint.yaml in the file's directory or the nearest parent)",
     "use this configuration file for every file", OPT_STRING, FIELD(config_path)},
    {"no-config", 0, NULL, LINT_LSP, NULL, "ignore .cudalint.yaml files", OPT_TRUE, FIELD(no_config)},
    {"dump-config", 0, NULL, CMD_LINT, NULL, "print the effective configuration for the first PATH (or .) and exit",
     OPT_TRUE, FIELD(dump_config)},

    {"write-baseline", 0, "FILE", CMD_LINT, "Baseline, fixes and cache",
     "record the current findings in FILE (JSON) and exit 0", OPT_STRING, FIELD(write_baseline)},
    {"baseline", 0, "FILE", CMD_LINT, NULL,
     "report only findings not recorded in FILE; say how many entries are stale", OPT_STRING, FIELD(baseline)},
    {"fix", 0, NULL, CMD_LINT, NULL, "apply safe fixes in place (atomically), then report what is left", OPT_TRUE,
     FIELD(fix)},
    {"diff", 0, NULL, CMD_LINT, NULL, "print the fixes as a unified diff instead; exit 1 when there are any",
     OPT_TRUE, FIELD(diff)},
    {"cache-dir", 0, "DIR", LINT_LSP, NULL,
     "where results and precompiled headers are kept (default: $XDG_CACHE_HOME/cudalint)", OPT_STRING,
     FIELD(cache_dir)},
    {"no-cache", 0, NULL, LINT_LSP, NULL, "no result cache, no precompiled headers", OPT_TRUE, FIELD(no_cache)},

    {"format", 0, "NAME", CMD_LINT, "Output", "text (default), json, sarif, github, checkstyle, junit or gitlab",
     OPT_STRING, FIELD(format)},
    {"output-file", 'o', "FILE", CMD_LINT, NULL,
     "write the format to FILE (atomically); the text report stays on the terminal", OPT_STRING,
     FIELD(output_file)},
    {"statistics", 0, NULL, CMD_LINT, NULL,
     "a count per rule (code, name, count, fixable) instead of the findings; with codegen, what nvcc's code confirmed",
     OPT_TRUE, FIELD(statistics)},
    {"color", 0, "WHEN", CMD_LINT, NULL, "auto (default), always or never; NO_COLOR disables auto", OPT_APPLY,
     .apply = apply_color, .values = "auto always never"},
    {"quiet", 'q', NULL, CMD_LINT, NULL, "no summary line, no notes about skipped files", OPT_TRUE, FIELD(quiet)},
    {"verbose", 0, NULL, CMD_LINT, NULL,
     "say which include folders were guessed for files without a compile command (also in --statistics)",
     OPT_TRUE, FIELD(verbose)},
    {"fail-level", 0, "LEVEL", CMD_LINT, NULL,
     "lowest severity that makes the exit code 1: note, warning (default), error", OPT_APPLY,
     .apply = apply_fail_level, .values = "note warning error"},
    {"exit-zero", 0, NULL, CMD_LINT, NULL, "exit 0 even with findings (2 still means the run failed)", OPT_TRUE,
     FIELD(exit_zero)},

    {"no-reuse", 0, NULL, CMD_LSP, "Language server",
     "parse from scratch on every edit (slower; for comparison)", OPT_COMMAND, .id = ID_NO_REUSE},
    {"log", 0, "FILE", CMD_LSP, NULL, "append every message sent and received to FILE", OPT_COMMAND, .id = ID_LOG},
    /* vscode-languageclient appends --stdio for TransportKind.stdio. */
    {"stdio", 0, NULL, CMD_LSP, NULL, "talk over stdin and stdout (always)", OPT_COMMAND, .id = ID_STDIO,
     .hidden = true},

    {"static", 0, NULL, CMD_CONFIRM, "Steps",
     "static steps only (lint, fix, compile, instruction mix)", OPT_COMMAND, .id = ID_STATIC},
    {"gpu", 0, NULL, CMD_CONFIRM, NULL, "static and GPU steps; without a GPU they are skipped", OPT_COMMAND,
     .id = ID_GPU},
    {"arch", 0, "sm_XX", CMD_CONFIRM, NULL, "architecture to compile for (default: the GPU's, else sm_90)",
     OPT_COMMAND, .id = ID_ARCH},
    {"db", 0, "PATH", CMD_CONFIRM, NULL, "sqlite database (default: <user cache dir>/confirm.sqlite)", OPT_COMMAND,
     .id = ID_DB},
    {"report", 0, "DIR", CMD_CONFIRM, NULL, "also write DIR/RESULTS.md and DIR/ratios.svg", OPT_COMMAND,
     .id = ID_REPORT},
    {"nvcc", 0, "PATH", CMD_CONFIRM, NULL, "nvcc to use (default: $CUDA_PATH/bin, PATH, /usr/local/cuda/bin)",
     OPT_COMMAND, .id = ID_NVCC},
    {"keep", 0, "DIR", CMD_CONFIRM, NULL, "keep sources, PTX, SASS, binaries and tool logs under DIR", OPT_COMMAND,
     .id = ID_KEEP},
    {"kernels", 0, "DIR", CMD_CONFIRM, NULL,
     "the kernels directory (default: beside the build directory, or in . or above)", OPT_COMMAND, .id = ID_KERNELS},
    {"runs", 0, "N", CMD_CONFIRM, NULL, "timed runs per variant (default 30, at least 20)", OPT_COMMAND,
     .id = ID_RUNS},
    {"list", 0, NULL, CMD_CONFIRM, NULL, "list the kernel pairs and exit", OPT_COMMAND, .id = ID_LIST},
    {"inspect", 0, "FILE", CMD_CONFIRM, NULL, "print the instruction mix of a PTX or SASS file and exit",
     OPT_COMMAND, .id = ID_INSPECT},

    {"jobs", 'j', "N", CMD_LINT, "", "files linted in parallel (default: number of cores)", OPT_APPLY,
     .apply = apply_jobs},
    {"watch", 0, NULL, CMD_LINT, NULL,
     "lint again whenever a file under PATH changes (inotify; the cache re-parses only what changed)", OPT_TRUE,
     FIELD(watch)},
    {"shard", 0, "K/N", CMD_LINT, NULL,
     "lint only the K-th of N slices of the files, balanced by size (a CI matrix of N jobs)", OPT_APPLY,
     .apply = apply_shard},
    {"version", 0, NULL, CMD_LINT, NULL, "print the version", OPT_COMMAND, .id = ID_VERSION},
    {"help", 'h', NULL, CMD_LINT | CMD_LSP | CMD_CONFIRM, NULL, "print this help", OPT_COMMAND, .id = ID_HELP},
};
const size_t cmdline_options_len = sizeof cmdline_options / sizeof cmdline_options[0];

/* ---- parsing ---- */

static const struct cmdline_option *find_long(unsigned command, const char *name, size_t n, bool *ambiguous)
{
    const struct cmdline_option *prefix = NULL;
    *ambiguous = false;
    for (size_t i = 0; i < cmdline_options_len; i++) {
        const struct cmdline_option *opt = &cmdline_options[i];
        if (!opt->name || !(opt->commands & command) || strncmp(opt->name, name, n) != 0) continue;
        if (opt->name[n] == '\0') return opt;
        /* An unambiguous prefix, as getopt_long takes it. */
        if (prefix) *ambiguous = true;
        prefix = opt;
    }
    return *ambiguous ? NULL : prefix;
}

static const struct cmdline_option *find_short(unsigned command, char c)
{
    for (size_t i = 0; i < cmdline_options_len; i++)
        if (cmdline_options[i].short_name == c && (cmdline_options[i].commands & command)) return &cmdline_options[i];
    return NULL;
}

static int apply(const struct cmdline_option *opt, const char *value, struct lint_options *o,
                 cmdline_handler handler, void *data, char **error)
{
    void *field = (char *)o + opt->offset;
    switch (opt->action) {
    case OPT_TRUE: *(bool *)field = true; return 0;
    case OPT_STRING:
        free(*(char **)field);
        *(char **)field = xstrdup(value);
        return 0;
    case OPT_LIST: sv_split_list(field, value); return 0;
    case OPT_APPLY: return opt->apply(o, value, error);
    default: return handler ? handler(data, opt->id, value, error) : 0;
    }
}

int cmdline_parse(unsigned command, int argc, char **argv, struct lint_options *o,
                  cmdline_handler handler, void *data, struct strvec *positional, char **error)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) sv_push(command & LINT_LSP ? &o->extra_args : positional, argv[i]);
            break;
        }
        const struct cmdline_option *opt = NULL;
        const char *value = NULL;
        if (a[0] == '-' && a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            bool ambiguous;
            opt = find_long(command, name, eq ? (size_t)(eq - name) : strlen(name), &ambiguous);
            if (!opt) {
                *error = xasprintf(ambiguous ? "ambiguous option '%s'" : "unknown option '%s'", a);
                return -1;
            }
            if (eq && !opt->arg) {
                *error = xasprintf("option --%s takes no value", opt->name);
                return -1;
            }
            if (opt->arg) {
                if (eq) value = eq + 1;
                else if (i + 1 < argc) value = argv[++i];
                else {
                    *error = xasprintf("option --%s needs a value", opt->name);
                    return -1;
                }
            }
            int rc = apply(opt, value, o, handler, data, error);
            if (rc) return rc;
        } else if (a[0] == '-' && a[1]) {
            /* Short options, bundled: -qj4, -j 4, -pDIR. */
            for (const char *c = a + 1; *c; c++) {
                opt = find_short(command, *c);
                if (!opt) {
                    *error = xasprintf("unknown option '%s'", a);
                    return -1;
                }
                if (opt->arg) {
                    if (c[1]) value = c + 1;
                    else if (i + 1 < argc) value = argv[++i];
                    else {
                        *error = xasprintf("option -%c needs a value", *c);
                        return -1;
                    }
                }
                int rc = apply(opt, value, o, handler, data, error);
                if (rc) return rc;
                if (opt->arg) break;
            }
        } else {
            sv_push(positional, a);
        }
    }
    return 0;
}

/* ---- help ---- */

void cmdline_print_help(FILE *out, unsigned command)
{
    const char *group = NULL, *printed = NULL;
    for (size_t i = 0; i < cmdline_options_len; i++) {
        const struct cmdline_option *opt = &cmdline_options[i];
        if (opt->group) group = opt->group;
        if (!(opt->commands & command) || opt->hidden) continue;
        if (group != printed) {
            if (printed) fputc('\n', out);
            if (*group) fprintf(out, "%s:\n", group);
            printed = group;
        }
        char left[64];
        if (opt->name && opt->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", opt->short_name, opt->name, opt->arg ? " " : "",
                     opt->arg ? opt->arg : "");
        else if (opt->name)
            snprintf(left, sizeof left, "--%s%s%s", opt->name, opt->arg ? " " : "", opt->arg ? opt->arg : "");
        else if (opt->short_name)
            snprintf(left, sizeof left, "-%c%s%s", opt->short_name, opt->arg ? " " : "", opt->arg ? opt->arg : "");
        else
            snprintf(left, sizeof left, "--%s%s", opt->arg ? " " : "", opt->arg ? opt->arg : "");
        fprintf(out, "  %-22s %s\n", left, opt->help);
    }
}
