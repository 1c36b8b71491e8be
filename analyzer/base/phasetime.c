/* phasetime.c: per-thread accounts of exclusive time (see phasetime.h). */
#include "base/phasetime.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static _Thread_local struct phasetime current;
static atomic_bool detail;

void phasetime_set_detail(bool on)
{
    atomic_store(&detail, on);
}

bool phasetime_detail(void)
{
    return atomic_load_explicit(&detail, memory_order_relaxed);
}

void phasetime_reset(void)
{
    current.n = 0;
    current.charged = 0;
}

struct phasetime_mark phasetime_begin(void)
{
    return (struct phasetime_mark){monotonic_seconds(), current.charged};
}

double phasetime_end(struct phasetime_mark m, const char *name)
{
    double elapsed = monotonic_seconds() - m.start;
    double exclusive = elapsed - (current.charged - m.charged_before);
    if (exclusive < 0) exclusive = 0;
    current.charged += exclusive;
    size_t i = 0;
    /* Names are static strings: the pointer is the identity, strcmp the fallback. */
    while (i < current.n && current.acc[i].name != name && strcmp(current.acc[i].name, name) != 0) i++;
    if (i == current.n) {
        if (current.n == PHASETIME_MAX) return elapsed;
        current.acc[current.n++] = (struct phasetime_account){name, 0};
    }
    current.acc[i].seconds += exclusive;
    return elapsed;
}

const struct phasetime *phasetime_current(void)
{
    return &current;
}

static phasetime_listener listener;
static void *listener_data;
static _Thread_local size_t current_item;

void phasetime_listen(phasetime_listener fn, void *data)
{
    listener_data = data;
    listener = fn;
}

void phasetime_set_item(size_t item)
{
    current_item = item;
}

void phasetime_announce(const char *fmt, ...)
{
    if (!listener) return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    listener(listener_data, current_item, what);
}
