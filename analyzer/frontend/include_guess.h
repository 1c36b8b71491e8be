/* include_guess.h: guessing the include folders of a file linted without its
 * build: a quoted include that does not resolve is looked for under the
 * linted tree, and the folder holding it becomes a quote-include folder (as
 * clangd's fallback does for files without a compile command). */
#ifndef CUDALINT_INCLUDE_GUESS_H
#define CUDALINT_INCLUDE_GUESS_H

#include "core/options.h"
#include "base/util.h"

/* The linted tree of abs_file: the directory named on the command line
   that holds it (the deepest), else the repository (the nearest folder
   above with .git), else the file's own folder.  Caller frees. */
char *include_guess_tree_root(const struct lint_options *o, const char *abs_file);

/* Where an include not found under the linted tree root (of abs_file) is
   looked for next: the repository holding it (the nearest folder above the
   file with .git) when that lies above root, else the working directory
   when root lies inside it (and it is not /); NULL when neither.  Caller
   frees. */
char *include_guess_outer_root(const char *abs_file, const char *root);

/* The files of the tree at root, relative to it (listed once per process,
   hidden folders left out). */
const struct strvec *include_guess_tree_files(const char *root);

/* The folders to add (absolute, each once, in the order found) so that the
   includes of abs_file, and of the project headers they reach, resolve: for
   each `#include "name"` found neither next to its includer, nor in a folder
   already guessed or named on the command line (-I, -isystem, -iquote,
   -idirafter after "--"), nor among the CUDA headers (toolkit_include, may be NULL,
   and the declarations header), the files under the linted tree whose path
   ends in /name (not found there: under include_guess_outer_root's
   folder); the folder of the only one, or of the one nearest the includer
   (between equally near ones, the one nearest the tree's top; none on
   a tie).  Those go to dirs (for -iquote).  An
   `#include <name>` that is neither a CUDA nor a system header
   (/usr/include, /usr/local/include, the C++ library's, clang's) is looked
   for the same way, and its folder goes to angled_dirs (for -I: a project
   header its build finds with -I, such as the CUDA samples' helper_cuda.h),
   unless it also holds a header named like one of the C library's, POSIX's
   or the toolkit's that the files include with angle brackets (a compat/
   folder with its own sys/time.h): then to after_dirs (may be NULL; for -idirafter, searched
   after the system's folders).  The linted tree is the directory named on the
   command line that holds the file, else the repository (the nearest folder
   above with .git), else the file's own folder.  A tree is listed once per
   process. */
void include_guess(const struct lint_options *o, const char *abs_file, const char *toolkit_include,
                   struct strvec *dirs, struct strvec *angled_dirs, struct strvec *after_dirs);

/* The folders a parse of abs_file guesses: none when the compile database
   has a command for it, else include_guess() with the CUDA headers of the
   run's mode.  For reports (--verbose, --statistics). */
void include_guess_for_file(const struct lint_options *o, const char *abs_file, struct strvec *dirs);

/* The guessed folders of a run: each folder once, with how many of the
   files (absolute paths) it was guessed for. */
struct include_guess_summary {
    struct strvec folders;
    size_t *files;
};
void include_guess_summarize(const struct lint_options *o, const char *const *abs_files, size_t n,
                             struct include_guess_summary *out);
void include_guess_summary_release(struct include_guess_summary *s);

#endif
