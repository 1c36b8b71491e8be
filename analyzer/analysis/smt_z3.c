/* smt_z3.c: the Z3 back end of the formula layer (smt.h): translates an
 * arena's terms into Z3 bit-vectors through its C API and asks one fresh
 * solver per query, bounded by a budget.  Another solver replaces Z3 by a
 * file like this one, called from smt_solve.c. */
#include "analysis/smt_z3.h"
#include "base/util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

/* One Z3 context per arena (per parse pass of a file): a fresh context
   given the same formula built in the same order answers with the same
   model, so every pass words a finding the same way and the passes' findings
   merge.  Building one costs a few milliseconds. */
struct z3_state {
    Z3_context ctx;
};

/* Z3 resource units per millisecond of budget: the budget is counted in
   them, so that a loaded machine gives the same answers as a quiet one.
   Z3 4.8.12 spent about 1,100 units a millisecond on a quiet 2-core machine
   (a two-thread query of 1,558 units in 1.4 ms): the budget is that rate. */
#define SMT_RLIMIT_PER_MS 1100

/* Z3's default handler ends the process; errors become "unknown" instead. */
static void on_z3_error(Z3_context c, Z3_error_code e)
{
    (void)c, (void)e;
}

/* In a reference-counted context a new term lives only until the next
   call: held() keeps one alive while the second is built. */
static Z3_ast held(Z3_context c, Z3_ast x)
{
    if (x) Z3_inc_ref(c, x);
    return x;
}

/* x (held) and y; releases x; the result is held. */
static Z3_ast both(Z3_context c, Z3_ast x, Z3_ast y)
{
    if (!x || !y) {
        if (x) Z3_dec_ref(c, x);
        return NULL;
    }
    Z3_inc_ref(c, y);
    Z3_ast ops[2] = {x, y};
    Z3_ast r = held(c, Z3_mk_and(c, 2, ops));
    Z3_dec_ref(c, x);
    Z3_dec_ref(c, y);
    return r;
}

static Z3_ast translate(Z3_context c, const struct smt_arena *a, smt_id x, Z3_ast *memo)
{
    if (memo[x]) return memo[x];
    const struct smt_node *n = smt_node(a, x);
    Z3_ast r = NULL, p[3] = {NULL, NULL, NULL};
    if (n->op != SMT_CONST && n->op != SMT_SYM)
        for (int i = 0; i < 3; i++)
            if (n->arg[i]) {
                p[i] = translate(c, a, n->arg[i], memo);
                if (!p[i]) return NULL;
            }
    switch (n->op) {
    case SMT_CONST:
        if (!n->width) r = n->value ? Z3_mk_true(c) : Z3_mk_false(c);
        else r = Z3_mk_unsigned_int64(c, n->value, Z3_mk_bv_sort(c, n->width));
        break;
    case SMT_SYM: {
        Z3_symbol s = Z3_mk_string_symbol(c, n->name);
        r = Z3_mk_const(c, s, n->width ? Z3_mk_bv_sort(c, n->width) : Z3_mk_bool_sort(c));
        break;
    }
    case SMT_ADD: r = Z3_mk_bvadd(c, p[0], p[1]); break;
    case SMT_SUB: r = Z3_mk_bvsub(c, p[0], p[1]); break;
    case SMT_MUL: r = Z3_mk_bvmul(c, p[0], p[1]); break;
    case SMT_UDIV: r = Z3_mk_bvudiv(c, p[0], p[1]); break;
    case SMT_SDIV: r = Z3_mk_bvsdiv(c, p[0], p[1]); break;
    case SMT_UREM: r = Z3_mk_bvurem(c, p[0], p[1]); break;
    case SMT_SREM: r = Z3_mk_bvsrem(c, p[0], p[1]); break;
    case SMT_SHL: r = Z3_mk_bvshl(c, p[0], p[1]); break;
    case SMT_LSHR: r = Z3_mk_bvlshr(c, p[0], p[1]); break;
    case SMT_ASHR: r = Z3_mk_bvashr(c, p[0], p[1]); break;
    case SMT_AND: r = Z3_mk_bvand(c, p[0], p[1]); break;
    case SMT_OR: r = Z3_mk_bvor(c, p[0], p[1]); break;
    case SMT_XOR: r = Z3_mk_bvxor(c, p[0], p[1]); break;
    case SMT_NOT: r = Z3_mk_bvnot(c, p[0]); break;
    case SMT_NEG: r = Z3_mk_bvneg(c, p[0]); break;
    case SMT_EQ: r = Z3_mk_eq(c, p[0], p[1]); break;
    case SMT_ULT: r = Z3_mk_bvult(c, p[0], p[1]); break;
    case SMT_ULE: r = Z3_mk_bvule(c, p[0], p[1]); break;
    case SMT_SLT: r = Z3_mk_bvslt(c, p[0], p[1]); break;
    case SMT_SLE: r = Z3_mk_bvsle(c, p[0], p[1]); break;
    case SMT_ITE: r = Z3_mk_ite(c, p[0], p[1], p[2]); break;
    case SMT_BAND: {
        Z3_ast ops[2] = {p[0], p[1]};
        r = Z3_mk_and(c, 2, ops);
        break;
    }
    case SMT_BOR: {
        Z3_ast ops[2] = {p[0], p[1]};
        r = Z3_mk_or(c, 2, ops);
        break;
    }
    case SMT_BNOT: r = Z3_mk_not(c, p[0]); break;
    case SMT_SEXT: r = Z3_mk_sign_ext(c, n->width - smt_width(a, n->arg[0]), p[0]); break;
    case SMT_ZEXT: r = Z3_mk_zero_ext(c, n->width - smt_width(a, n->arg[0]), p[0]); break;
    case SMT_TRUNC: r = Z3_mk_extract(c, n->width - 1, 0, p[0]); break;
    case SMT_SADD_OK: {
        Z3_ast h = held(c, Z3_mk_bvadd_no_overflow(c, p[0], p[1], true));
        r = both(c, h, Z3_mk_bvadd_no_underflow(c, p[0], p[1]));
        break;
    }
    case SMT_SSUB_OK: {
        Z3_ast h = held(c, Z3_mk_bvsub_no_overflow(c, p[0], p[1]));
        r = both(c, h, Z3_mk_bvsub_no_underflow(c, p[0], p[1], true));
        break;
    }
    case SMT_SMUL_OK: {
        Z3_ast h = held(c, Z3_mk_bvmul_no_overflow(c, p[0], p[1], true));
        r = both(c, h, Z3_mk_bvmul_no_underflow(c, p[0], p[1]));
        break;
    }
    case SMT_UMUL_OK: r = Z3_mk_bvmul_no_overflow(c, p[0], p[1], false); break;
    }
    bool is_held = n->op == SMT_SADD_OK || n->op == SMT_SSUB_OK || n->op == SMT_SMUL_OK;
    if (!r || Z3_get_error_code(c) != Z3_OK) {
        if (r && is_held) Z3_dec_ref(c, r);
        return NULL;
    }
    if (!is_held) Z3_inc_ref(c, r);
    memo[x] = r;
    return r;
}

static void read_model(Z3_context c, Z3_solver s, const struct smt_arena *a, smt_id formula, Z3_ast *memo,
                       struct smt_model *out)
{
    Z3_model m = Z3_solver_get_model(c, s);
    if (!m) return;
    Z3_model_inc_ref(c, m);
    smt_id syms[SMT_MODEL_MAX];
    unsigned n = smt_symbols(a, formula, syms, SMT_MODEL_MAX);
    out->n = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct smt_node *nd = smt_node(a, syms[i]);
        Z3_ast v = NULL;
        if (!memo[syms[i]] || !Z3_model_eval(c, m, memo[syms[i]], true, &v) || !v) continue;
        uint64_t val = 0;
        if (!nd->width) val = Z3_get_bool_value(c, v) == Z3_L_TRUE;
        else if (!Z3_get_numeral_uint64(c, v, &val)) continue;
        out->name[out->n] = nd->name;
        out->value[out->n] = val;
        out->width[out->n] = nd->width;
        out->n++;
    }
    Z3_model_dec_ref(c, m);
}

enum smt_result smt_z3_check(const struct smt_arena *a, void **state, smt_id formula, unsigned budget_ms, bool thorough,
                             struct smt_model *model)
{
    struct z3_state *z = *state;
    if (!z) {
        Z3_config cfg = Z3_mk_config();
        Z3_context ctx = Z3_mk_context_rc(cfg);
        Z3_del_config(cfg);
        if (!ctx) return SMT_UNKNOWN;
        Z3_set_error_handler(ctx, on_z3_error);
        z = xcalloc(1, sizeof *z);
        z->ctx = ctx;
        *state = z;
    }
    Z3_context c = z->ctx;
    const struct smt_node *root = smt_node(a, formula);
    if (!root) return SMT_UNKNOWN;
    /* Memo sized to the arena as it is now: the formula's nodes are older. */
    size_t n_nodes = formula + 1;
    Z3_ast *memo = xcalloc(n_nodes, sizeof *memo);
    enum smt_result res = SMT_UNKNOWN;
    Z3_ast f = translate(c, a, formula, memo);
    if (f) {
        /* Thorough: Z3's QF_BV strategy (simplification, equation solving
           and bit-blasting tuned to the logic) instead of the plain solver. */
        Z3_solver s = thorough ? Z3_mk_solver_for_logic(c, Z3_mk_string_symbol(c, "QF_BV")) : Z3_mk_simple_solver(c);
        Z3_solver_inc_ref(c, s);
        Z3_params p = Z3_mk_params(c);
        Z3_params_inc_ref(c, p);
        /* The budget is counted in Z3's resource units, so that a loaded
           machine gives the same answers as a quiet one; the time-out (a
           hundred times the budget) is only the last guard. */
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), budget_ms * SMT_RLIMIT_PER_MS);
        Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), budget_ms * 100);
        Z3_solver_set_params(c, s, p);
        Z3_solver_assert(c, s, f);
        Z3_lbool r = Z3_solver_check(c, s);
        if (r == Z3_L_TRUE) {
            res = SMT_SAT;
            if (model) read_model(c, s, a, formula, memo, model);
        } else if (r == Z3_L_FALSE) {
            res = SMT_UNSAT;
        }
        Z3_params_dec_ref(c, p);
        Z3_solver_dec_ref(c, s);
    }
    for (size_t i = 0; i < n_nodes; i++)
        if (memo[i]) Z3_dec_ref(c, memo[i]);
    free(memo);
    if (Z3_get_error_code(c) != Z3_OK) res = SMT_UNKNOWN;
    return res;
}

void smt_z3_release(void *state)
{
    struct z3_state *z = state;
    if (!z) return;
    Z3_del_context(z->ctx);
    free(z);
}
