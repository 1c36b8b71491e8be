/* phasetime.h: where a worker thread's time goes, by named account (a parse
 * phase, a rule, an analysis), each charged its exclusive time: a region
 * nested in another (an analysis a rule asks for) is charged to itself and
 * not again to the outer one.  Per thread, so workers do not share counters. */
#ifndef CUDALINT_PHASETIME_H
#define CUDALINT_PHASETIME_H

#include <stdbool.h>
#include <stddef.h>

#define PHASETIME_MAX 96

/* The phases of a file's lint; other accounts are rule codes ("CU102") and
   analysis names ("uniformity"). */
#define PHASE_CACHE "cache"
#define PHASE_PCH_WAIT "pch wait"
#define PHASE_PCH_BUILD "pch build"
#define PHASE_PARSE "parse"
#define PHASE_WALK "walk"

struct phasetime_account {
    const char *name; /* a static string ("parse", "CU102", "analysis uniformity") */
    double seconds;
};

/* The accounts of this thread since phasetime_reset. */
struct phasetime {
    struct phasetime_account acc[PHASETIME_MAX];
    size_t n;
    double charged; /* every region's exclusive time so far: nested regions subtract it */
};

/* A region being timed: phasetime_begin, then phasetime_end with the same mark. */
struct phasetime_mark {
    double start, charged_before;
};

/* Whether rule and analysis regions are timed (--statistics asks for it; the
   phases of a file are always timed, a few clock reads per pass). */
void phasetime_set_detail(bool on);
bool phasetime_detail(void);

void phasetime_reset(void);
struct phasetime_mark phasetime_begin(void);
/* Charges the region's exclusive time to name; returns its inclusive time. */
double phasetime_end(struct phasetime_mark m, const char *name);
/* This thread's accounts (valid until the next reset). */
const struct phasetime *phasetime_current(void);

/* What a thread is doing now, told to a listener (the supervised lint child
   passes it to its parent, which names it when a file runs past the time
   limit).  item is the thread's current work item (the file's index). */
typedef void (*phasetime_listener)(void *data, size_t item, const char *what);
void phasetime_listen(phasetime_listener fn, void *data);
void phasetime_set_item(size_t item);
void phasetime_announce(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
