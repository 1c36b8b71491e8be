/* watch.c: --watch with inotify (watch.h).  The command line builds a new
 * watch before each run, so directories created meanwhile are watched and
 * changes made during the run are not lost; the result cache makes the run
 * after a change parse only the files that changed (and those including a
 * changed header). */
#include "cli/watch.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

struct watch {
    int fd;
    size_t n;
};

#define WATCH_MASK (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF)

static void add_tree(struct watch *w, const char *dir, int depth)
{
    if (depth > 64 || inotify_add_watch(w->fd, dir, WATCH_MASK) < 0) return;
    w->n++;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char *p = path_join(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) add_tree(w, p, depth + 1);
        free(p);
    }
    closedir(d);
}

struct watch *watch_new(const struct lint_options *o, char **error)
{
    struct watch *w = xcalloc(1, sizeof *w);
    w->fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (w->fd < 0) {
        *error = xasprintf("--watch: inotify: %s", strerror(errno));
        free(w);
        return NULL;
    }
    for (size_t i = 0; i < o->paths.len; i++) {
        struct stat st;
        const char *p = o->paths.items[i];
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            add_tree(w, p, 0);
        } else {
            char *dir = path_dirname(p);
            if (inotify_add_watch(w->fd, dir, WATCH_MASK) >= 0) w->n++;
            free(dir);
        }
    }
    return w;
}

size_t watch_count(const struct watch *w)
{
    return w->n;
}

static bool relevant(const struct lint_options *o, const struct inotify_event *ev)
{
    if (ev->mask & (IN_Q_OVERFLOW | IN_DELETE_SELF)) return true;
    if (!ev->len || ev->name[0] == '.') return strcmp(ev->name, ".cudalint.yaml") == 0;
    if (ev->mask & IN_ISDIR) return true;
    if (strcmp(ev->name, "compile_commands.json") == 0) return true;
    for (size_t i = 0; i < o->extensions.len; i++)
        if (str_ends_with(ev->name, o->extensions.items[i])) return true;
    return false;
}

/* Reads what is queued; returns 1 when a relevant event came, 0 when none,
   -1 on error. */
static int drain(struct watch *w, const struct lint_options *o)
{
    char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    int found = 0;
    for (;;) {
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n < 0) return errno == EAGAIN ? found : -1;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            if (relevant(o, ev)) found = 1;
            p += sizeof *ev + ev->len;
        }
    }
}

int watch_wait(struct watch *w, const struct lint_options *o)
{
    struct pollfd pfd = {w->fd, POLLIN, 0};
    for (;;) {
        if (poll(&pfd, 1, -1) < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        int r = drain(w, o);
        if (r < 0) return -1;
        if (r) break;
    }
    /* Editors write in several steps: wait until it is quiet. */
    while (poll(&pfd, 1, 200) > 0)
        if (drain(w, o) < 0) return -1;
    return 0;
}

void watch_free(struct watch *w)
{
    if (!w) return;
    close(w->fd);
    free(w);
}
