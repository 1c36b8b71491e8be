/* cmdline.h: the one table of command-line options of every cudalint command
 * (lint, lsp, confirm), its parser and the --help text generated from it.
 *
 * An option either sets a field of struct lint_options (the same way for
 * every command that takes it) or is handed to its command by id.  The table
 * is plain data, so that the help, a man page or shell completions can be
 * generated from it: cmdline_options[] in order, filtered by command. */
#ifndef CUDALINT_CMDLINE_H
#define CUDALINT_CMDLINE_H

#include "core/options.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cmdline_command {
    CMD_LINT = 1,    /* cudalint [options] PATH... */
    CMD_LSP = 2,     /* cudalint lsp */
    CMD_CONFIRM = 4, /* cudalint confirm */
};

enum cmdline_action {
    OPT_COMMAND, /* the command handles it (by id) */
    OPT_TRUE,    /* sets a bool field */
    OPT_STRING,  /* replaces a char * field with a copy of the value */
    OPT_LIST,    /* appends the value's comma-separated items to a strvec field */
    OPT_APPLY,   /* apply() checks the value and sets what it needs */
};

struct cmdline_option {
    const char *name;      /* long name without "--" */
    char short_name;       /* 'j' for -j, or 0 */
    const char *arg;       /* what the value is ("LIST", "DIR"), NULL: takes none */
    unsigned commands;     /* enum cmdline_command bits: who takes it */
    const char *group;     /* --help heading it starts, or NULL */
    const char *help;      /* one line */
    enum cmdline_action action;
    size_t offset;         /* of the field in struct lint_options */
    /* OPT_APPLY: returns 0, or -1 with *error (the message after "cudalint: error: "). */
    int (*apply)(struct lint_options *o, const char *value, char **error);
    int id;                /* OPT_COMMAND: what the command is told */
    bool hidden;           /* accepted but not listed (--stdio) */
    const char *values;    /* the value's fixed choices, space-separated (completions), or NULL */
};

extern const struct cmdline_option cmdline_options[];
extern const size_t cmdline_options_len;

/* What OPT_COMMAND options tell their command. */
enum cmdline_id {
    ID_HELP = 1, ID_DASHDASH, ID_VERSION, ID_LIST_RULES, ID_EXPLAIN, /* lint */
    ID_NO_REUSE, ID_LOG, ID_STDIO,                                  /* lsp */
    ID_STATIC, ID_GPU, ID_ARCH, ID_DB, ID_REPORT, ID_NVCC, ID_KEEP, /* confirm */
    ID_KERNELS, ID_RUNS, ID_LIST, ID_INSPECT,
};

/* The command's handler of OPT_COMMAND options: returns 0 to go on, 1 to stop
   parsing (--help, --version: the command has answered), or -1 with *error
   set for a usage error. */
typedef int (*cmdline_handler)(void *data, int id, const char *value, char **error);

/* Parses argv[1..argc) for command: options anywhere, "--opt value",
   "--opt=value", "-j4", "-qj4", unambiguous prefixes of long names; words that
   are not options go to positional; everything after "--" goes to
   o->extra_args (lint and lsp).  o may be NULL for a command whose options are
   all OPT_COMMAND (confirm).  Returns 0 when the command goes on, 1 when a
   handler said stop (exit 0), or -1 with *error set (a usage error). */
int cmdline_parse(unsigned command, int argc, char **argv, struct lint_options *o,
                  cmdline_handler handler, void *data, struct strvec *positional, char **error);

/* Prints the command's options as --help lists them, under their headings. */
void cmdline_print_help(FILE *out, unsigned command);

#endif
