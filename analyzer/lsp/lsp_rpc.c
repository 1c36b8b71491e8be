/* lsp_rpc.c: the language server's wire format: reading Content-Length
 * framed JSON-RPC messages from a file descriptor (partial reads, large
 * bodies, lenient line ends, resynchronising after a bad header) and writing
 * them.  No JSON here: bodies are bytes. */
#include "lsp/lsp_rpc.h"
#include "base/proc.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* A body larger than this is refused (and skipped) rather than buffered. */
#define MAX_BODY ((size_t)256 << 20)
/* A header block longer than this is garbage, not headers. */
#define MAX_HEADER 8192

/* Reads more input; false at end of input. */
static bool reader_fill(struct lsp_reader *r)
{
    if (r->eof) return false;
    if (r->start > 0 && r->start == r->end) r->start = r->end = 0;
    if (r->end == r->cap) {
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->end == r->cap) {
            r->cap = r->cap ? r->cap * 2 : 65536;
            r->buf = xrealloc(r->buf, r->cap);
        }
    }
    for (;;) {
        if (r->gate) proc_gate_leave();
        ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
        if (r->gate) proc_gate_enter();
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            r->eof = true;
            return false;
        }
        r->end += (size_t)n;
        return true;
    }
}

/* Offset (from start) of the blank line ending a header block, and the length
   of that terminator; lone "\n" line ends are accepted too. */
static bool find_header_end(const struct lsp_reader *r, size_t *at, size_t *term)
{
    const char *b = r->buf + r->start;
    size_t n = r->end - r->start;
    for (size_t i = 0; i < n; i++) {
        if (b[i] != '\n') continue;
        if (i + 1 < n && b[i + 1] == '\n') {
            *at = i;
            *term = 2;
            return true;
        }
        if (i + 2 < n && b[i + 1] == '\r' && b[i + 2] == '\n') {
            *at = i;
            *term = 3;
            return true;
        }
    }
    return false;
}

/* After a bad header block: skips to the next "Content-Length:" so that the
   stream resynchronises on the next well-formed message. */
static void reader_resync(struct lsp_reader *r, size_t from)
{
    static const char key[] = "content-length:";
    size_t klen = sizeof key - 1;
    size_t i = r->start + from;
    for (; i + klen <= r->end; i++)
        if (strncasecmp(r->buf + i, key, klen) == 0) break;
    if (i + klen > r->end) {
        /* Not found: keep only a tail that may be the start of the key, so
           that one bad message yields one error, not one per read. */
        size_t lo = r->start + from;
        for (i = r->end > lo + klen ? r->end - klen + 1 : lo; i < r->end; i++)
            if (strncasecmp(r->buf + i, key, r->end - i) == 0) break;
    }
    r->start = i;
}

/* Reads one message body (malloc'd, NUL-terminated).  LSP_READ_BAD sets *why and
   leaves the reader resynchronised; the caller answers -32700 and goes on. */
enum lsp_read_status lsp_read_message(struct lsp_reader *r, char **body, size_t *len,
                                      const char **why)
{
    size_t at = 0, term = 0;
    while (!find_header_end(r, &at, &term)) {
        if (r->end - r->start > MAX_HEADER) {
            *why = "header block too long or missing its blank line";
            reader_resync(r, 1);
            return LSP_READ_BAD;
        }
        if (!reader_fill(r)) return LSP_READ_EOF;
    }
    /* Parse the header lines of buf[start, start+at]. */
    const char *h = r->buf + r->start;
    size_t hlen = at + 1, pos = 0;
    long long clen = -1;
    bool bad = false;
    while (pos < hlen && !bad) {
        size_t e = pos;
        while (e < hlen && h[e] != '\n') e++;
        size_t le = e;
        if (le > pos && h[le - 1] == '\r') le--;
        if (le > pos) {
            const char *colon = memchr(h + pos, ':', le - pos);
            if (!colon) {
                bad = true;
                *why = "header line without a colon";
                break;
            }
            size_t nlen = (size_t)(colon - (h + pos));
            if (nlen == 14 && strncasecmp(h + pos, "Content-Length", 14) == 0) {
                const char *v = colon + 1;
                while (v < h + le && (*v == ' ' || *v == '\t')) v++;
                long long n = 0;
                const char *d = v;
                while (d < h + le && *d >= '0' && *d <= '9' && n <= (long long)MAX_BODY * 10)
                    n = n * 10 + (*d++ - '0');
                while (d < h + le && (*d == ' ' || *d == '\t')) d++;
                if (d == v || d != h + le) {
                    bad = true;
                    *why = "Content-Length is not a number";
                } else {
                    clen = n;
                }
            }
            /* Content-Type and unknown headers are ignored: the body is UTF-8. */
        }
        pos = e + 1;
    }
    if (!bad && clen < 0) {
        bad = true;
        *why = "missing Content-Length header";
    }
    if (bad) {
        reader_resync(r, 1);
        return LSP_READ_BAD;
    }
    r->start += at + term;
    if ((size_t)clen > MAX_BODY) {
        /* Skip the body as it arrives: buffering it would only waste memory. */
        size_t left = (size_t)clen;
        for (;;) {
            size_t have = r->end - r->start;
            size_t take = have < left ? have : left;
            r->start += take;
            left -= take;
            if (left == 0) break;
            if (!reader_fill(r)) return LSP_READ_EOF;
        }
        *why = "message larger than the server accepts";
        return LSP_READ_BAD;
    }
    while (r->end - r->start < (size_t)clen)
        if (!reader_fill(r)) return LSP_READ_EOF;
    *len = (size_t)clen;
    *body = xmalloc(*len + 1);
    memcpy(*body, r->buf + r->start, *len);
    (*body)[*len] = '\0';
    r->start += *len;
    return LSP_READ_OK;
}

void lsp_reader_release(struct lsp_reader *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

bool lsp_write_message(int fd, const char *body, size_t len)
{
    char head[64];
    int hl = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", len);
    const char *parts[2] = {head, body};
    size_t sizes[2] = {(size_t)hl, len};
    for (int k = 0; k < 2; k++) {
        const char *p = parts[k];
        size_t n = sizes[k];
        while (n > 0) {
            ssize_t w = write(fd, p, n);
            if (w < 0) {
                if (errno == EINTR) continue;
                return false;
            }
            p += w;
            n -= (size_t)w;
        }
    }
    return true;
}
