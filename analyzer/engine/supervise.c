/* supervise.c: the command line's run in a watched child process (see
 * supervise.h): the child lints and streams results through a pipe; the
 * parent keeps time, notices deaths, names the file that caused one, and
 * restarts a child for the files left. */
#include "engine/supervise.h"
#include "base/proc.h"
#include "base/phasetime.h"
#include "base/report.h"
#include "core/rule.h"
#include "fix/fixwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the wire format ---- */

static void put_u32(struct strbuf *b, uint32_t v)
{
    sb_addn(b, (const char *)&v, sizeof v);
}

static void put_u64(struct strbuf *b, uint64_t v)
{
    sb_addn(b, (const char *)&v, sizeof v);
}

static void put_str(struct strbuf *b, const char *s)
{
    if (!s) {
        put_u32(b, UINT32_MAX);
        return;
    }
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    sb_addn(b, s, n);
}

struct rd {
    const char *p;
    size_t left;
    bool bad;
};

/* Copies the next n bytes of the record into out (zeros, and r->bad, when
   the record is shorter). */
static void get_raw(struct rd *r, void *out, size_t n)
{
    if (r->left < n) {
        r->bad = true;
        memset(out, 0, n);
        return;
    }
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
}

static uint32_t get_u32(struct rd *r)
{
    uint32_t v;
    get_raw(r, &v, sizeof v);
    return v;
}

static uint64_t get_u64(struct rd *r)
{
    uint64_t v;
    get_raw(r, &v, sizeof v);
    return v;
}

static char *get_str(struct rd *r)
{
    uint32_t n = get_u32(r);
    if (r->bad || n == UINT32_MAX) return NULL;
    if (n > r->left) {
        r->bad = true;
        return NULL;
    }
    char *s = xstrndup(r->p, n);
    r->p += n;
    r->left -= n;
    return s;
}

static void put_f64(struct strbuf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(b, bits);
}

static double get_f64(struct rd *r)
{
    uint64_t bits = get_u64(r);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* A finding list: its length, then each finding with its notes, fixes and
   codegen verdict. */
static void put_diags(struct strbuf *out, const struct diag_list *l)
{
    put_u32(out, (uint32_t)l->len);
    for (size_t i = 0; i < l->len; i++) {
        const struct diag *d = &l->items[i];
        put_str(out, d->file);
        put_u32(out, d->line);
        put_u32(out, d->column);
        put_u32(out, d->end_line);
        put_u32(out, d->end_column);
        put_str(out, d->rule->code);
        put_u32(out, (uint32_t)d->severity);
        put_str(out, d->message);
        put_str(out, d->function);
        put_u32(out, (uint32_t)d->n_notes);
        for (size_t j = 0; j < d->n_notes; j++) {
            put_str(out, d->notes[j].file);
            put_u32(out, d->notes[j].line);
            put_u32(out, d->notes[j].column);
            put_str(out, d->notes[j].message);
        }
        put_u32(out, (uint32_t)d->n_fixes);
        for (size_t j = 0; j < d->n_fixes; j++) {
            const struct diag_fix *f = &d->fixes[j];
            put_str(out, f->file);
            put_u32(out, f->line);
            put_u32(out, f->column);
            put_u32(out, f->end_line);
            put_u32(out, f->end_column);
            put_u32(out, f->offset);
            put_u32(out, f->end_offset);
            put_str(out, f->replacement);
        }
        put_u32(out, d->codegen);
    }
}

void supervise_put_result(struct strbuf *out, const struct file_result *res)
{
    put_str(out, res->path);
    put_u32(out, (uint32_t)res->status);
    put_str(out, res->message);
    put_u32(out, res->n_parse_errors);
    const struct file_timing *t = &res->timing;
    put_f64(out, t->total);
    put_f64(out, t->cache);
    put_f64(out, t->pch_wait);
    put_f64(out, t->pch_build);
    put_f64(out, t->parse);
    put_f64(out, t->walk);
    put_f64(out, t->slowest_pass_s);
    put_str(out, t->slowest_pass);
    put_str(out, t->detail);
    put_diags(out, &res->diags);
    put_diags(out, &res->disproved);
    put_u32(out, (uint32_t)(res->codegen_seconds * 1000 + 0.5)); /* milliseconds */
    const struct strvec *kernels[2] = {&res->kernels_shaped_elsewhere, &res->kernels_shape_unknown};
    for (int k = 0; k < 2; k++) {
        put_u32(out, (uint32_t)kernels[k]->len);
        for (size_t j = 0; j < kernels[k]->len; j++) put_str(out, kernels[k]->items[j]);
    }
}

static void get_diags(struct rd *rp, struct diag_list *l)
{
    struct rd r = *rp;
    uint32_t n = get_u32(&r);
    for (uint32_t i = 0; i < n && !r.bad; i++) {
        struct diag d;
        memset(&d, 0, sizeof d);
        d.file = get_str(&r);
        d.line = get_u32(&r);
        d.column = get_u32(&r);
        d.end_line = get_u32(&r);
        d.end_column = get_u32(&r);
        char *code = get_str(&r);
        d.rule = code ? registry_find(code) : NULL;
        if (!d.rule) r.bad = true;
        free(code);
        d.severity = (enum severity)get_u32(&r);
        d.message = get_str(&r);
        d.function = get_str(&r);
        uint32_t nn = get_u32(&r);
        if (nn > r.left) r.bad = true;
        for (uint32_t j = 0; j < nn && !r.bad; j++) {
            char *file = get_str(&r);
            unsigned line = get_u32(&r), col = get_u32(&r);
            char *msg = get_str(&r);
            diag_add_note(&d, file, line, col, "%s", msg ? msg : "");
            free(file);
            free(msg);
        }
        uint32_t nf = get_u32(&r);
        if (nf > r.left) r.bad = true;
        for (uint32_t j = 0; j < nf && !r.bad; j++) {
            char *file = get_str(&r);
            unsigned v[6];
            for (int k = 0; k < 6; k++) v[k] = get_u32(&r);
            char *repl = get_str(&r);
            diag_add_fix(&d, file, v[0], v[1], v[2], v[3], v[4], v[5], repl ? repl : "");
            free(file);
            free(repl);
        }
        d.codegen = (unsigned char)get_u32(&r);
        if (!d.file || !d.message) r.bad = true;
        if (r.bad) {
            diag_release(&d);
            break;
        }
        diag_list_take(l, &d);
    }
    *rp = r;
}

bool supervise_get_result(const char *data, size_t len, struct file_result *res)
{
    struct rd r = {data, len, false};
    memset(res, 0, sizeof *res);
    res->path = get_str(&r);
    uint32_t status = get_u32(&r);
    res->status = status <= FILE_SKIPPED ? (enum file_status)status : FILE_ERROR;
    res->message = get_str(&r);
    res->n_parse_errors = get_u32(&r);
    struct file_timing *t = &res->timing;
    t->total = get_f64(&r);
    t->cache = get_f64(&r);
    t->pch_wait = get_f64(&r);
    t->pch_build = get_f64(&r);
    t->parse = get_f64(&r);
    t->walk = get_f64(&r);
    t->slowest_pass_s = get_f64(&r);
    t->slowest_pass = get_str(&r);
    t->detail = get_str(&r);
    get_diags(&r, &res->diags);
    get_diags(&r, &res->disproved);
    res->codegen_seconds = get_u32(&r) / 1000.0;
    struct strvec *kernels[2] = {&res->kernels_shaped_elsewhere, &res->kernels_shape_unknown};
    for (int k = 0; k < 2 && !r.bad; k++) {
        uint32_t nk = get_u32(&r);
        if (nk > r.left) r.bad = true;
        for (uint32_t j = 0; j < nk && !r.bad; j++) {
            char *usr = get_str(&r);
            if (usr) sv_push_owned(kernels[k], usr);
            else r.bad = true;
        }
    }
    if (r.bad || !res->path) {
        file_result_release(res);
        memset(res, 0, sizeof *res);
        return false;
    }
    return true;
}

char *supervise_death_reason(int ws, const struct lint_options *o, const char *tail)
{
    bool oom = tail && (strstr(tail, "out of memory") || strstr(tail, "bad_alloc") ||
                        strstr(tail, "Cannot allocate memory"));
    if (oom && o->memory_limit > 0)
        return xasprintf("ran out of memory (--memory-limit %.0f MB) while linting this file",
                         o->memory_limit / 1e6);
    if (oom && o->memory_limit < 0)
        return xstrdup("ran out of memory (the default --memory-limit) while linting this file");
    if (oom) return xstrdup("ran out of memory while linting this file");
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        return xasprintf("crashed (signal %d, %s) while linting this file", sig, strsignal(sig));
    }
    if (WIFEXITED(ws)) return xasprintf("the lint process exited with status %d while linting this file",
                                        WEXITSTATUS(ws));
    return xstrdup("the lint process died while linting this file");
}

/* AddressSanitizer reserves terabytes of address space for its shadow: an
   address-space limit would fail every later mapping. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

long long supervise_memory_limit(const struct lint_options *o, int jobs)
{
    if (o->memory_limit == 0) return 0;
#ifdef UNDER_ASAN
    return 0;
#endif
    if (jobs < 1) jobs = 1;
    long long heap = o->memory_limit;
    if (heap < 0) {
        heap = 2000000000LL * jobs;
        if (heap < 4000000000LL) heap = 4000000000LL;
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0 && heap > (long long)pages * page) heap = (long long)pages * page;
    }
    return heap + (long long)(jobs + 1) * (long long)LINT_THREAD_STACK;
}

/* ---- the child ---- */

/* REC_PHASE: what the file's worker does now (timings of a slow file);
   REC_PARKED: the file was linted once and its result waits for every
   file's launch sites (engine/lint.h): its time limit stops counting. */
enum { REC_START = 1, REC_DONE = 2, REC_REPORT = 3, REC_PHASE = 4, REC_PARKED = 5 };

struct child {
    int fd;
    pthread_mutex_t mu;
    const struct lint_options *o;
};
static struct child *the_child;

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(3); /* the parent is gone */
        p += w;
        n -= (size_t)w;
    }
}

static void send_record(struct child *c, uint32_t type, uint32_t index, const char *data, size_t len)
{
    uint32_t hdr[3] = {type, index, (uint32_t)len};
    pthread_mutex_lock(&c->mu);
    write_all(c->fd, (const char *)hdr, sizeof hdr);
    if (len) write_all(c->fd, data, len);
    pthread_mutex_unlock(&c->mu);
}

static void child_report(void *data, enum report_level level, const char *message)
{
    send_record(data, REC_REPORT, (uint32_t)level, message, strlen(message));
}

static void child_phase(void *data, size_t i, const char *what)
{
    send_record(data, REC_PHASE, (uint32_t)i, what, strlen(what));
}

static void child_started(void *data, size_t i)
{
    send_record(data, REC_START, (uint32_t)i, NULL, 0);
}

static void child_parked(void *data, size_t i)
{
    send_record(data, REC_PARKED, (uint32_t)i, NULL, 0);
}

static void child_done(void *data, size_t i, struct file_result *res)
{
    struct child *c = data;
    struct strbuf b;
    sb_init(&b);
    uint64_t hash = 0;
    bool has = c->o->fix_memory && (c->o->fix || c->o->diff) && fixwrite_recall(c->o->fix_memory, res->path, &hash);
    put_u32(&b, has);
    put_u64(&b, hash);
    supervise_put_result(&b, res);
    send_record(c, REC_DONE, (uint32_t)i, b.buf, b.len);
    sb_release(&b);
    file_result_release(res);
}

/* ---- the parent ---- */

struct sup {
    const struct lint_options *o;
    const struct strvec *files;
    struct file_result *results;
    bool *done;
    double *started; /* when the file's lint began, < 0: not in flight */
    char **phase;    /* what the file's worker last said it was doing (REC_PHASE) */
    double *phase_since;
    double *pch_time; /* time spent building or waiting for precompiled headers, before phase_since */
    bool *in_pch;     /* the current phase is such a build or wait */
    bool progress;   /* a file finished since the last child was started */
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The progress line (o->progress) is told here, in the parent. */
static void tell_progress(struct sup *s, size_t i)
{
    const struct lint_progress *p = s->o->progress;
    if (p && p->file_done) p->file_done(p->data, &s->results[i]);
}

static void set_error(struct sup *s, size_t i, char *message)
{
    file_result_release(&s->results[i]);
    memset(&s->results[i], 0, sizeof s->results[i]);
    s->results[i].path = xstrdup(s->files->items[i]);
    s->results[i].status = FILE_ERROR;
    s->results[i].message = message;
    s->done[i] = true;
    s->started[i] = -1;
    tell_progress(s, i);
}

/* Handles the complete records at the start of buf; returns the bytes used. */
static size_t take_records(struct sup *s, const char *buf, size_t len)
{
    size_t used = 0;
    while (len - used >= 12) {
        uint32_t hdr[3];
        memcpy(hdr, buf + used, sizeof hdr);
        if (len - used - 12 < hdr[2]) break;
        const char *p = buf + used + 12;
        size_t n = hdr[2], i = hdr[1];
        used += 12 + n;
        if (hdr[0] == REC_REPORT) {
            char *m = xstrndup(p, n);
            report(hdr[1] <= REPORT_INFO ? (enum report_level)hdr[1] : REPORT_WARNING, "%s", m);
            free(m);
            continue;
        }
        if (i >= s->files->len || s->done[i]) continue;
        if (hdr[0] == REC_START) {
            s->started[i] = now_s();
            s->pch_time[i] = 0;
            s->in_pch[i] = false;
        } else if (hdr[0] == REC_PHASE) {
            double now = now_s();
            if (s->in_pch[i]) s->pch_time[i] += now - s->phase_since[i];
            free(s->phase[i]);
            s->phase[i] = xstrndup(p, n);
            s->phase_since[i] = now;
            s->in_pch[i] = strstr(s->phase[i], "precompiled header") != NULL;
        } else if (hdr[0] == REC_PARKED) {
            s->started[i] = -1;
            s->progress = true;
        } else if (hdr[0] == REC_DONE) {
            struct rd r = {p, n, false};
            bool has = get_u32(&r) != 0;
            uint64_t hash = get_u64(&r);
            struct file_result res;
            if (r.bad || !supervise_get_result(r.p, r.left, &res)) {
                set_error(s, i, xstrdup("internal error: the lint process sent a malformed result"));
                continue;
            }
            if (has && s->o->fix_memory) fixwrite_remember_hash(s->o->fix_memory, res.path, hash);
            s->results[i] = res;
            s->done[i] = true;
            s->started[i] = -1;
            s->progress = true;
            tell_progress(s, i);
        }
    }
    return used;
}

/* Building a precompiled header, or waiting for another worker's or
   process's build, is work for every file that starts the same way, and
   under load (many workers, few cores) it can take longer than the file
   itself: that time does not count against the file's limit, up to the
   limit once more, so a hung build still ends. */
static double pch_allowance(const struct sup *s, size_t i, double now)
{
    double t = s->pch_time[i] + (s->in_pch[i] ? now - s->phase_since[i] : 0);
    return t < s->o->time_limit ? t : s->o->time_limit;
}

/* The test hook of the stalled-child test: CUDALINT_TEST_CHILD_HANG=start
   (or exit) makes the lint process hang before its first file (or after its
   last), where no file's time limit runs. */
static void child_test_hang(const char *where)
{
    const char *h = getenv("CUDALINT_TEST_CHILD_HANG");
    if (h && strcmp(h, where) == 0)
        for (;;) pause();
}

/* Lints files which[0, n) in one child with jobs threads; returns when the
   child ended.  A file past the time limit ends it. */
static void run_child(struct sup *s, const size_t *which, size_t n, int jobs)
{
    const struct lint_options *o = s->o;
    int res_pipe[2], err_pipe[2];
    if (pipe(res_pipe) != 0) {
        for (size_t k = 0; k < n; k++) set_error(s, which[k], xasprintf("cannot start the lint process: %s", strerror(errno)));
        return;
    }
    if (pipe(err_pipe) != 0) {
        close(res_pipe[0]);
        close(res_pipe[1]);
        for (size_t k = 0; k < n; k++) set_error(s, which[k], xasprintf("cannot start the lint process: %s", strerror(errno)));
        return;
    }
    pid_t pid = proc_fork_copy(); /* the progress ticker may be drawing */
    if (pid < 0) {
        int e = errno;
        close(res_pipe[0]);
        close(res_pipe[1]);
        close(err_pipe[0]);
        close(err_pipe[1]);
        for (size_t k = 0; k < n; k++) set_error(s, which[k], xasprintf("cannot start the lint process: %s", strerror(e)));
        return;
    }
    if (pid == 0) {
        close(res_pipe[0]);
        close(err_pipe[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        /* What libclang or LLVM print (crash dumps, "LLVM ERROR") goes to the
           parent, which turns it into the file's status. */
        dup2(err_pipe[1], 2);
        close(err_pipe[1]);
        signal(SIGPIPE, SIG_DFL);
        long long lim = supervise_memory_limit(o, jobs);
        if (lim > 0) {
            struct rlimit rl = {(rlim_t)lim, (rlim_t)lim};
            setrlimit(RLIMIT_AS, &rl);
        }
        static struct child c;
        c.fd = res_pipe[1];
        pthread_mutex_init(&c.mu, NULL);
        c.o = o;
        the_child = &c;
        report_set_sink(child_report, &c);
        phasetime_listen(child_phase, &c);
        child_test_hang("start");
        lint_files(o, s->files, which, n, jobs, child_started, child_parked, child_done, &c);
        child_test_hang("exit");
        /* exit(), not _exit(): the result cache closes its database and
           prints its statistics at exit (through the sink, to the parent);
           stdio was flushed before the fork, so nothing is written twice. */
        exit(0);
    }
    close(res_pipe[1]);
    close(err_pipe[1]);

    struct strbuf buf, tail;
    sb_init(&buf);
    sb_init(&tail);
    bool res_open = true, err_open = true, killed = false;
    size_t timed_out = SIZE_MAX;
    /* With no file in flight (before the first starts, between files, after
       the last while the child exits) the child gets the time limit since it
       last said anything: a child stuck there would otherwise hold the whole
       run, as no file's clock is running. */
    double last_heard = now_s();
    bool stalled = false;
    char chunk[65536];
    while (res_open || err_open) {
        int timeout = -1;
        if (o->time_limit > 0 && !killed) {
            double now = now_s(), first = -1;
            for (size_t k = 0; k < n; k++) {
                size_t i = which[k];
                if (s->started[i] < 0 || s->done[i]) continue;
                double left = s->started[i] + o->time_limit + pch_allowance(s, i, now) - now;
                if (left <= 0) {
                    timed_out = i;
                    break;
                }
                if (first < 0 || left < first) first = left;
            }
            if (timed_out != SIZE_MAX) {
                kill(pid, SIGKILL);
                killed = true;
                continue;
            }
            if (first < 0) {
                first = last_heard + o->time_limit - now;
                if (first <= 0) {
                    kill(pid, SIGKILL);
                    killed = stalled = true;
                    continue;
                }
            }
            timeout = (int)(first * 1000) + 1;
        }
        struct pollfd p[2] = {{res_open ? res_pipe[0] : -1, POLLIN, 0}, {err_open ? err_pipe[0] : -1, POLLIN, 0}};
        int r = poll(p, 2, timeout);
        if (r < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (res_open && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t got = read(res_pipe[0], chunk, sizeof chunk);
            if (got > 0) {
                last_heard = now_s();
                sb_addn(&buf, chunk, (size_t)got);
                size_t used = take_records(s, buf.buf, buf.len);
                if (used) {
                    memmove(buf.buf, buf.buf + used, buf.len - used);
                    buf.len -= used;
                    buf.buf[buf.len] = '\0';
                }
            } else if (got == 0 || errno != EINTR) {
                res_open = false;
            }
        }
        if (err_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t got = read(err_pipe[0], chunk, sizeof chunk);
            if (got > 0) {
                last_heard = now_s();
                sb_addn(&tail, chunk, (size_t)got);
                if (tail.len > 16384) { /* keep the last 8 KB */
                    memmove(tail.buf, tail.buf + tail.len - 8192, 8192);
                    tail.len = 8192;
                    tail.buf[tail.len] = '\0';
                }
            } else if (got == 0 || errno != EINTR) {
                err_open = false;
            }
        }
    }
    close(res_pipe[0]);
    close(err_pipe[0]);
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
    bool clean = !killed && WIFEXITED(ws) && WEXITSTATUS(ws) == 0;

    if (timed_out != SIZE_MAX) {
        /* Which phase it was in, and since when: a parse, a precompiled
           header build or the wait for one, the analysis, the cache. */
        double now = now_s(), pch = pch_allowance(s, timed_out, now);
        char *where = s->phase[timed_out]
                          ? xasprintf(" while %s (for the last %.1f s; %.1f s of precompiled header builds and "
                                      "waits not counted)", s->phase[timed_out], now - s->phase_since[timed_out], pch)
                          : xstrdup("");
        set_error(s, timed_out, xasprintf("time limit of %g s exceeded (--time-limit)%s; not linted",
                                          o->time_limit, where));
        free(where);
    }
    if (stalled) {
        bool all_done = true;
        for (size_t k = 0; k < n; k++) all_done &= s->done[which[k]];
        report_warning("the lint process said nothing for %g s (--time-limit) with no file in flight; it was "
                       "stopped%s", o->time_limit,
                       all_done ? " (after its last result)" : ", and the files it had not finished are linted again");
    }
    /* The files in flight when the child died. */
    size_t n_flight = 0, culprit = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        size_t i = which[k];
        if (!s->done[i] && s->started[i] >= 0) {
            n_flight++;
            culprit = i;
        }
    }
    if (!clean && !killed && n_flight == 1) {
        set_error(s, culprit, supervise_death_reason(ws, o, tail.buf));
    } else if (clean && tail.len) {
        /* Something libclang printed on its own: passed on line by line, but
           for the dump of a crash it recovered from (the file's status says
           so already) and LLVM's "Allocation failed". */
        char *save = NULL;
        bool in_dump = false;
        for (char *line = strtok_r(tail.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            if (strstr(line, "crash detected during")) in_dump = true;
            else if (in_dump && strcmp(line, "}") == 0) in_dump = false;
            else if (!in_dump && *line && strcmp(line, "Allocation failed") != 0) report_warning("libclang: %s", line);
        }
    }
    /* Files still in flight (several at a time, or cut off by the kill) are
       linted again; run() decides how. */
    for (size_t k = 0; k < n; k++)
        if (!s->done[which[k]] && s->started[which[k]] >= 0) s->started[which[k]] = -2;
    sb_release(&buf);
    sb_release(&tail);
    (void)the_child;
}

void lint_run_supervised(const struct lint_options *o, struct lint_run *run)
{
    const char *inproc = getenv("CUDALINT_IN_PROCESS");
    if (inproc && *inproc && strcmp(inproc, "0") != 0) {
        lint_run(o, run);
        return;
    }
    struct strvec files = {0}, errors = {0}, notes = {0};
    lint_collect(o, &files, &errors, &notes);
    struct sup s = {o, &files, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false};
    size_t n = files.len;
    s.results = xcalloc(n ? n : 1, sizeof *s.results);
    s.done = xcalloc(n ? n : 1, sizeof *s.done);
    s.started = xmalloc((n ? n : 1) * sizeof *s.started);
    s.phase = xcalloc(n ? n : 1, sizeof *s.phase);
    s.phase_since = xcalloc(n ? n : 1, sizeof *s.phase_since);
    s.pch_time = xcalloc(n ? n : 1, sizeof *s.pch_time);
    s.in_pch = xcalloc(n ? n : 1, sizeof *s.in_pch);
    for (size_t i = 0; i < n; i++) s.started[i] = -1;
    if (o->progress && o->progress->start) o->progress->start(o->progress->data, n);
    size_t *which = xmalloc((n ? n : 1) * sizeof *which);
    int deaths_without_progress = 0;
    for (;;) {
        /* Suspects (in flight when a child with several jobs died) go first,
           one at a time, so that a second death names its file. */
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!s.done[i] && s.started[i] == -2) which[m++] = i;
        int jobs = 1;
        if (m == 0) {
            for (size_t i = 0; i < n; i++)
                if (!s.done[i]) which[m++] = i;
            jobs = o->jobs;
        }
        if (m == 0) break;
        for (size_t k = 0; k < m; k++) s.started[which[k]] = -1;
        s.progress = false;
        run_child(&s, which, m, jobs);
        bool any_left = false;
        for (size_t k = 0; k < m; k++) any_left |= !s.done[which[k]];
        if (!any_left) continue;
        bool flagged = false;
        for (size_t k = 0; k < m; k++) flagged |= s.started[which[k]] == -2;
        if (s.progress || flagged) {
            deaths_without_progress = 0;
            continue;
        }
        /* The child died before it started a file, twice: give up on them. */
        if (++deaths_without_progress >= 2) {
            for (size_t k = 0; k < m; k++)
                if (!s.done[which[k]])
                    set_error(&s, which[k], xstrdup("the lint process failed before linting this file"));
        }
    }
    free(which);
    lint_run_assemble(run, s.results, n, &errors, &notes);
    free(s.results);
    free(s.done);
    free(s.started);
    for (size_t i = 0; i < n; i++) free(s.phase[i]);
    free(s.phase);
    free(s.phase_since);
    free(s.pch_time);
    free(s.in_pch);
    sv_release(&files);
    sv_release(&errors);
    sv_release(&notes);
}
