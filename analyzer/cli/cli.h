/* cli.h: the lint command line: option parsing, --list-rules, --explain, and
 * the run from paths to an exit code. */
#ifndef CUDALINT_CLI_H
#define CUDALINT_CLI_H

/* Exit codes (the README's contract): */
enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };

int cli_lint_main(int argc, char **argv);

#endif
