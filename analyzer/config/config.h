/* config.h: .cudalint.yaml: finding the configuration of each file (nearest
 * parent directory, --config, InheritParentConfig), validating it with file,
 * line and key in every error, and merging it with the command line into the
 * options that file is linted with. */
#ifndef CUDALINT_CONFIG_H
#define CUDALINT_CONFIG_H

#include "core/options.h"
#include "core/diag.h"
#include <stdio.h>

#define CONFIG_FILE_NAME ".cudalint.yaml"

/* Checks the command line's config options and loads (validates) the config
   of every path given, so a bad config fails the run before any parsing.
   Returns 0, or -1 with *error set (exit code 2). */
int config_prepare(const struct lint_options *o, char **error);

/* The options to lint path with: o itself when no configuration applies (or
   --no-config), else o merged with the file's configuration (owned by this
   run's config_set, valid until config_set_free()).  NULL with *error set when the
   configuration is invalid.  Thread-safe; a config edited on disk is reloaded
   (the language server lives long). */
const struct lint_options *config_options_for_file(const struct lint_options *o, const char *path,
                                                   char **error);

/* True when path (a file or directory) matches an `exclude` pattern of the
   configuration that governs it.  o is the command line's options. */
bool config_path_excluded(const struct lint_options *o, const char *path);

/* Applies the configuration's severity overrides to a file's findings; fo is
   what config_options_for_file() returned for it. */
void config_finish_file(const struct lint_options *fo, struct diag_list *diags);


/* --dump-config: prints the effective configuration for path as YAML.
   Returns 0, or -1 with *error set. */
int config_dump(FILE *out, const struct lint_options *o, const char *path, char **error);

/* The configuration state of one run (the files loaded, the options merged),
   which a run's options point to (lint_options.config); without one, no
   configuration applies. */
struct config_set *config_set_new(void);
void config_set_free(struct config_set *cs);

#endif
