/* main.c: the entry point: checks the rule registry, then dispatches to a
 * subcommand (lsp, confirm) or to the lint command line. */
#include "base/report.h"
#include "cli/cli.h"
#include "confirm/confirm.h"
#include "lsp/lsp.h"
#include "core/rule.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *problem = registry_check();
    if (problem) {
        report_info("internal error: rule registry: %s", problem);
        return 70;
    }
    if (argc > 1 && strcmp(argv[1], "lsp") == 0) return lsp_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "confirm") == 0) return confirm_main(argc - 1, argv + 1);
    return cli_lint_main(argc, argv);
}
