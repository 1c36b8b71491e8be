/* cmdline_docs.c: cudalint(1), bash and zsh completions from the option
 * table (cmdline_docs.h).  Built into the program and written at build time
 * by gendocs (analyzer/gendocs.c). */
#include "cli/cmdline_docs.h"
#include "core/cmdline.h"
#include "core/docs.h"
#include "core/rule.h"
#include "output/writers.h"

#include <string.h>

static const struct {
    unsigned command;
    const char *name; /* the subcommand word, or NULL for lint */
} commands[] = {{CMD_LINT, NULL}, {CMD_LSP, "lsp"}, {CMD_CONFIRM, "confirm"}};

static bool listed(const struct cmdline_option *opt, unsigned command)
{
    return (opt->commands & command) && !opt->hidden && (opt->name || opt->short_name);
}

/* ---- man page ---- */

/* Text for roff: backslashes and hyphens escaped, no control line. */
static void roff(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'') fputs("\\&", out);
    for (; *s; s++) {
        if (*s == '\\') fputs("\\e", out);
        else if (*s == '-') fputs("\\-", out);
        else fputc(*s, out);
    }
}

static void man_option(FILE *out, const struct cmdline_option *opt)
{
    fputs(".TP\n", out);
    if (opt->short_name) {
        fprintf(out, "\\fB\\-%c\\fR", opt->short_name);
        if (opt->name) fputs(", ", out);
    }
    if (opt->name) {
        fputs("\\fB\\-\\-", out);
        roff(out, opt->name);
        fputs("\\fR", out);
    }
    if (opt->arg) {
        fputs(" \\fI", out);
        roff(out, opt->arg);
        fputs("\\fR", out);
    }
    fputc('\n', out);
    roff(out, opt->help);
    fputs(".\n", out);
}

static void man_options(FILE *out, unsigned command)
{
    const char *group = NULL, *printed = NULL;
    for (size_t i = 0; i < cmdline_options_len; i++) {
        const struct cmdline_option *opt = &cmdline_options[i];
        if (opt->group) group = opt->group;
        if (!listed(opt, command)) continue;
        if (group != printed && group && *group) {
            fputs(".SS ", out);
            roff(out, group);
            fputc('\n', out);
        }
        printed = group;
        man_option(out, opt);
    }
}

void cmdline_docs_man(FILE *out)
{
    fprintf(out, ".\\\" cudalint(1): generated from the option table by gendocs; do not edit.\n");
    fprintf(out, ".TH CUDALINT 1 \"\" \"cudalint %s\" \"User Commands\"\n", cudalint_version);
    fputs(".SH NAME\ncudalint \\- lint and static analyzer for CUDA C/C++\n"
          ".SH SYNOPSIS\n"
          ".B cudalint\n[\\fIoptions\\fR] \\fIPATH\\fR... [\\fB\\-\\-\\fR \\fICLANG_ARGS\\fR...]\n.br\n"
          ".B cudalint\n\\fB\\-\\-stdin\\-filename\\fR \\fIPATH\\fR [\\fIoptions\\fR] < \\fIsource\\fR\n.br\n"
          ".B cudalint lsp\n[\\fIoptions\\fR]\n.br\n"
          ".B cudalint confirm\n[\\fIoptions\\fR] [\\fICODE\\fR...]\n"
          ".SH DESCRIPTION\n"
          "\\fBcudalint\\fR lints CUDA C/C++ files (\\fI.cu\\fR, \\fI.cuh\\fR; directories are searched recursively) "
          "with libclang: it flags what the CUDA C Programming Guide and Best Practices Guide call wrong or slow, "
          "explains each finding and offers a fix where one is safe.\n"
          ".PP\n\\fBcudalint lsp\\fR is a language server (LSP 3.17 on standard input and output). "
          "\\fBcudalint confirm\\fR compiles each rule's kernel pair, bad and fixed, compares the code nvcc "
          "generates and times both on a GPU.\n"
          ".SH OPTIONS\n",
          out);
    man_options(out, CMD_LINT);
    fputs(".SH LANGUAGE SERVER OPTIONS\n\\fBcudalint lsp\\fR takes:\n", out);
    man_options(out, CMD_LSP);
    fputs(".SH CONFIRM OPTIONS\n\\fBcudalint confirm\\fR takes:\n", out);
    man_options(out, CMD_CONFIRM);
    fputs(".SH RULES\n\\fBcudalint \\-\\-explain\\fR \\fICODE\\fR prints a rule's documentation. Stable rules run by "
          "default; preview rules only with \\fB\\-\\-preview\\fR or when selected by their exact code or name.\n",
          out);
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *r = rule_registry[i];
        fputs(".TP\n\\fB", out);
        roff(out, r->code);
        fputs("\\fR ", out);
        roff(out, r->name);
        fputs(" (", out);
        roff(out, rule_status_name(r->status));
        if (r->precision) {
            fputs(", precision ", out);
            roff(out, r->precision);
        }
        fputs(")", out);
        fputc('\n', out);
        roff(out, r->summary);
        fputc('\n', out);
    }
    fputs(".SH OUTPUT FORMATS\n", out);
    for (size_t i = 0; i < output_writers_len; i++) {
        fputs(".TP\n.B ", out);
        roff(out, output_writers[i]->name);
        fputc('\n', out);
        roff(out, output_writers[i]->description);
        fputc('\n', out);
    }
    fputs(".SH EXIT STATUS\n"
          ".TP\n.B 0\nno finding at or above the fail level (\\fB\\-\\-fail\\-level\\fR).\n"
          ".TP\n.B 1\nfindings.\n"
          ".TP\n.B 2\nusage, configuration or input error.\n"
          ".SH ENVIRONMENT\n"
          ".TP\n.B CUDA_PATH\nthe CUDA Toolkit, when \\fB\\-\\-cuda\\-path\\fR is not given.\n"
          ".TP\n.B NO_COLOR\nno colour with \\fB\\-\\-color auto\\fR.\n"
          ".TP\n.B XDG_CACHE_HOME\nthe cache directory is \\fI$XDG_CACHE_HOME/cudalint\\fR "
          "(default \\fI~/.cache/cudalint\\fR).\n"
          ".TP\n.B CUDALINT_LIBCLANG\nanother libclang to load.\n"
          ".SH FILES\n"
          ".TP\n.I .cudalint.yaml\nconfiguration, from the file's directory or the nearest parent.\n"
          ".TP\n.I compile_commands.json\nflags per file (\\fB\\-p\\fR \\fIDIR\\fR, or ./ and ./build/).\n"
          ".SH SEE ALSO\n\\fBclang\\fR(1), \\fBnvcc\\fR(1)\n",
          out);
}

/* ---- completions ---- */

/* The choices of an option's value, space-separated, or NULL. */
static void value_words(const struct cmdline_option *opt, FILE *out, const char *sep)
{
    const char *n = opt->name ? opt->name : "";
    if (opt->values) {
        for (const char *p = opt->values; *p; p++) fputs(*p == ' ' ? sep : (char[]){*p, 0}, out);
    } else if (strcmp(n, "format") == 0) {
        for (size_t i = 0; i < output_writers_len; i++) fprintf(out, "%s%s", i ? sep : "", output_writers[i]->name);
    } else if (strcmp(n, "select") == 0 || strcmp(n, "ignore") == 0 || strcmp(n, "explain") == 0) {
        for (size_t i = 0; i < rule_registry_len; i++)
            fprintf(out, "%s%s%s%s", i ? sep : "", rule_registry[i]->code, sep, rule_registry[i]->name);
    }
}

static bool has_values(const struct cmdline_option *opt)
{
    const char *n = opt->name ? opt->name : "";
    return opt->values || strcmp(n, "format") == 0 || strcmp(n, "select") == 0 || strcmp(n, "ignore") == 0 ||
           strcmp(n, "explain") == 0;
}

/* "dir", "file" or NULL: what an option's value names on disk. */
static const char *value_kind(const struct cmdline_option *opt)
{
    if (!opt->arg) return NULL;
    if (strcmp(opt->arg, "DIR") == 0) return "dir";
    if (strcmp(opt->arg, "FILE") == 0 || strcmp(opt->arg, "PATH") == 0) return "file";
    return NULL;
}

static void bash_words(FILE *out, unsigned command)
{
    bool first = true;
    for (size_t i = 0; i < cmdline_options_len; i++) {
        const struct cmdline_option *opt = &cmdline_options[i];
        if (!listed(opt, command)) continue;
        if (opt->short_name) fprintf(out, "%s-%c", first ? "" : " ", opt->short_name), first = false;
        if (opt->name) fprintf(out, "%s--%s", first ? "" : " ", opt->name), first = false;
    }
}

static void bash_case_names(FILE *out, const struct cmdline_option *opt)
{
    if (opt->short_name && opt->name) fprintf(out, "-%c|--%s", opt->short_name, opt->name);
    else if (opt->name) fprintf(out, "--%s", opt->name);
    else fprintf(out, "-%c", opt->short_name);
}

void cmdline_docs_bash(FILE *out)
{
    fputs("# bash completion for cudalint: generated from the option table by gendocs; do not edit.\n"
          "_cudalint()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=\"\" cmd=lint\n"
          "    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    # --opt=value: bash splits it at '='.\n"
          "    if [[ $cur == = ]]; then cur=\"\"; prev=${COMP_WORDS[COMP_CWORD-1]};\n"
          "    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
          "    case ${COMP_WORDS[1]} in lsp|confirm) cmd=${COMP_WORDS[1]} ;; esac\n"
          "    local values=\"\" kind=\"\" takes=0\n"
          "    case $cmd:$prev in\n",
          out);
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        const char *cname = commands[c].name ? commands[c].name : "lint";
        for (size_t i = 0; i < cmdline_options_len; i++) {
            const struct cmdline_option *opt = &cmdline_options[i];
            if (!listed(opt, commands[c].command) || !opt->arg) continue;
            fprintf(out, "        %s:", cname);
            if (opt->short_name && opt->name) fprintf(out, "-%c|%s:--%s", opt->short_name, cname, opt->name);
            else bash_case_names(out, opt);
            fputs(") takes=1", out);
            if (has_values(opt)) {
                fputs("; values=\"", out);
                value_words(opt, out, " ");
                fputc('"', out);
            }
            if (value_kind(opt)) fprintf(out, "; kind=%s", value_kind(opt));
            fputs(" ;;\n", out);
        }
    }
    fputs("    esac\n"
          "    if (( takes )); then\n"
          "        if [[ -n $values ]]; then\n"
          "            # Comma-separated lists (--select CU1,CU2...): complete the last item.\n"
          "            local head=\"\"\n"
          "            [[ $cur == *,* ]] && head=${cur%,*},\n"
          "            COMPREPLY=($(compgen -P \"$head\" -W \"$values\" -- \"${cur##*,}\"))\n"
          "        elif [[ $kind == dir ]]; then\n"
          "            COMPREPLY=($(compgen -d -- \"$cur\"))\n"
          "        elif [[ $kind == file ]]; then\n"
          "            COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "        fi\n"
          "        return 0\n"
          "    fi\n"
          "    if [[ $cur == -* ]]; then\n"
          "        case $cmd in\n",
          out);
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        fprintf(out, "            %s) COMPREPLY=($(compgen -W \"", commands[c].name ? commands[c].name : "lint");
        bash_words(out, commands[c].command);
        fputs("\" -- \"$cur\")) ;;\n", out);
    }
    fputs("        esac\n"
          "        return 0\n"
          "    fi\n"
          "    if [[ $cmd == lint ]] && (( COMP_CWORD == 1 )); then\n"
          "        COMPREPLY=($(compgen -W \"lsp confirm\" -- \"$cur\"))\n"
          "    fi\n"
          "    [[ $cmd == confirm ]] && COMPREPLY+=($(compgen -W \"",
          out);
    for (size_t i = 0; i < rule_registry_len; i++) fprintf(out, "%s%s", i ? " " : "", rule_registry[i]->code);
    fputs("\" -- \"$cur\"))\n"
          "    [[ $cmd == lint ]] && COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
          "    return 0\n"
          "}\n"
          "complete -o filenames -F _cudalint cudalint\n",
          out);
}

/* Help text inside a zsh _arguments description: within single quotes, with
   brackets and colons quoted. */
static void zsh_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", out);
        else if (*s == '[' || *s == ']' || *s == ':' || *s == '\\') fprintf(out, "\\%c", *s);
        else fputc(*s, out);
    }
}

static void zsh_spec(FILE *out, const struct cmdline_option *opt)
{
    /* '(-o --output-file)'{-o+,--output-file=}'[help]:FILE:_files' */
    const char *eq = opt->arg ? "=" : "", *plus = opt->arg ? "+" : "";
    fputs("    ", out);
    if (opt->short_name && opt->name)
        fprintf(out, "'(-%c --%s)'{-%c%s,--%s%s}'", opt->short_name, opt->name, opt->short_name, plus, opt->name, eq);
    else if (opt->name)
        fprintf(out, "'--%s%s", opt->name, eq);
    else
        fprintf(out, "'-%c%s", opt->short_name, plus);
    fputc('[', out);
    zsh_text(out, opt->help);
    fputc(']', out);
    if (opt->arg) {
        fputc(':', out);
        zsh_text(out, opt->arg);
        fputc(':', out);
        const char *n = opt->name ? opt->name : "";
        if (strcmp(n, "select") == 0 || strcmp(n, "ignore") == 0) {
            fputs("_sequence compadd - ", out);
            value_words(opt, out, " ");
        } else if (has_values(opt)) {
            fputc('(', out);
            value_words(opt, out, " ");
            fputc(')', out);
        } else if (value_kind(opt)) {
            fputs(strcmp(value_kind(opt), "dir") == 0 ? "_files -/" : "_files", out);
        } else {
            fputc(' ', out);
        }
    }
    fputs("'\n", out);
}

void cmdline_docs_zsh(FILE *out)
{
    fputs("#compdef cudalint\n"
          "# zsh completion for cudalint: generated from the option table by gendocs; do not edit.\n",
          out);
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        fprintf(out, "_cudalint_%s_options=(\n", commands[c].name ? commands[c].name : "lint");
        for (size_t i = 0; i < cmdline_options_len; i++)
            if (listed(&cmdline_options[i], commands[c].command)) zsh_spec(out, &cmdline_options[i]);
        fputs(")\n", out);
    }
    fputs("_cudalint() {\n"
          "  case $words[2] in\n"
          "    lsp) shift words; (( CURRENT-- )); _arguments -s -S $_cudalint_lsp_options ;;\n"
          "    confirm) shift words; (( CURRENT-- )); _arguments -s -S $_cudalint_confirm_options '*:rule:(",
          out);
    for (size_t i = 0; i < rule_registry_len; i++) fprintf(out, "%s%s", i ? " " : "", rule_registry[i]->code);
    fputs(")' ;;\n"
          "    *) _arguments -s -S $_cudalint_lint_options '1: :((lsp\\:\"language server\" confirm\\:\"prove rules on kernels\"))' '*:file:_files' ;;\n"
          "  esac\n"
          "}\n"
          "_cudalint \"$@\"\n",
          out);
}
