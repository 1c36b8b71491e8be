/* fixwrite.c: --fix and --diff: the parse-time hash of each file, atomic
 * in-place replacement (temporary file, fsync, rename), and unified diffs
 * (Myers' O(ND) line diff, so hunks are minimal and `git apply` takes them). */
#include "fix/fixwrite.h"
#include "base/report.h"
#include "base/util.h"
#include "fix/fixapply.h"
#include "core/result.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- parse-time hashes ---- */

struct remembered {
    char *path; /* absolute */
    uint64_t hash;
};

/* What each file held when it was read for parsing, for one run. */
struct fix_memory {
    pthread_mutex_t lock;
    struct remembered *items;
    size_t n, cap;
};

struct fix_memory *fix_memory_new(void)
{
    struct fix_memory *m = xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

void fix_memory_free(struct fix_memory *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) free(m->items[i].path);
    free(m->items);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void fixwrite_remember(struct fix_memory *m, const char *path, const char *text, size_t len)
{
    fixwrite_remember_hash(m, path, hash_bytes(text, len));
}

bool fixwrite_recall(struct fix_memory *m, const char *path, uint64_t *hash)
{
    char *abs = path_absolute(path);
    pthread_mutex_lock(&m->lock);
    bool found = false;
    for (size_t i = 0; i < m->n && !found; i++)
        if (strcmp(m->items[i].path, abs) == 0) {
            *hash = m->items[i].hash;
            found = true;
        }
    pthread_mutex_unlock(&m->lock);
    free(abs);
    return found;
}

void fixwrite_remember_hash(struct fix_memory *m, const char *path, uint64_t h)
{
    char *abs = path_absolute(path);
    pthread_mutex_lock(&m->lock);
    size_t i = 0;
    while (i < m->n && strcmp(m->items[i].path, abs) != 0) i++;
    if (i < m->n) {
        m->items[i].hash = h;
        free(abs);
    } else {
        XGROW(m->items, m->n, m->cap, 64);
        m->items[m->n].path = abs;
        m->items[m->n].hash = h;
        m->n++;
    }
    pthread_mutex_unlock(&m->lock);
}

/* The recorded hash of path; false when the file was not read for parsing
   (a header only reached through #include). */
static bool fixwrite_parsed_hash(struct fix_memory *m, const char *path, uint64_t *hash)
{
    if (!m) return false;
    char *abs = path_absolute(path);
    bool found = false;
    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->n && !found; i++)
        if (strcmp(m->items[i].path, abs) == 0) {
            *hash = m->items[i].hash;
            found = true;
        }
    pthread_mutex_unlock(&m->lock);
    free(abs);
    return found;
}

/* ---- atomic replacement ---- */

static int write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t w = write(fd, data, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The test hook of the kill-mid-write test: CUDALINT_TEST_SLOW_WRITE=SECONDS
   pauses with the temporary file half written, and again before the rename,
   saying so on stderr so the test knows when to kill. */
static void test_pause(const char *what, const char *tmp)
{
    const char *s = getenv("CUDALINT_TEST_SLOW_WRITE");
    if (!s || !*s) return;
    double secs = strtod(s, NULL);
    if (secs <= 0) return;
    report_info("slow write: %s (%s)", what, tmp);
    fflush(stderr);
    struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static void fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    /* Makes the rename itself durable; some file systems refuse, harmlessly. */
    (void)fsync(fd);
    close(fd);
}

static enum fixwrite_result replace(const char *path, const char *data, size_t len, bool check_hash,
                                    uint64_t expect_hash, bool may_create, char **error)
{
    /* Replace a symlink's target, not the link. */
    char *target = realpath(path, NULL);
    struct stat st;
    if (!target && errno == ENOENT && may_create) {
        target = path_absolute(path);
        mode_t mask = umask(022);
        umask(mask);
        memset(&st, 0, sizeof st);
        st.st_mode = S_IFREG | (0666 & ~mask);
        st.st_uid = geteuid();
        st.st_gid = getegid();
    } else if (!target) {
        *error = xasprintf("%s: %s", path, strerror(errno));
        return FIXWRITE_FAILED;
    } else if (stat(target, &st) != 0 || !S_ISREG(st.st_mode)) {
        *error = xasprintf("%s: not a regular file", path);
        free(target);
        return FIXWRITE_FAILED;
    } else if (!(st.st_mode & 0222)) {
        /* Even where the directory would let the file be replaced (or for
           root), a read-only file is left as its owner marked it. */
        *error = xasprintf("%s: read-only; not fixed", path);
        free(target);
        return FIXWRITE_CHANGED;
    } else if (st.st_nlink > 1) {
        /* Replacing the file would leave its other names with the old text. */
        *error = xasprintf("%s: has %lu hard links, which a replacement would split; not fixed", path,
                           (unsigned long)st.st_nlink);
        free(target);
        return FIXWRITE_CHANGED;
    }
    char *dir = path_dirname(target);
    const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
    /* Hidden and without the source extension, so a leftover from a killed run
       is never linted or taken for a source file. */
    char *tmp = xasprintf("%s/.%s.cudalint-XXXXXX", dir, base);
    enum fixwrite_result result = FIXWRITE_FAILED;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        *error = xasprintf("%s: cannot create a temporary file in %s: %s", path, dir, strerror(errno));
        goto out;
    }
    /* mkstemp creates 0600: give the new file the original's mode and, where
       allowed, its owner. */
    if (fchmod(fd, st.st_mode & 07777) != 0) {
        *error = xasprintf("%s: cannot set permissions: %s", path, strerror(errno));
        goto fail_fd;
    }
    if (st.st_uid != geteuid() || st.st_gid != getegid()) (void)!fchown(fd, st.st_uid, st.st_gid);
    size_t half = len / 2;
    int e = write_all(fd, data, half);
    if (!e) {
        test_pause("temporary file half written", tmp);
        e = write_all(fd, data + half, len - half);
    }
    if (!e && fsync(fd) != 0) e = errno;
    if (e) {
        *error = xasprintf("%s: cannot write %s: %s", path, tmp, strerror(e));
        goto fail_fd;
    }
    if (close(fd) != 0) {
        fd = -1;
        *error = xasprintf("%s: cannot write %s: %s", path, tmp, strerror(errno));
        goto fail_unlink;
    }
    fd = -1;
    test_pause("temporary file complete, before rename", tmp);
    if (check_hash) {
        char *now = NULL;
        size_t now_len = 0;
        int re = read_file(target, &now, &now_len);
        bool same = re == 0 && hash_bytes(now, now_len) == expect_hash;
        free(now);
        if (!same) {
            *error = xasprintf("%s: changed on disk since it was parsed; not fixed", path);
            result = FIXWRITE_CHANGED;
            goto fail_unlink;
        }
    }
    if (rename(tmp, target) != 0) {
        *error = xasprintf("%s: cannot replace: %s", path, strerror(errno));
        goto fail_unlink;
    }
    fsync_dir(dir);
    result = FIXWRITE_OK;
    goto out;
fail_fd:
    close(fd);
fail_unlink:
    unlink(tmp);
out:
    free(tmp);
    free(dir);
    free(target);
    return result;
}

/* Replaces path's content with data, atomically (see replace()); when
   check_hash, only while the file still hashes to expect_hash. */
static enum fixwrite_result fixwrite_replace(const char *path, const char *data, size_t len, bool check_hash,
                                      uint64_t expect_hash, char **error)
{
    return replace(path, data, len, check_hash, expect_hash, false, error);
}

int fixwrite_save(const char *path, const char *data, size_t len, char **error)
{
    return replace(path, data, len, false, 0, true, error) == FIXWRITE_OK ? 0 : -1;
}

/* ---- unified diff ---- */

struct line {
    const char *p;
    size_t n; /* with its '\n', if any */
    uint64_t h;
};

static struct line *split_lines(const char *t, size_t len, size_t *count)
{
    size_t cap = 64, n = 0;
    struct line *v = xmalloc(cap * sizeof *v);
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(t + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - t) + 1 : len;
        if (n == cap) {
            cap *= 2;
            v = xrealloc(v, cap * sizeof *v);
        }
        v[n].p = t + pos;
        v[n].n = end - pos;
        v[n].h = hash_bytes(t + pos, end - pos);
        n++;
        pos = end;
    }
    *count = n;
    return v;
}

static bool line_eq(const struct line *a, const struct line *b)
{
    return a->h == b->h && a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

/* Beyond this many edits the trace (D^2 ints) gets large; a fix never comes
   near it, and the fallback (one hunk replacing the changed middle) is still a
   correct diff. */
enum { MAX_EDITS = 2000 };

/* Myers' greedy forward search with a trace for the backtrack.  Marks del[i]
   for removed lines of a and ins[j] for added lines of b; false when more than
   MAX_EDITS edits would be needed. */
static bool myers(const struct line *a, int n, const struct line *b, int m, char *del, char *ins)
{
    int maxd = n + m < MAX_EDITS ? n + m : MAX_EDITS;
    int off = maxd + 1;
    int *v = xcalloc((size_t)(2 * maxd + 3), sizeof *v);
    int **trace = xcalloc((size_t)maxd + 1, sizeof *trace);
    bool found = false;
    int d;
    for (d = 0; d <= maxd && !found; d++) {
        trace[d] = xmalloc((size_t)(2 * d + 1) * sizeof **trace);
        memcpy(trace[d], v + off - d, (size_t)(2 * d + 1) * sizeof *v);
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
            int y = x - k;
            while (x < n && y < m && line_eq(&a[x], &b[y])) x++, y++;
            v[off + k] = x;
            if (x >= n && y >= m) {
                found = true;
                break;
            }
        }
    }
    if (found) {
        int x = n, y = m;
        for (int dd = d - 1; dd > 0; dd--) {
            const int *tv = trace[dd];
            int k = x - y;
#define TV(kk) tv[(kk) + dd]
            int pk = (k == -dd || (k != dd && TV(k - 1) < TV(k + 1))) ? k + 1 : k - 1;
            int px = TV(pk), py = px - pk;
#undef TV
            while (x > px && y > py) x--, y--;
            if (x == px) ins[py] = 1;
            else del[px] = 1;
            x = px;
            y = py;
        }
    }
    for (int i = 0; i < d && i <= maxd; i++) free(trace[i]);
    free(trace);
    free(v);
    return found;
}

static void emit_line(struct strbuf *out, char mark, const struct line *l)
{
    sb_addc(out, mark);
    sb_addn(out, l->p, l->n);
    if (l->n == 0 || l->p[l->n - 1] != '\n') sb_add(out, "\n\\ No newline at end of file\n");
}

static void hunk_range(struct strbuf *out, char sign, size_t start, size_t count)
{
    /* An empty range names the line before it (0 at the top of the file). */
    if (count == 0) sb_addf(out, "%c%zu,0", sign, start);
    else if (count == 1) sb_addf(out, "%c%zu", sign, start + 1);
    else sb_addf(out, "%c%zu,%zu", sign, start + 1, count);
}

enum { CONTEXT = 3 };

/* Appends a unified diff (3 lines of context, "--- a/LABEL", "+++ b/LABEL")
   of old -> new to out; appends nothing when they are equal. */
static void fixwrite_unified_diff(struct strbuf *out, const char *label, const char *old_text, size_t old_len,
                           const char *new_text, size_t new_len)
{
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0) return;
    size_t na, nb;
    struct line *a = split_lines(old_text, old_len, &na);
    struct line *b = split_lines(new_text, new_len, &nb);
    char *del = xcalloc(na + 1, 1), *ins = xcalloc(nb + 1, 1);
    /* Common head and tail lines need no search. */
    size_t pre = 0;
    while (pre < na && pre < nb && line_eq(&a[pre], &b[pre])) pre++;
    size_t suf = 0;
    while (suf < na - pre && suf < nb - pre && line_eq(&a[na - 1 - suf], &b[nb - 1 - suf])) suf++;
    int mn = (int)(na - pre - suf), mm = (int)(nb - pre - suf);
    if (!myers(a + pre, mn, b + pre, mm, del + pre, ins + pre)) {
        memset(del + pre, 1, (size_t)mn);
        memset(ins + pre, 1, (size_t)mm);
    }

    /* Change blocks: runs of deleted and inserted lines between equal ones. */
    struct block {
        size_t i0, i1, j0, j1;
    } *blocks = NULL;
    size_t nblocks = 0;
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        if ((i < na && del[i]) || (j < nb && ins[j])) {
            struct block bl = {i, i, j, j};
            while (i < na && del[i]) i++;
            while (j < nb && ins[j]) j++;
            bl.i1 = i;
            bl.j1 = j;
            blocks = xrealloc(blocks, (nblocks + 1) * sizeof *blocks);
            blocks[nblocks++] = bl;
        } else {
            i++;
            j++;
        }
    }
    if (nblocks) {
        sb_addf(out, "--- a/%s\n+++ b/%s\n", label, label);
    }
    for (size_t first = 0; first < nblocks;) {
        size_t last = first;
        while (last + 1 < nblocks && blocks[last + 1].i0 - blocks[last].i1 <= 2 * CONTEXT) last++;
        size_t a0 = blocks[first].i0 > CONTEXT ? blocks[first].i0 - CONTEXT : 0;
        size_t b0 = blocks[first].j0 - (blocks[first].i0 - a0);
        size_t a1 = blocks[last].i1 + CONTEXT < na ? blocks[last].i1 + CONTEXT : na;
        size_t b1 = blocks[last].j1 + (a1 - blocks[last].i1);
        sb_add(out, "@@ ");
        hunk_range(out, '-', a0, a1 - a0);
        sb_addc(out, ' ');
        hunk_range(out, '+', b0, b1 - b0);
        sb_add(out, " @@\n");
        size_t x = a0, y = b0;
        for (size_t k = first; k <= last; k++) {
            for (; x < blocks[k].i0; x++, y++) emit_line(out, ' ', &a[x]);
            for (; x < blocks[k].i1; x++) emit_line(out, '-', &a[x]);
            for (; y < blocks[k].j1; y++) emit_line(out, '+', &b[y]);
        }
        for (; x < a1; x++, y++) emit_line(out, ' ', &a[x]);
        first = last + 1;
    }
    free(blocks);
    free(del);
    free(ins);
    free(a);
    free(b);
}

/* ---- --fix / --diff over a run ---- */

/* Above this many fixable findings in one file, which of them were applied is
   not worked out (it costs a fix_apply per finding); they all stay reported. */
enum { MAX_ATTRIBUTED = 512 };

static bool diag_fixes_file(const struct diag *d, const char *file)
{
    for (size_t k = 0; k < d->n_fixes; k++)
        if (strcmp(d->fixes[k].file, file) == 0) return true;
    return false;
}

void fixwrite_run(struct fix_memory *m, struct lint_run *run, bool write, struct strbuf *diff, bool quiet, struct fixwrite_summary *s)
{
    memset(s, 0, sizeof *s);
    struct strvec files = {0};
    for (size_t i = 0; i < run->diags.len; i++)
        for (size_t k = 0; k < run->diags.items[i].n_fixes; k++)
            if (!sv_contains(&files, run->diags.items[i].fixes[k].file))
                sv_push(&files, run->diags.items[i].fixes[k].file);
    bool *fixed = xcalloc(run->diags.len + 1, sizeof *fixed);
    for (size_t fi = 0; fi < files.len; fi++) {
        const char *file = files.items[fi];
        /* The findings with edits in this file, in report order (fix_apply
           takes them greedily in this order). */
        struct diag_list mine = {0};
        size_t *index = NULL;
        for (size_t i = 0; i < run->diags.len; i++)
            if (diag_fixes_file(&run->diags.items[i], file)) {
                if (mine.len == mine.cap) {
                    mine.cap = mine.cap ? mine.cap * 2 : 16;
                    mine.items = xrealloc(mine.items, mine.cap * sizeof *mine.items);
                    index = xrealloc(index, mine.cap * sizeof *index);
                }
                index[mine.len] = i;
                mine.items[mine.len++] = run->diags.items[i]; /* shallow: not released */
            }
        uint64_t parsed;
        char *text = NULL;
        size_t len = 0;
        char *shown = path_display(file);
        if (!fixwrite_parsed_hash(m, file, &parsed)) {
            if (!quiet)
                report_info("%s: %zu fix%s not applied: the file was only seen through #include; "
                            "name it on the command line to fix it",
                            shown, mine.len, mine.len == 1 ? "" : "es");
            s->files_skipped++;
            goto next;
        }
        int e = read_file(file, &text, &len);
        if (e || hash_bytes(text, len) != parsed) {
            if (!quiet)
                report_info("%s: %s since it was parsed; not fixed (run again)", shown,
                            e ? "unreadable" : "changed");
            s->files_skipped++;
            goto next;
        }
        size_t new_len, applied, skipped;
        char *fixed_text = fix_apply(text, len, file, &mine, &new_len, &applied, &skipped);
        /* Which findings were applied: fix_apply over each prefix of the list
           applies one more exactly when the last finding's fixes were taken. */
        bool *taken = xcalloc(mine.len + 1, sizeof *taken);
        if (mine.len <= MAX_ATTRIBUTED) {
            size_t before = 0;
            for (size_t j = 0; j < mine.len; j++) {
                struct diag_list prefix = {mine.items, j + 1, j + 1};
                size_t pl, pa, ps;
                free(fix_apply(text, len, file, &prefix, &pl, &pa, &ps));
                taken[j] = pa > before;
                before = pa;
            }
        }
        s->overlapping += skipped;
        if (skipped && !quiet)
            report_info("%s: %zu fix%s overlap%s another and %s not applied; run --fix again", shown,
                        skipped, skipped == 1 ? "" : "es", skipped == 1 ? "s" : "", skipped == 1 ? "was" : "were");
        if (applied && (new_len != len || memcmp(fixed_text, text, len) != 0)) {
            if (write) {
                char *err = NULL;
                enum fixwrite_result r = fixwrite_replace(file, fixed_text, new_len, true, parsed, &err);
                if (r == FIXWRITE_OK) {
                    s->files++;
                    s->fixed += applied;
                    for (size_t j = 0; j < mine.len; j++)
                        if (taken[j]) fixed[index[j]] = true;
                    if (m) fixwrite_remember(m, file, fixed_text, new_len);
                } else {
                    report(r == FIXWRITE_CHANGED ? REPORT_WARNING : REPORT_ERROR, "%s", err);
                    if (r == FIXWRITE_CHANGED) s->files_skipped++;
                    else s->files_failed++;
                }
                free(err);
            } else {
                fixwrite_unified_diff(diff, shown, text, len, fixed_text, new_len);
                s->files++;
                s->fixed += applied;
            }
        }
        free(taken);
        free(fixed_text);
    next:
        free(shown);
        free(text);
        free(mine.items);
        free(index);
    }
    if (write) {
        size_t w = 0;
        for (size_t i = 0; i < run->diags.len; i++) {
            if (fixed[i]) {
                diag_release(&run->diags.items[i]);
                continue;
            }
            run->diags.items[w++] = run->diags.items[i];
        }
        run->diags.len = w;
    }
    free(fixed);
    sv_release(&files);
}
