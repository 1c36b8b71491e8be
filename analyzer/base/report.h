/* report.h: the one path for cudalint's own errors and warnings (not
 * findings): printed as "cudalint: warning: ..." on stderr. */
#ifndef CUDALINT_REPORT_H
#define CUDALINT_REPORT_H

/* Prints "cudalint: warning: MSG" to stderr once per process and key. */
void report_warn_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
