/* gendocs.c: writes cudalint(1) and the bash and zsh completions from the
 * option table at build time (cli/cmdline_docs.h).
 * usage: gendocs man|bash|zsh OUT */
#include "cli/cmdline_docs.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gendocs man|bash|zsh OUT\n");
        return 2;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 1;
    }
    if (strcmp(argv[1], "man") == 0) cmdline_docs_man(out);
    else if (strcmp(argv[1], "bash") == 0) cmdline_docs_bash(out);
    else if (strcmp(argv[1], "zsh") == 0) cmdline_docs_zsh(out);
    else {
        fprintf(stderr, "gendocs: unknown kind '%s'\n", argv[1]);
        fclose(out);
        return 2;
    }
    return fclose(out) == 0 ? 0 : 1;
}
