/* lsp_proc.c: the language server's lint process (see lsp_proc.h).
 *
 * Requests (parent to child) and records (child to parent) are a header of
 * three 32-bit words {type, argument, payload length} and the payload. */
#include "lsp/lsp_proc.h"
#include "base/proc.h"
#include "base/report.h"
#include "engine/supervise.h"
#include "lsp/lsp_lint.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { REQ_LINT = 1, REQ_FORGET = 2 };
enum { REC_DONE = 2, REC_REPORT = 3 };

/* The parent's view of the process. */
static pid_t child_pid = -1;
static int to_child = -1, from_child = -1;
static unsigned child_generation;

static bool write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Reads exactly n bytes; false at end of input or on an error. */
static bool read_all(int fd, void *data, size_t n)
{
    char *p = data;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

static bool send_msg(int fd, uint32_t type, uint32_t arg, const char *data, size_t len)
{
    uint32_t hdr[3] = {type, arg, (uint32_t)len};
    return write_all(fd, hdr, sizeof hdr) && (!len || write_all(fd, data, len));
}

/* ---- the child ---- */

struct kept {
    uint64_t doc;
    struct lsp_lint_session *session;
};

static int child_out = -1;

static void child_report(void *data, enum report_level level, const char *message)
{
    (void)data;
    send_msg(child_out, REC_REPORT, (uint32_t)level, message, strlen(message));
}

static void put_bytes(struct strbuf *b, const char *s, size_t n)
{
    uint32_t len = (uint32_t)n;
    sb_addn(b, (const char *)&len, sizeof len);
    sb_addn(b, s, n);
}

static bool take_bytes(const char **p, size_t *left, const char **s, size_t *n)
{
    uint32_t len;
    if (*left < sizeof len) return false;
    memcpy(&len, *p, sizeof len);
    *p += sizeof len;
    *left -= sizeof len;
    if (len > *left) return false;
    *s = *p;
    *n = len;
    *p += len;
    *left -= len;
    return true;
}

static void child_main(const struct lint_options *o, int in, int out)
{
    child_out = out;
    report_set_sink(child_report, NULL);
    struct kept *kept = NULL;
    size_t n_kept = 0;
    for (;;) {
        uint32_t hdr[3];
        if (!read_all(in, hdr, sizeof hdr)) break;
        char *payload = xmalloc((size_t)hdr[2] + 1);
        if (!read_all(in, payload, hdr[2])) break;
        const char *p = payload;
        size_t left = hdr[2];
        uint64_t doc = 0;
        if (left >= sizeof doc) {
            memcpy(&doc, p, sizeof doc);
            p += sizeof doc;
            left -= sizeof doc;
        }
        size_t k = 0;
        while (k < n_kept && kept[k].doc != doc) k++;
        if (hdr[0] == REQ_FORGET) {
            if (k < n_kept) {
                lsp_lint_session_free(kept[k].session);
                kept[k] = kept[--n_kept];
            }
        } else if (hdr[0] == REQ_LINT) {
            const char *path, *text;
            size_t path_len, text_len;
            struct file_result res;
            struct strbuf timing;
            sb_init(&timing);
            bool want_timing = hdr[1] & 2;
            if (take_bytes(&p, &left, &path, &path_len) && take_bytes(&p, &left, &text, &text_len)) {
                char *pathz = xstrndup(path, path_len);
                if (hdr[1] & 1) {
                    if (k == n_kept) {
                        kept = xrealloc(kept, (n_kept + 1) * sizeof *kept);
                        kept[n_kept].doc = doc;
                        kept[n_kept].session = lsp_lint_session_new();
                        n_kept++;
                    }
                    lsp_lint_session_run(kept[k].session, o, pathz, text, text_len, &res,
                                         want_timing ? &timing : NULL);
                } else {
                    lint_file(o, pathz, text, text_len, true, &res);
                }
                free(pathz);
            } else {
                memset(&res, 0, sizeof res);
                res.path = xstrdup("?");
                res.status = FILE_ERROR;
                res.message = xstrdup("internal error: a malformed lint request");
            }
            struct strbuf b;
            sb_init(&b);
            put_bytes(&b, timing.buf ? timing.buf : "", timing.len);
            supervise_put_result(&b, &res);
            file_result_release(&res);
            sb_release(&timing);
            bool ok = send_msg(out, REC_DONE, 0, b.buf, b.len);
            sb_release(&b);
            if (!ok) break;
        }
        free(payload);
    }
    _exit(0);
}

/* ---- the parent ---- */

static int reap(bool kill_it)
{
    int ws = 0;
    if (child_pid < 0) return 0;
    if (kill_it) kill(child_pid, SIGKILL);
    while (waitpid(child_pid, &ws, 0) < 0 && errno == EINTR) {}
    child_pid = -1;
    if (to_child >= 0) close(to_child);
    if (from_child >= 0) close(from_child);
    to_child = from_child = -1;
    return ws;
}

void lsp_proc_stop(void)
{
    if (child_pid < 0) return;
    /* End of requests: the child leaves its loop and exits. */
    close(to_child);
    to_child = -1;
    reap(false);
}

static bool start(const struct lint_options *o, unsigned generation)
{
    int req[2], rec[2];
    if (pipe(req) != 0) return false;
    if (pipe(rec) != 0) {
        close(req[0]);
        close(req[1]);
        return false;
    }
    pid_t pid = proc_fork_copy(); /* the reader thread may be parsing a message */
    if (pid < 0) {
        close(req[0]);
        close(req[1]);
        close(rec[0]);
        close(rec[1]);
        return false;
    }
    if (pid == 0) {
        close(req[1]);
        close(rec[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        /* stdin and stdout carry the protocol: the lint process touches
           neither. */
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
            if (null > 2) close(null);
        }
        signal(SIGPIPE, SIG_DFL);
        /* Up to 8 documents' units are kept, their passes parsed in
           parallel: as much room as 4 jobs. */
        long long lim = supervise_memory_limit(o, 4);
        if (lim > 0) {
            struct rlimit rl = {(rlim_t)lim, (rlim_t)lim};
            setrlimit(RLIMIT_AS, &rl);
        }
        child_main(o, req[0], rec[1]);
    }
    close(req[0]);
    close(rec[1]);
    fcntl(req[1], F_SETFD, FD_CLOEXEC);
    fcntl(rec[0], F_SETFD, FD_CLOEXEC);
    child_pid = pid;
    to_child = req[1];
    from_child = rec[0];
    child_generation = generation;
    return true;
}

void lsp_proc_forget(uint64_t doc)
{
    if (child_pid < 0) return;
    if (!send_msg(to_child, REQ_FORGET, 0, (const char *)&doc, sizeof doc)) reap(true);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(struct file_result *res, const char *path, char *message)
{
    memset(res, 0, sizeof *res);
    res->path = xstrdup(path);
    res->status = FILE_ERROR;
    res->message = message;
}

void lsp_proc_lint(const struct lint_options *o, unsigned opts_generation, uint64_t doc, bool reuse,
                   const char *path, const char *text, size_t len, struct file_result *res,
                   struct strbuf *timing)
{
    if (child_pid >= 0 && child_generation != opts_generation) lsp_proc_stop();
    if (child_pid < 0 && !start(o, opts_generation)) {
        /* No process to be had: lint here, uncontained. */
        lint_file(o, path, text, len, true, res);
        return;
    }
    struct strbuf req;
    sb_init(&req);
    sb_addn(&req, (const char *)&doc, sizeof doc);
    put_bytes(&req, path, strlen(path));
    put_bytes(&req, text, len);
    bool sent = send_msg(to_child, REQ_LINT, (reuse ? 1u : 0u) | (timing ? 2u : 0u), req.buf, req.len);
    sb_release(&req);

    double deadline = o->time_limit > 0 ? now_s() + o->time_limit : 0;
    bool timed_out = false;
    while (sent) {
        int timeout = -1;
        if (deadline > 0) {
            double left = deadline - now_s();
            if (left <= 0) {
                timed_out = true;
                break;
            }
            timeout = (int)(left * 1000) + 1;
        }
        struct pollfd p = {from_child, POLLIN, 0};
        int r = poll(&p, 1, timeout);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) continue; /* the deadline is checked above */
        uint32_t hdr[3];
        if (r < 0 || !read_all(from_child, hdr, sizeof hdr)) break;
        char *payload = xmalloc((size_t)hdr[2] + 1);
        if (!read_all(from_child, payload, hdr[2])) {
            free(payload);
            break;
        }
        payload[hdr[2]] = '\0';
        if (hdr[0] == REC_REPORT) {
            report(hdr[1] <= REPORT_INFO ? (enum report_level)hdr[1] : REPORT_WARNING, "%s", payload);
            free(payload);
            continue;
        }
        const char *p2 = payload, *t;
        size_t left = hdr[2], tn;
        bool ok = take_bytes(&p2, &left, &t, &tn) && supervise_get_result(p2, left, res);
        if (ok && timing) sb_addn(timing, t, tn);
        free(payload);
        if (!ok) fail(res, path, xstrdup("internal error: the lint process sent a malformed result"));
        return;
    }
    /* The process died, or the lint took too long: this document gets the
       reason; the next lint starts a new process. */
    if (timed_out) {
        reap(true);
        fail(res, path, xasprintf("time limit of %g s exceeded (--time-limit); not linted", o->time_limit));
        return;
    }
    int ws = reap(true);
    fail(res, path, supervise_death_reason(ws, o, NULL));
}
