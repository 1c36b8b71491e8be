/* fuzz_compile_args.c: compile_commands.json and the translation of the
 * compiler command lines in it (nvcc, gcc, clang; response files included)
 * into clang arguments.  The input is the database, then (after a line
 * "@@@") the text of a response file the commands may name as @rsp.txt,
 * then a raw command line for split_command_line(). */
#include "fuzz_common.h"
#include "frontend/compile_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_quiet();
    struct fuzz_in in = {data, size};
    size_t db_len, rsp_len;
    char *db_text = fuzz_part(&in, &db_len);
    char *rsp = fuzz_part(&in, &rsp_len);
    char *cmd = fuzz_part(&in, NULL);
    char *db_path = fuzz_write("compile_commands.json", db_text, db_len);
    char *rsp_path = fuzz_write("rsp.txt", rsp, rsp_len);
    char *error = NULL;
    struct compdb *db = compdb_load(db_path, &error);
    if (db) {
        for (size_t i = 0; i < db->n_cmds; i++) {
            struct strvec args = {0}, archs = {0};
            char *e2 = NULL;
            if (translate_compile_args(&db->cmds[i].argv, db->cmds[i].directory, &args, &archs, &e2) != 0) free(e2);
            (void)compdb_find(db, db->cmds[i].file);
            sv_release(&args);
            sv_release(&archs);
        }
        compdb_free(db);
    } else {
        free(error);
    }
    struct strvec argv = {0}, args = {0}, archs = {0};
    split_command_line(cmd, &argv);
    if (argv.len) {
        char *e3 = NULL;
        if (translate_compile_args(&argv, fuzz_dir(), &args, &archs, &e3) != 0) free(e3);
    }
    sv_release(&argv);
    sv_release(&args);
    sv_release(&archs);
    free(db_path);
    free(rsp_path);
    free(db_text);
    free(rsp);
    free(cmd);
    return 0;
}
