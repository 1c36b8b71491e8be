/* cachedir.h: the cache directory shared by the result cache and the
 * precompiled headers. */
#ifndef CUDALINT_CACHEDIR_H
#define CUDALINT_CACHEDIR_H

#include <stdbool.h>

/* The cache directory (cache_dir, else the user cache directory), created
   when missing.  NULL when it cannot be created or written: the run then goes
   without result cache and precompiled headers.  Warns once per process when
   warn.  The answer is memoized. */
const char *cache_dir_writable(const char *cache_dir, bool warn);

#endif
