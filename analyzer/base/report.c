/* report.c: cudalint's own errors and warnings, on one path. */
#include "base/report.h"
#include "base/util.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

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
    struct strbuf sb;
    sb_init(&sb);
    sb_vaddf(&sb, fmt, ap);
    va_end(ap);
    fprintf(stderr, "cudalint: warning: %s\n", sb.buf);
    sb_release(&sb);
}
