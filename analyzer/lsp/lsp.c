/* lsp.c: `cudalint lsp`, a Language Server Protocol 3.17 server over stdio.
 *
 * Two threads.  The reader (the main thread) reads Content-Length framed
 * JSON-RPC messages, keeps the open documents' text and answers requests at
 * once; it never lints.  The lint worker takes the newest version of each
 * changed document, lints it (reusing the parsed translation units, see
 * lsp_lint.c) and publishes diagnostics unless the document changed again
 * meanwhile, so a burst of edits costs one lint of the last version.  Every
 * write to stdout goes through out_mu so messages never interleave.  Lock
 * order: docs_mu before out_mu.
 *
 * The other lsp_* files: lsp_rpc.c (framing), lsp_text.c (positions, edits,
 * URIs), lsp_convert.c (findings -> diagnostics and quick fixes), lsp_lint.c
 * (the kept translation units). */
#include "lsp/lsp.h"
#include "base/proc.h"
#include "base/report.h"
#include "core/cmdline.h"
#include "base/jsonutil.h"
#include "frontend/compile_args.h"
#include "config/config.h"
#include "engine/lint.h"
#include "lsp/lsp_convert.h"
#include "lsp/lsp_lint.h"
#include "lsp/lsp_proc.h"
#include "lsp/lsp_rpc.h"
#include "lsp/lsp_text.h"
#include "frontend/toolkit.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CUDALINT_VERSION
#define CUDALINT_VERSION "0.0.0"
#endif

/* JSON-RPC and LSP error codes. */
enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    RPC_INTERNAL_ERROR = -32603,
    LSP_SERVER_NOT_INITIALIZED = -32002,
};

/* Parsed translation units are kept for this many documents (LRU): each holds
   one preamble per parse pass, tens of megabytes with the toolkit headers. */
#define MAX_SESSIONS 8

struct lsp_doc {
    char *uri;            /* as the client spelled it: published back verbatim */
    char *path;           /* absolute path, NULL for non-file URIs */
    char *text;
    size_t len;
    long version;         /* the client's version */
    uint64_t stamp;       /* server-side edit counter: staleness test */
    uint64_t linted_at;   /* LRU clock of the last lint */
    bool dirty;           /* needs a lint */
    bool refresh;         /* opened or saved: see whether compile_commands.json changed */
    bool closed;          /* closed by the client; freed once not busy */
    bool busy;            /* the worker is linting it */
    uint64_t lint_id;     /* its id in the lint process (lsp_proc.h), 0 until linted */
    bool has_session;     /* the lint process keeps its translation units */
    cJSON *actions;       /* [{range, action}] of the last publish */
    long actions_version;
    uint64_t actions_stamp; /* the edit they were computed for */
    char *status_note;    /* the last lint's problem, as logged (NULL: ok) */
    struct lsp_doc *next;
};

struct server {
    struct lint_session session; /* its options: session.opts */
    bool reuse_tus;           /* false: plain lint_file() per edit (--no-reuse) */
    struct lsp_convert cv;    /* the negotiated encoding and edit style */
    bool initialize_seen, shutdown_seen;
    unsigned opts_generation; /* bumped when session.opts change: a new lint process */
    uint64_t next_lint_id;
    struct timespec compdb_mtime; /* of the loaded compile_commands.json */

    pthread_mutex_t out_mu;   /* stdout and the trace log */
    int out_fd;
    bool out_broken;
    FILE *trace;

    pthread_mutex_t docs_mu;  /* everything below */
    pthread_cond_t docs_cv;
    struct lsp_doc *docs;
    /* Documents closed whose units the lint process may drop: the worker
       tells it (only the worker talks to the lint process). */
    uint64_t *forget;
    size_t n_forget;
    uint64_t stamp, lru_clock;
    bool stop, worker_busy;
    pthread_t worker;
    bool worker_started;
};

/* ------------------------------------------------------------------ output */

static void trace_locked(struct server *s, const char *dir, const char *body, size_t len)
{
    if (!s->trace) return;
    fprintf(s->trace, "%s %.*s\n", dir, (int)(len > INT_MAX ? INT_MAX : len), body);
    fflush(s->trace);
}

/* Serialises msg and writes it; msg stays owned by the caller. */
static void send_json(struct server *s, const cJSON *msg)
{
    char *body = cJSON_PrintUnformatted(msg);
    if (!body) return;
    size_t len = strlen(body);
    pthread_mutex_lock(&s->out_mu);
    /* A client gone away shows as end of input to the reader: stop writing. */
    if (!s->out_broken && !lsp_write_message(s->out_fd, body, len)) s->out_broken = true;
    trace_locked(s, "->", body, len);
    pthread_mutex_unlock(&s->out_mu);
    free(body);
}

static cJSON *rpc_new(void)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    return m;
}

/* Takes ownership of result (NULL sends null). */
static void send_result(struct server *s, const cJSON *id, cJSON *result)
{
    cJSON *m = rpc_new();
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON_AddItemToObject(m, "result", result ? result : cJSON_CreateNull());
    send_json(s, m);
    cJSON_Delete(m);
}

static void send_error(struct server *s, const cJSON *id, int code, const char *message)
{
    cJSON *m = rpc_new();
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON *e = cJSON_AddObjectToObject(m, "error");
    cJSON_AddNumberToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", message);
    send_json(s, m);
    cJSON_Delete(m);
}

/* Takes ownership of params. */
static void send_notification(struct server *s, const char *method, cJSON *params)
{
    cJSON *m = rpc_new();
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    send_json(s, m);
    cJSON_Delete(m);
}

/* window/logMessage, type 1 error ... 4 log: shown in the client's log. */
static void log_message(struct server *s, int type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void log_message(struct server *s, int type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *message = xvasprintf(fmt, ap);
    va_end(ap);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "type", type);
    cJSON_AddStringToObject(p, "message", message);
    send_notification(s, "window/logMessage", p);
    free(message);
}

/* ------------------------------------------------------------------ JSON helpers */

static const cJSON *jobj(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsObject(v) ? v : NULL;
}

/* A non-negative integer member that fits in size_t. */
static bool juint(const cJSON *o, const char *key, size_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4e15) return false;
    *out = (size_t)v->valuedouble;
    return (double)*out == v->valuedouble;
}

/* A document version: an integer; anything else (1e300, NaN, -0.5) is 0
   rather than an out-of-range conversion. */
static long jversion(const cJSON *v)
{
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= -9e15 && v->valuedouble <= 9e15)) return 0;
    return (long)v->valuedouble;
}

static bool jposition(const cJSON *pos, size_t *line, size_t *character)
{
    return cJSON_IsObject(pos) && juint(pos, "line", line) && juint(pos, "character", character);
}

/* ------------------------------------------------------------------ documents */

static struct lsp_doc *doc_find(struct server *s, const char *uri)
{
    for (struct lsp_doc *d = s->docs; d; d = d->next)
        if (!d->closed && strcmp(d->uri, uri) == 0) return d;
    return NULL;
}

static void doc_free(struct lsp_doc *d)
{
    cJSON_Delete(d->actions);
    free(d->status_note);
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d);
}

/* Unlinks and frees d; docs_mu held and d not busy. */
static void doc_remove_locked(struct server *s, struct lsp_doc *d)
{
    for (struct lsp_doc **pp = &s->docs; *pp; pp = &(*pp)->next) {
        if (*pp == d) {
            *pp = d->next;
            break;
        }
    }
    if (d->has_session) {
        s->forget = xrealloc(s->forget, (s->n_forget + 1) * sizeof *s->forget);
        s->forget[s->n_forget++] = d->lint_id;
    }
    doc_free(d);
}

static void doc_mark_dirty_locked(struct server *s, struct lsp_doc *d)
{
    d->dirty = true;
    d->stamp = ++s->stamp;
    pthread_cond_signal(&s->docs_cv);
}

static void publish_locked(struct server *s, const char *uri, long version, cJSON *diags)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "uri", uri);
    if (version >= 0) cJSON_AddNumberToObject(p, "version", (double)version);
    cJSON_AddItemToObject(p, "diagnostics", diags ? diags : cJSON_CreateArray());
    send_notification(s, "textDocument/publishDiagnostics", p);
}

/* ------------------------------------------------------------------ the lint worker */

static struct timespec compdb_mtime(const struct lint_options *o)
{
    struct timespec t = {0, 0};
    struct stat st;
    if (o->compdb && o->compdb->path && stat(o->compdb->path, &st) == 0) t = st.st_mtim;
    return t;
}

/* Reloads compile_commands.json when the build regenerated it, so that a
   long-running editor session picks up new flags (worker thread only: the
   options are read by nobody else once documents are open). */
static void compdb_refresh(struct server *s)
{
    struct timespec t = compdb_mtime(&s->session.opts);
    if (!s->session.opts.compdb || (t.tv_sec == s->compdb_mtime.tv_sec && t.tv_nsec == s->compdb_mtime.tv_nsec))
        return;
    char *error = NULL;
    struct compdb *db = compdb_load(s->session.opts.compdb->path, &error);
    if (db) {
        compdb_free(s->session.opts.compdb);
        s->session.opts.compdb = db;
        s->opts_generation++;
        s->compdb_mtime = t;
    } else {
        log_message(s, 2, "cudalint: keeping the previous compile database: %s", error ? error : "");
        free(error);
        s->compdb_mtime = t;
    }
}

/* The dirty open document edited most recently: what the user looks at. */
static struct lsp_doc *pick_doc_locked(struct server *s)
{
    struct lsp_doc *best = NULL;
    for (struct lsp_doc *d = s->docs; d; d = d->next)
        if (!d->closed && d->dirty && (!best || d->stamp > best->stamp)) best = d;
    return best;
}

/* Keeps at most MAX_SESSIONS documents' translation units; returns the id of
   a document whose units the lint process may drop, or 0. */
static uint64_t evict_locked(struct server *s, struct lsp_doc *keep)
{
    size_t n = 0;
    struct lsp_doc *oldest = NULL;
    for (struct lsp_doc *d = s->docs; d; d = d->next) {
        if (!d->has_session || d->closed) continue;
        n++;
        if (d != keep && !d->busy && (!oldest || d->linted_at < oldest->linted_at)) oldest = d;
    }
    if (n <= MAX_SESSIONS || !oldest) return 0;
    oldest->has_session = false;
    return oldest->lint_id;
}

static void *worker_main(void *arg)
{
    struct server *s = arg;
    pthread_mutex_lock(&s->docs_mu);
    for (;;) {
        struct lsp_doc *d = NULL;
        while (!s->stop && !(d = pick_doc_locked(s)))
            pthread_cond_wait(&s->docs_cv, &s->docs_mu);
        if (s->stop) break;

        /* Snapshot under the lock, lint outside it. */
        d->dirty = false;
        d->busy = true;
        s->worker_busy = true;
        uint64_t stamp = d->stamp;
        long version = d->version;
        bool refresh = d->refresh;
        d->refresh = false;
        char *text = xstrndup(d->text, d->len);
        size_t len = d->len;
        char *uri = xstrdup(d->uri);
        char *path = d->path ? xstrdup(d->path) : NULL;
        if (!d->lint_id) d->lint_id = ++s->next_lint_id;
        if (s->reuse_tus) d->has_session = true;
        uint64_t lint_id = d->lint_id;
        d->linted_at = ++s->lru_clock;
        uint64_t *forget = s->forget;
        size_t n_forget = s->n_forget;
        s->forget = NULL;
        s->n_forget = 0;
        pthread_mutex_unlock(&s->docs_mu);
        for (size_t i = 0; i < n_forget; i++) lsp_proc_forget(forget[i]);
        free(forget);

        cJSON *diags = NULL, *actions = NULL;
        char *status_note = NULL; /* why the file was not linted cleanly */
        if (refresh) compdb_refresh(s);
        if (path) {
            struct file_result res;
            memset(&res, 0, sizeof res);
            struct strbuf timing;
            sb_init(&timing);
            /* In the lint process: a crash or a time-out there costs this
               document its result, not the server. */
            lsp_proc_lint(&s->session.opts, s->opts_generation, lint_id, s->reuse_tus, path, text, len, &res,
                          s->trace ? &timing : NULL);
            if (s->trace && timing.len) {
                pthread_mutex_lock(&s->out_mu);
                fprintf(s->trace, "-- lint %s v%ld: %s\n", path, version, timing.buf);
                fflush(s->trace);
                pthread_mutex_unlock(&s->out_mu);
            }
            sb_release(&timing);
            if (res.status != FILE_OK)
                status_note = xasprintf("cudalint: %s: %s%s%s", path, file_status_name(res.status),
                                        res.message ? ": " : "", res.message ? res.message : "");
            lsp_convert_result(&s->cv, uri, path, version, text, len, &res, &diags, &actions);
            file_result_release(&res);
        }

        pthread_mutex_lock(&s->docs_mu);
        d->busy = false;
        s->worker_busy = false;
        uint64_t evicted = 0;
        if (d->closed) {
            doc_remove_locked(s, d);
        } else if (d->stamp == stamp && path) {
            /* Still the current text: publish.  A newer edit makes this result
               stale; the document is dirty again and is linted anew. */
            cJSON_Delete(d->actions);
            d->actions = actions;
            d->actions_version = version;
            d->actions_stamp = stamp;
            actions = NULL;
            publish_locked(s, uri, version, diags);
            diags = NULL;
            /* Logged when it changes, not on every keystroke. */
            if ((status_note || d->status_note) &&
                (!status_note || !d->status_note || strcmp(status_note, d->status_note) != 0)) {
                log_message(s, status_note ? 3 : 4, "%s",
                            status_note ? status_note : "cudalint: the file parses cleanly again");
                free(d->status_note);
                d->status_note = status_note;
                status_note = NULL;
            }
            evicted = evict_locked(s, d);
        }
        cJSON_Delete(diags);
        cJSON_Delete(actions);
        free(status_note);
        free(text);
        free(uri);
        free(path);
        if (evicted) lsp_proc_forget(evicted);
    }
    pthread_mutex_unlock(&s->docs_mu);
    return NULL;
}

/* ------------------------------------------------------------------ requests */

static void show_message(struct server *s, int type, const char *message)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "type", type);
    cJSON_AddStringToObject(p, "message", message);
    send_notification(s, "window/showMessage", p);
}

/* Resolves the compile database and the toolkit once, as the command line
   does.  A bad -p or --cuda-path is shown to the user and dropped: an editor
   is better served by a server that lints with defaults than by none. */
static void prepare_options(struct server *s)
{
    for (int attempt = 0; attempt < 4; attempt++) {
        char *error = NULL;
        if (lint_session_prepare(&s->session, &error) == 0) break;
        char *m = xasprintf("cudalint: %s; linting with defaults instead", error ? error : "bad options");
        show_message(s, 1, m);
        free(m);
        free(error);
        /* lint_prepare() runs again: undo what it resolved. */
        lint_unprepare(&s->session.opts);
        if (s->session.opts.config_path) {
            free(s->session.opts.config_path);
            s->session.opts.config_path = NULL;
        } else if (s->session.opts.compdb_dir) {
            free(s->session.opts.compdb_dir);
            s->session.opts.compdb_dir = NULL;
        } else if (s->session.opts.cuda_path) {
            free(s->session.opts.cuda_path);
            s->session.opts.cuda_path = NULL;
            s->session.opts.headers = HEADERS_AUTO;
        } else {
            s->session.opts.headers = HEADERS_SHIM;
        }
    }
    s->compdb_mtime = compdb_mtime(&s->session.opts);
}

static cJSON *handle_initialize(struct server *s, const cJSON *params)
{
    const cJSON *caps = jobj(params, "capabilities");
    const cJSON *general = jobj(caps, "general");
    const cJSON *encs = general ? cJSON_GetObjectItemCaseSensitive(general, "positionEncodings") : NULL;
    /* UTF-8 needs no conversion at all; otherwise UTF-16, which every client
       must support (LSP 3.17). */
    s->cv.enc = LSP_ENC_UTF16;
    const cJSON *e;
    if (cJSON_IsArray(encs)) {
        cJSON_ArrayForEach(e, encs) {
            if (cJSON_IsString(e) && strcmp(e->valuestring, "utf-8") == 0) s->cv.enc = LSP_ENC_UTF8;
        }
    }
    const cJSON *we = jobj(jobj(caps, "workspace"), "workspaceEdit");
    s->cv.document_changes = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(we, "documentChanges"));

    /* With no -p given, look for the workspace's compile database in its root
       and root/build, as the command line does in the current directory. */
    const char *root_uri = json_get_str(params, "rootUri");
    char *root = root_uri ? lsp_uri_to_path(root_uri) : NULL;
    if (!root && json_get_str(params, "rootPath")) root = xstrdup(json_get_str(params, "rootPath"));
    if (root && !s->session.opts.compdb_dir) {
        const char *cands[] = {"", "build"};
        for (size_t i = 0; i < 2 && !s->session.opts.compdb_dir; i++) {
            char *dir = *cands[i] ? path_join(root, cands[i]) : xstrdup(root);
            char *db = path_join(dir, "compile_commands.json");
            if (path_exists(db)) s->session.opts.compdb_dir = xstrdup(dir);
            free(db);
            free(dir);
        }
    }
    free(s->session.opts.workspace);
    s->session.opts.workspace = root ? path_absolute(root) : NULL;
    free(root);
    prepare_options(s);

    cJSON *r = cJSON_CreateObject();
    cJSON *c = cJSON_AddObjectToObject(r, "capabilities");
    cJSON_AddStringToObject(c, "positionEncoding", lsp_encoding_name(s->cv.enc));
    cJSON *sync = cJSON_AddObjectToObject(c, "textDocumentSync");
    cJSON_AddBoolToObject(sync, "openClose", true);
    cJSON_AddNumberToObject(sync, "change", 2); /* Incremental */
    cJSON *save = cJSON_AddObjectToObject(sync, "save");
    cJSON_AddBoolToObject(save, "includeText", false);
    cJSON *cap = cJSON_AddObjectToObject(c, "codeActionProvider");
    cJSON *kinds = cJSON_AddArrayToObject(cap, "codeActionKinds");
    cJSON_AddItemToArray(kinds, cJSON_CreateString("quickfix"));
    cJSON_AddItemToArray(kinds, cJSON_CreateString("source.fixAll.cudalint"));
    cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
    cJSON_AddStringToObject(info, "name", "cudalint");
    cJSON_AddStringToObject(info, "version", CUDALINT_VERSION);
    return r;
}

static bool kind_wanted(const cJSON *only, const char *kind)
{
    if (!cJSON_IsArray(only)) return true;
    const cJSON *k;
    cJSON_ArrayForEach(k, only) {
        if (!cJSON_IsString(k)) continue;
        size_t n = strlen(k->valuestring);
        if (strncmp(kind, k->valuestring, n) == 0 && (kind[n] == '\0' || kind[n] == '.'))
            return true;
    }
    return false;
}

static int pos_cmp(size_t l0, size_t c0, size_t l1, size_t c1)
{
    if (l0 != l1) return l0 < l1 ? -1 : 1;
    if (c0 != c1) return c0 < c1 ? -1 : 1;
    return 0;
}

static bool jrange(const cJSON *r, size_t v[4])
{
    return cJSON_IsObject(r) &&
           jposition(cJSON_GetObjectItemCaseSensitive(r, "start"), &v[0], &v[1]) &&
           jposition(cJSON_GetObjectItemCaseSensitive(r, "end"), &v[2], &v[3]);
}

/* Merges the edits of several actions into one (for source.fixAll), dropping
   any action whose edits overlap one already taken. */
static void fixall_merge(cJSON *into_edits, const cJSON *action, size_t taken[][4], size_t *n_taken,
                         size_t cap)
{
    const cJSON *we = jobj(action, "edit");
    const cJSON *dc = cJSON_GetObjectItemCaseSensitive(we, "documentChanges");
    const cJSON *changes = jobj(we, "changes");
    const cJSON *edits = NULL;
    if (cJSON_IsArray(dc) && cJSON_GetArraySize(dc) == 1)
        edits = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(dc, 0), "edits");
    else if (changes && cJSON_GetArraySize(changes) == 1)
        edits = changes->child;
    if (!cJSON_IsArray(edits)) return; /* multi-file fixes are offered one by one */
    size_t n0 = *n_taken;
    const cJSON *e;
    cJSON_ArrayForEach(e, edits) {
        size_t r[4];
        if (!jrange(cJSON_GetObjectItemCaseSensitive(e, "range"), r)) return;
        for (size_t i = 0; i < *n_taken; i++) {
            if (pos_cmp(r[0], r[1], taken[i][2], taken[i][3]) < 0 &&
                pos_cmp(taken[i][0], taken[i][1], r[2], r[3]) < 0) {
                *n_taken = n0;
                return;
            }
        }
        if (*n_taken == cap) {
            *n_taken = n0;
            return;
        }
        memcpy(taken[(*n_taken)++], r, sizeof r);
    }
    cJSON_ArrayForEach(e, edits) cJSON_AddItemToArray(into_edits, cJSON_Duplicate(e, true));
}

static void handle_code_action(struct server *s, const cJSON *id, const cJSON *params)
{
    const char *uri = json_get_str(jobj(params, "textDocument"), "uri");
    size_t want[4];
    if (!uri || !jrange(cJSON_GetObjectItemCaseSensitive(params, "range"), want)) {
        send_error(s, id, RPC_INVALID_PARAMS, "codeAction needs textDocument.uri and range");
        return;
    }
    const cJSON *only = cJSON_GetObjectItemCaseSensitive(jobj(params, "context"), "only");
    cJSON *result = cJSON_CreateArray();
    pthread_mutex_lock(&s->docs_mu);
    struct lsp_doc *d = doc_find(s, uri);
    /* Edits computed for an older text would land in the wrong place (a
       client without versioned edits cannot tell): offer nothing until the
       lint of the current text is published; clients ask again then. */
    if (d && d->actions && d->actions_stamp == d->stamp) {
        const cJSON *entry;
        bool quick = kind_wanted(only, "quickfix");
        cJSON_ArrayForEach(entry, d->actions) {
            size_t r[4];
            if (!quick || !jrange(cJSON_GetObjectItemCaseSensitive(entry, "range"), r)) continue;
            /* Touching counts: a cursor at either end of the finding offers it. */
            if (pos_cmp(r[0], r[1], want[2], want[3]) <= 0 &&
                pos_cmp(want[0], want[1], r[2], r[3]) <= 0)
                cJSON_AddItemToArray(result, cJSON_Duplicate(cJSON_GetObjectItem(entry, "action"), true));
        }
        /* Fix-all only when asked for (source actions run on save or by command). */
        if (cJSON_IsArray(only) && kind_wanted(only, "source.fixAll.cudalint") &&
            cJSON_GetArraySize(d->actions) > 0) {
            size_t cap = (size_t)cJSON_GetArraySize(d->actions) * 8 + 8;
            size_t (*taken)[4] = xcalloc(cap, sizeof *taken);
            size_t n_taken = 0;
            cJSON *edits = cJSON_CreateArray();
            cJSON_ArrayForEach(entry, d->actions)
                fixall_merge(edits, cJSON_GetObjectItem(entry, "action"), taken, &n_taken, cap);
            free(taken);
            cJSON *act = cJSON_CreateObject();
            cJSON_AddStringToObject(act, "title", "Fix all cudalint findings with a safe fix");
            cJSON_AddStringToObject(act, "kind", "source.fixAll.cudalint");
            cJSON *we = cJSON_AddObjectToObject(act, "edit");
            if (s->cv.document_changes) {
                cJSON *dc = cJSON_AddArrayToObject(we, "documentChanges");
                cJSON *tde = cJSON_CreateObject();
                cJSON *td = cJSON_AddObjectToObject(tde, "textDocument");
                cJSON_AddStringToObject(td, "uri", d->uri);
                cJSON_AddNumberToObject(td, "version", (double)d->actions_version);
                cJSON_AddItemToObject(tde, "edits", edits);
                cJSON_AddItemToArray(dc, tde);
            } else {
                cJSON *ch = cJSON_AddObjectToObject(we, "changes");
                cJSON_AddItemToObject(ch, d->uri, edits);
            }
            cJSON_AddItemToArray(result, act);
        }
    }
    pthread_mutex_unlock(&s->docs_mu);
    send_result(s, id, result);
}

/* ------------------------------------------------------------------ notifications */

static void handle_did_open(struct server *s, const cJSON *params)
{
    const cJSON *td = jobj(params, "textDocument");
    const char *uri = json_get_str(td, "uri"), *text = json_get_str(td, "text");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(td, "version");
    if (!uri || !text) {
        log_message(s, 1, "cudalint: didOpen without textDocument.uri/text");
        return;
    }
    pthread_mutex_lock(&s->docs_mu);
    struct lsp_doc *d = doc_find(s, uri);
    if (!d) {
        d = xcalloc(1, sizeof *d);
        d->uri = xstrdup(uri);
        d->path = lsp_uri_to_path(uri);
        d->actions_version = -1;
        d->next = s->docs;
        s->docs = d;
    }
    free(d->text);
    d->len = strlen(text);
    d->text = xstrndup(text, d->len);
    d->version = jversion(ver);
    d->refresh = true;
    if (!d->path)
        log_message(s, 3, "cudalint: %s is not a file: URI; not linted", uri);
    else
        doc_mark_dirty_locked(s, d);
    pthread_mutex_unlock(&s->docs_mu);
}

static void handle_did_change(struct server *s, const cJSON *params)
{
    const cJSON *td = jobj(params, "textDocument");
    const char *uri = json_get_str(td, "uri");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(td, "version");
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(params, "contentChanges");
    if (!uri || !cJSON_IsArray(changes)) {
        log_message(s, 1, "cudalint: didChange without textDocument.uri/contentChanges");
        return;
    }
    pthread_mutex_lock(&s->docs_mu);
    struct lsp_doc *d = doc_find(s, uri);
    if (!d) {
        pthread_mutex_unlock(&s->docs_mu);
        log_message(s, 2, "cudalint: didChange of %s, which is not open", uri);
        return;
    }
    const cJSON *ch;
    cJSON_ArrayForEach(ch, changes) {
        const char *text = json_get_str(ch, "text");
        if (!text) continue;
        const cJSON *range = cJSON_GetObjectItemCaseSensitive(ch, "range");
        size_t r[4];
        if (range && jrange(range, r)) {
            /* Positions refer to the text after the previous change, so the
               line table is rebuilt for each one. */
            struct lsp_lines lines;
            lsp_lines_build(&lines, d->text, d->len);
            size_t from = lsp_offset_at(&lines, d->text, d->len, r[0], r[1], s->cv.enc);
            size_t to = lsp_offset_at(&lines, d->text, d->len, r[2], r[3], s->cv.enc);
            lsp_lines_release(&lines);
            if (to < from) {
                size_t t = to;
                to = from;
                from = t;
            }
            lsp_text_splice(&d->text, &d->len, from, to, text, strlen(text));
        } else {
            free(d->text);
            d->len = strlen(text);
            d->text = xstrndup(text, d->len);
        }
    }
    if (cJSON_IsNumber(ver)) d->version = jversion(ver);
    if (d->path) doc_mark_dirty_locked(s, d);
    pthread_mutex_unlock(&s->docs_mu);
}

static void handle_did_save(struct server *s, const cJSON *params)
{
    const char *uri = json_get_str(jobj(params, "textDocument"), "uri");
    if (!uri) return;
    pthread_mutex_lock(&s->docs_mu);
    /* A save may change a header other documents include, the compile
       database or the configuration: re-lint every open document (a
       reparse that finds its preamble unchanged is cheap). */
    for (struct lsp_doc *d = s->docs; d; d = d->next) {
        if (d->closed || !d->path) continue;
        d->refresh = true;
        doc_mark_dirty_locked(s, d);
    }
    pthread_mutex_unlock(&s->docs_mu);
}

static void handle_did_close(struct server *s, const cJSON *params)
{
    const char *uri = json_get_str(jobj(params, "textDocument"), "uri");
    if (!uri) return;
    pthread_mutex_lock(&s->docs_mu);
    struct lsp_doc *d = doc_find(s, uri);
    if (d) {
        d->closed = true;
        d->dirty = false;
        /* Cleared under docs_mu so that no lint result can follow it. */
        publish_locked(s, d->uri, -1, NULL);
        if (!d->busy) doc_remove_locked(s, d);
    }
    pthread_mutex_unlock(&s->docs_mu);
}

/* ------------------------------------------------------------------ dispatch */

enum { RUN_ON = -1 };

/* Handles one parsed message; returns RUN_ON or the exit code. */
static int dispatch(struct server *s, const cJSON *msg)
{
    if (!cJSON_IsObject(msg)) {
        send_error(s, NULL, RPC_INVALID_REQUEST, "a message must be a JSON object");
        return RUN_ON;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
    bool id_ok = id && (cJSON_IsNumber(id) || cJSON_IsString(id) || cJSON_IsNull(id));
    if (id && !id_ok) {
        send_error(s, NULL, RPC_INVALID_REQUEST, "id must be a number or a string");
        return RUN_ON;
    }
    if (!cJSON_IsString(method)) {
        /* A response to a request of ours (we send none that need one). */
        if (id && (cJSON_GetObjectItemCaseSensitive(msg, "result") ||
                   cJSON_GetObjectItemCaseSensitive(msg, "error")))
            return RUN_ON;
        send_error(s, id, RPC_INVALID_REQUEST, "missing method");
        return RUN_ON;
    }
    const char *m = method->valuestring;
    if (!json_get_str(msg, "jsonrpc") || strcmp(json_get_str(msg, "jsonrpc"), "2.0") != 0) {
        if (id) send_error(s, id, RPC_INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        return RUN_ON;
    }
    if (cJSON_IsNull(params)) params = NULL; /* "params": null from clients that mean none */
    if (params && !cJSON_IsObject(params) && !cJSON_IsArray(params)) {
        if (id) send_error(s, id, RPC_INVALID_REQUEST, "params must be an object or an array");
        return RUN_ON;
    }
    bool request = id != NULL;

    if (strcmp(m, "exit") == 0) return s->shutdown_seen ? 0 : 1;
    if (!s->initialize_seen) {
        if (request && strcmp(m, "initialize") == 0) {
            s->initialize_seen = true;
            send_result(s, id, handle_initialize(s, params));
        } else if (request) {
            send_error(s, id, LSP_SERVER_NOT_INITIALIZED, "server not initialized");
        }
        return RUN_ON; /* notifications before initialize are dropped */
    }
    if (s->shutdown_seen) {
        if (request) send_error(s, id, RPC_INVALID_REQUEST, "server is shutting down");
        return RUN_ON;
    }
    if (request) {
        if (strcmp(m, "initialize") == 0) {
            send_error(s, id, RPC_INVALID_REQUEST, "initialize was already received");
        } else if (strcmp(m, "shutdown") == 0) {
            s->shutdown_seen = true;
            send_result(s, id, NULL);
        } else if (strcmp(m, "textDocument/codeAction") == 0) {
            if (!cJSON_IsObject(params))
                send_error(s, id, RPC_INVALID_PARAMS, "codeAction needs params");
            else
                handle_code_action(s, id, params);
        } else {
            char *why = xasprintf("method not found: %s", m);
            send_error(s, id, RPC_METHOD_NOT_FOUND, why);
            free(why);
        }
        return RUN_ON;
    }
    if (!cJSON_IsObject(params)) return RUN_ON;
    if (strcmp(m, "textDocument/didOpen") == 0) handle_did_open(s, params);
    else if (strcmp(m, "textDocument/didChange") == 0) handle_did_change(s, params);
    else if (strcmp(m, "textDocument/didSave") == 0) handle_did_save(s, params);
    else if (strcmp(m, "textDocument/didClose") == 0) handle_did_close(s, params);
    /* initialized, $/cancelRequest, $/setTrace, workspace/... : nothing to do. */
    return RUN_ON;
}

/* ------------------------------------------------------------------ command line */

static void usage(FILE *f)
{
    fputs("usage: cudalint lsp [options]\n"
          "Runs the language server on stdin/stdout (LSP 3.17).\n\n",
          f);
    cmdline_print_help(f, CMD_LSP);
}

struct args_state {
    struct server *s;
    char **log_path;
};

/* The language server's own options of the option table. */
static int on_option(void *data, int id, const char *value, char **error)
{
    struct args_state *st = data;
    switch (id) {
    case ID_HELP: usage(stdout); return 1;
    case ID_NO_REUSE: st->s->reuse_tus = false; return 0;
    case ID_LOG:
        free(*st->log_path);
        *st->log_path = xstrdup(value);
        return 0;
    default: return 0; /* --stdio: the only transport there is */
    }
}

/* Returns -1 to go on, or an exit code. */
static int parse_args(struct server *s, int argc, char **argv, char **log_path)
{
    struct args_state st = {s, log_path};
    struct strvec positional = {0};
    char *error = NULL;
    int rc = cmdline_parse(CMD_LSP, argc, argv, &s->session.opts, on_option, &st, &positional, &error);
    if (rc == 0 && positional.len) {
        error = xasprintf("unexpected argument '%s'", positional.items[0]);
        rc = -1;
    }
    sv_release(&positional);
    /* Codegen evidence compiles the file with nvcc (seconds): too slow for
       every keystroke, so the server runs it only when started with --codegen. */
    if (s->session.opts.codegen < 0) s->session.opts.codegen = 0;
    if (rc < 0) {
        report_error("%s (see cudalint lsp --help)", error);
        free(error);
        return 2;
    }
    return rc > 0 ? 0 : -1;
}

/* cudalint's own errors and warnings go to the client's log once the server
   runs (stdout carries the protocol; stderr is often nowhere to be seen). */
static void report_to_client(void *data, enum report_level level, const char *message)
{
    int type = level == REPORT_ERROR ? 1 : level == REPORT_WARNING ? 2 : 3;
    log_message(data, type, "cudalint: %s", message);
}

int lsp_main(int argc, char **argv)
{
    report_set_program("cudalint lsp");
    struct server *s = xcalloc(1, sizeof *s);
    lint_session_init(&s->session);
    s->session.opts.quiet = true;
    s->session.opts.jobs = 1;
    s->reuse_tus = true;
    s->out_fd = STDOUT_FILENO;
    char *log_path = NULL;
    int rc = parse_args(s, argc, argv, &log_path);
    if (rc >= 0) {
        lint_session_release(&s->session);
        free(s);
        free(log_path);
        return rc;
    }
    if (log_path) {
        s->trace = fopen(log_path, "a");
        if (!s->trace) report_error("cannot open %s: %s", log_path, strerror(errno));
        free(log_path);
    }
    /* A client that closes the pipe must not kill us mid-write. */
    signal(SIGPIPE, SIG_IGN);
    pthread_mutex_init(&s->out_mu, NULL);
    report_set_sink(report_to_client, s);
    pthread_mutex_init(&s->docs_mu, NULL);
    pthread_cond_init(&s->docs_cv, NULL);
    if (lint_thread_start(&s->worker, worker_main, s) != 0) {
        report_error("cannot start the lint worker thread");
        return 1;
    }
    s->worker_started = true;

    /* This thread holds the fork gate (base/proc.h) except while it waits
       for input: the worker forks the lint process meanwhile. */
    proc_gate_enter();
    struct lsp_reader r = {.fd = STDIN_FILENO, .gate = true};
    rc = 1; /* end of input without exit: the client died */
    for (;;) {
        char *body = NULL;
        size_t len = 0;
        const char *why = NULL;
        enum lsp_read_status st = lsp_read_message(&r, &body, &len, &why);
        if (st == LSP_READ_EOF) {
            if (s->shutdown_seen) rc = 0;
            break;
        }
        if (st == LSP_READ_BAD) {
            pthread_mutex_lock(&s->out_mu);
            trace_locked(s, "<-!", why, strlen(why));
            pthread_mutex_unlock(&s->out_mu);
            send_error(s, NULL, RPC_PARSE_ERROR, why);
            continue;
        }
        pthread_mutex_lock(&s->out_mu);
        trace_locked(s, "<-", body, len);
        pthread_mutex_unlock(&s->out_mu);
        cJSON *msg = cJSON_ParseWithLength(body, len);
        free(body);
        if (!msg) {
            send_error(s, NULL, RPC_PARSE_ERROR, "invalid JSON");
            continue;
        }
        int d = dispatch(s, msg);
        cJSON_Delete(msg);
        if (d != RUN_ON) {
            rc = d;
            break;
        }
    }
    lsp_reader_release(&r);
    proc_gate_leave();

    pthread_mutex_lock(&s->docs_mu);
    s->stop = true;
    bool busy = s->worker_busy;
    pthread_cond_broadcast(&s->docs_cv);
    pthread_mutex_unlock(&s->docs_mu);
    if (busy) {
        /* A lint in progress can take a second with toolkit headers; the
           client is waiting for us to go, and the OS frees everything. */
        pthread_mutex_lock(&s->out_mu);
        if (s->trace) fclose(s->trace);
        _exit(rc);
    }
    pthread_join(s->worker, NULL);
    while (s->docs) doc_remove_locked(s, s->docs);
    lsp_proc_stop();
    free(s->forget);
    pthread_cond_destroy(&s->docs_cv);
    pthread_mutex_destroy(&s->docs_mu);
    report_set_sink(NULL, NULL);
    pthread_mutex_destroy(&s->out_mu);
    if (s->trace) fclose(s->trace);
    lint_session_release(&s->session);
    free(s);
    return rc;
}
