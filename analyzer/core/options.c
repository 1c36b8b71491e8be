/* options.c: defaults of the lint options and the rule-selection questions
 * asked of them. */
#include "core/options.h"

#include <stdlib.h>
#include <string.h>

void lint_options_init(struct lint_options *o)
{
    memset(o, 0, sizeof *o);
    sv_push(&o->extensions, ".cu");
    sv_push(&o->extensions, ".cuh");
    o->headers = HEADERS_AUTO;
    o->jobs = cpu_count();
    o->format = xstrdup("text");
    o->color = -1;
    o->fail_level = SEV_WARNING;
    o->max_file_size = 4LL * 1000 * 1000; /* MB are 10^6 bytes, as printed */
    o->time_limit = LINT_DEFAULT_TIME_LIMIT;
    o->memory_limit = -1; /* the default: engine/supervise.h */
    o->codegen = -1;
}

void lint_options_release(struct lint_options *o)
{
    sv_release(&o->paths);
    sv_release(&o->roots);
    sv_release(&o->extensions);
    sv_release(&o->select);
    sv_release(&o->ignore);
    sv_release(&o->archs);
    sv_release(&o->extra_args);
    free(o->cuda_path);
    free(o->compdb_dir);
    free(o->workspace);
    free(o->format);
    free(o->config_path);
    free(o->baseline);
    free(o->write_baseline);
    free(o->cache_dir);
    free(o->stdin_filename);
    free(o->output_file);
    memset(o, 0, sizeof *o);
}

bool lint_rule_enabled(const struct lint_options *o, const struct rule *r)
{
    bool stable_or_preview_on = r->status == STATUS_STABLE || o->preview;
    bool on = o->select.len == 0 && stable_or_preview_on;
    for (size_t i = 0; i < o->select.len && !on; i++)
        on = registry_selector_exact(o->select.items[i], r) ||
             (stable_or_preview_on && registry_selector_matches(o->select.items[i], r));
    for (size_t i = 0; i < o->ignore.len && on; i++)
        if (registry_selector_matches(o->ignore.items[i], r)) on = false;
    return on;
}

const char *lint_rule_option(const struct lint_options *o, const struct rule *r, const char *key)
{
    for (size_t i = 0; i < o->n_rule_options; i++)
        if (o->rule_options[i].rule == r && strcmp(o->rule_options[i].key, key) == 0)
            return o->rule_options[i].value;
    return NULL;
}

bool lint_rule_host(const struct lint_options *o, const struct rule *r)
{
    if (o->host) return true;
    const char *v = lint_rule_option(o, r, "host");
    return v && strcmp(v, "true") == 0;
}
