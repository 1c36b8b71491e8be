/* config.c: .cudalint.yaml, read with libyaml's document loader so every
 * error can name the file, the line and the key; merged per file with the
 * command line, which always wins. */
#include "config/config.h"
#include "core/rule.h"
#include "frontend/compile_args.h"
#include "frontend/toolkit.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

/* ---- one parsed file ---- */

struct sev_override {
    char *selector; /* code, name, prefix or glob */
    enum severity severity;
};

struct exclude_pattern {
    char *dir;     /* the directory of the config that wrote it */
    char *pattern; /* as written, without a leading "./" or trailing "/" */
};

struct config_file {
    char *path, *dir; /* absolute */
    struct stat st;   /* to notice edits */
    bool has_select;
    struct strvec select, ignore;
    struct sev_override *sevs;
    size_t n_sevs;
    struct rule_option *opts;
    size_t n_opts;
    int host; /* -1 unset */
    int preview; /* -1 unset */
    bool has_archs;
    struct strvec archs;
    struct strvec extra_args;
    char *cuda_path;
    struct exclude_pattern *excludes;
    size_t n_excludes;
    bool inherit;
    struct config_file *next_loaded; /* every file ever loaded, freed at the end */
};

/* ---- the effective options of one chain of files ---- */

struct config_entry {
    struct lint_options opts;         /* base, shallow, with owned replacements below */
    const struct lint_options *base;
    struct config_file **chain;       /* outermost first */
    size_t n_chain;
    int *severity;                    /* per registry index: -1 or an enum severity */
    struct rule_option *opts_merged;  /* later files override earlier */
    size_t n_opts;
    struct exclude_pattern *excludes; /* borrowed from the chain */
    size_t n_excludes;
    struct cuda_toolkit *own_toolkit; /* for a config's cuda-path */
    struct config_entry *next;
};

/* One run's configuration files and merged options (a language server's run
   is its whole life). */
struct config_set {
    pthread_mutex_t lock;
    struct config_file *loaded;   /* every file ever loaded, newest first */
    struct config_entry *entries;
};

static const char *const known_keys[] = {
    "select", "ignore", "severity", "options", "host", "preview", "cuda-arch", "cuda-path", "extra-args",
    "exclude", "InheritParentConfig", NULL,
};

/* Rule options: few, typed, and checked like the keys.  An option is either
   for every device-code rule (rule NULL) or for one rule. */
struct option_spec {
    const char *key;
    bool is_bool;
    const char *rule;
    const char *help;
};
static const struct option_spec option_specs[] = {
    {"host", true, NULL, "also report in host code (like --host, for this rule only)"},
    {"every-call", true, "CU501", "report every unchecked call, also in code that checks no status"},
    {"folded", true, "CU201",
     "also report literals in one float-exact operation that nvcc folds back to float (as notes)"},
};

static bool option_applies(const struct option_spec *spec, const struct rule *rule)
{
    if (spec->rule) return strcmp(spec->rule, rule->code) == 0;
    return rule->scope == SCOPE_KERNEL || rule->scope == SCOPE_DEVICE;
}

/* "host, every-call": the options a rule takes, for an error message. */
static char *options_known(const struct rule *rule)
{
    struct strbuf sb;
    sb_init(&sb);
    for (size_t s = 0; s < sizeof option_specs / sizeof *option_specs; s++)
        if (option_applies(&option_specs[s], rule)) sb_addf(&sb, "%s%s", sb.len ? ", " : "", option_specs[s].key);
    return sb.buf;
}

static void config_file_free(struct config_file *cf)
{
    free(cf->path);
    free(cf->dir);
    sv_release(&cf->select);
    sv_release(&cf->ignore);
    for (size_t i = 0; i < cf->n_sevs; i++) free(cf->sevs[i].selector);
    free(cf->sevs);
    for (size_t i = 0; i < cf->n_opts; i++) {
        free(cf->opts[i].key);
        free(cf->opts[i].value);
    }
    free(cf->opts);
    sv_release(&cf->archs);
    sv_release(&cf->extra_args);
    free(cf->cuda_path);
    for (size_t i = 0; i < cf->n_excludes; i++) {
        free(cf->excludes[i].dir);
        free(cf->excludes[i].pattern);
    }
    free(cf->excludes);
    free(cf);
}

/* ---- YAML helpers ---- */

struct parse_state {
    const char *file;
    yaml_document_t *doc;
    char *error;
};

static int fail(struct parse_state *ps, const yaml_node_t *at, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(struct parse_state *ps, const yaml_node_t *at, const char *key, const char *fmt, ...)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "%s:%zu: ", ps->file, at ? at->start_mark.line + 1 : (size_t)1);
    if (key) sb_addf(&sb, "key '%s': ", key);
    va_list ap;
    va_start(ap, fmt);
    sb_vaddf(&sb, fmt, ap);
    va_end(ap);
    ps->error = sb_detach(&sb);
    return -1;
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A plain (unquoted) null: "", "~", "null". */
static bool is_null(const yaml_node_t *n)
{
    if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return false;
    const char *s = scalar(n);
    return !*s || strcmp(s, "~") == 0 || strcasecmp(s, "null") == 0;
}

static int get_bool(struct parse_state *ps, const yaml_node_t *n, const char *key, bool *out)
{
    const char *s = scalar(n);
    if (s && (strcasecmp(s, "true") == 0 || strcasecmp(s, "yes") == 0 || strcasecmp(s, "on") == 0)) {
        *out = true;
        return 0;
    }
    if (s && (strcasecmp(s, "false") == 0 || strcasecmp(s, "no") == 0 || strcasecmp(s, "off") == 0)) {
        *out = false;
        return 0;
    }
    return fail(ps, n, key, "expected true or false, not %s%s%s", s ? "'" : "a ", s ? s : "list or mapping",
                s ? "'" : "");
}

/* A list of strings: a YAML sequence of scalars, or one scalar (split on
   commas when split_commas, like the command line's --select). */
static int get_list(struct parse_state *ps, const yaml_node_t *n, const char *key, bool split_commas,
                    struct strvec *out)
{
    if (is_null(n)) return 0;
    if (n->type == YAML_SCALAR_NODE) {
        const char *s = scalar(n);
        if (!split_commas) {
            sv_push(out, s);
            return 0;
        }
        sv_split_list(out, s);
        return 0;
    }
    if (n->type != YAML_SEQUENCE_NODE) return fail(ps, n, key, "expected a list of strings, not a mapping");
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        const yaml_node_t *item = yaml_document_get_node(ps->doc, *it);
        const char *s = scalar(item);
        if (!s) return fail(ps, item, key, "expected a string in the list, not a nested list or mapping");
        sv_push(out, s);
    }
    return 0;
}

static int check_rule_list(struct parse_state *ps, const yaml_node_t *n, const char *key,
                           const struct strvec *sv)
{
    for (size_t i = 0; i < sv->len; i++)
        if (!registry_selector_known(sv->items[i]))
            return fail(ps, n, key, "'%s' matches no rule (see cudalint --list-rules)", sv->items[i]);
    return 0;
}

/* An arch as clang's --cuda-gpu-arch takes it: sm_90, sm_90a, sm_100f. */
static bool valid_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) != 0 || !isdigit((unsigned char)s[3])) return false;
    const char *p = s + 3;
    while (isdigit((unsigned char)*p)) p++;
    if (*p == 'a' || *p == 'f') p++;
    return *p == '\0';
}

/* Relative include paths in extra-args are meant relative to the config file,
   not to wherever cudalint happens to be run from. */
static void add_extra_arg(struct config_file *cf, struct strvec *args, const char *prev, const char *arg)
{
    static const char *const path_flags[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include", NULL};
    bool after_flag = false;
    for (size_t i = 0; prev && path_flags[i]; i++) after_flag = after_flag || strcmp(prev, path_flags[i]) == 0;
    if (after_flag && arg[0] && arg[0] != '/' && arg[0] != '-') {
        sv_push_owned(args, path_join(cf->dir, arg));
    } else if (strncmp(arg, "-I", 2) == 0 && arg[2] && arg[2] != '/') {
        char *p = path_join(cf->dir, arg + 2);
        sv_push_owned(args, xasprintf("-I%s", p));
        free(p);
    } else {
        sv_push(args, arg);
    }
}

static int parse_key(struct parse_state *ps, struct config_file *cf, const char *key, const yaml_node_t *k,
                     const yaml_node_t *v)
{
    if (strcmp(key, "select") == 0) {
        cf->has_select = true;
        if (get_list(ps, v, key, true, &cf->select)) return -1;
        return check_rule_list(ps, v, key, &cf->select);
    }
    if (strcmp(key, "ignore") == 0) {
        if (get_list(ps, v, key, true, &cf->ignore)) return -1;
        return check_rule_list(ps, v, key, &cf->ignore);
    }
    if (strcmp(key, "host") == 0) {
        bool b;
        if (get_bool(ps, v, key, &b)) return -1;
        cf->host = b;
        return 0;
    }
    if (strcmp(key, "preview") == 0) {
        bool b;
        if (get_bool(ps, v, key, &b)) return -1;
        cf->preview = b;
        return 0;
    }
    if (strcmp(key, "InheritParentConfig") == 0) return get_bool(ps, v, key, &cf->inherit);
    if (strcmp(key, "cuda-arch") == 0) {
        cf->has_archs = true;
        if (get_list(ps, v, key, true, &cf->archs)) return -1;
        for (size_t i = 0; i < cf->archs.len; i++)
            if (!valid_arch(cf->archs.items[i]))
                return fail(ps, v, key, "'%s' is not a GPU arch like sm_90 or sm_90a", cf->archs.items[i]);
        if (cf->archs.len == 0) return fail(ps, v, key, "needs at least one arch, like sm_90");
        return 0;
    }
    if (strcmp(key, "cuda-path") == 0) {
        if (is_null(v)) return 0; /* as --dump-config prints "not set" */
        const char *s = scalar(v);
        if (!s || !*s) return fail(ps, v, key, "expected the directory of a CUDA Toolkit");
        char *p = s[0] == '/' ? xstrdup(s) : path_join(cf->dir, s);
        if (!path_is_dir(p)) {
            fail(ps, v, key, "'%s' is not a directory", s);
            free(p);
            return -1;
        }
        free(cf->cuda_path);
        cf->cuda_path = p;
        return 0;
    }
    if (strcmp(key, "extra-args") == 0) {
        struct strvec raw = {0};
        if (v->type == YAML_SCALAR_NODE && !is_null(v)) {
            /* One string is split like a shell would without quotes; the list
               form keeps arguments with spaces whole. */
            const char *p = scalar(v);
            while (*p) {
                while (isspace((unsigned char)*p)) p++;
                const char *e = p;
                while (*e && !isspace((unsigned char)*e)) e++;
                if (e > p) sv_push_owned(&raw, xstrndup(p, (size_t)(e - p)));
                p = e;
            }
        } else if (get_list(ps, v, key, false, &raw)) {
            sv_release(&raw);
            return -1;
        }
        /* A configuration comes with the code, maybe a cloned repository's:
           it may not make clang load code, run or write anything. */
        for (size_t i = 0; i < raw.len; i++) {
            const char *why = compile_arg_refused(i ? raw.items[i - 1] : NULL, raw.items[i]);
            if (why) {
                fail(ps, v, key, "'%s' is not allowed: %s", raw.items[i], why);
                sv_release(&raw);
                return -1;
            }
        }
        for (size_t i = 0; i < raw.len; i++)
            add_extra_arg(cf, &cf->extra_args, i ? raw.items[i - 1] : NULL, raw.items[i]);
        sv_release(&raw);
        return 0;
    }
    if (strcmp(key, "exclude") == 0) {
        struct strvec raw = {0};
        if (get_list(ps, v, key, false, &raw)) {
            sv_release(&raw);
            return -1;
        }
        for (size_t i = 0; i < raw.len; i++) {
            const char *p = raw.items[i];
            while (p[0] == '.' && p[1] == '/') p += 2;
            size_t n = strlen(p);
            while (n > 1 && p[n - 1] == '/') n--;
            if (n == 0) {
                sv_release(&raw);
                return fail(ps, v, key, "an empty pattern excludes nothing");
            }
            cf->excludes = xrealloc(cf->excludes, (cf->n_excludes + 1) * sizeof *cf->excludes);
            cf->excludes[cf->n_excludes].dir = xstrdup(cf->dir);
            cf->excludes[cf->n_excludes].pattern = xstrndup(p, n);
            cf->n_excludes++;
        }
        sv_release(&raw);
        return 0;
    }
    if (strcmp(key, "severity") == 0) {
        if (is_null(v)) return 0;
        if (v->type != YAML_MAPPING_NODE)
            return fail(ps, v, key, "expected a mapping of rule to error, warning or note");
        for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
            const yaml_node_t *rk = yaml_document_get_node(ps->doc, p->key);
            const yaml_node_t *rv = yaml_document_get_node(ps->doc, p->value);
            const char *rule = scalar(rk);
            if (!rule) return fail(ps, rk, key, "a rule code or name must be a string");
            if (!registry_selector_known(rule))
                return fail(ps, rk, key, "'%s' matches no rule (see cudalint --list-rules)", rule);
            int sev = severity_parse(scalar(rv));
            if (sev < 0)
                return fail(ps, rv, key, "severity of '%s' must be error, warning or note, not '%s'", rule,
                            scalar(rv) ? scalar(rv) : "a list or mapping");
            cf->sevs = xrealloc(cf->sevs, (cf->n_sevs + 1) * sizeof *cf->sevs);
            cf->sevs[cf->n_sevs].selector = xstrdup(rule);
            cf->sevs[cf->n_sevs].severity = (enum severity)sev;
            cf->n_sevs++;
        }
        return 0;
    }
    if (strcmp(key, "options") == 0) {
        if (is_null(v)) return 0;
        if (v->type != YAML_MAPPING_NODE)
            return fail(ps, v, key, "expected a mapping of rule to its options, like {CU201: {host: true}}");
        for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
            const yaml_node_t *rk = yaml_document_get_node(ps->doc, p->key);
            const yaml_node_t *rv = yaml_document_get_node(ps->doc, p->value);
            const char *name = scalar(rk);
            const struct rule *rule = name ? registry_find(name) : NULL;
            if (!rule) return fail(ps, rk, key, "'%s' is not a rule code or name", name ? name : "?");
            if (is_null(rv)) continue;
            if (rv->type != YAML_MAPPING_NODE)
                return fail(ps, rv, key, "options of %s must be a mapping, like {host: true}", rule->code);
            for (yaml_node_pair_t *q = rv->data.mapping.pairs.start; q < rv->data.mapping.pairs.top; q++) {
                const yaml_node_t *ok = yaml_document_get_node(ps->doc, q->key);
                const yaml_node_t *ov = yaml_document_get_node(ps->doc, q->value);
                const char *oname = scalar(ok);
                const struct option_spec *spec = NULL;
                for (size_t s = 0; oname && s < sizeof option_specs / sizeof *option_specs; s++)
                    if (strcmp(option_specs[s].key, oname) == 0) spec = &option_specs[s];
                if (!spec || !option_applies(spec, rule)) {
                    char *k2 = xasprintf("options.%s.%s", rule->code, oname ? oname : "?");
                    char *known = options_known(rule);
                    fail(ps, ok, k2, "%s has no option '%s'%s%s%s", rule->code, oname ? oname : "?",
                         *known ? " (known: " : "", known, *known ? ")" : "");
                    free(known);
                    free(k2);
                    return -1;
                }
                char *value = NULL;
                if (spec->is_bool) {
                    bool b;
                    char *k2 = xasprintf("options.%s.%s", rule->code, oname);
                    int r = get_bool(ps, ov, k2, &b);
                    free(k2);
                    if (r) return -1;
                    value = xstrdup(b ? "true" : "false");
                } else {
                    if (!scalar(ov)) return fail(ps, ov, oname, "expected a string");
                    value = xstrdup(scalar(ov));
                }
                cf->opts = xrealloc(cf->opts, (cf->n_opts + 1) * sizeof *cf->opts);
                cf->opts[cf->n_opts].rule = rule;
                cf->opts[cf->n_opts].key = xstrdup(oname);
                cf->opts[cf->n_opts].value = value;
                cf->n_opts++;
            }
        }
        return 0;
    }
    struct strbuf known;
    sb_init(&known);
    for (size_t i = 0; known_keys[i]; i++) sb_addf(&known, "%s%s", i ? ", " : "", known_keys[i]);
    fail(ps, k, NULL, "unknown key '%s' (known keys: %s)", key, known.buf);
    sb_release(&known);
    return -1;
}

/* How deep the flow collections ([ ] and { }) of a YAML text nest, outside
   quoted scalars and comments.  libyaml takes time and stack quadratic in
   it; no configuration needs more than a few levels. */
#define CONFIG_MAX_NESTING 64

static size_t flow_nesting(const char *t, size_t n, size_t *line)
{
    size_t depth = 0, max = 0, l = 1;
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (c == '\n') l++;
        if (quote) {
            if (c == '\\' && quote == '"' && i + 1 < n) i++;
            else if (c == quote) quote = 0;
            continue;
        }
        if (c == '"' || c == '\'') quote = c;
        else if (c == '#' && (i == 0 || t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\n'))
            while (i + 1 < n && t[i + 1] != '\n') i++;
        else if (c == '[' || c == '{') {
            if (++depth > max) {
                max = depth;
                *line = l;
            }
        } else if ((c == ']' || c == '}') && depth) depth--;
    }
    return max;
}

/* Parses one file; NULL with *error on any problem. */
static struct config_file *config_parse(const char *path, char **error)
{
    char *text = NULL;
    size_t len = 0;
    int e = read_file(path, &text, &len);
    if (e) {
        *error = xasprintf("%s: cannot read: %s", path, strerror(e));
        return NULL;
    }
    size_t deep_line = 0;
    if (flow_nesting(text, len, &deep_line) > CONFIG_MAX_NESTING) {
        *error = xasprintf("%s:%zu: nested deeper than %d levels", path, deep_line, CONFIG_MAX_NESTING);
        free(text);
        return NULL;
    }
    struct config_file *cf = xcalloc(1, sizeof *cf);
    cf->path = path_absolute(path);
    cf->dir = path_dirname(cf->path);
    cf->host = -1;
    cf->preview = -1;
    stat(path, &cf->st);

    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    struct parse_state ps = {path, &doc, NULL};
    if (!yaml_parser_load(&parser, &doc)) {
        *error = xasprintf("%s:%zu: invalid YAML: %s%s%s", path, parser.problem_mark.line + 1,
                           parser.problem ? parser.problem : "syntax error", parser.context ? " " : "",
                           parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        free(text);
        config_file_free(cf);
        return NULL;
    }
    int rc = 0;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root && !is_null(root)) {
        if (root->type != YAML_MAPPING_NODE) {
            rc = fail(&ps, root, NULL, "the configuration must be a mapping of keys (select:, ignore:, ...)");
        } else {
            struct strvec seen = {0};
            for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top && !rc;
                 p++) {
                const yaml_node_t *k = yaml_document_get_node(&doc, p->key);
                const yaml_node_t *v = yaml_document_get_node(&doc, p->value);
                const char *key = scalar(k);
                if (!key) rc = fail(&ps, k, NULL, "keys must be strings");
                else if (sv_contains(&seen, key)) rc = fail(&ps, k, key, "given twice");
                else {
                    sv_push(&seen, key);
                    rc = parse_key(&ps, cf, key, k, v);
                }
            }
            sv_release(&seen);
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    free(text);
    if (rc) {
        *error = ps.error;
        config_file_free(cf);
        return NULL;
    }
    return cf;
}

/* The loaded file for path, parsed again when it changed on disk.  Caller
   holds cs->lock. */
static struct config_file *config_get(struct config_set *cs, const char *abs_path, char **error)
{
    struct stat st;
    if (stat(abs_path, &st) != 0) {
        *error = xasprintf("%s: %s", abs_path, strerror(errno));
        return NULL;
    }
    struct config_file *newest = NULL;
    for (struct config_file *cf = cs->loaded; cf && !newest; cf = cf->next_loaded)
        if (strcmp(cf->path, abs_path) == 0) newest = cf; /* the list is newest first */
    if (newest && newest->st.st_mtim.tv_sec == st.st_mtim.tv_sec &&
        newest->st.st_mtim.tv_nsec == st.st_mtim.tv_nsec && newest->st.st_size == st.st_size &&
        newest->st.st_ino == st.st_ino)
        return newest;
    struct config_file *cf = config_parse(abs_path, error);
    if (!cf) return NULL;
    /* Older versions stay allocated: entries built from them may be in use by
       another thread until config_set_free(). */
    cf->next_loaded = cs->loaded;
    cs->loaded = cf;
    return cf;
}

/* The nearest .cudalint.yaml in dir or above it, or NULL. */
static char *find_nearest(const char *dir)
{
    char *d = xstrdup(dir);
    for (;;) {
        char *p = path_join(d, CONFIG_FILE_NAME);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            free(d);
            return p;
        }
        free(p);
        if (strcmp(d, "/") == 0) break;
        char *up = path_dirname(d);
        free(d);
        d = up;
    }
    free(d);
    return NULL;
}

/* ---- merging ---- */

static void entry_free(struct config_entry *e)
{
    sv_release(&e->opts.select);
    sv_release(&e->opts.ignore);
    sv_release(&e->opts.archs);
    sv_release(&e->opts.extra_args);
    free(e->opts.cuda_path);
    if (e->own_toolkit) {
        toolkit_release(e->own_toolkit);
        free(e->own_toolkit);
    }
    free(e->chain);
    free(e->severity);
    free(e->opts_merged);
    free(e->excludes);
    free(e);
}

static void sv_copy(struct strvec *dst, const struct strvec *src)
{
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; i < src->len; i++) sv_push(dst, src->items[i]);
}

/* Builds the options for a chain (outermost first).  The command line wins:
   its --select replaces the configs', its --ignore adds to theirs, and so on. */
static struct config_entry *entry_build(const struct lint_options *base, struct config_file **chain, size_t n,
                                        char **error)
{
    struct config_entry *e = xcalloc(1, sizeof *e);
    e->opts = *base;
    e->base = base;
    e->chain = xmalloc(n * sizeof *chain);
    memcpy(e->chain, chain, n * sizeof *chain);
    e->n_chain = n;
    struct lint_options *o = &e->opts;

    const struct config_file *sel_from = NULL, *arch_from = NULL, *cuda_from = NULL;
    int host = -1, preview = -1;
    for (size_t i = 0; i < n; i++) {
        if (chain[i]->has_select) sel_from = chain[i];
        if (chain[i]->has_archs) arch_from = chain[i];
        if (chain[i]->cuda_path) cuda_from = chain[i];
        if (chain[i]->host >= 0) host = chain[i]->host;
        if (chain[i]->preview >= 0) preview = chain[i]->preview;
    }
    sv_copy(&o->select, base->select.len || !sel_from ? &base->select : &sel_from->select);
    memset(&o->ignore, 0, sizeof o->ignore);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < chain[i]->ignore.len; k++) sv_push(&o->ignore, chain[i]->ignore.items[k]);
    for (size_t k = 0; k < base->ignore.len; k++) sv_push(&o->ignore, base->ignore.items[k]);
    if (!base->explicit_archs && arch_from) {
        sv_copy(&o->archs, &arch_from->archs);
        o->explicit_archs = true; /* a config's archs win over the compile database, like --cuda-arch */
    } else {
        sv_copy(&o->archs, &base->archs);
    }
    memset(&o->extra_args, 0, sizeof o->extra_args);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < chain[i]->extra_args.len; k++) sv_push(&o->extra_args, chain[i]->extra_args.items[k]);
    for (size_t k = 0; k < base->extra_args.len; k++) sv_push(&o->extra_args, base->extra_args.items[k]);
    o->host = base->host || host == 1;
    o->preview = base->preview || preview == 1;
    o->cuda_path = base->cuda_path ? xstrdup(base->cuda_path) : NULL;
    if (!base->cuda_path && cuda_from && base->headers != HEADERS_SHIM) {
        struct cuda_toolkit tk;
        char *err = NULL;
        if (toolkit_find(cuda_from->cuda_path, &tk, &err) != 0) {
            *error = xasprintf("%s: key 'cuda-path': %s", cuda_from->path, err);
            free(err);
            entry_free(e);
            return NULL;
        }
        e->own_toolkit = xmalloc(sizeof tk);
        *e->own_toolkit = tk;
        o->toolkit = e->own_toolkit;
        o->cuda_path = xstrdup(cuda_from->cuda_path);
        o->headers = HEADERS_TOOLKIT;
    }

    e->severity = xmalloc(rule_registry_len * sizeof *e->severity);
    for (size_t r = 0; r < rule_registry_len; r++) e->severity[r] = -1;
    for (size_t i = 0; i < n; i++)
        for (size_t s = 0; s < chain[i]->n_sevs; s++)
            for (size_t r = 0; r < rule_registry_len; r++)
                if (registry_selector_matches(chain[i]->sevs[s].selector, rule_registry[r]))
                    e->severity[r] = (int)chain[i]->sevs[s].severity;
    for (size_t i = n; i-- > 0;)
        for (size_t k = 0; k < chain[i]->n_opts; k++) {
            const struct rule_option *ro = &chain[i]->opts[k];
            bool have = false;
            for (size_t j = 0; j < e->n_opts && !have; j++)
                have = e->opts_merged[j].rule == ro->rule && strcmp(e->opts_merged[j].key, ro->key) == 0;
            if (have) continue; /* a nearer file already set it */
            e->opts_merged = xrealloc(e->opts_merged, (e->n_opts + 1) * sizeof *e->opts_merged);
            e->opts_merged[e->n_opts++] = *ro;
        }
    o->rule_options = e->opts_merged;
    o->n_rule_options = e->n_opts;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < chain[i]->n_excludes; k++) {
            e->excludes = xrealloc(e->excludes, (e->n_excludes + 1) * sizeof *e->excludes);
            e->excludes[e->n_excludes++] = chain[i]->excludes[k];
        }
    return e;
}

/* The chain that governs files in dir (nearest config, then its parents while
   InheritParentConfig says so), outermost first.  Caller holds the lock.
   Returns the count (0: no config), or -1 with *error. */
static long find_chain(struct config_set *cs, const struct lint_options *o, const char *dir,
                       struct config_file ***out, char **error)
{
    *out = NULL;
    char *first = o->config_path ? path_absolute(o->config_path) : find_nearest(dir);
    if (!first) return 0;
    struct config_file **v = NULL;
    size_t n = 0;
    char *next = first;
    while (next) {
        struct config_file *cf = config_get(cs, next, error);
        free(next);
        next = NULL;
        if (!cf) {
            free(v);
            return -1;
        }
        v = xrealloc(v, (n + 1) * sizeof *v);
        v[n++] = cf;
        if (cf->inherit && strcmp(cf->dir, "/") != 0) {
            char *up = path_dirname(cf->dir);
            next = find_nearest(up);
            free(up);
            /* A config cannot inherit itself (a loop through symlinks). */
            for (size_t i = 0; next && i < n; i++)
                if (strcmp(v[i]->path, next) == 0) {
                    free(next);
                    next = NULL;
                }
        }
    }
    /* Outermost first, so later entries override earlier ones. */
    for (size_t i = 0; i < n / 2; i++) {
        struct config_file *t = v[i];
        v[i] = v[n - 1 - i];
        v[n - 1 - i] = t;
    }
    *out = v;
    return (long)n;
}

/* The entry for files in dir, or base itself; NULL with *error. */
static const struct lint_options *options_for_dir(const struct lint_options *base, const char *dir,
                                                  char **error)
{
    struct config_set *cs = base->config;
    if (base->no_config || !cs) return base;
    pthread_mutex_lock(&cs->lock);
    struct config_file **chain;
    long n = find_chain(cs, base, dir, &chain, error);
    const struct lint_options *result = NULL;
    if (n == 0) result = base;
    if (n > 0) {
        for (struct config_entry *e = cs->entries; e && !result; e = e->next)
            if (e->base == base && e->n_chain == (size_t)n &&
                memcmp(e->chain, chain, (size_t)n * sizeof *chain) == 0)
                result = &e->opts;
        if (!result) {
            struct config_entry *e = entry_build(base, chain, (size_t)n, error);
            if (e) {
                e->next = cs->entries;
                cs->entries = e;
                result = &e->opts;
            }
        }
    }
    free(chain);
    pthread_mutex_unlock(&cs->lock);
    return result;
}

const struct lint_options *config_options_for_file(const struct lint_options *o, const char *path, char **error)
{
    if (o->no_config) return o;
    char *abs = path_absolute(path);
    char *dir = path_dirname(abs);
    const struct lint_options *r = options_for_dir(o, dir, error);
    free(dir);
    free(abs);
    return r;
}

static struct config_entry *entry_of(const struct lint_options *fo)
{
    struct config_set *cs = fo->config;
    if (!cs) return NULL;
    struct config_entry *found = NULL;
    pthread_mutex_lock(&cs->lock);
    for (struct config_entry *e = cs->entries; e && !found; e = e->next)
        if (&e->opts == fo) found = e;
    pthread_mutex_unlock(&cs->lock);
    return found;
}

/* ---- exclude patterns (gitignore-like) ---- */

/* '*' and '?' stay within one path component, '**' crosses them, '[...]' is a
   class ('!' or '^' negates). */
static bool gmatch(const char *p, const char *s)
{
    for (;;) {
        if (!*p) return !*s;
        if (p[0] == '*' && p[1] == '*') {
            p += 2;
            if (*p == '/') {
                p++;
                for (const char *t = s;;) {
                    if (gmatch(p, t)) return true;
                    t = strchr(t, '/');
                    if (!t) return false;
                    t++;
                }
            }
            for (const char *t = s;; t++) {
                if (gmatch(p, t)) return true;
                if (!*t) return false;
            }
        }
        if (*p == '*') {
            p++;
            for (const char *t = s;; t++) {
                if (gmatch(p, t)) return true;
                if (!*t || *t == '/') return false;
            }
        }
        if (!*s) return false;
        if (*p == '?') {
            if (*s == '/') return false;
            p++;
            s++;
            continue;
        }
        if (*p == '[') {
            const char *q = p + 1;
            bool neg = *q == '!' || *q == '^';
            if (neg) q++;
            const char *close = strchr(q + (*q == ']'), ']');
            if (close) {
                bool in = false;
                for (const char *c = q; c < close; c++) {
                    if (c + 2 < close && c[1] == '-') {
                        if (*s >= c[0] && *s <= c[2]) in = true;
                        c += 2;
                    } else if (*c == *s) {
                        in = true;
                    }
                }
                if (in == neg || *s == '/') return false;
                p = close + 1;
                s++;
                continue;
            }
        }
        if (*p == '\\' && p[1]) p++;
        if (*p != *s) return false;
        p++;
        s++;
    }
}

/* Whether rel (a path relative to the pattern's directory, '/'-separated)
   or one of its parent directories matches. */
static bool pattern_matches(const char *pattern, const char *rel)
{
    bool anchored = strchr(pattern, '/') != NULL;
    char *buf = xstrdup(rel);
    bool hit = false;
    const char *comp = buf;
    for (char *p = buf;; p++) {
        if (*p == '/' || !*p) {
            char saved = *p;
            *p = '\0';
            hit = anchored ? gmatch(pattern, buf) : gmatch(pattern, comp);
            *p = saved;
            if (hit || !saved) break;
            comp = p + 1;
        }
    }
    free(buf);
    return hit;
}

static bool entry_excludes(const struct config_entry *e, const char *abs)
{
    for (size_t i = 0; i < e->n_excludes; i++) {
        const struct exclude_pattern *x = &e->excludes[i];
        if (!path_has_prefix_dir(abs, x->dir) || strcmp(abs, x->dir) == 0) continue;
        char *rel = path_relative(abs, x->dir);
        bool hit = pattern_matches(x->pattern, rel);
        free(rel);
        if (hit) return true;
    }
    return false;
}

bool config_path_excluded(const struct lint_options *o, const char *path)
{
    if (o->no_config) return false;
    char *abs = path_absolute(path);
    char *dir = path_dirname(abs);
    char *err = NULL;
    const struct lint_options *fo = options_for_dir(o, dir, &err);
    /* A broken config is reported when the file is linted, not here. */
    free(err);
    struct config_entry *e = fo && fo != o ? entry_of(fo) : NULL;
    bool hit = e && entry_excludes(e, abs);
    free(dir);
    free(abs);
    return hit;
}

/* ---- per-finding effects ---- */

void config_finish_file(const struct lint_options *fo, struct diag_list *diags)
{
    struct config_entry *e = entry_of(fo);
    if (!e) return;
    for (size_t i = 0; i < diags->len; i++) {
        struct diag *d = &diags->items[i];
        for (size_t r = 0; r < rule_registry_len; r++)
            if (rule_registry[r] == d->rule && e->severity[r] >= 0) d->severity = (enum severity)e->severity[r];
    }
}

/* ---- start-up checks and --dump-config ---- */

int config_prepare(const struct lint_options *o, char **error)
{
    if (o->no_config && o->config_path) {
        *error = xstrdup("--config and --no-config exclude each other");
        return -1;
    }
    if (o->no_config) return 0;
    if (o->config_path && !path_exists(o->config_path)) {
        *error = xasprintf("--config %s: %s", o->config_path, strerror(ENOENT));
        return -1;
    }
    for (size_t i = 0; i < o->paths.len || (i == 0 && o->paths.len == 0); i++) {
        const char *p = o->paths.len ? o->paths.items[i] : ".";
        char *abs = path_absolute(p);
        char *dir = path_is_dir(abs) ? xstrdup(abs) : path_dirname(abs);
        const struct lint_options *fo = options_for_dir(o, dir, error);
        free(dir);
        free(abs);
        if (!fo) return -1;
    }
    return 0;
}

static void yaml_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p == '\t') fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f) fprintf(out, "\\x%02x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void yaml_list(FILE *out, const char *key, const struct strvec *sv)
{
    fprintf(out, "%s: [", key);
    for (size_t i = 0; i < sv->len; i++) {
        if (i) fputs(", ", out);
        yaml_str(out, sv->items[i]);
    }
    fputs("]\n", out);
}

int config_dump(FILE *out, const struct lint_options *o, const char *path, char **error)
{
    char *abs = path_absolute(path);
    char *dir = path_is_dir(abs) ? xstrdup(abs) : path_dirname(abs);
    const struct lint_options *fo = options_for_dir(o, dir, error);
    free(dir);
    if (!fo) {
        free(abs);
        return -1;
    }
    struct config_entry *e = fo != o ? entry_of(fo) : NULL;
    fprintf(out, "# cudalint effective configuration for %s\n", path);
    if (o->no_config) fputs("# configuration files: none (--no-config)\n", out);
    else if (!e) fputs("# configuration files: none found\n", out);
    else {
        fputs("# configuration files, outermost first:\n", out);
        for (size_t i = 0; i < e->n_chain; i++) fprintf(out, "#   %s\n", e->chain[i]->path);
    }
    fputs("# command-line options are merged in: --select replaces, --ignore and -- ARGS add\n", out);
    yaml_list(out, "select", &fo->select);
    yaml_list(out, "ignore", &fo->ignore);
    fputs("# enabled rules:", out);
    for (size_t r = 0; r < rule_registry_len; r++)
        if (lint_rule_enabled(fo, rule_registry[r])) fprintf(out, " %s", rule_registry[r]->code);
    fputc('\n', out);
    fputs("severity:", out);
    bool any = false;
    for (size_t r = 0; e && r < rule_registry_len; r++)
        if (e->severity[r] >= 0) {
            fprintf(out, "\n  %s: %s", rule_registry[r]->code, severity_name((enum severity)e->severity[r]));
            any = true;
        }
    fputs(any ? "\n" : " {}\n", out);
    fputs("options:", out);
    any = false;
    for (size_t r = 0; e && r < rule_registry_len; r++) {
        bool header = false;
        for (size_t i = 0; i < e->n_opts; i++) {
            if (e->opts_merged[i].rule != rule_registry[r]) continue;
            if (!header) fprintf(out, "\n  %s:", rule_registry[r]->code);
            header = any = true;
            fprintf(out, "\n    %s: %s", e->opts_merged[i].key, e->opts_merged[i].value);
        }
    }
    fputs(any ? "\n" : " {}\n", out);
    fprintf(out, "host: %s\n", fo->host ? "true" : "false");
    fprintf(out, "preview: %s\n", fo->preview ? "true" : "false");
    yaml_list(out, "cuda-arch", &fo->archs);
    fputs("cuda-path: ", out);
    if (fo->cuda_path) yaml_str(out, fo->cuda_path);
    else fputs("null", out);
    fputc('\n', out);
    if (fo->headers == HEADERS_SHIM) fputs("# headers: the built-in declarations (--no-cuda-headers)\n", out);
    else if (fo->toolkit) fprintf(out, "# toolkit in use: %s\n", fo->toolkit->root);
    else fputs("# toolkit in use: none found (the built-in declarations are used)\n", out);
    yaml_list(out, "extra-args", &fo->extra_args);
    fputs("exclude:", out);
    for (size_t i = 0; e && i < e->n_excludes; i++) {
        fputs("\n  - ", out);
        yaml_str(out, e->excludes[i].pattern);
        fprintf(out, "  # relative to %s", e->excludes[i].dir);
    }
    fputs(e && e->n_excludes ? "\n" : " []\n", out);
    if (e && entry_excludes(e, abs)) fprintf(out, "# %s itself is excluded\n", path);
    free(abs);
    return 0;
}

struct config_set *config_set_new(void)
{
    struct config_set *cs = xcalloc(1, sizeof *cs);
    pthread_mutex_init(&cs->lock, NULL);
    return cs;
}

void config_set_free(struct config_set *cs)
{
    if (!cs) return;
    while (cs->entries) {
        struct config_entry *e = cs->entries;
        cs->entries = e->next;
        entry_free(e);
    }
    while (cs->loaded) {
        struct config_file *cf = cs->loaded;
        cs->loaded = cf->next_loaded;
        config_file_free(cf);
    }
    pthread_mutex_destroy(&cs->lock);
    free(cs);
}
