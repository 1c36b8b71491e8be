/* compile_args.h: compile_commands.json loading and the translation of nvcc
 * (and gcc/clang) command lines into arguments libclang can parse with. */
#ifndef CUDALINT_COMPILE_ARGS_H
#define CUDALINT_COMPILE_ARGS_H

#include "base/util.h"
#include <stdbool.h>

struct compile_command {
    char *file;       /* absolute, normalized */
    char *directory;  /* absolute */
    struct strvec argv; /* the original command line, split */
};

struct compdb {
    char *path;       /* the compile_commands.json read */
    struct compile_command *cmds;
    size_t n_cmds;
};

/* Loads DIR/compile_commands.json (or the file itself when path names a file).
   Returns NULL and sets *error (malloc'd, one line naming file and problem) on a
   missing or malformed database. */
struct compdb *compdb_load(const char *path, char **error);
/* Looks in ./ and ./build/ for compile_commands.json; NULL when none. */
char *compdb_discover(void);
const struct compile_command *compdb_find(const struct compdb *db, const char *abs_path);
void compdb_free(struct compdb *db);

/* Splits a shell-style command string into argv (handles quotes, backslashes). */
void split_command_line(const char *cmd, struct strvec *out);

/* Translates a compiler command line (argv[0] is the compiler) into clang
   arguments: include paths (-I, -isystem, -iquote, nvcc's -isystem=DIR and
   --include-path), defines/undefines, -std, -include, warnings-free flags, with
   relative paths made absolute against directory and response files
   (@file, --options-file) expanded.  Drops the source file, -o/-c, nvcc-only
   flags (-gencode, -rdc, --expt-*, -Xcompiler's unknown host flags, -ccbin, ...).
   GPU architectures named by -arch/-gencode/--generate-code/--cuda-gpu-arch are
   appended to archs ("sm_90").  Returns 0, or -1 with *error set. */
int translate_compile_args(const struct strvec *argv, const char *directory,
                           struct strvec *clang_args, struct strvec *archs,
                           char **error);

/* Arguments a configuration file from a cloned repository may not hand to
   clang: those that load code (-fplugin, -Xclang -load), name programs or
   where they come from (-B, --gcc-toolchain), write files (-o, -MF,
   -save-temps, module caches), read what never ends (@/dev/zero, -include
   of a device) or pass arbitrary flags on (-mllvm, -Xlinker, --config).
   After -Xclang only -f and -W forms are allowed.  Returns why arg (after
   prev, NULL at the start) is refused, or NULL when it is fine. */
const char *compile_arg_refused(const char *prev, const char *arg);

#endif
