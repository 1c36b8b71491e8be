/* lsp_text.c: the language server's text model: line tables, conversions
 * between LSP positions (UTF-8/16/32 code units) and byte offsets, splicing
 * incremental edits, and file URIs.  Pure functions, no locking needed. */
#include "lsp/lsp_text.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

const char *lsp_encoding_name(enum lsp_encoding e)
{
    switch (e) {
    case LSP_ENC_UTF8: return "utf-8";
    case LSP_ENC_UTF32: return "utf-32";
    case LSP_ENC_UTF16: break;
    }
    return "utf-16";
}

void lsp_lines_build(struct lsp_lines *l, const char *text, size_t len)
{
    size_t cap = 64;
    l->start = xmalloc(cap * sizeof *l->start);
    l->n = 0;
    l->start[l->n++] = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n' && text[i] != '\r') continue;
        if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') i++;
        if (l->n == cap) {
            cap *= 2;
            l->start = xrealloc(l->start, cap * sizeof *l->start);
        }
        l->start[l->n++] = i + 1;
    }
}

void lsp_lines_release(struct lsp_lines *l)
{
    free(l->start);
    l->start = NULL;
    l->n = 0;
}

/* Length in bytes of line i without its line ending. */
static size_t lsp_line_length(const struct lsp_lines *l, const char *text, size_t len, size_t i)
{
    if (i >= l->n) return 0;
    size_t b = l->start[i];
    size_t e = b;
    while (e < len && text[e] != '\n' && text[e] != '\r') e++;
    return e - b;
}

/* Length in bytes of the UTF-8 sequence at s (at most n bytes) and its code
   point's width in enc units.  A malformed byte counts as one byte and one
   unit, as editors show it as one replacement character. */
static size_t utf8_step(const unsigned char *s, size_t n, enum lsp_encoding enc,
                        size_t *units)
{
    size_t want = 1;
    if (s[0] >= 0xF0 && s[0] <= 0xF4) want = 4;
    else if (s[0] >= 0xE0) want = 3;
    else if (s[0] >= 0xC2 && s[0] < 0xE0) want = 2;
    if (s[0] >= 0xF5) want = 1;
    if (want > n) want = 1;
    for (size_t i = 1; i < want; i++)
        if ((s[i] & 0xC0) != 0x80) want = 1;
    if (enc == LSP_ENC_UTF8) *units = want;
    else if (enc == LSP_ENC_UTF16) *units = want == 4 ? 2 : 1;
    else *units = 1;
    return want;
}

size_t lsp_offset_at(const struct lsp_lines *l, const char *text, size_t len,
                     size_t line, size_t character, enum lsp_encoding enc)
{
    if (line >= l->n) return len;
    size_t pos = l->start[line];
    size_t end = pos + lsp_line_length(l, text, len, line);
    size_t units = 0;
    while (pos < end && units < character) {
        size_t w;
        size_t step = utf8_step((const unsigned char *)text + pos, end - pos, enc, &w);
        if (units + w > character) break; /* inside a character: its start */
        units += w;
        pos += step;
    }
    return pos;
}

size_t lsp_character_at(const struct lsp_lines *l, const char *text, size_t len,
                        size_t line, size_t byte_col, enum lsp_encoding enc)
{
    if (line >= l->n) return 0;
    size_t pos = l->start[line];
    size_t linelen = lsp_line_length(l, text, len, line);
    if (byte_col > linelen) byte_col = linelen;
    if (enc == LSP_ENC_UTF8) return byte_col;
    size_t end = pos + byte_col, units = 0;
    while (pos < end) {
        size_t w;
        size_t step = utf8_step((const unsigned char *)text + pos,
                                l->start[line] + linelen - pos, enc, &w);
        if (pos + step > end) break; /* byte_col inside a character */
        units += w;
        pos += step;
    }
    return units;
}

void lsp_text_splice(char **text, size_t *len, size_t from, size_t to,
                     const char *repl, size_t repl_len)
{
    if (from > *len) from = *len;
    if (to > *len) to = *len;
    if (to < from) to = from;
    size_t new_len = *len - (to - from) + repl_len;
    char *t = *text;
    if (repl_len > to - from) t = xrealloc(t, new_len + 1);
    memmove(t + from + repl_len, t + to, *len - to);
    memcpy(t + from, repl, repl_len);
    t[new_len] = '\0';
    *text = t;
    *len = new_len;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char *lsp_uri_to_path(const char *uri)
{
    if (!uri || strncmp(uri, "file://", 7) != 0) return NULL;
    const char *p = uri + 7;
    /* An authority other than empty or localhost names another machine. */
    if (*p != '/') {
        if (strncmp(p, "localhost/", 10) != 0) return NULL;
        p += 9;
    }
    struct strbuf sb;
    sb_init(&sb);
    for (; *p && *p != '?' && *p != '#'; p++) {
        if (*p == '%') {
            int hi = hexval((unsigned char)p[1]), lo = hi < 0 ? -1 : hexval((unsigned char)p[2]);
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                sb_release(&sb);
                return NULL;
            }
            sb_addc(&sb, (char)(hi * 16 + lo));
            p += 2;
        } else {
            sb_addc(&sb, *p);
        }
    }
    if (sb.len == 0) {
        sb_release(&sb);
        return NULL;
    }
    return sb_detach(&sb);
}

char *lsp_path_to_uri(const char *path)
{
    char *abs = path_absolute(path);
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "file://");
    for (const unsigned char *p = (const unsigned char *)abs; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            sb_addc(&sb, (char)*p);
        else
            sb_addf(&sb, "%%%02X", *p);
    }
    free(abs);
    return sb_detach(&sb);
}
