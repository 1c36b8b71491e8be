/* registry.c: the table of every rule record, in code order, and the lookups
 * and start-up checks over it.  Adding a rule means adding one line here. */
#include "core/registry.h"
#include "core/docs.h"
#include "base/util.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

extern const struct rule rule_cu101;
extern const struct rule rule_cu201;
extern const struct rule rule_cu301;
extern const struct rule rule_cu401;

const struct rule rule_cu000 = {
    .code = "CU000",
    .name = "parse-error",
    .summary = "The file could not be fully parsed; findings in it may be incomplete.",
    .severity = SEV_NOTE,
    .category = "parser",
    .scope = SCOPE_ANY,
    .status = STATUS_STABLE,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU000-parse-error.md",
    .kernel = NULL,
};

const struct rule rule_cu001 = {
    .code = "CU001",
    .name = "unmatched-nolint",
    .summary = "A NOLINTBEGIN has no matching NOLINTEND, or the other way round.",
    .severity = SEV_WARNING,
    .category = "suppression",
    .scope = SCOPE_ANY,
    .status = STATUS_STABLE,
    .version = 1,
    .has_fix = false,
    .doc = "rules/CU001-unmatched-nolint.md",
    .kernel = NULL,
};

const struct rule *const rule_registry[] = {
    &rule_cu000,
    &rule_cu001,
    &rule_cu101,
    &rule_cu201,
    &rule_cu301,
    &rule_cu401,
};
const size_t rule_registry_len = sizeof rule_registry / sizeof rule_registry[0];

const char *severity_name(enum severity s)
{
    switch (s) {
    case SEV_ERROR: return "error";
    case SEV_WARNING: return "warning";
    default: return "note";
    }
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

const char *docs_find(const char *code)
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
