/* fuzz_text_edits.c: the language server's text model: line tables, LSP
 * positions in UTF-8, UTF-16 and UTF-32 units against byte offsets (both
 * ways), incremental edits, and file URIs.  The input starts with a text,
 * then (after "@@@") a list of edits: each takes 4+4+4+4 bytes of positions,
 * one byte of encoding and one of replacement length. */
#include "fuzz_common.h"
#include "lsp/lsp_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = {data, size};
    size_t len;
    char *text = fuzz_part(&in, &len);
    for (int n = 0; n < 64 && in.left; n++) {
        size_t l0 = fuzz_u32(&in) % 4096, c0 = fuzz_u32(&in) % 4096;
        size_t l1 = fuzz_u32(&in) % 4096, c1 = fuzz_u32(&in) % 4096;
        enum lsp_encoding enc = (enum lsp_encoding)(fuzz_u8(&in) % 3);
        size_t rl = fuzz_u8(&in);
        if (rl > in.left) rl = in.left;
        struct lsp_lines lines;
        lsp_lines_build(&lines, text, len);
        size_t from = lsp_offset_at(&lines, text, len, l0, c0, enc);
        size_t to = lsp_offset_at(&lines, text, len, l1, c1, enc);
        if (from > len || to > len) abort();
        /* Back to characters: every line and byte column must map. */
        for (size_t l = 0; l < lines.n && l < 64; l++) {
            size_t line_len = (l + 1 < lines.n ? lines.start[l + 1] : len) - lines.start[l];
            size_t ch = lsp_character_at(&lines, text, len, l, line_len, enc);
            size_t back = lsp_offset_at(&lines, text, len, l, ch, enc);
            if (back < lines.start[l] || back > len) abort();
        }
        lsp_lines_release(&lines);
        if (to < from) {
            size_t t = to;
            to = from;
            from = t;
        }
        lsp_text_splice(&text, &len, from, to, (const char *)in.p, rl);
        in.p += rl;
        in.left -= rl;
        if (text[len] != '\0') abort();
    }
    /* URIs: the text as one; a path made into one reads back as a path
       that makes the same URI (paths are normalised on the way). */
    char *p = lsp_uri_to_path(text);
    if (p) {
        char *u = lsp_path_to_uri(p);
        char *p2 = lsp_uri_to_path(u);
        if (!p2) abort();
        char *u2 = lsp_path_to_uri(p2);
        if (strcmp(u, u2) != 0) abort();
        free(u2);
        free(p2);
        free(u);
        free(p);
    }
    free(text);
    return 0;
}
