/* smt.h: a small solver-neutral formula layer: a hash-consed arena of
 * bit-vector and boolean terms with C's integer semantics (wrapping add, sub
 * and mul, truncating signed and unsigned division and remainder, shifts,
 * bitwise and comparison operators), folded as they are built, and one
 * model type for the question "is this formula satisfiable" that
 * smt_solve.h asks of a back end (smt_z3.h). */
#ifndef CUDALINT_SMT_H
#define CUDALINT_SMT_H

#include <stdbool.h>
#include <stdint.h>

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

/* The symbols a formula names, in order of first appearance (at most max). */
unsigned smt_symbols(const struct smt_arena *a, smt_id formula, smt_id *out, unsigned max);

/* x with every non-linear subterm (a product, quotient, remainder or
   shift of two non-constants) that reads no per-thread symbol (no '#' in
   its name) replaced by a fresh symbol of its own ("$nl@ID"; the same
   subterm, the same symbol).  The result admits every model of x and more:
   unsatisfiable, it proves x unsatisfiable; a model of it says nothing.
   Products like blockIdx.x * blockDim.x cost the solver a multiplier each;
   a question about two threads rarely needs their value. */
smt_id smt_abstract_shared(struct smt_arena *a, smt_id x);

/* A slot for the solver's state about this arena (its answer cache, the
   back end's context), released with the arena by release. */
void **smt_arena_solver_slot(struct smt_arena *a, void (*release)(void *state));

#endif
