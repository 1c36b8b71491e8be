/* lsp_text.h: the language server's text model: line tables, LSP positions in
 * the negotiated encoding (UTF-8, UTF-16 or UTF-32 code units) against byte
 * offsets, incremental edits, and file URIs against paths. */
#ifndef CUDALINT_LSP_TEXT_H
#define CUDALINT_LSP_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* What an LSP "character" counts (LSP 3.17 PositionEncodingKind). */
enum lsp_encoding { LSP_ENC_UTF16 = 0, LSP_ENC_UTF8, LSP_ENC_UTF32 };

const char *lsp_encoding_name(enum lsp_encoding e); /* "utf-16" ... */

/* Byte offsets where each line of a text starts.  Lines end at "\n", "\r\n" or
   a lone "\r", as in LSP and in clang's line numbering. */
struct lsp_lines {
    size_t *start; /* start[i]: offset of line i (0-based) */
    size_t n;      /* number of lines, at least 1 */
};

void lsp_lines_build(struct lsp_lines *l, const char *text, size_t len);
void lsp_lines_release(struct lsp_lines *l);

/* LSP position (0-based line, character in enc units) to a byte offset.  A line
   past the end maps to the end of the text, a character past the end of its
   line to the end of the line (LSP 3.17), one inside a UTF-8 sequence or
   between a UTF-16 surrogate pair to the start of that character. */
size_t lsp_offset_at(const struct lsp_lines *l, const char *text, size_t len,
                     size_t line, size_t character, enum lsp_encoding enc);
/* Byte column (0-based, within line) to the character in enc units. */
size_t lsp_character_at(const struct lsp_lines *l, const char *text, size_t len,
                        size_t line, size_t byte_col, enum lsp_encoding enc);

/* Replaces bytes [from, to) of *text (length *len, NUL-terminated, malloc'd)
   with repl (repl_len bytes). */
void lsp_text_splice(char **text, size_t *len, size_t from, size_t to,
                     const char *repl, size_t repl_len);

/* "file:///a%20b/c.cu" -> "/a b/c.cu" (malloc'd); NULL for other schemes,
   a missing path or a bad escape. */
char *lsp_uri_to_path(const char *uri);
/* "/a b/c.cu" -> "file:///a%20b/c.cu" (malloc'd); relative paths are made
   absolute first. */
char *lsp_path_to_uri(const char *path);

#endif
