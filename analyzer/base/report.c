/* report.c: cudalint's own errors and warnings, on one path. */
#include "base/report.h"
#include "base/util.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *program = "cudalint";
static report_sink_fn sink;
static void *sink_data;

void report_set_program(const char *name)
{
    program = name;
}

void report_set_sink(report_sink_fn fn, void *data)
{
    sink = fn;
    sink_data = data;
}

static void emit(enum report_level level, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void emit(enum report_level level, const char *fmt, va_list ap)
{
    char *message = xvasprintf(fmt, ap);
    if (sink) {
        sink(sink_data, level, message);
    } else {
        const char *what = level == REPORT_ERROR ? "error: " : level == REPORT_WARNING ? "warning: " : "";
        /* One fprintf: lines from several threads do not interleave. */
        fprintf(stderr, "%s: %s%s\n", program, what, message);
    }
    free(message);
}

void report(enum report_level level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(level, fmt, ap);
    va_end(ap);
}

static pthread_mutex_t warn_mu = PTHREAD_MUTEX_INITIALIZER;
static struct strvec warned;

void report_warn_once(const char *key, const char *fmt, ...)
{
    pthread_mutex_lock(&warn_mu);
    bool first = !sv_contains(&warned, key);
    if (first) sv_push(&warned, key);
    pthread_mutex_unlock(&warn_mu);
    if (!first) return;
    va_list ap;
    va_start(ap, fmt);
    emit(REPORT_WARNING, fmt, ap);
    va_end(ap);
}
