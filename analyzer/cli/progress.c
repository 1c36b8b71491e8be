/* progress.c: the progress line (progress.h).  Workers report each finished
 * file through lint_options.progress; a ticker thread redraws the line four
 * times a second so that elapsed time moves during a long file.  cudalint's
 * own reports go through a sink that erases the line first, so the two never
 * mix on one line. */
#include "cli/progress.h"
#include "base/proc.h"
#include "base/report.h"
#include "base/util.h"
#include "core/result.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct progress {
    struct lint_progress hooks;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t ticker;
    bool ticker_started, stop, shown;
    double t0, delay;
    size_t total, done, findings;
    char last[160]; /* the line on screen: not redrawn when it would not change */
};

bool progress_wanted(const struct lint_options *o)
{
    if (o->quiet || o->stdin_filename) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    return isatty(STDERR_FILENO);
}

static void fmt_secs(char *buf, size_t n, double s)
{
    if (s < 60) snprintf(buf, n, "%.0fs", s);
    else snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
}

/* With p->mu held. */
static void draw(struct progress *p)
{
    double el = monotonic_seconds() - p->t0;
    if (el < p->delay || p->total == 0) return;
    char e[32], eta[48] = "";
    fmt_secs(e, sizeof e, el);
    if (p->done > 0 && p->done < p->total) {
        char r[32];
        fmt_secs(r, sizeof r, el / (double)p->done * (double)(p->total - p->done));
        snprintf(eta, sizeof eta, ", ETA %s", r);
    }
    char line[sizeof p->last];
    snprintf(line, sizeof line, "cudalint: %zu/%zu files, %zu finding%s, %s elapsed%s", p->done, p->total,
             p->findings, p->findings == 1 ? "" : "s", e, eta);
    if (p->shown && strcmp(line, p->last) == 0) return;
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    memcpy(p->last, line, sizeof line);
    p->shown = true;
}

static void erase(struct progress *p)
{
    if (!p->shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = false;
}

static void on_start(void *data, size_t n)
{
    struct progress *p = data;
    pthread_mutex_lock(&p->mu);
    p->total = n;
    pthread_mutex_unlock(&p->mu);
}

static void on_file_done(void *data, const struct file_result *res)
{
    struct progress *p = data;
    pthread_mutex_lock(&p->mu);
    p->done++;
    p->findings += res->diags.len;
    draw(p);
    pthread_mutex_unlock(&p->mu);
}

static void sink(void *data, enum report_level level, const char *message)
{
    struct progress *p = data;
    const char *what = level == REPORT_ERROR ? "error: " : level == REPORT_WARNING ? "warning: " : "";
    pthread_mutex_lock(&p->mu);
    bool was = p->shown;
    erase(p);
    fprintf(stderr, "cudalint: %s%s\n", what, message);
    if (was) draw(p);
    pthread_mutex_unlock(&p->mu);
}

static void *tick(void *arg)
{
    struct progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        if (p->stop) break;
        /* Drawing holds the fork gate (base/proc.h): the main thread forks
           lint processes meanwhile.  The gate before p->mu, as everywhere. */
        pthread_mutex_unlock(&p->mu);
        proc_gate_enter();
        pthread_mutex_lock(&p->mu);
        if (!p->stop) draw(p);
        pthread_mutex_unlock(&p->mu);
        proc_gate_leave();
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

struct progress *progress_begin(struct lint_options *o, double delay)
{
    struct progress *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->t0 = monotonic_seconds();
    /* $CUDALINT_PROGRESS_DELAY (seconds) replaces the delay before the line
       first shows: the tests set 0 so that a short run on a fast machine
       still draws it. */
    const char *env = getenv("CUDALINT_PROGRESS_DELAY");
    char *end = NULL;
    double d = env && *env ? strtod(env, &end) : -1.0;
    p->delay = end && *end == 0 && d >= 0.0 && d < 3600.0 ? d : delay;
    p->hooks = (struct lint_progress){on_start, on_file_done, p};
    o->progress = &p->hooks;
    report_set_sink(sink, p);
    p->ticker_started = pthread_create(&p->ticker, NULL, tick, p) == 0;
    return p;
}

void progress_end(struct progress *p, struct lint_options *o)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (p->ticker_started) pthread_join(p->ticker, NULL);
    erase(p);
    report_set_sink(NULL, NULL);
    o->progress = NULL;
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
