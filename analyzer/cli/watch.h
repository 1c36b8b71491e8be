/* watch.h: --watch: waiting, with inotify, for a change to the files a run
 * lints (sources with a linted extension, .cudalint.yaml,
 * compile_commands.json) under the paths given, directories included. */
#ifndef CUDALINT_WATCH_H
#define CUDALINT_WATCH_H

#include "core/options.h"

struct watch;

/* Watches every directory under o->paths (hidden ones left out) and the
   directories of the files named.  NULL with *error when inotify fails. */
struct watch *watch_new(const struct lint_options *o, char **error);
/* How many directories are watched. */
size_t watch_count(const struct watch *w);
/* Blocks until a relevant change, then until 200 ms pass without another.
   Returns 0, or -1 when the watch broke (inotify overflow is a change). */
int watch_wait(struct watch *w, const struct lint_options *o);
void watch_free(struct watch *w);

#endif
