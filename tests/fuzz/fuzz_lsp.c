/* fuzz_lsp.c: the language server's input: Content-Length framing
 * (lsp_rpc.c), JSON-RPC dispatch and every notification and request it
 * handles (lsp.c): initialize with any options, didOpen, didChange with
 * incremental edits in any position encoding, didClose, codeAction, shutdown,
 * exit.  The lint worker is not started: what is fuzzed is the handling of
 * the messages, not libclang.  lsp.c is compiled into this harness so that
 * its static dispatch() can be called. */
#include "fuzz_common.h"
#include "../../analyzer/lsp/lsp.c"

#include <fcntl.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int null_fd = -1;
    if (null_fd < 0) {
        null_fd = open("/dev/null", O_WRONLY);
        if (chdir(fuzz_dir()) != 0) abort();
        signal(SIGPIPE, SIG_IGN);
    }
    fuzz_quiet();
    char *in_path = fuzz_write("lsp-input", data, size);
    int fd = open(in_path, O_RDONLY);
    if (fd < 0) abort();

    struct server *s = xcalloc(1, sizeof *s);
    lint_session_init(&s->session);
    s->session.opts.quiet = true;
    s->session.opts.jobs = 1;
    s->session.opts.headers = HEADERS_SHIM;
    s->session.opts.no_cache = true;
    s->reuse_tus = true;
    s->out_fd = null_fd;
    pthread_mutex_init(&s->out_mu, NULL);
    pthread_mutex_init(&s->docs_mu, NULL);
    pthread_cond_init(&s->docs_cv, NULL);

    struct lsp_reader r = {.fd = fd};
    for (int n = 0; n < 10000; n++) {
        char *body = NULL;
        size_t len = 0;
        const char *why = NULL;
        enum lsp_read_status st = lsp_read_message(&r, &body, &len, &why);
        if (st == LSP_READ_EOF) break;
        if (st == LSP_READ_BAD) {
            send_error(s, NULL, RPC_PARSE_ERROR, why);
            continue;
        }
        cJSON *msg = cJSON_ParseWithLength(body, len);
        free(body);
        if (!msg) {
            send_error(s, NULL, RPC_PARSE_ERROR, "invalid JSON");
            continue;
        }
        int d = dispatch(s, msg);
        cJSON_Delete(msg);
        if (d != RUN_ON) break;
    }
    lsp_reader_release(&r);
    close(fd);
    while (s->docs) doc_remove_locked(s, s->docs);
    free(s->forget);
    pthread_cond_destroy(&s->docs_cv);
    pthread_mutex_destroy(&s->docs_mu);
    pthread_mutex_destroy(&s->out_mu);
    lint_session_release(&s->session);
    free(s);
    free(in_path);
    return 0;
}
