/* lsp_rpc.h: the language server's wire format: Content-Length framed
 * messages over a pair of file descriptors (LSP 3.17 "Base Protocol"). */
#ifndef CUDALINT_LSP_RPC_H
#define CUDALINT_LSP_RPC_H

#include <stdbool.h>
#include <stddef.h>

/* Buffered reader of one input; zero-initialise with .fd set. */
struct lsp_reader {
    int fd;
    char *buf;
    size_t start, end, cap; /* unread bytes are buf[start, end) */
    bool eof;
    bool gate; /* the caller holds the fork gate (base/proc.h): let go of it
                  while blocked in read() */
};

enum lsp_read_status { LSP_READ_EOF, LSP_READ_OK, LSP_READ_BAD };

/* Reads one message body (malloc'd, NUL-terminated, *len bytes).  LSP_READ_BAD
   sets *why (static text) and leaves the reader resynchronised on the next
   "Content-Length:": the caller answers -32700 and reads on.  LSP_READ_EOF at
   the end of input (also in the middle of a message). */
enum lsp_read_status lsp_read_message(struct lsp_reader *r, char **body, size_t *len,
                                      const char **why);
void lsp_reader_release(struct lsp_reader *r);

/* Writes the header and body; false when the peer is gone (EPIPE...). */
bool lsp_write_message(int fd, const char *body, size_t len);

#endif
