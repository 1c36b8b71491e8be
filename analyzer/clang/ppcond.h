/* ppcond.h: the preprocessor conditionals of a source text, read as text:
 * the arms (#if, #elif, #else) around a place, and what the other arms of
 * those groups say.  Code in an arm clang did not take is not in the AST;
 * a rule that must know what the other arm does (a compatibility wrapper
 * that picks the old or the new form of an API by a configuration macro)
 * reads it here. */
#ifndef CUDALINT_PPCOND_H
#define CUDALINT_PPCOND_H

#include <stdbool.h>
#include <stddef.h>

/* Does an arm other than the one holding byte offset `at`, of any
   #if/#ifdef/#ifndef group around it, contain the identifier `word` (as a
   whole token, outside comments)?  Groups whose conditions name one of
   `known` (NULL-terminated, may be NULL: macros whose value the parse has
   right, such as the CUDA version) are left out: the parse took the arm
   the compiler takes. */
bool ppcond_other_arm_mentions(const char *text, size_t len, size_t at, const char *word,
                               const char *const *known);

#endif
