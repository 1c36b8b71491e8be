/* ppcond.c: preprocessor conditional groups around a place in a source text
 * (see ppcond.h). */
#include "clang/ppcond.h"
#include "base/util.h"

#include <ctype.h>
#include <string.h>

/* One #if group: where each arm starts (the line after its directive), and
   which arm holds the place asked about (-1: none yet). */
#define PPCOND_MAX_ARMS 16
#define PPCOND_MAX_DEPTH 32

struct group {
    size_t arm_start[PPCOND_MAX_ARMS];
    size_t arm_end[PPCOND_MAX_ARMS]; /* the offset of the next directive of the group */
    unsigned n_arms;
    int holding;                     /* the arm that holds the place */
    bool known;                      /* a condition names a macro of `known` */
};

/* The directive a line starts with (#if, #ifdef, #ifndef, #elif, #elifdef,
   #elifndef, #else, #endif): 'i' opens, 'e' continues, 'x' closes, 0 none. */
static char directive(const char *line, const char *end)
{
    const char *p = line;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p >= end || *p != '#') return 0;
    p++;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    size_t n = 0;
    while (p + n < end && isalpha((unsigned char)p[n])) n++;
    if ((n == 2 && !strncmp(p, "if", 2)) || (n == 5 && !strncmp(p, "ifdef", 5)) ||
        (n == 6 && !strncmp(p, "ifndef", 6)))
        return 'i';
    if ((n == 4 && !strncmp(p, "elif", 4)) || (n == 4 && !strncmp(p, "else", 4)) ||
        (n == 7 && !strncmp(p, "elifdef", 7)) || (n == 8 && !strncmp(p, "elifndef", 8)))
        return 'e';
    if (n == 5 && !strncmp(p, "endif", 5)) return 'x';
    return 0;
}

/* Does text[from, to) contain word as a whole identifier outside comments? */
static bool mentions(const char *text, size_t from, size_t to, const char *word)
{
    size_t wl = strlen(word);
    for (size_t i = from; i + wl <= to; i++) {
        if (text[i] == '/' && i + 1 < to && text[i + 1] == '/') {
            while (i < to && text[i] != '\n') i++;
            continue;
        }
        if (text[i] == '/' && i + 1 < to && text[i + 1] == '*') {
            const char *e = NULL;
            for (size_t k = i + 2; k + 1 < to; k++)
                if (text[k] == '*' && text[k + 1] == '/') {
                    e = text + k;
                    break;
                }
            if (!e) return false;
            i = (size_t)(e - text) + 1;
            continue;
        }
        if (strncmp(text + i, word, wl) != 0) continue;
        bool before = i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_');
        bool after = i + wl < to && (isalnum((unsigned char)text[i + wl]) || text[i + wl] == '_');
        if (!before && !after) return true;
    }
    return false;
}

/* Does the directive line text[from, to) name one of known? */
static bool names_known(const char *text, size_t from, size_t to, const char *const *known)
{
    for (size_t i = 0; known && known[i]; i++)
        if (mentions(text, from, to, known[i])) return true;
    return false;
}

bool ppcond_other_arm_mentions(const char *text, size_t len, size_t at, const char *word,
                               const char *const *known)
{
    struct group stack[PPCOND_MAX_DEPTH];
    int depth = 0;       /* open groups */
    int overflow = 0;    /* groups opened beyond the stack */
    bool found = false;
    for (size_t pos = 0; pos < len && !found;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t next = nl ? (size_t)(nl - text) + 1 : len;
        /* a directive continued with backslashes ends at the last line */
        while (nl && nl > line && nl[-1] == '\\' && next < len) {
            nl = memchr(text + next, '\n', len - next);
            next = nl ? (size_t)(nl - text) + 1 : len;
        }
        char d = directive(line, text + next);
        if (d == 'i') {
            if (depth < PPCOND_MAX_DEPTH && !overflow) {
                struct group *g = &stack[depth++];
                g->n_arms = 1;
                g->arm_start[0] = next;
                g->arm_end[0] = len;
                g->holding = -1;
                g->known = names_known(text, pos, next, known);
            } else {
                overflow++;
            }
        } else if ((d == 'e' || d == 'x') && overflow) {
            if (d == 'x') overflow--;
        } else if (d == 'e' && depth > 0) {
            struct group *g = &stack[depth - 1];
            g->arm_end[g->n_arms - 1] = pos;
            g->known |= names_known(text, pos, next, known);
            if (g->n_arms < PPCOND_MAX_ARMS) {
                g->arm_start[g->n_arms] = next;
                g->arm_end[g->n_arms] = len;
                g->n_arms++;
            }
        } else if (d == 'x' && depth > 0) {
            struct group *g = &stack[--depth];
            g->arm_end[g->n_arms - 1] = pos;
            /* A group around the place: its other arms are now complete. */
            if (g->holding >= 0 && !g->known)
                for (unsigned a = 0; a < g->n_arms && !found; a++)
                    if ((int)a != g->holding && mentions(text, g->arm_start[a], g->arm_end[a], word)) found = true;
        }
        if (pos <= at && at < next && d == 0) {
            /* the place's line: every open group holds it in its last arm */
            for (int k = 0; k < depth; k++) stack[k].holding = (int)stack[k].n_arms - 1;
        }
        pos = next;
    }
    return found;
}
