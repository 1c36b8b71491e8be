/* util.c: checked allocation, growable strings and arrays, file and path
 * helpers shared by every part of cudalint. */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

static void out_of_memory(void)
{
    fputs("cudalint: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

char *xvasprintf(const char *fmt, va_list ap)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_vaddf(&sb, fmt, ap);
    return sb_detach(&sb);
}

void sb_init(struct strbuf *sb)
{
    sb->cap = 64;
    sb->len = 0;
    sb->buf = xmalloc(sb->cap);
    sb->buf[0] = '\0';
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
    if (!sb->buf) sb_init(sb);
    if (sb->len + extra + 1 <= sb->cap) return;
    while (sb->len + extra + 1 > sb->cap) sb->cap *= 2;
    sb->buf = xrealloc(sb->buf, sb->cap);
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
    sb_grow(sb, n);
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
    sb_addn(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
    sb_addn(sb, &c, 1);
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0) return;
    sb_grow(sb, (size_t)n);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vaddf(sb, fmt, ap);
    va_end(ap);
}

char *sb_detach(struct strbuf *sb)
{
    if (!sb->buf) sb_init(sb);
    char *s = sb->buf;
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void sb_release(struct strbuf *sb)
{
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}

void sv_push_owned(struct strvec *sv, char *s)
{
    if (sv->len + 1 >= sv->cap) {
        sv->cap = sv->cap ? sv->cap * 2 : 8;
        sv->items = xrealloc(sv->items, sv->cap * sizeof *sv->items);
    }
    sv->items[sv->len++] = s;
    sv->items[sv->len] = NULL; /* keeps items usable as a NULL-terminated argv */
}

void sv_push(struct strvec *sv, const char *s)
{
    sv_push_owned(sv, xstrdup(s));
}

void sv_release(struct strvec *sv)
{
    for (size_t i = 0; i < sv->len; i++) free(sv->items[i]);
    free(sv->items);
    sv->items = NULL;
    sv->len = sv->cap = 0;
}

bool sv_contains(const struct strvec *sv, const char *s)
{
    for (size_t i = 0; i < sv->len; i++)
        if (strcmp(sv->items[i], s) == 0) return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void sv_sort(struct strvec *sv)
{
    if (sv->len) qsort(sv->items, sv->len, sizeof *sv->items, cmp_str);
}

char *file_read_text(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    return read_file(path, &text, &len) == 0 ? text : NULL;
}

bool file_write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

char *path_find_executable(const char *name)
{
    if (strchr(name, '/')) return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char *copy = xstrdup(path), *save = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char *full = path_join(*dir ? dir : ".", name);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0) {
            free(copy);
            return full;
        }
        free(full);
    }
    free(copy);
    return NULL;
}

void sv_split_list(struct strvec *sv, const char *list)
{
    const char *p = list;
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        const char *e = p;
        while (*e && *e != ',') e++;
        const char *t = e;
        while (t > p && isspace((unsigned char)t[-1])) t--;
        if (t > p) sv_push_owned(sv, xstrndup(p, (size_t)(t - p)));
        p = e;
    }
}

int read_file(const char *path, char **out, size_t *len)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return EISDIR;
    }
    /* Devices and FIFOs never end (/dev/zero) or never start; a file beyond
       READ_FILE_MAX is not one cudalint has any use for. */
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return EINVAL;
    }
    if (st.st_size > READ_FILE_MAX) {
        close(fd);
        return EFBIG;
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            free(buf);
            close(fd);
            return e;
        }
        if (r == 0) break;
        n += (size_t)r;
        if (n > READ_FILE_MAX) { /* a file that grows while read (/proc) */
            free(buf);
            close(fd);
            return EFBIG;
        }
    }
    close(fd);
    buf[n] = '\0';
    *out = buf;
    if (len) *len = n;
    return 0;
}

bool path_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool path_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

char *path_join(const char *a, const char *b)
{
    if (!a || !*a || b[0] == '/') return xstrdup(b);
    size_t la = strlen(a);
    return xasprintf("%s%s%s", a, a[la - 1] == '/' ? "" : "/", b);
}

char *path_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    if (slash == path) return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

char *path_absolute(const char *path)
{
    char *joined;
    if (path[0] == '/') {
        joined = xstrdup(path);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "/");
        joined = path_join(cwd, path);
    }
    /* Normalize: split on '/', drop "." and resolve ".." lexically. */
    size_t n = strlen(joined);
    char **parts = xmalloc((n / 2 + 2) * sizeof *parts);
    size_t np = 0;
    char *save = NULL;
    for (char *tok = strtok_r(joined, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
        if (strcmp(tok, ".") == 0) continue;
        if (strcmp(tok, "..") == 0) {
            if (np) np--;
            continue;
        }
        parts[np++] = tok;
    }
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < np; i++) {
        sb_addc(&sb, '/');
        sb_add(&sb, parts[i]);
    }
    if (np == 0) sb_addc(&sb, '/');
    free(parts);
    free(joined);
    return sb_detach(&sb);
}

bool path_has_prefix_dir(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    if (strncmp(path, dir, n) != 0) return false;
    return path[n] == '/' || path[n] == '\0' || (n == 1 && dir[0] == '/');
}

char *path_relative(const char *path, const char *base)
{
    if (base && path_has_prefix_dir(path, base)) {
        size_t n = strlen(base);
        while (n > 1 && base[n - 1] == '/') n--;
        const char *rest = path + n;
        while (*rest == '/') rest++;
        if (*rest) return xstrdup(rest);
    }
    return xstrdup(path);
}

char *path_display(const char *file)
{
    char *abs = path_absolute(file);
    char *cwd = path_absolute(".");
    char *r = path_has_prefix_dir(abs, cwd) && strcmp(abs, cwd) != 0 ? path_relative(abs, cwd) : xstrdup(abs);
    free(abs);
    free(cwd);
    return r;
}

char *path_relative_to(const char *path, const char *dir)
{
    char *a = path_absolute(path), *d = path_absolute(dir);
    /* Longest common directory prefix, by whole components. */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        bool a_end = a[i] == '\0' || a[i] == '/', d_end = d[i] == '\0' || d[i] == '/';
        if (a_end && d_end) common = i;
        if (a[i] != d[i] || !a[i] || !d[i]) break;
    }
    struct strbuf sb;
    sb_init(&sb);
    /* One "../" per component of dir below the common prefix. */
    for (const char *p = d + common; *p; p++)
        if (*p == '/' && p[1]) sb_add(&sb, "../");
    const char *rest = a + common;
    while (*rest == '/') rest++;
    sb_add(&sb, rest);
    if (sb.len == 0) sb_add(&sb, ".");
    char *r = sb_detach(&sb);
    free(a);
    free(d);
    return r;
}

int mkdir_p(const char *dir, unsigned mode)
{
    struct stat st;
    if (stat(dir, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    char *parent = path_dirname(dir);
    int e = 0;
    if (strcmp(parent, dir) != 0 && strcmp(parent, ".") != 0) e = mkdir_p(parent, mode);
    free(parent);
    if (e) return e;
    if (mkdir(dir, (mode_t)mode) != 0 && errno != EEXIST) return errno;
    return 0;
}

char *user_cache_dir(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/') return path_join(xdg, "cudalint");
    const char *home = getenv("HOME");
    if (home && *home) return xasprintf("%s/.cache/cudalint", home);
    return xstrdup("/tmp/cudalint-cache");
}

bool str_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

bool glob_match_ci(const char *pattern, const char *s)
{
    return fnmatch(pattern, s, FNM_CASEFOLD) == 0;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid. */
static size_t utf8_valid_len(const unsigned char *p)
{
    if (p[0] < 0x80) return 1;
    size_t n;
    unsigned min;
    unsigned cp;
    if ((p[0] & 0xE0) == 0xC0) { n = 2; cp = p[0] & 0x1F; min = 0x80; }
    else if ((p[0] & 0xF0) == 0xE0) { n = 3; cp = p[0] & 0x0F; min = 0x800; }
    else if ((p[0] & 0xF8) == 0xF0) { n = 4; cp = p[0] & 0x07; min = 0x10000; }
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

char *utf8_sanitize(const char *s)
{
    struct strbuf sb;
    sb_init(&sb);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_valid_len(p);
        if (n == 0) {
            sb_add(&sb, "\xEF\xBF\xBD");
            p++;
        } else {
            sb_addn(&sb, (const char *)p, n);
            p += n;
        }
    }
    return sb_detach(&sb);
}

uint64_t hash_bytes(const void *data, size_t len)
{
    return XXH3_64bits(data, len);
}

int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
