/* confirm_db.c: the sqlite3 database of `cudalint confirm`: one row per run
 * (time, host, GPU, driver, CUDA and cudalint versions, arch) and one row per
 * measurement, failures and skipped steps included, so runs on different
 * machines and versions can be compared later with plain SQL. */
#include "confirm/confirm_db.h"
#include "base/util.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

struct confirm_db {
    sqlite3 *db;
    sqlite3_stmt *insert;
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS run (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  time TEXT NOT NULL,\n"
    "  host TEXT,\n"
    "  gpu TEXT,\n"
    "  driver TEXT,\n"
    "  cuda_version TEXT,\n"
    "  cudalint_version TEXT,\n"
    "  arch TEXT\n"
    ");\n"
    "CREATE TABLE IF NOT EXISTS measurement (\n"
    "  run_id INTEGER NOT NULL REFERENCES run(id),\n"
    "  rule TEXT NOT NULL,\n"
    "  kernel TEXT NOT NULL,\n"
    "  variant TEXT NOT NULL,\n"
    "  metric TEXT NOT NULL,\n"
    "  value REAL,\n"
    "  text TEXT\n"
    ");\n"
    "CREATE INDEX IF NOT EXISTS measurement_run ON measurement(run_id, rule, kernel);\n";

struct confirm_db *confirm_db_open(const char *path, char **error)
{
    char *dir = path_dirname(path);
    int e = mkdir_p(dir, 0777);
    if (e) {
        *error = xasprintf("%s: cannot create directory %s: %s", path, dir, strerror(e));
        free(dir);
        return NULL;
    }
    free(dir);
    struct confirm_db *d = xcalloc(1, sizeof *d);
    char *msg = NULL;
    if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
            SQLITE_OK ||
        sqlite3_busy_timeout(d->db, 5000) != SQLITE_OK ||
        sqlite3_exec(d->db, schema, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_prepare_v2(d->db,
                           "INSERT INTO measurement(run_id, rule, kernel, variant, metric, "
                           "value, text) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           -1, &d->insert, NULL) != SQLITE_OK) {
        *error = xasprintf("%s: %s", path, msg ? msg : sqlite3_errmsg(d->db));
        sqlite3_free(msg);
        confirm_db_close(d);
        return NULL;
    }
    return d;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s) sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(st, i);
}

int confirm_db_run(struct confirm_db *d, struct run_info *ri, char **error)
{
    sqlite3_stmt *st = NULL;
    const char *sql =
        ri->db_id ? "UPDATE run SET time = ?1, host = ?2, gpu = ?3, driver = ?4, cuda_version = ?5, "
                    "cudalint_version = ?6, arch = ?7 WHERE id = ?8"
                  : "INSERT INTO run(time, host, gpu, driver, cuda_version, cudalint_version, "
                    "arch) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) goto fail;
    bind_text(st, 1, ri->time);
    bind_text(st, 2, ri->host);
    bind_text(st, 3, ri->gpu);
    bind_text(st, 4, ri->driver);
    bind_text(st, 5, ri->cuda_version);
    bind_text(st, 6, ri->version);
    bind_text(st, 7, ri->arch);
    if (ri->db_id) sqlite3_bind_int64(st, 8, ri->db_id);
    if (sqlite3_step(st) != SQLITE_DONE) goto fail;
    sqlite3_finalize(st);
    if (!ri->db_id) ri->db_id = sqlite3_last_insert_rowid(d->db);
    return 0;
fail:
    *error = xasprintf("database: %s", sqlite3_errmsg(d->db));
    sqlite3_finalize(st);
    return -1;
}

static int insert(struct confirm_db *d, long long run_id, const char *rule, const char *kernel,
                  const struct measure *m, char **error)
{
    sqlite3_stmt *st = d->insert;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    sqlite3_bind_int64(st, 1, run_id);
    bind_text(st, 2, rule);
    bind_text(st, 3, kernel);
    bind_text(st, 4, m->variant ? m->variant : "");
    bind_text(st, 5, m->metric);
    if (m->has_value) sqlite3_bind_double(st, 6, m->value);
    else sqlite3_bind_null(st, 6);
    bind_text(st, 7, m->text);
    if (sqlite3_step(st) != SQLITE_DONE) {
        *error = xasprintf("database: %s", sqlite3_errmsg(d->db));
        return -1;
    }
    return 0;
}

int confirm_db_pair(struct confirm_db *d, const struct run_info *ri, struct pair_result *r,
                    size_t *stored, char **error)
{
    size_t start = *stored;
    sqlite3_exec(d->db, "BEGIN", NULL, NULL, NULL);
    for (; *stored < r->len; (*stored)++)
        if (insert(d, ri->db_id, r->pair->rule, r->pair->name, &r->items[*stored], error) != 0) {
            sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
            *stored = start;
            return -1;
        }
    if (sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        *error = xasprintf("database: %s", sqlite3_errmsg(d->db));
        return -1;
    }
    return 0;
}

int confirm_db_note(struct confirm_db *d, const struct run_info *ri, const char *metric,
                    double value, const char *text, char **error)
{
    struct measure m = {.variant = "", .metric = (char *)metric, .has_value = !text,
                        .value = value, .text = (char *)text};
    return insert(d, ri->db_id, "", "", &m, error);
}

void confirm_db_close(struct confirm_db *d)
{
    if (!d) return;
    sqlite3_finalize(d->insert);
    sqlite3_close(d->db);
    free(d);
}
