/* report.h: the one path for cudalint's own errors, warnings and remarks (not
 * findings, which go to an output writer).  By default they are printed to
 * stderr as "cudalint: error: MSG"; a front end can send them elsewhere (the
 * language server sends them to the editor as window/logMessage). */
#ifndef CUDALINT_REPORT_H
#define CUDALINT_REPORT_H

enum report_level {
    REPORT_ERROR,   /* "PROGRAM: error: MSG" */
    REPORT_WARNING, /* "PROGRAM: warning: MSG" */
    REPORT_INFO,    /* "PROGRAM: MSG": what a run did (wrote a baseline, fixed files) */
};

void report(enum report_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define report_error(...) report(REPORT_ERROR, __VA_ARGS__)
#define report_warning(...) report(REPORT_WARNING, __VA_ARGS__)
#define report_info(...) report(REPORT_INFO, __VA_ARGS__)
/* A warning printed once per process and key. */
void report_warn_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The name reports start with: "cudalint" (the default), "cudalint confirm". */
void report_set_program(const char *name);
/* Sends every later report to sink (called from any thread, so it must be
   thread-safe) instead of stderr; NULL restores stderr. */
typedef void (*report_sink_fn)(void *data, enum report_level level, const char *message);
void report_set_sink(report_sink_fn sink, void *data);

#endif
