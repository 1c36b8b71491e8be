/* value_internal.h: what the files of the value model (value.h) share and
 * no other file sees: the model's state, the table of definitions, and the
 * functions one of value.c, value_defs.c and value_memory.c defines and
 * another calls (prefixed vm_).  Included by those three files only. */
#ifndef CUDALINT_VALUE_INTERNAL_H
#define CUDALINT_VALUE_INTERNAL_H

#include "analysis/value.h"
#include "clang/clang_api.h"
#include <stdbool.h>
#include <stdint.h>

#define VALUE_MAX_DEPTH 24
#define VALUE_MAX_PARAMS 32

/* What the function does to one local variable or one field of a local
   struct ("p.y"). */
struct def {
    unsigned decl_hash;
    CXCursor decl;
    char *field;       /* NULL: the variable itself */
    bool has_init;
    CXCursor init;     /* the initialiser */
    unsigned writes;   /* assignments, compound assignments, ++/-- */
    bool escaped;      /* address taken, passed by reference, written as a whole (fields) */
    CXCursor assign;   /* the last plain assignment '=' */
    CXCursor assign_rhs;
    CXCursor assign_block; /* the compound statement holding it as a statement, or null */
    /* A for-loop counter: written only by the loop's init and increment. */
    CXCursor loop;
    CXCursor loop_init;    /* its starting value */
    CXCursor step;         /* the increment's operand (null: 1) */
    enum CXBinaryOperatorKind step_op; /* Add, Sub, Shl, Shr */
    CXCursor inc;          /* the increment expression */
    /* Every write, for "the last assignment before this read in the same
       block" (up to DEF_MAX_SITES; more: none is used). */
    unsigned n_sites;
    unsigned site_start[8], site_end[8];
    CXCursor site_rhs[8];   /* plain assignments: the value; else null */
    CXCursor site_block[8]; /* the compound statement holding it, or null */
    CXCursor site_stmt[8];  /* plain assignments: the assignment; else null */
    CXCursor site_parent[8]; /* ...and the statement holding it */
};
#define DEF_MAX_SITES 8

/* An if statement of the function: a variable assigned on its two arms has
   the value of the arm its condition picks. */
struct if_arms {
    CXCursor stmt, cond, then_arm, else_arm; /* else_arm null when there is none */
};

struct value_model {
    struct smt_arena *a;
    CXTranslationUnit tu;
    CXCursor fn;
    struct uniformity *u;
    struct warp_view *w;
    enum value_pair pair;
    struct def *defs;
    size_t n_defs, cap_defs;
    CXCursor *loops;
    size_t n_loops, cap_loops;
    struct if_arms *ifs;
    size_t n_ifs, cap_ifs;
    smt_id assume;
    bool shape_fixed;
    long long shape[3];
    /* Parameters the function writes or whose address it takes (by
       position): their value may change between two reads. */
    uint32_t changed_params;
    /* value_model_set_reads_per_use: a read of a variable that may change
       is its own symbol, not the variable's. */
    bool per_use;
    /* Congruence facts added since the last reset (by the expression and
       what is asked of it), so each is built once. */
    unsigned *congruent_keys;
    size_t n_congruent, cap_congruent;
    /* Parameters every launch passes one constant (value_model_set_params). */
    unsigned n_params;
    bool param_known[VALUE_MAX_PARAMS];
    long long param_value[VALUE_MAX_PARAMS];
};

/* ---- value.c ---- */

/* Source offsets of a cursor's start and end (expansion locations). */
unsigned vm_start_of(CXCursor c);
unsigned vm_end_of(CXCursor c);
/* The position of a parameter of the function, or -1.  By position:
   cursors reached by different routes need not compare equal. */
int vm_param_index(struct value_model *vm, CXCursor decl);
/* Adds fact to what the terms built so far assume. */
void vm_assume(struct value_model *vm, smt_id fact);
/* Canonical type tests: an integer, a pointer, a signed integer. */
bool vm_type_integer(CXType t);
bool vm_type_pointer(CXType t);
bool vm_type_signed(CXType t);
/* Is the value of expr the same in both threads of the pair? */
bool vm_shared_in_pair(struct value_model *vm, CXCursor expr);
/* An opaque value: one symbol per name (a variable) or per expression,
   shared by the pair or one per thread. */
smt_id vm_opaque(struct value_model *vm, CXCursor expr, const char *name, unsigned key, int t);
/* The value of expression e in thread t, depth levels down (0: too deep, or
   not a value the model holds). */
smt_id vm_eval(struct value_model *vm, CXCursor e, int t, int depth);

/* ---- value_defs.c ---- */

/* Walks the function once: fills the tables of definitions, loops and if
   statements, and the loop counters. */
void vm_scan(struct value_model *vm);
/* Is decl a local variable of the function (not static, extern or __shared__)? */
bool vm_is_local_var(struct value_model *vm, CXCursor decl);
/* The entry of decl (field NULL: the variable itself), made when create. */
struct def *vm_def_get(struct value_model *vm, CXCursor decl, const char *field, bool create);
/* The local variable an lvalue names (and the field, for p.y), or null. */
CXCursor vm_lvalue_target(struct value_model *vm, CXCursor lhs, char **field);
/* The initialiser of var, if it has one that defines its value. */
bool vm_has_real_init(CXCursor var, CXCursor *init);
/* The plain assignment that reaches a read in straight-line code, or null. */
CXCursor vm_straight_line_def(struct value_model *vm, const struct def *d, CXCursor use);
/* Does d's one plain assignment reach the read use? */
bool vm_assignment_reaches(struct value_model *vm, const struct def *d, CXCursor use);
/* Which arm of an if statement write site of d is: 1 then, -1 else, 0 neither. */
int vm_arm_holding(struct value_model *vm, const struct def *d, unsigned site, const struct if_arms **which);
/* Is stmt run whenever `from` is, as far as branches go? */
bool vm_runs_with(struct value_model *vm, CXCursor stmt, CXCursor from);

/* ---- value_memory.c ---- */

/* e's value in thread t as an uninterpreted function of the operands ops. */
smt_id vm_apply(struct value_model *vm, CXCursor e, unsigned salt, unsigned width, int t, const CXCursor *ops,
                unsigned n, int depth);
/* p + i elements of size bytes (C's pointer arithmetic). */
smt_id vm_pointer_offset(struct value_model *vm, smt_id p, smt_id i, CXType it, long long size, bool minus);
/* The size in bytes of what a pointer type points to. */
long long vm_pointee_size(CXType pointer);
/* The address an lvalue expression names, in thread t (64 bits), or 0. */
smt_id vm_eval_address(struct value_model *vm, CXCursor e, int t, int depth);
/* Is e a read of memory? */
bool vm_is_memory_read(CXCursor e);
/* The value a read of memory gives thread t (named as vm_opaque names it). */
smt_id vm_load_value(struct value_model *vm, CXCursor e, const char *name, unsigned key, int t, int depth);
/* The truth of a floating-point value in thread t. */
smt_id vm_float_truth(struct value_model *vm, CXCursor e, int t, int depth);

#endif
