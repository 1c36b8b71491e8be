/* confirm_db.h: the sqlite database of confirm results. */
#ifndef CUDALINT_CONFIRM_DB_H
#define CUDALINT_CONFIRM_DB_H

#include "confirm/confirm_model.h"

/* ---- database ---- */

struct confirm_db;
/* Opens (creating the file, its directory and the tables).  NULL with *error. */
struct confirm_db *confirm_db_open(const char *path, char **error);
/* Inserts the run row and sets ri->db_id; updates it when already inserted. */
int confirm_db_run(struct confirm_db *db, struct run_info *ri, char **error);
/* Appends every measurement of a pair result not yet stored. */
int confirm_db_pair(struct confirm_db *db, const struct run_info *ri, struct pair_result *r,
                    size_t *stored, char **error);
/* A run-level row (rule and kernel empty). */
int confirm_db_note(struct confirm_db *db, const struct run_info *ri, const char *metric,
                    double value, const char *text, char **error);
void confirm_db_close(struct confirm_db *db);

#endif
