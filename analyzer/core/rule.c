/* rule.c: the names of the rule record's enums, the rule docs embedded in the
 * binary, and the lookups and start-up checks over the table of rules (the
 * table itself is rules/registry.c: the one place a rule is added). */
#include "core/rule.h"
#include "core/docs.h"
#include "base/util.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

const char *severity_name(enum severity s)
{
    switch (s) {
    case SEV_ERROR: return "error";
    case SEV_WARNING: return "warning";
    default: return "note";
    }
}

int severity_parse(const char *s)
{
    if (!s) return -1;
    if (strcasecmp(s, "note") == 0) return SEV_NOTE;
    if (strcasecmp(s, "warning") == 0) return SEV_WARNING;
    if (strcasecmp(s, "error") == 0) return SEV_ERROR;
    return -1;
}

const char *rule_scope_name(enum rule_scope s)
{
    switch (s) {
    case SCOPE_KERNEL: return "kernel";
    case SCOPE_DEVICE: return "device";
    case SCOPE_HOST: return "host";
    default: return "any";
    }
}

const char *rule_status_name(enum rule_status s)
{
    return s == STATUS_STABLE ? "stable" : "preview";
}

/* The doc of a rule code, or NULL. */
static const char *docs_find(const char *code)
{
    for (size_t i = 0; i < embedded_docs_len; i++)
        if (strcmp(embedded_docs[i].code, code) == 0) return embedded_docs[i].text;
    return NULL;
}

const char *rule_doc_text(const struct rule *r)
{
    return docs_find(r->code);
}

const struct rule *registry_find(const char *code_or_name)
{
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *r = rule_registry[i];
        if (strcasecmp(r->code, code_or_name) == 0 || strcasecmp(r->name, code_or_name) == 0)
            return r;
    }
    return NULL;
}

static bool code_well_formed(const char *c)
{
    if (strlen(c) != 5 || strncmp(c, "CU", 2) != 0) return false;
    for (int i = 2; i < 5; i++)
        if (!isdigit((unsigned char)c[i])) return false;
    return true;
}

static bool name_well_formed(const char *n)
{
    if (!*n || n[0] == '-') return false;
    for (; *n; n++)
        if (!(islower((unsigned char)*n) || isdigit((unsigned char)*n) || *n == '-')) return false;
    return true;
}

const char *registry_check(void)
{
    if (rule_registry_len > 64) return "more than 64 rules: widen walk.c's kind masks";
    for (size_t i = 0; i < rule_registry_len; i++) {
        const struct rule *r = rule_registry[i];
        if (!r->code || !code_well_formed(r->code)) return "a rule code is not of the form CUnnn";
        if (!r->name || !name_well_formed(r->name)) return "a rule name is not kebab-case";
        if (!r->summary || !*r->summary) return "a rule has no summary";
        if (!r->doc || !rule_doc_text(r)) return "a rule has no embedded doc";
        if (r->version < 1) return "a rule version is below 1";
        if (i > 0 && strcmp(rule_registry[i - 1]->code, r->code) >= 0)
            return "rule codes are not unique and ascending";
        for (size_t j = 0; j < i; j++)
            if (strcmp(rule_registry[j]->name, r->name) == 0) return "two rules share a name";
    }
    return NULL;
}

bool registry_selector_matches(const char *sel, const struct rule *r)
{
    if (strcasecmp(sel, "ALL") == 0) return true;
    if (strcasecmp(sel, r->code) == 0 || strcasecmp(sel, r->name) == 0) return true;
    if (strncasecmp(r->code, sel, strlen(sel)) == 0) return true;
    return glob_match_ci(sel, r->code) || glob_match_ci(sel, r->name);
}

bool registry_selector_exact(const char *sel, const struct rule *r)
{
    return strcasecmp(sel, r->code) == 0 || strcasecmp(sel, r->name) == 0;
}

bool registry_selector_known(const char *sel)
{
    for (size_t i = 0; i < rule_registry_len; i++)
        if (registry_selector_matches(sel, rule_registry[i])) return true;
    return false;
}
