/* util.h: small shared helpers: checked allocation, growable strings and
 * arrays, file reading, path helpers.  Everything else builds on these. */
#ifndef CUDALINT_UTIL_H
#define CUDALINT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Makes room for one more element in a growable array arr of n used and cap
   allocated elements: doubles cap (first when 0) once n reaches it. */
#define XGROW(arr, n, cap, first)                                   \
    do {                                                            \
        if ((n) == (cap)) {                                         \
            (cap) = (cap) ? (cap) * 2 : (first);                    \
            (arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr)); \
        }                                                           \
    } while (0)

/* Growable byte string, always NUL-terminated. */
struct strbuf {
    char *buf;
    size_t len, cap;
};
void sb_init(struct strbuf *sb);
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
char *sb_detach(struct strbuf *sb); /* caller frees; sb is reset */
void sb_release(struct strbuf *sb);

/* Growable array of owned strings. */
struct strvec {
    char **items;
    size_t len, cap;
};
void sv_push(struct strvec *sv, const char *s);      /* copies s */
void sv_push_owned(struct strvec *sv, char *s);      /* takes s */
void sv_release(struct strvec *sv);
bool sv_contains(const struct strvec *sv, const char *s);
void sv_sort(struct strvec *sv);                     /* byte order */
/* Appends the items of a comma-separated list ("CU1, CU2,,x"), trimmed of
   white space, empty ones dropped. */
void sv_split_list(struct strvec *sv, const char *list);

/* Reads a whole file.  Returns 0 and sets *out and *len (NUL-terminated), or
   an errno: regular files only (EINVAL for FIFOs and devices, which it never
   blocks on), and none larger than READ_FILE_MAX (EFBIG). */
#define READ_FILE_MAX ((long long)256 << 20)
int read_file(const char *path, char **out, size_t *len);
/* The same as a string, NULL when unreadable. */
char *file_read_text(const char *path);
/* Writes (creates or truncates) a whole file; false on failure. */
bool file_write_text(const char *path, const char *text, size_t len);
/* Full path of an executable named name on $PATH (or name itself when it
   holds a '/'), or NULL. */
char *path_find_executable(const char *name);

bool path_is_dir(const char *path);
bool path_exists(const char *path);
char *path_join(const char *a, const char *b);
char *path_dirname(const char *path);
/* Absolute, normalized (no . or .. components, no symlink resolution). */
char *path_absolute(const char *path);
/* path relative to base when under it, else a copy of path. */
char *path_relative(const char *path, const char *base);
bool path_has_prefix_dir(const char *path, const char *dir);

/* A path as CI tools want it: relative to the current directory (the
   repository root in CI) when under it, else absolute. */
char *path_display(const char *file);
/* path relative to dir, with "../" steps when needed (both made absolute). */
char *path_relative_to(const char *path, const char *dir);
/* mkdir -p with the given mode for each directory created; 0 or an errno
   (ENOTDIR when a component is not a directory). */
int mkdir_p(const char *dir, unsigned mode);
/* The user's cache directory: $XDG_CACHE_HOME/cudalint or ~/.cache/cudalint. */
char *user_cache_dir(void);

bool str_starts_with(const char *s, const char *prefix);
bool str_ends_with(const char *s, const char *suffix);
/* fnmatch-style glob, case-insensitive for rule codes. */
bool glob_match_ci(const char *pattern, const char *s);

/* A copy of s with every invalid UTF-8 sequence replaced by U+FFFD, so JSON
   and LSP output stay valid whatever bytes a source file holds. */
char *utf8_sanitize(const char *s);

uint64_t hash_bytes(const void *data, size_t len);   /* xxh3-64 */

int cpu_count(void);
/* Seconds on the monotonic clock (for durations). */
double monotonic_seconds(void);

#endif
