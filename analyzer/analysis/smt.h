/* smt.h: a small solver-neutral formula layer: a hash-consed arena of
 * bit-vector and boolean terms with C's integer semantics (wrapping add, sub
 * and mul, truncating signed and unsigned division and remainder, shifts,
 * bitwise and comparison operators), folded as they are built, and one
 * question: is this formula satisfiable within a time budget?  The answer
 * comes from a back end (smt_z3.c for Z3); answers are cached per arena by
 * formula id, and every process counts its queries for --statistics. */
#ifndef CUDALINT_SMT_H
#define CUDALINT_SMT_H

#include <stdbool.h>
#include <stdint.h>

/* The per-query budget, in milliseconds: the one place it is set. */
#define SMT_BUDGET_MS 50

/* A term: an index into its arena; 0 is "no term" (a construct the caller
   could not express). */
typedef uint32_t smt_id;

enum smt_op {
    SMT_CONST,   /* bit-vector constant (width 32 or 64) or boolean constant (width 0) */
    SMT_SYM,     /* named symbol */
    SMT_ADD, SMT_SUB, SMT_MUL,
    SMT_UDIV, SMT_SDIV, SMT_UREM, SMT_SREM, /* truncating, as C */
    SMT_SHL, SMT_LSHR, SMT_ASHR,
    SMT_AND, SMT_OR, SMT_XOR,
    SMT_NOT, SMT_NEG, /* bitwise ~, arithmetic - */
    SMT_EQ, SMT_ULT, SMT_ULE, SMT_SLT, SMT_SLE, /* comparisons: boolean results */
    SMT_ITE,     /* boolean condition, two terms of one width */
    SMT_BAND, SMT_BOR, SMT_BNOT, /* boolean connectives */
    SMT_SEXT, SMT_ZEXT, SMT_TRUNC, /* to the node's width */
    /* Booleans: the operation does not overflow (signed: C's undefined
       behaviour, which the code is assumed not to have; unsigned: a fact
       the caller states). */
    SMT_SADD_OK, SMT_SSUB_OK, SMT_SMUL_OK, SMT_UMUL_OK,
};

struct smt_node {
    enum smt_op op;
    unsigned width;     /* 0: boolean; else bits */
    smt_id arg[3];
    uint64_t value;     /* SMT_CONST (booleans: 0 or 1) */
    const char *name;   /* SMT_SYM, owned by the arena */
};

struct smt_arena;

struct smt_arena *smt_arena_new(void);
void smt_arena_free(struct smt_arena *a);

smt_id smt_const(struct smt_arena *a, unsigned width, uint64_t value);
smt_id smt_bool(struct smt_arena *a, bool value);
/* The same name and width always give the same symbol. */
smt_id smt_sym(struct smt_arena *a, unsigned width, const char *name);
/* A binary operator (arithmetic, bitwise, comparison, boolean and/or);
   0 when an operand is 0 or the widths do not match. */
smt_id smt_bin(struct smt_arena *a, enum smt_op op, smt_id x, smt_id y);
/* SMT_NOT, SMT_NEG, SMT_BNOT. */
smt_id smt_un(struct smt_arena *a, enum smt_op op, smt_id x);
smt_id smt_ite(struct smt_arena *a, smt_id cond, smt_id x, smt_id y);
/* SMT_SEXT, SMT_ZEXT (wider) or SMT_TRUNC (narrower) to width; the same
   width returns x. */
smt_id smt_ext(struct smt_arena *a, enum smt_op op, smt_id x, unsigned width);
/* Conveniences: x != y, a term as a truth value (x != 0), and the constant
   value of a folded term. */
smt_id smt_ne(struct smt_arena *a, smt_id x, smt_id y);
smt_id smt_truth(struct smt_arena *a, smt_id x);
bool smt_is_const(const struct smt_arena *a, smt_id x, uint64_t *value);

const struct smt_node *smt_node(const struct smt_arena *a, smt_id x);
unsigned smt_width(const struct smt_arena *a, smt_id x);

enum smt_result { SMT_UNKNOWN = 0, SMT_SAT, SMT_UNSAT };

#define SMT_MODEL_MAX 32
/* A satisfying assignment: the value of each symbol the formula names. */
struct smt_model {
    unsigned n;
    const char *name[SMT_MODEL_MAX]; /* owned by the arena */
    uint64_t value[SMT_MODEL_MAX];
    unsigned width[SMT_MODEL_MAX];
};
/* The value of a symbol in a model; false when it is not there. */
bool smt_model_value(const struct smt_model *m, const char *name, uint64_t *value);

/* The value of term x under model m (symbols it lacks count as 0). */
bool smt_eval(const struct smt_arena *a, smt_id x, const struct smt_model *m, uint64_t *out);

/* Is the boolean formula satisfiable?  budget_ms bounds the solver's time;
   a time-out, an error or no back end answers SMT_UNKNOWN.  model_out
   (may be NULL) is filled on SMT_SAT.  Answers are cached by formula id. */
enum smt_result smt_check(struct smt_arena *a, smt_id formula, unsigned budget_ms, struct smt_model *model_out);

/* What every arena of this process asked: for --statistics. */
struct smt_stats {
    unsigned long queries, sat, unsat, unknown, cached, folded;
    double solver_ms;
};
void smt_stats_get(struct smt_stats *out);
/* Counts a construct the caller left undecided because it could not be
   expressed (shown with the statistics). */
void smt_stats_count_unexpressed(void);
unsigned long smt_stats_unexpressed(void);
/* One line through the report path (--statistics): the counts above. */
void smt_stats_report(void);

/* ---- the back end's side (smt_z3.c, or another solver's file) ---- */

/* Decides formula; fills model (symbols of the formula) on SMT_SAT.
   *state is the back end's per-arena state (NULL at first), released by
   smt_backend_release. */
enum smt_result smt_backend_check(const struct smt_arena *a, void **state, smt_id formula, unsigned budget_ms,
                                  struct smt_model *model);
void smt_backend_release(void *state);
/* The symbols a formula names, in order of first appearance (at most max). */
unsigned smt_symbols(const struct smt_arena *a, smt_id formula, smt_id *out, unsigned max);

#endif
