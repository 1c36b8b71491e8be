/* diag.h: the diagnostics model: findings with notes and fix-its, lists of them,
 * ordering and de-duplication across parse passes. */
#ifndef CUDALINT_DIAG_H
#define CUDALINT_DIAG_H

#include "core/rule.h"
#include <stddef.h>

struct diag_note {
    char *file;
    unsigned line, column; /* 1-based; column in bytes */
    char *message;
};

struct diag_fix {
    char *file;
    unsigned line, column, end_line, end_column; /* 1-based, end exclusive */
    unsigned offset, end_offset;                 /* byte offsets in the file */
    char *replacement;
};

/* What the code nvcc generated says about a performance finding (codegen/). */
enum codegen_verdict {
    CODEGEN_NONE,       /* not a rule codegen checks, or codegen off */
    CODEGEN_CONFIRMED,  /* the code shows the cost the finding names */
    CODEGEN_DISPROVED,  /* the code does not: dropped unless --show-disproved */
    CODEGEN_UNCHECKED,  /* compile error, time-out, nothing on the line: kept as found */
};

struct diag {
    char *file;
    unsigned line, column, end_line, end_column;
    const struct rule *rule;
    enum severity severity;
    char *message;
    char *function; /* enclosing function name, or NULL (baseline fingerprint) */
    struct diag_note *notes;
    size_t n_notes;
    struct diag_fix *fixes;
    size_t n_fixes;
    unsigned char codegen; /* enum codegen_verdict */
};

struct diag_list {
    struct diag *items;
    size_t len, cap;
};

/* A finding of rule r with r's default severity at file, from line:col to
   end_line:end_col (1-based, end exclusive), appended to l; message is taken
   over.  Notes and fixes are added with diag_add_note/diag_add_fix. */
struct diag *diag_new(struct diag_list *l, const struct rule *r, const char *file, unsigned line,
                      unsigned col, unsigned end_line, unsigned end_col, char *message);
/* A deep copy of src appended to l. */
struct diag *diag_copy(struct diag_list *l, const struct diag *src);
/* Appends a finding taken over from another list (its fields move). */
void diag_list_take(struct diag_list *l, struct diag *d);
void diag_add_note(struct diag *d, const char *file, unsigned line, unsigned col,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_add_fix(struct diag *d, const char *file, unsigned line, unsigned col,
                  unsigned end_line, unsigned end_col, unsigned offset,
                  unsigned end_offset, const char *replacement);
void diag_release(struct diag *d);
void diag_list_release(struct diag_list *l);
/* Moves every item of src to the end of dst; src is left empty. */
void diag_list_move(struct diag_list *dst, struct diag_list *src);
/* Sorts by file, line, column, code, message and drops exact duplicates
   (the same finding found by several parse passes). */
void diag_list_sort_unique(struct diag_list *l);
/* On a list sorted by diag_list_sort_unique: keeps one finding of each rule
   at each place (file, line, column), the first with the most codegen
   evidence, and none of a place that kept (sorted and unique by place, or
   NULL) already has. */
void diag_list_unique_places(struct diag_list *l, const struct diag_list *kept);
/* Drops the findings of l at a place that places (sorted by
   diag_list_sort_unique, then unique by place) holds, unless nvcc's code
   confirmed them: another unit's compile disproved the finding there. */
void diag_list_drop_places(struct diag_list *l, const struct diag_list *places);

#endif
