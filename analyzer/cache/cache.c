/* cache.c: the result cache: one sqlite database, <cache>/results.sqlite,
 * mapping a file's lint key to its findings, checked against the files it
 * included.
 *
 * Key: cudalint and libclang versions (and a hash of the cudalint binary, so
 * that a rebuilt development binary never reuses results), every rule's code,
 * version and whether it is enabled, the effective configuration (as
 * --dump-config prints it: rule options, host, archs ...), the working
 * directory and the path as given (findings carry clang's file names), each
 * parse pass's name and translated clang arguments, the embedded declarations
 * header in shim mode, and the file's content hash.
 *
 * Value: the findings *before* suppressions (NOLINT comments and the baseline
 * are applied after the cache, so editing a comment never serves a stale
 * result), the CU000 notes, the clang error count, and the files the passes
 * included, with size, mtime and hash.  A lookup re-checks those: size and
 * mtime equal, or the same hash when only the mtime moved.  Editing any header
 * therefore re-lints the files that include it.  User headers are stored with
 * the entry, together with whether each was linted (under a path given on the
 * command line) so that a run with other paths gets the findings those paths
 * call for.  System and toolkit headers, hundreds per file and the same for
 * most files, go to a shared "depset" checked once per process.
 * Results whose passes hit "file not found" are not stored: creating the
 * missing header would not show in the dependency list.
 *
 * Concurrency: WAL mode and a 30 s busy timeout, so pre-commit's parallel
 * processes share one database; one connection per process behind a mutex
 * (a lookup is far cheaper than a parse).  A corrupt database is deleted and
 * recreated with a warning; a cache directory that cannot be written means a
 * run without the cache, with one warning (none with --quiet or --no-cache). */
#include "cache/cache.h"
#include "base/cachedir.h"
#include "base/report.h"
#include "base/stamp.h"
#include "base/jsonutil.h"
#include "config/config.h"
#include "core/options.h"
#include "frontend/parse.h"
#include "frontend/pch.h"
#include "core/rule.h"
#include "frontend/shim.h"
#include "frontend/toolkit.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define CACHE_SCHEMA "1"
/* Entries unused for this long are dropped (checked once a day). */
#define CACHE_MAX_AGE (30 * 86400)

/* ---- the database ---- */

static pthread_mutex_t db_mu = PTHREAD_MUTEX_INITIALIZER;
static sqlite3 *db;
static char *db_path;     /* the database db is, or was meant to be */
static bool db_failed;    /* no cache for the rest of the process */
static bool db_recreated; /* a corrupt database was replaced once already */

static void db_close_at_exit(void)
{
    pthread_mutex_lock(&db_mu);
    if (db) sqlite3_close(db);
    db = NULL;
    pthread_mutex_unlock(&db_mu);
}

static bool is_corrupt(int rc)
{
    rc &= 0xff;
    return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

static void remove_db_files(const char *path)
{
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
        char *p = xasprintf("%s%s", path, sfx[i]);
        unlink(p);
        free(p);
    }
}

static int exec_sql(sqlite3 *d, const char *sql)
{
    return sqlite3_exec(d, sql, NULL, NULL, NULL);
}

static int setup(sqlite3 *d)
{
    int rc = exec_sql(d, "PRAGMA journal_mode=WAL");
    if (rc == SQLITE_OK) rc = exec_sql(d, "PRAGMA synchronous=NORMAL");
    if (rc == SQLITE_OK)
        rc = exec_sql(d, "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);"
                         "CREATE TABLE IF NOT EXISTS results(key TEXT PRIMARY KEY, used INTEGER NOT NULL,"
                         " data BLOB NOT NULL);"
                         "CREATE TABLE IF NOT EXISTS depsets(id TEXT PRIMARY KEY, used INTEGER NOT NULL,"
                         " data BLOB NOT NULL);"
                         "CREATE TABLE IF NOT EXISTS launches(path TEXT PRIMARY KEY, used INTEGER NOT NULL,"
                         " stamp TEXT NOT NULL, data BLOB NOT NULL);"
                         "INSERT OR IGNORE INTO meta VALUES('schema', '" CACHE_SCHEMA "');");
    if (rc != SQLITE_OK) return rc;
    /* Another schema (a later or earlier cudalint): start over. */
    sqlite3_stmt *st;
    rc = sqlite3_prepare_v2(d, "SELECT v FROM meta WHERE k='schema'", -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    bool same = sqlite3_step(st) == SQLITE_ROW &&
                strcmp((const char *)sqlite3_column_text(st, 0), CACHE_SCHEMA) == 0;
    rc = sqlite3_finalize(st);
    if (rc == SQLITE_OK && !same)
        rc = exec_sql(d, "BEGIN IMMEDIATE; DELETE FROM results; DELETE FROM depsets; DELETE FROM launches;"
                         "INSERT OR REPLACE INTO meta VALUES('schema', '" CACHE_SCHEMA "'); COMMIT;");
    /* Once a day, drop what has not been used for a month. */
    long long now = (long long)time(NULL);
    rc = rc == SQLITE_OK ? sqlite3_prepare_v2(d, "SELECT v FROM meta WHERE k='pruned'", -1, &st, NULL) : rc;
    if (rc != SQLITE_OK) return rc;
    long long pruned = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    rc = sqlite3_finalize(st);
    if (rc == SQLITE_OK && now - pruned > 86400) {
        char *sql = xasprintf("BEGIN IMMEDIATE; DELETE FROM results WHERE used < %lld;"
                              "DELETE FROM depsets WHERE used < %lld; DELETE FROM launches WHERE used < %lld;"
                              "INSERT OR REPLACE INTO meta VALUES('pruned', '%lld'); COMMIT;",
                              now - CACHE_MAX_AGE, now - CACHE_MAX_AGE, now - CACHE_MAX_AGE, now);
        rc = exec_sql(d, sql);
        free(sql);
        if (rc != SQLITE_OK) exec_sql(d, "ROLLBACK");
        if ((rc & 0xff) == SQLITE_BUSY) rc = SQLITE_OK; /* another process is pruning */
    }
    return rc;
}

/* Opens (or creates, or replaces when corrupt) the database; db_mu held. */
static sqlite3 *db_get(const char *dir)
{
    char *path = path_join(dir, "results.sqlite");
    if (db_path && strcmp(db_path, path) == 0) {
        free(path);
        return db_failed ? NULL : db;
    }
    if (db) sqlite3_close(db);
    db = NULL;
    free(db_path);
    db_path = path;
    db_failed = false;
    for (int attempt = 0; attempt < 3; attempt++) {
        sqlite3 *d = NULL;
        int rc = sqlite3_open_v2(path, &d, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_busy_timeout(d, 30000);
            rc = setup(d);
        }
        if (rc == SQLITE_OK) {
            static bool registered;
            if (!registered) atexit(db_close_at_exit);
            registered = true;
            db = d;
            return db;
        }
        const char *msg = d ? sqlite3_errmsg(d) : sqlite3_errstr(rc);
        if (is_corrupt(rc) && !db_recreated) {
            report_warn_once("corrupt", "cache database %s is corrupt (%s); replacing it", path, msg);
            sqlite3_close(d);
            remove_db_files(path);
            db_recreated = true;
            continue;
        }
        if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
            sqlite3_close(d);
            continue;
        }
        report_warn_once("db-open", "cannot use the cache database %s (%s); running without the result cache",
                        path, msg);
        sqlite3_close(d);
        break;
    }
    db_failed = true;
    return NULL;
}

/* A query failed: a corrupt database is replaced (once per process);
   anything else turns the cache off for this run.  db_mu held. */
static void db_error(int rc)
{
    if (!db || db_failed) return;
    const char *msg = sqlite3_errmsg(db);
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
        report_warn_once("db-busy", "cache database %s stayed locked (%s); some results were not cached",
                        db_path, msg);
        return;
    }
    if (is_corrupt(rc) && !db_recreated) {
        report_warn_once("corrupt", "cache database %s is corrupt (%s); replacing it", db_path, msg);
        sqlite3_close(db);
        db = NULL;
        remove_db_files(db_path);
        db_recreated = true;
        char *dir = path_dirname(db_path);
        free(db_path);
        db_path = NULL;
        db_get(dir);
        free(dir);
        return;
    }
    report_warn_once("db-error", "cache database %s failed (%s); running without the result cache", db_path, msg);
    sqlite3_close(db);
    db = NULL;
    db_failed = true;
}

/* ---- statistics (CUDALINT_CACHE_STATS=1: one line on stderr at exit) ---- */

static atomic_uint n_hits, n_misses, n_stored;

static void print_stats(void)
{
    report_info("cache: %u hits, %u misses, %u stored", atomic_load(&n_hits),
                atomic_load(&n_misses), atomic_load(&n_stored));
}

static void stats_init(void)
{
    const char *v = getenv("CUDALINT_CACHE_STATS");
    if (v && *v && strcmp(v, "0") != 0) atexit(print_stats);
}

/* ---- per-file records ---- */

struct cache_rec {
    const struct lint_options *o;
    char key[33];
    struct file_stamp *deps;      /* every file the passes included */
    size_t n_deps;
    bool no_store;
    char *extra;                  /* cache_set_extra's, or a hit's */
    char *path;                   /* the linted file */
};

static pthread_once_t ver_once = PTHREAD_ONCE_INIT;
static char *clang_ver;
static uint64_t shim_sum, exe_sum;

static void ver_init(void)
{
    /* Which libclang a parse would load, without loading it (a cache hit
       must not pay for that). */
    clang_ver = clang_api_identity();
    shim_sum = shim_hash();
    /* The binary itself: a rebuilt cudalint whose rules changed without a
       version bump (every development build) must not reuse old results.
       A 2 MB read, once per process. */
    char *exe = NULL;
    size_t exe_len = 0;
    if (read_file("/proc/self/exe", &exe, &exe_len) == 0) {
        exe_sum = hash_bytes(exe, exe_len);
        free(exe);
    }
}

static void kadd(XXH3_state_t *st, const char *s)
{
    XXH3_128bits_update(st, s ? s : "(null)", strlen(s ? s : "(null)") + 1);
}

/* Is this header linted by this run: under a path given on the command line? */
static bool linted_by(const struct lint_options *o, const char *path)
{
    char *abs = path_absolute(path);
    bool r = false;
    for (size_t i = 0; i < o->roots.len && !r; i++) r = path_has_prefix_dir(abs, o->roots.items[i]);
    free(abs);
    return r;
}

struct cache_rec *cache_begin(const struct lint_options *o, const struct lint_options *cli,
                              const char *path, const char *text, size_t len, bool unsaved,
                              const struct parse_plan *plan)
{
    /* Editor text changes on every keystroke: not worth a database row. */
    if (o->no_cache || unsaved) return NULL;
    const char *dir = cache_dir_writable(o->cache_dir, !o->quiet && !o->no_cache);
    if (!dir) return NULL;
    pthread_mutex_lock(&db_mu);
    bool ok = db_get(dir) != NULL;
    pthread_mutex_unlock(&db_mu);
    if (!ok) return NULL;

    static pthread_once_t stats_once = PTHREAD_ONCE_INIT;
    pthread_once(&stats_once, stats_init);
    pthread_once(&ver_once, ver_init);
    XXH3_state_t *st = XXH3_createState();
    XXH3_128bits_reset(st);
    kadd(st, "cudalint-results " CACHE_SCHEMA);
    kadd(st, CUDALINT_VERSION);
    kadd(st, clang_ver);
    /* Every option that can change findings must be hashed here. */
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *r = rule_registry[i];
        char *s = xasprintf("%s %d %d", r->code, r->version, lint_rule_enabled(o, r) ? 1 : 0);
        kadd(st, s);
        free(s);
    }
    /* The effective configuration (rule options, severities, archs ...) as
       --dump-config prints it: whatever the config learns stays covered. */
    char *conf = NULL;
    size_t conf_len = 0;
    FILE *mf = open_memstream(&conf, &conf_len);
    char *conf_err = NULL;
    int conf_rc = mf ? config_dump(mf, cli, path, &conf_err) : -1;
    if (mf) fclose(mf);
    free(conf_err);
    if (conf_rc != 0) {
        free(conf);
        XXH3_freeState(st);
        return NULL;
    }
    XXH3_128bits_update(st, conf, conf_len);
    free(conf);
    kadd(st, o->host ? "host" : "device-only");
    kadd(st, o->show_parse_errors ? "all-errors" : "first-error");
    kadd(st, o->codegen == 0 ? "no-codegen" : "codegen"); /* verdicts are stored with the findings */
    char cwd[4096];
    kadd(st, getcwd(cwd, sizeof cwd) ? cwd : "?");
    kadd(st, path);
    for (size_t p = 0; p < plan->n_passes; p++) {
        kadd(st, plan->passes[p].name);
        kadd(st, plan->passes[p].is_device ? "device" : "host");
        for (size_t a = 0; a < plan->passes[p].args.len; a++) kadd(st, plan->passes[p].args.items[a]);
        kadd(st, "--");
    }
    if (plan->shim) XXH3_128bits_update(st, &shim_sum, sizeof shim_sum);
    XXH3_128bits_update(st, &exe_sum, sizeof exe_sum);
    if (o->toolkit) {
        kadd(st, o->toolkit->root);
        kadd(st, o->toolkit->version);
    }
    XXH128_hash_t content = XXH3_128bits(text, len);
    XXH3_128bits_update(st, &content, sizeof content);
    XXH128_hash_t h = XXH3_128bits_digest(st);
    XXH3_freeState(st);

    struct cache_rec *r = xcalloc(1, sizeof *r);
    r->o = o;
    r->path = xstrdup(path);
    snprintf(r->key, sizeof r->key, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
    return r;
}

void cache_end(struct cache_rec *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n_deps; i++) stamp_release(&r->deps[i]);
    free(r->deps);
    free(r->extra);
    free(r->path);
    free(r);
}

/* ---- (de)serialization ---- */

static cJSON *diag_to_json(const struct diag *d)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "f", d->file);
    cJSON_AddNumberToObject(j, "l", d->line);
    cJSON_AddNumberToObject(j, "c", d->column);
    cJSON_AddNumberToObject(j, "el", d->end_line);
    cJSON_AddNumberToObject(j, "ec", d->end_column);
    cJSON_AddStringToObject(j, "r", d->rule->code);
    cJSON_AddNumberToObject(j, "s", d->severity);
    cJSON_AddStringToObject(j, "m", d->message);
    if (d->function) cJSON_AddStringToObject(j, "fn", d->function);
    if (d->codegen) cJSON_AddNumberToObject(j, "g", d->codegen);
    if (d->n_notes) {
        cJSON *a = cJSON_AddArrayToObject(j, "n");
        for (size_t i = 0; i < d->n_notes; i++) {
            cJSON *n = cJSON_CreateObject();
            cJSON_AddStringToObject(n, "f", d->notes[i].file);
            cJSON_AddNumberToObject(n, "l", d->notes[i].line);
            cJSON_AddNumberToObject(n, "c", d->notes[i].column);
            cJSON_AddStringToObject(n, "m", d->notes[i].message);
            cJSON_AddItemToArray(a, n);
        }
    }
    if (d->n_fixes) {
        cJSON *a = cJSON_AddArrayToObject(j, "x");
        for (size_t i = 0; i < d->n_fixes; i++) {
            const struct diag_fix *f = &d->fixes[i];
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "f", f->file);
            cJSON_AddNumberToObject(x, "l", f->line);
            cJSON_AddNumberToObject(x, "c", f->column);
            cJSON_AddNumberToObject(x, "el", f->end_line);
            cJSON_AddNumberToObject(x, "ec", f->end_column);
            cJSON_AddNumberToObject(x, "o", f->offset);
            cJSON_AddNumberToObject(x, "eo", f->end_offset);
            cJSON_AddStringToObject(x, "t", f->replacement);
            cJSON_AddItemToArray(a, x);
        }
    }
    return j;
}

static unsigned jnum(const cJSON *o, const char *k, bool *ok)
{
    double v = json_get_number(o, k, -1);
    if (v < 0) *ok = false;
    return v < 0 ? 0 : (unsigned)v;
}

static bool json_to_diags(const cJSON *arr, struct diag_list *out)
{
    if (!cJSON_IsArray(arr)) return false;
    const cJSON *j;
    cJSON_ArrayForEach(j, arr)
    {
        bool ok = true;
        const char *file = json_get_str(j, "f"), *code = json_get_str(j, "r"), *msg = json_get_str(j, "m");
        const struct rule *rule = code ? registry_find(code) : NULL;
        if (!file || !rule || !msg) return false;
        unsigned line = jnum(j, "l", &ok), col = jnum(j, "c", &ok);
        unsigned end_line = jnum(j, "el", &ok), end_col = jnum(j, "ec", &ok);
        struct diag *d = diag_new(out, rule, file, line, col, end_line, end_col, xstrdup(msg));
        d->severity = (enum severity)jnum(j, "s", &ok);
        const char *fn = json_get_str(j, "fn");
        d->function = fn ? xstrdup(fn) : NULL;
        double g = json_get_number(j, "g", 0);
        d->codegen = g > 0 && g <= CODEGEN_UNCHECKED ? (unsigned char)g : CODEGEN_NONE;
        const cJSON *n, *x;
        cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(j, "n"))
        {
            const char *nf = json_get_str(n, "f"), *nm = json_get_str(n, "m");
            if (!nf || !nm) return false;
            unsigned l = jnum(n, "l", &ok), c = jnum(n, "c", &ok);
            diag_add_note(d, nf, l, c, "%s", nm);
        }
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(j, "x"))
        {
            const char *xf = json_get_str(x, "f"), *xt = json_get_str(x, "t");
            if (!xf || !xt) return false;
            diag_add_fix(d, xf, jnum(x, "l", &ok), jnum(x, "c", &ok), jnum(x, "el", &ok), jnum(x, "ec", &ok),
                         jnum(x, "o", &ok), jnum(x, "eo", &ok), xt);
        }
        if (!ok) return false;
    }
    return true;
}

/* A dependency as one string: "SIZE MTIME_NS HASH LINTED PATH" (mtimes in
   nanoseconds do not fit a JSON number exactly). */
static char *dep_text(const struct file_stamp *s, int linted)
{
    return xasprintf("%lld %lld %016llx %d %s", (long long)s->size, (long long)s->mtime_ns,
                     (unsigned long long)s->hash, linted, s->path);
}

static bool dep_parse(const char *t, struct file_stamp *s, int *linted)
{
    long long size, mtime;
    unsigned long long hash;
    int used = 0;
    if (sscanf(t, "%lld %lld %llx %d %n", &size, &mtime, &hash, linted, &used) != 4 || !t[used]) return false;
    s->path = (char *)t + used; /* borrowed */
    s->size = size;
    s->mtime_ns = mtime;
    s->hash = hash;
    return true;
}

/* ---- depsets: the shared lists of system headers ---- */

/* Sets checked lately (they hold hundreds of headers; a run checks each once). */
static pthread_mutex_t sets_mu = PTHREAD_MUTEX_INITIALIZER;
static struct set_check { char id[33]; bool valid; double when; } *sets;
static size_t n_sets;

static void set_remember(const char *id, bool valid)
{
    pthread_mutex_lock(&sets_mu);
    size_t i = 0;
    while (i < n_sets && strcmp(sets[i].id, id) != 0) i++;
    if (i == n_sets) {
        sets = xrealloc(sets, (n_sets + 1) * sizeof *sets);
        snprintf(sets[n_sets++].id, sizeof sets->id, "%s", id);
    }
    sets[i].valid = valid;
    sets[i].when = monotonic_seconds();
    pthread_mutex_unlock(&sets_mu);
}

static bool depset_valid(const char *id)
{
    int known = -1;
    double t = monotonic_seconds();
    pthread_mutex_lock(&sets_mu);
    for (size_t i = 0; i < n_sets; i++)
        if (strcmp(sets[i].id, id) == 0 && t - sets[i].when < STAMP_TTL) known = sets[i].valid;
    pthread_mutex_unlock(&sets_mu);
    if (known >= 0) return known;

    char *data = NULL;
    pthread_mutex_lock(&db_mu);
    if (db) {
        sqlite3_stmt *st;
        int rc = sqlite3_prepare_v2(db, "SELECT data FROM depsets WHERE id=?", -1, &st, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW && sqlite3_column_blob(st, 0))
                data = xstrndup(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0));
            sqlite3_finalize(st);
        }
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) db_error(rc);
    }
    pthread_mutex_unlock(&db_mu);
    bool valid = false;
    cJSON *arr = data ? cJSON_Parse(data) : NULL;
    if (cJSON_IsArray(arr)) {
        valid = true;
        const cJSON *e;
        cJSON_ArrayForEach(e, arr)
        {
            struct file_stamp s;
            int linted;
            if (!cJSON_IsString(e) || !dep_parse(e->valuestring, &s, &linted) || !stamp_still_valid(&s)) {
                valid = false;
                break;
            }
        }
    }
    cJSON_Delete(arr);
    free(data);
    set_remember(id, valid);
    return valid;
}

/* ---- lookup and store ---- */

bool cache_lookup(struct cache_rec *r, struct diag_list *diags, struct diag_list *parse_diags,
                  unsigned *n_parse_errors)
{
    if (!r) return false;
    char *data = NULL;
    long long used = 0;
    pthread_mutex_lock(&db_mu);
    if (db) {
        sqlite3_stmt *st;
        int rc = sqlite3_prepare_v2(db, "SELECT used, data FROM results WHERE key=?", -1, &st, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(st, 1, r->key, -1, SQLITE_STATIC);
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW && sqlite3_column_blob(st, 1)) {
                used = sqlite3_column_int64(st, 0);
                data = xstrndup(sqlite3_column_blob(st, 1), (size_t)sqlite3_column_bytes(st, 1));
            }
            sqlite3_finalize(st);
        }
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) db_error(rc);
    }
    pthread_mutex_unlock(&db_mu);
    if (!data) {
        atomic_fetch_add(&n_misses, 1);
        return false;
    }

    bool hit = false;
    cJSON *j = cJSON_Parse(data);
    free(data);
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "n");
    const char *set = json_get_str(j, "s");
    if (!cJSON_IsNumber(n) || !set) goto out;
    const cJSON *e;
    bool deps_ok = true;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "u"))
    {
        struct file_stamp s;
        int linted;
        if (!cJSON_IsString(e) || !dep_parse(e->valuestring, &s, &linted) || !stamp_still_valid(&s)) {
            deps_ok = false;
            break;
        }
        /* The same header must be linted (or not) as when this was stored. */
        if (linted_by(r->o, s.path) != (linted != 0)) {
            deps_ok = false;
            break;
        }
    }
    if (!deps_ok || (*set && !depset_valid(set))) goto out;
    struct diag_list d = {0}, p = {0};
    if (!json_to_diags(cJSON_GetObjectItemCaseSensitive(j, "d"), &d) ||
        !json_to_diags(cJSON_GetObjectItemCaseSensitive(j, "p"), &p)) {
        diag_list_release(&d);
        diag_list_release(&p);
        goto out;
    }
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, "x");
    free(r->extra);
    r->extra = cJSON_IsString(x) ? xstrdup(x->valuestring) : NULL;
    diag_list_move(diags, &d);
    diag_list_move(parse_diags, &p);
    free(d.items);
    free(p.items);
    *n_parse_errors = (unsigned)n->valuedouble;
    hit = true;
    /* Refresh the age at most once a day: a hit should not cost a write. */
    long long now = (long long)time(NULL);
    if (now - used > 86400) {
        pthread_mutex_lock(&db_mu);
        if (db) {
            sqlite3_stmt *st;
            if (sqlite3_prepare_v2(db, "UPDATE results SET used=? WHERE key=?", -1, &st, NULL) == SQLITE_OK) {
                sqlite3_bind_int64(st, 1, now);
                sqlite3_bind_text(st, 2, r->key, -1, SQLITE_STATIC);
                sqlite3_step(st);
                sqlite3_finalize(st);
            }
            if (*set && sqlite3_prepare_v2(db, "UPDATE depsets SET used=? WHERE id=?", -1, &st, NULL) == SQLITE_OK) {
                sqlite3_bind_int64(st, 1, now);
                sqlite3_bind_text(st, 2, set, -1, SQLITE_STATIC);
                sqlite3_step(st);
                sqlite3_finalize(st);
            }
        }
        pthread_mutex_unlock(&db_mu);
    }
out:
    cJSON_Delete(j);
    atomic_fetch_add(hit ? &n_hits : &n_misses, 1);
    return hit;
}

static void add_dep(struct cache_rec *r, const char *name, bool system)
{
    for (size_t i = 0; i < r->n_deps; i++)
        if (strcmp(r->deps[i].path, name) == 0) return;
    struct file_stamp s;
    if (stamp_take(name, &s) != 0) {
        r->no_store = true; /* cannot be checked later */
        return;
    }
    s.system = system;
    r->deps = xrealloc(r->deps, (r->n_deps + 1) * sizeof *r->deps);
    r->deps[r->n_deps++] = s;
}

struct incl_ctx {
    struct cache_rec *r;
    CXTranslationUnit tu;
};

static void on_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    struct incl_ctx *c = data;
    if (depth == 0) return; /* the main file: its hash is in the key */
    CXString cs = clang_getFileName(f);
    const char *name = clang_getCString(cs);
    /* The shim's headers are compiled in: the key covers them. */
    if (name && !str_starts_with(name, SHIM_DIR "/")) {
        bool system = clang_Location_isInSystemHeader(clang_getLocationForOffset(c->tu, f, 0));
        add_dep(c->r, name, system);
    }
    clang_disposeString(cs);
}

void cache_add_tu(struct cache_rec *r, CXTranslationUnit tu, const struct pch *pch)
{
    if (!r || r->no_store) return;
    struct incl_ctx c = {r, tu};
    clang_getInclusions(tu, on_inclusion, &c);
    size_t n = 0;
    const struct file_stamp *deps = pch_deps(pch, &n);
    for (size_t i = 0; i < n; i++) add_dep(r, deps[i].path, true);
    /* A missing header does not show among the inclusions: creating it later
       would not invalidate the entry, so such results are not stored. */
    unsigned nd = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < nd && !r->no_store; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString s = clang_getDiagnosticSpelling(d);
            const char *m = clang_getCString(s);
            if (m && strstr(m, "file not found")) r->no_store = true;
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
}

static int cmp_dep(const void *a, const void *b)
{
    return strcmp(((const struct file_stamp *)a)->path, ((const struct file_stamp *)b)->path);
}

void cache_store(struct cache_rec *r, enum file_status status, const struct diag_list *diags,
                 const struct diag_list *parse_diags, unsigned n_parse_errors)
{
    if (!r || r->no_store || status != FILE_OK) return;
    if (r->n_deps) qsort(r->deps, r->n_deps, sizeof *r->deps, cmp_dep);
    cJSON *sys = cJSON_CreateArray();
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "n", n_parse_errors);
    cJSON *u = cJSON_AddArrayToObject(j, "u");
    size_t n_sys = 0;
    for (size_t i = 0; i < r->n_deps; i++) {
        const struct file_stamp *d = &r->deps[i];
        char *t = dep_text(d, d->system ? 0 : linted_by(r->o, d->path));
        cJSON_AddItemToArray(d->system ? sys : u, cJSON_CreateString(t));
        n_sys += d->system;
        free(t);
    }
    char *set_text = cJSON_PrintUnformatted(sys);
    char set_id[33] = "";
    if (n_sys) {
        XXH128_hash_t h = XXH3_128bits(set_text, strlen(set_text));
        snprintf(set_id, sizeof set_id, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
    }
    cJSON_AddStringToObject(j, "s", set_id);
    if (r->extra) cJSON_AddStringToObject(j, "x", r->extra);
    cJSON *d = cJSON_AddArrayToObject(j, "d"), *p = cJSON_AddArrayToObject(j, "p");
    for (size_t i = 0; i < diags->len; i++) cJSON_AddItemToArray(d, diag_to_json(&diags->items[i]));
    for (size_t i = 0; i < parse_diags->len; i++) cJSON_AddItemToArray(p, diag_to_json(&parse_diags->items[i]));
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    cJSON_Delete(sys);

    long long now = (long long)time(NULL);
    char *launch_path = NULL, *launch_stamp = NULL;
    struct file_stamp self;
    if (r->extra) {
        launch_path = path_absolute(r->path);
        if (stamp_take(launch_path, &self) == 0) {
            launch_stamp = dep_text(&self, 1);
            stamp_release(&self);
        }
    }
    pthread_mutex_lock(&db_mu);
    if (db) {
        sqlite3_stmt *st;
        int rc = SQLITE_OK;
        if (n_sys) {
            rc = sqlite3_prepare_v2(db, "INSERT INTO depsets(id, used, data) VALUES(?,?,?) "
                                        "ON CONFLICT(id) DO UPDATE SET used=excluded.used", -1, &st, NULL);
            if (rc == SQLITE_OK) {
                sqlite3_bind_text(st, 1, set_id, -1, SQLITE_STATIC);
                sqlite3_bind_int64(st, 2, now);
                sqlite3_bind_blob(st, 3, set_text, (int)strlen(set_text), SQLITE_STATIC);
                rc = sqlite3_step(st);
                sqlite3_finalize(st);
                rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            }
        }
        if (rc == SQLITE_OK) {
            rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO results(key, used, data) VALUES(?,?,?)", -1, &st, NULL);
            if (rc == SQLITE_OK) {
                sqlite3_bind_text(st, 1, r->key, -1, SQLITE_STATIC);
                sqlite3_bind_int64(st, 2, now);
                sqlite3_bind_blob(st, 3, text, (int)strlen(text), SQLITE_STATIC);
                rc = sqlite3_step(st);
                sqlite3_finalize(st);
                rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            }
        }
        if (rc == SQLITE_OK && r->extra && launch_stamp) {
            /* The file's launch facts by path, for a reader that lints other
               files (the language server's table of the workspace). */
            rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO launches(path, used, stamp, data) VALUES(?,?,?,?)",
                                    -1, &st, NULL);
            if (rc == SQLITE_OK) {
                sqlite3_bind_text(st, 1, launch_path, -1, SQLITE_STATIC);
                sqlite3_bind_int64(st, 2, now);
                sqlite3_bind_text(st, 3, launch_stamp, -1, SQLITE_STATIC);
                sqlite3_bind_blob(st, 4, r->extra, (int)strlen(r->extra), SQLITE_STATIC);
                rc = sqlite3_step(st);
                sqlite3_finalize(st);
                rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            }
        }
        if (rc != SQLITE_OK) db_error(rc);
        else atomic_fetch_add(&n_stored, 1);
    }
    pthread_mutex_unlock(&db_mu);
    free(launch_stamp);
    free(launch_path);
    /* This run wrote the set from fresh stamps: no need to check it again. */
    if (n_sys) set_remember(set_id, true);
    cJSON_free(text);
    cJSON_free(set_text);
}

void cache_set_extra(struct cache_rec *r, const char *text)
{
    if (!r) return;
    free(r->extra);
    r->extra = text ? xstrdup(text) : NULL;
}

const char *cache_extra(const struct cache_rec *r)
{
    return r ? r->extra : NULL;
}

int cache_launch_rows(const struct lint_options *o, const char *under_dir,
                      void (*fn)(void *data, const char *path, const char *text), void *data)
{
    if (o->no_cache) return 0;
    const char *dir = cache_dir_writable(o->cache_dir, false);
    if (!dir) return 0;
    struct row { char *path, *stamp, *data; } *rows = NULL;
    size_t n = 0;
    pthread_mutex_lock(&db_mu);
    if (db_get(dir)) {
        sqlite3_stmt *st;
        int rc = sqlite3_prepare_v2(db, "SELECT path, stamp, data FROM launches", -1, &st, NULL);
        while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            const char *p = (const char *)sqlite3_column_text(st, 0), *s = (const char *)sqlite3_column_text(st, 1);
            const void *b = sqlite3_column_blob(st, 2);
            if (!p || !s || !b) continue;
            if (under_dir && !path_has_prefix_dir(p, under_dir)) continue;
            rows = xrealloc(rows, (n + 1) * sizeof *rows);
            rows[n].path = xstrdup(p);
            rows[n].stamp = xstrdup(s);
            rows[n].data = xstrndup(b, (size_t)sqlite3_column_bytes(st, 2));
            n++;
        }
        if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_finalize(st);
        if (rc != SQLITE_OK) db_error(rc);
    }
    pthread_mutex_unlock(&db_mu);
    int used = 0;
    for (size_t i = 0; i < n; i++) {
        /* Only facts of a file that still has the contents they came from. */
        struct file_stamp s;
        int linted;
        if (dep_parse(rows[i].stamp, &s, &linted) && stamp_still_valid(&s)) {
            fn(data, rows[i].path, rows[i].data);
            used++;
        }
        free(rows[i].path);
        free(rows[i].stamp);
        free(rows[i].data);
    }
    free(rows);
    return used;
}
