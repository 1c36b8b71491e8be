/* stamp.h: file stamps (size, mtime, content hash) that the result cache and
 * the precompiled headers use to notice that an included file changed. */
#ifndef CUDALINT_STAMP_H
#define CUDALINT_STAMP_H

#include <stdbool.h>
#include <stdint.h>

/* A run checks the same toolkit headers for every file: stat results are
   reused for a second (a long-lived language server still sees edits), and a
   hash as long as size and mtime stay the same. */
#define STAMP_TTL 1.0

struct file_stamp {
    char *path;          /* as clang named it (relative to the working directory or absolute) */
    int64_t size;
    int64_t mtime_ns;
    uint64_t hash;       /* xxh3-64 of the contents */
    bool system;         /* a system or toolkit header (never linted) */
};

/* Stats and hashes path (memoized for the life of the process: files are taken
   not to change during one run).  Returns 0, or -1 when it cannot be read. */
int stamp_take(const char *path, struct file_stamp *out);
/* Does the file still have the recorded contents?  Size and mtime equal, or,
   when only the mtime moved (a checkout, a touch), the same hash. */
bool stamp_still_valid(const struct file_stamp *s);
void stamp_release(struct file_stamp *s);

#endif
