/* astutil.h: libclang helpers shared by rules and analyses: implicit-cast
 * stripping, operator kinds, source text, CUDA attributes, literal values. */
#ifndef CUDALINT_ASTUTIL_H
#define CUDALINT_ASTUTIL_H

#include "clang/clang_api.h"
#include <stdbool.h>
#include <stddef.h>

/* The children of a cursor, in order (up to max); returns the count. */
unsigned ast_children(CXCursor c, CXCursor *out, unsigned max);
/* The i-th child or a null cursor. */
CXCursor ast_child(CXCursor c, unsigned i);
/* Skips implicit casts, parentheses and other unexposed wrappers. */
CXCursor ast_strip(CXCursor c);
/* The canonical spelling of a cooperative_groups type, after a reference
   or pointer ("cooperative_groups::__v1::thread_block_tile<32U, ...>"), or
   NULL for any other type.  Caller frees. */
char *ast_cg_type_spelling(CXType t);
/* ast_strip, and explicit casts too: (float)n, static_cast<T *>(p),
   reinterpret_cast, const_cast, T(n). */
CXCursor ast_strip_casts(CXCursor c);
bool ast_is_null(CXCursor c);
/* The same node of the source (kind and extent), however the cursors were
   reached (clang_equalCursors tells cursors from different traversals
   apart). */
bool ast_same_node(CXCursor a, CXCursor b);

/* Operator of a BinaryOperator / CompoundAssignOperator / UnaryOperator. */
enum CXBinaryOperatorKind ast_binop(CXCursor c);
enum CXUnaryOperatorKind ast_unop(CXCursor c);
/* Is call one of the C and C++ library calls that never return: exit,
   _Exit, quick_exit, abort, std::terminate, an assertion failure
   (__assert_fail, __assert_rtn, _assert, _wassert)? */
bool ast_call_never_returns(CXCursor call);
/* Does statement s leave the block it is in: return, break or continue, as
   itself or as the last statement of its braces (`if (c) { ...; return; }`)? */
bool ast_stmt_leaves_block(CXCursor s);
/* Does c lie within outer's extent (expansion offsets; c may be outer)? */
bool ast_inside(CXCursor outer, CXCursor c);
/* The last statement of the block (a compound statement), a final bare
   `return;` passed over when something comes before it; a null cursor for an
   empty block or one too long to read. */
CXCursor ast_block_last_statement(CXCursor block);
/* ++ or -- (pre or post). */
bool ast_unop_is_incdec(enum CXUnaryOperatorKind op);

/* Source text of a cursor's extent (spelled tokens joined), caller frees. */
char *ast_text(CXTranslationUnit tu, CXCursor c);

/* clang_getFileContents(), remembered until the next walk starts: libclang
   finds a file's buffer by scanning every source location entry of the unit
   (tens of thousands with the toolkit's headers) on each call, which made the
   analyses that read a member's spelling ("threadIdx.x" is a property whose
   cursor has no name) take minutes on template-heavy files.  The engine calls
   ast_file_contents_forget() when it starts walking a unit (a reparse or a new
   unit may reuse the same pointers).  Per thread. */
const char *ast_file_contents(CXTranslationUnit tu, CXFile f, size_t *size);
void ast_file_contents_forget(void);
/* The component ('x', 'y' or 'z') that a member expression of threadIdx,
   blockIdx, blockDim or gridDim names: its spelling, else the text after
   the dot where it is spelled (inside a macro too) or expanded; 0 when
   none. */
char ast_builtin_component(CXTranslationUnit tu, CXCursor member);
/* The source bytes of c when its whole extent is written in one file,
   outside any macro expansion (and *range, when given, its extent); NULL
   otherwise.  Caller frees. */
char *ast_plain_source(CXTranslationUnit tu, CXCursor c, CXSourceRange *range);
/* The text of c where its tokens are spelled, when they are spelled in one
   place inside a macro's use: a macro argument (CHECK(t[i + 1]) gives
   "i + 1" for the index), or with in_body, a macro's definition.  Whitespace
   is collapsed; NULL when c is not from a macro or not spelled in one
   piece.  Caller frees. */
char *ast_macro_spelled_text(CXTranslationUnit tu, CXCursor c, bool in_body);
/* Spelling of a cursor as a malloc'd string. */
char *ast_spelling(CXCursor c);
/* bool, char, the integer types and enums (the CXType kinds Bool..Int128, Enum). */
bool ast_is_integer_kind(enum CXTypeKind k);
/* Does the declaration carry an attribute of this kind among its children
   (CXCursor_CUDASharedAttr: "is it __shared__", CUDAConstantAttr ...)? */
bool ast_has_attr(CXCursor decl, enum CXCursorKind attr);
/* Where a function runs, from its CUDA attributes. */
enum exec_space { SPACE_HOST = 1, SPACE_DEVICE = 2, SPACE_GLOBAL = 4 | 2 };
/* Exec space bits (enum exec_space) of a function declaration. */
unsigned ast_exec_space(CXCursor fn);
/* Integer value of a constant expression (literals, enum constants, constexpr,
   const locals with constant initialisers); false when not constant. */
bool ast_eval_int(CXCursor c, long long *value);

#endif
