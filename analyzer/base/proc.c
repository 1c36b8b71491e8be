/* proc.c: running other programs (nvcc and ptxas for codegen evidence; the
 * tools `cudalint confirm` drives: nvcc,
 * cuobjdump, the harness, ncu, compute-sanitizer) with captured output and a
 * time limit, and finding them on PATH.
 *
 * Output goes to files rather than pipes so a chatty tool can never block on
 * a full pipe while we wait for it; each child gets its own process group so a
 * time-out also ends whatever the tool started (ncu and compute-sanitizer
 * run the harness as their child). */
#include "base/proc.h"
#include "base/util.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t fork_gate = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void proc_gate_enter(void)
{
    pthread_mutex_lock(&fork_gate);
}

void proc_gate_leave(void)
{
    pthread_mutex_unlock(&fork_gate);
}

pid_t proc_fork_copy(void)
{
    pthread_mutex_lock(&fork_gate);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    /* In the child this thread is the one that locked it: unlocking is the
       same as in the parent. */
    pthread_mutex_unlock(&fork_gate);
    return pid;
}

/* environ with extra ("NAME=value", NULL-terminated) set: a new array of
   borrowed strings, built before a fork so that the child need not allocate. */
static char **env_with(const char *const *extra)
{
    extern char **environ;
    size_t n = 0, k = 0;
    while (environ && environ[n]) n++;
    while (extra && extra[k]) k++;
    char **env = xmalloc((n + k + 1) * sizeof *env);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(environ[i], '=');
        size_t name_len = eq ? (size_t)(eq - environ[i]) + 1 : strlen(environ[i]);
        bool replaced = false;
        for (size_t j = 0; j < k && !replaced; j++) replaced = strncmp(extra[j], environ[i], name_len) == 0;
        if (!replaced) env[m++] = environ[i];
    }
    for (size_t j = 0; j < k; j++) env[m++] = (char *)extra[j];
    env[m] = NULL;
    return env;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A captured output, "" when there is none. */
static char *slurp(const char *path)
{
    char *text = file_read_text(path);
    return text ? text : xstrdup("");
}

void proc_run(char *const argv[], const char *cwd, const char *scratch_dir, int timeout_s,
              bool merge_stderr, const char *const *extra_env, struct proc_result *r)
{
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    static unsigned counter;
    char *out_path = xasprintf("%s/.proc-%ld-%u.out", scratch_dir, (long)getpid(), counter);
    char *err_path = xasprintf("%s/.proc-%ld-%u.err", scratch_dir, (long)getpid(), counter);
    counter++;

    /* The child reports an exec failure's errno through a close-on-exec pipe. */
    int status_pipe[2];
    if (pipe(status_pipe) != 0) {
        r->out = xasprintf("cannot create a pipe: %s", strerror(errno));
        goto done;
    }
    fcntl(status_pipe[1], F_SETFD, FD_CLOEXEC);
    char **env = env_with(extra_env);

    double start = monotonic_seconds();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        r->out = xasprintf("cannot fork: %s", strerror(errno));
        free(env);
        close(status_pipe[0]);
        close(status_pipe[1]);
        goto done;
    }
    if (pid == 0) {
        setpgid(0, 0);
        close(status_pipe[0]);
        int fd_out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fd_err = merge_stderr ? fd_out : open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fd_in = open("/dev/null", O_RDONLY);
        if (fd_out < 0 || fd_err < 0 || fd_in < 0) _exit(126);
        dup2(fd_in, 0);
        dup2(fd_out, 1);
        dup2(fd_err, 2);
        if (cwd && chdir(cwd) != 0) {
            int e = errno;
            ssize_t w = write(status_pipe[1], &e, sizeof e);
            (void)w;
            _exit(126);
        }
        execvpe(argv[0], argv, env);
        int e = errno;
        ssize_t w = write(status_pipe[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    free(env);
    setpgid(pid, pid); /* also here: no race with the child's own call */
    close(status_pipe[1]);

    int status = 0;
    bool done_waiting = false;
    while (!done_waiting) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (timeout_s > 0 && monotonic_seconds() - start > timeout_s) {
            r->timed_out = true;
            kill(-pid, SIGTERM);
            for (int i = 0; i < 100; i++) {
                if (waitpid(pid, &status, WNOHANG) == pid) {
                    done_waiting = true;
                    break;
                }
                sleep_ms(20);
            }
            if (!done_waiting) {
                kill(-pid, SIGKILL);
                waitpid(pid, &status, 0);
            }
            break;
        }
        sleep_ms(20);
    }
    r->seconds = monotonic_seconds() - start;

    int exec_errno = 0;
    if (read(status_pipe[0], &exec_errno, sizeof exec_errno) == (ssize_t)sizeof exec_errno) {
        r->not_found = exec_errno == ENOENT;
        r->out = xasprintf("cannot run %s: %s", argv[0], strerror(exec_errno));
        close(status_pipe[0]);
        goto done;
    }
    close(status_pipe[0]);
    if (!r->timed_out && WIFEXITED(status)) r->exit_code = WEXITSTATUS(status);
    r->out = slurp(out_path);
    if (!merge_stderr) r->err = slurp(err_path);

done:
    if (!r->out) r->out = xstrdup("");
    unlink(out_path);
    unlink(err_path);
    free(out_path);
    free(err_path);
}

void proc_result_release(struct proc_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

char *text_tail(const char *text, int n)
{
    if (!text) return xstrdup("");
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
    size_t start = len;
    int lines = 0;
    while (start > 0) {
        if (text[start - 1] == '\n' && ++lines == n) break;
        start--;
    }
    struct strbuf sb;
    sb_init(&sb);
    bool first = true;
    const char *p = text + start, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t l = eol ? (size_t)(eol - p) : (size_t)(end - p);
        while (l > 0 && (p[l - 1] == '\r' || p[l - 1] == ' ')) l--;
        if (l > 0) {
            if (!first) sb_add(&sb, " | ");
            sb_addn(&sb, p, l > 300 ? 300 : l);
            first = false;
        }
        if (!eol) break;
        p = eol + 1;
    }
    return sb_detach(&sb);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

void remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
