/* stamp.c: file stamps (size, mtime, content hash), memoized per process,
 * which the result cache and the precompiled headers use to notice that an
 * included file changed. */
#include "base/stamp.h"
#include "base/util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


struct memo {
    char *path;
    int err;              /* 0, or the stat/read errno */
    int64_t size, mtime_ns;
    bool hashed;
    uint64_t hash;
    double checked;       /* monotonic seconds of the stat */
    struct memo *next;
};

#define MEMO_BUCKETS 4096
static struct memo *memo_table[MEMO_BUCKETS];
static pthread_mutex_t memo_mu = PTHREAD_MUTEX_INITIALIZER;

static int hash_file(const char *path, uint64_t *out)
{
    char *text = NULL;
    size_t len = 0;
    int e = read_file(path, &text, &len);
    if (e) return e;
    *out = hash_bytes(text, len);
    free(text);
    return 0;
}

/* The file's current size/mtime (and hash when want_hash), from the memo. */
static int current(const char *path, bool want_hash, struct memo *out)
{
    size_t b = (size_t)(hash_bytes(path, strlen(path)) % MEMO_BUCKETS);
    double t = monotonic_seconds();
    pthread_mutex_lock(&memo_mu);
    struct memo *m = memo_table[b];
    while (m && strcmp(m->path, path) != 0) m = m->next;
    if (m && t - m->checked < STAMP_TTL && (m->hashed || !want_hash || m->err)) {
        *out = *m;
        pthread_mutex_unlock(&memo_mu);
        return out->err;
    }
    struct memo old = m ? *m : (struct memo){0};
    pthread_mutex_unlock(&memo_mu);

    struct memo fresh = {0};
    fresh.checked = t;
    struct stat st;
    if (stat(path, &st) != 0) {
        fresh.err = errno ? errno : ENOENT;
    } else {
        fresh.size = (int64_t)st.st_size;
        fresh.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
        if (old.hashed && !old.err && old.size == fresh.size && old.mtime_ns == fresh.mtime_ns) {
            fresh.hashed = true;
            fresh.hash = old.hash;
        } else if (want_hash) {
            fresh.err = hash_file(path, &fresh.hash);
            fresh.hashed = fresh.err == 0;
        }
    }
    pthread_mutex_lock(&memo_mu);
    m = memo_table[b];
    while (m && strcmp(m->path, path) != 0) m = m->next;
    if (!m) {
        m = xcalloc(1, sizeof *m);
        m->path = xstrdup(path);
        m->next = memo_table[b];
        memo_table[b] = m;
    }
    char *keep = m->path;
    struct memo *next = m->next;
    *m = fresh;
    m->path = keep;
    m->next = next;
    *out = *m;
    pthread_mutex_unlock(&memo_mu);
    return out->err;
}

int stamp_take(const char *path, struct file_stamp *out)
{
    struct memo m;
    if (current(path, true, &m) != 0) return -1;
    out->path = xstrdup(path);
    out->size = m.size;
    out->mtime_ns = m.mtime_ns;
    out->hash = m.hash;
    out->system = false;
    return 0;
}

bool stamp_still_valid(const struct file_stamp *s)
{
    struct memo m;
    if (current(s->path, false, &m) != 0 || m.size != s->size) return false;
    if (m.mtime_ns == s->mtime_ns) return true;
    return current(s->path, true, &m) == 0 && m.hash == s->hash;
}

void stamp_release(struct file_stamp *s)
{
    free(s->path);
    s->path = NULL;
}
