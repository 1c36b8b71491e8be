/* cachedir.c: the cache directory (results and precompiled headers), created
 * when missing and probed for writing once. */
#include "base/cachedir.h"
#include "base/report.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Can we create files in dir?  (access() says yes to root on a read-only
   mount, so try.) */
static int probe_writable(const char *dir)
{
    char *p = xasprintf("%s/.probe.%ld", dir, (long)getpid());
    int fd = open(p, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    int e = fd < 0 ? errno : 0;
    if (fd >= 0) {
        close(fd);
        unlink(p);
    }
    free(p);
    return e;
}

const char *cache_dir_writable(const char *cache_dir, bool warn)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static char *asked, *dir;
    char *want = cache_dir ? xstrdup(cache_dir) : user_cache_dir();
    pthread_mutex_lock(&mu);
    if (!asked || strcmp(asked, want) != 0) {
        free(asked);
        free(dir);
        asked = xstrdup(want);
        dir = NULL;
        int e = mkdir_p(want, 0755);
        if (!e) e = probe_writable(want);
        if (!e) dir = xstrdup(want);
        else if (warn)
            report_warn_once("cache-dir", "cache directory %s is not writable (%s); running without the result "
                            "cache and precompiled headers (give --cache-dir DIR, or --no-cache)",
                            want, strerror(e));
    }
    const char *r = dir;
    pthread_mutex_unlock(&mu);
    free(want);
    return r;
}
