/* smt.c: the solver-neutral formula arena: hash-consed terms with C's integer
 * semantics, folded as they are built, and their values under a model. */
#include "analysis/smt.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct smt_arena {
    struct smt_node *nodes; /* nodes[0] unused */
    uint32_t n, cap;
    uint32_t *table;        /* open addressing: node ids, 0 empty */
    uint32_t table_cap;
    void *solver;
    void (*solver_release)(void *);
};

struct smt_arena *smt_arena_new(void)
{
    struct smt_arena *a = xcalloc(1, sizeof *a);
    a->cap = 256;
    a->nodes = xcalloc(a->cap, sizeof *a->nodes);
    a->n = 1;
    a->table_cap = 512;
    a->table = xcalloc(a->table_cap, sizeof *a->table);
    return a;
}

void smt_arena_free(struct smt_arena *a)
{
    if (!a) return;
    if (a->solver_release) a->solver_release(a->solver);
    for (uint32_t i = 1; i < a->n; i++)
        if (a->nodes[i].op == SMT_SYM) free((char *)a->nodes[i].name);
    free(a->nodes);
    free(a->table);
    free(a);
}

const struct smt_node *smt_node(const struct smt_arena *a, smt_id x)
{
    return x && x < a->n ? &a->nodes[x] : NULL;
}

unsigned smt_width(const struct smt_arena *a, smt_id x)
{
    return x && x < a->n ? a->nodes[x].width : 0;
}

static uint64_t mask_of(unsigned width)
{
    return width >= 64 ? ~0ull : width == 0 ? 1ull : (1ull << width) - 1;
}

static int64_t as_signed(uint64_t v, unsigned width)
{
    /* width 0: a truth value, 0 or 1, with no sign */
    if (width == 0 || width >= 64) return (int64_t)v;
    uint64_t sign = 1ull << (width - 1);
    return (int64_t)((v ^ sign) - sign);
}

static uint64_t node_hash(const struct smt_node *k)
{
    uint64_t h = 1469598103934665603ull;
    uint64_t parts[6] = {k->op, k->width, k->arg[0], k->arg[1], k->arg[2], k->value};
    for (int i = 0; i < 6; i++) h = (h ^ parts[i]) * 1099511628211ull;
    if (k->name)
        for (const char *s = k->name; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static bool node_same(const struct smt_node *x, const struct smt_node *y)
{
    if (x->op != y->op || x->width != y->width || x->value != y->value) return false;
    if (x->arg[0] != y->arg[0] || x->arg[1] != y->arg[1] || x->arg[2] != y->arg[2]) return false;
    if (!x->name != !y->name) return false;
    return !x->name || strcmp(x->name, y->name) == 0;
}

static void table_grow(struct smt_arena *a)
{
    uint32_t cap = a->table_cap * 2;
    uint32_t *t = xcalloc(cap, sizeof *t);
    for (uint32_t i = 1; i < a->n; i++) {
        uint32_t h = (uint32_t)node_hash(&a->nodes[i]) & (cap - 1);
        while (t[h]) h = (h + 1) & (cap - 1);
        t[h] = i;
    }
    free(a->table);
    a->table = t;
    a->table_cap = cap;
}

/* The id of the node equal to k, added when new. */
static smt_id intern(struct smt_arena *a, struct smt_node k)
{
    if (k.op == SMT_CONST) k.value &= mask_of(k.width);
    uint32_t h = (uint32_t)node_hash(&k) & (a->table_cap - 1);
    while (a->table[h]) {
        if (node_same(&a->nodes[a->table[h]], &k)) return a->table[h];
        h = (h + 1) & (a->table_cap - 1);
    }
    if (a->n == a->cap) {
        a->cap *= 2;
        a->nodes = xrealloc(a->nodes, a->cap * sizeof *a->nodes);
    }
    if (k.name) k.name = xstrdup(k.name);
    smt_id id = a->n++;
    a->nodes[id] = k;
    a->table[h] = id;
    if ((a->n + 1) * 2 > a->table_cap) table_grow(a);
    return id;
}

smt_id smt_const(struct smt_arena *a, unsigned width, uint64_t value)
{
    return intern(a, (struct smt_node){.op = SMT_CONST, .width = width, .value = value});
}

smt_id smt_bool(struct smt_arena *a, bool value)
{
    return smt_const(a, 0, value ? 1 : 0);
}

smt_id smt_sym(struct smt_arena *a, unsigned width, const char *name)
{
    return intern(a, (struct smt_node){.op = SMT_SYM, .width = width, .name = name});
}

bool smt_is_const(const struct smt_arena *a, smt_id x, uint64_t *value)
{
    const struct smt_node *n = smt_node(a, x);
    if (!n || n->op != SMT_CONST) return false;
    if (value) *value = n->value;
    return true;
}

static bool is_cmp(enum smt_op op)
{
    return op == SMT_EQ || op == SMT_ULT || op == SMT_ULE || op == SMT_SLT || op == SMT_SLE || op == SMT_SADD_OK ||
           op == SMT_SSUB_OK || op == SMT_SMUL_OK || op == SMT_UMUL_OK;
}

/* C's (and the solver's) value of a binary operator on constants; false
   when it is better left to the solver. */
static bool fold_bin(enum smt_op op, unsigned w, uint64_t x, uint64_t y, uint64_t *r)
{
    uint64_t m = mask_of(w);
    int64_t sx = as_signed(x, w), sy = as_signed(y, w);
    switch (op) {
    case SMT_ADD: *r = (x + y) & m; return true;
    case SMT_SUB: *r = (x - y) & m; return true;
    case SMT_MUL: *r = (x * y) & m; return true;
    /* Division by zero is undefined in C; the solver's convention (all ones,
       the dividend) keeps folded and solved answers the same. */
    case SMT_UDIV: *r = y ? x / y : m; return true;
    case SMT_UREM: *r = y ? x % y : x; return true;
    case SMT_SDIV:
        if (!y) *r = sx < 0 ? 1 : m;
        else if (sy == -1) *r = (uint64_t)(-(uint64_t)sx) & m;
        else *r = (uint64_t)(sx / sy) & m;
        return true;
    case SMT_SREM:
        if (!y) *r = x;
        else if (sy == -1) *r = 0;
        else *r = (uint64_t)(sx % sy) & m;
        return true;
    case SMT_SHL: *r = y >= w ? 0 : (x << y) & m; return true;
    case SMT_LSHR: *r = y >= w ? 0 : x >> y; return true;
    case SMT_ASHR: *r = (uint64_t)(y >= w ? (sx < 0 ? -1 : 0) : sx >> y) & m; return true;
    case SMT_AND: *r = x & y; return true;
    case SMT_OR: *r = x | y; return true;
    case SMT_XOR: *r = x ^ y; return true;
    case SMT_EQ: *r = x == y; return true;
    case SMT_ULT: *r = x < y; return true;
    case SMT_ULE: *r = x <= y; return true;
    case SMT_SLT: *r = sx < sy; return true;
    case SMT_SLE: *r = sx <= sy; return true;
    case SMT_BAND: *r = x && y; return true;
    case SMT_BOR: *r = x || y; return true;
    case SMT_SADD_OK:
    case SMT_SSUB_OK:
    case SMT_SMUL_OK: {
        __int128 a = sx, b = sy, v = op == SMT_SADD_OK ? a + b : op == SMT_SSUB_OK ? a - b : a * b;
        __int128 lo = -((__int128)1 << (w - 1)), hi = ((__int128)1 << (w - 1)) - 1;
        *r = v >= lo && v <= hi;
        return true;
    }
    case SMT_UMUL_OK: {
        unsigned __int128 v = (unsigned __int128)x * y;
        *r = v <= m;
        return true;
    }
    default: return false;
    }
}

smt_id smt_bin(struct smt_arena *a, enum smt_op op, smt_id x, smt_id y)
{
    const struct smt_node *nx = smt_node(a, x), *ny = smt_node(a, y);
    if (!nx || !ny) return 0;
    bool boolean = op == SMT_BAND || op == SMT_BOR;
    if (boolean ? (nx->width || ny->width) : (nx->width != ny->width || !nx->width)) return 0;
    unsigned w = nx->width;
    uint64_t vx = 0, vy = 0;
    bool cx = smt_is_const(a, x, &vx), cy = smt_is_const(a, y, &vy);
    unsigned rw = is_cmp(op) || boolean ? 0 : w;
    uint64_t r;
    if (cx && cy && fold_bin(op, w, vx, vy, &r)) return smt_const(a, rw, r);
    /* Identities that keep queries small: most fold to a constant. */
    switch (op) {
    case SMT_BAND:
        if (cx) return vx ? y : x;
        if (cy) return vy ? x : y;
        if (x == y) return x;
        break;
    case SMT_BOR:
        if (cx) return vx ? x : y;
        if (cy) return vy ? y : x;
        if (x == y) return x;
        break;
    case SMT_ADD:
    case SMT_OR:
    case SMT_XOR:
        if (cx && vx == 0) return y;
        if (cy && vy == 0) return x;
        if (op == SMT_XOR && x == y) return smt_const(a, w, 0);
        break;
    case SMT_SUB:
        if (cy && vy == 0) return x;
        if (x == y) return smt_const(a, w, 0);
        break;
    case SMT_SHL:
    case SMT_LSHR:
    case SMT_ASHR:
        if (cy && vy == 0) return x;
        break;
    case SMT_MUL:
        if ((cx && vx == 0) || (cy && vy == 0)) return smt_const(a, w, 0);
        if (cx && vx == 1) return y;
        if (cy && vy == 1) return x;
        break;
    case SMT_AND:
        if ((cx && vx == 0) || (cy && vy == 0)) return smt_const(a, w, 0);
        if (x == y) return x;
        break;
    case SMT_UDIV:
    case SMT_SDIV:
        if (cy && vy == 1) return x;
        break;
    case SMT_EQ:
    case SMT_ULE:
    case SMT_SLE:
        if (x == y) return smt_bool(a, true);
        break;
    case SMT_ULT:
    case SMT_SLT:
        if (x == y) return smt_bool(a, false);
        break;
    default:
        break;
    }
    /* Commutative operators keep one order, so x+y and y+x are one term. */
    if ((op == SMT_ADD || op == SMT_MUL || op == SMT_AND || op == SMT_OR || op == SMT_XOR || op == SMT_EQ ||
         op == SMT_BAND || op == SMT_BOR || op == SMT_SADD_OK || op == SMT_SMUL_OK || op == SMT_UMUL_OK) &&
        x > y) {
        smt_id t = x;
        x = y;
        y = t;
    }
    return intern(a, (struct smt_node){.op = op, .width = rw, .arg = {x, y, 0}});
}

smt_id smt_un(struct smt_arena *a, enum smt_op op, smt_id x)
{
    const struct smt_node *n = smt_node(a, x);
    if (!n) return 0;
    if ((op == SMT_BNOT) != (n->width == 0)) return 0;
    uint64_t v;
    if (smt_is_const(a, x, &v)) {
        if (op == SMT_BNOT) return smt_bool(a, !v);
        return smt_const(a, n->width, op == SMT_NOT ? ~v : (uint64_t)(-(int64_t)v));
    }
    if (n->op == op) return n->arg[0]; /* double negation */
    return intern(a, (struct smt_node){.op = op, .width = n->width, .arg = {x, 0, 0}});
}

smt_id smt_ite(struct smt_arena *a, smt_id cond, smt_id x, smt_id y)
{
    if (!cond || !x || !y || smt_width(a, cond) != 0 || smt_width(a, x) != smt_width(a, y)) return 0;
    uint64_t v;
    if (smt_is_const(a, cond, &v)) return v ? x : y;
    if (x == y) return x;
    return intern(a, (struct smt_node){.op = SMT_ITE, .width = smt_width(a, x), .arg = {cond, x, y}});
}

smt_id smt_ext(struct smt_arena *a, enum smt_op op, smt_id x, unsigned width)
{
    const struct smt_node *n = smt_node(a, x);
    if (!n || !n->width || !width) return 0;
    if (n->width == width) return x;
    if ((op == SMT_TRUNC) != (width < n->width)) return 0;
    uint64_t v;
    if (smt_is_const(a, x, &v)) {
        if (op == SMT_SEXT) v = (uint64_t)as_signed(v, n->width);
        return smt_const(a, width, v);
    }
    return intern(a, (struct smt_node){.op = op, .width = width, .arg = {x, 0, 0}});
}

smt_id smt_ne(struct smt_arena *a, smt_id x, smt_id y)
{
    if (smt_width(a, x) == 0 && smt_width(a, y) == 0 && x && y) {
        /* Booleans: (x and not y) or (y and not x). */
        return smt_bin(a, SMT_BOR, smt_bin(a, SMT_BAND, x, smt_un(a, SMT_BNOT, y)),
                       smt_bin(a, SMT_BAND, y, smt_un(a, SMT_BNOT, x)));
    }
    return smt_un(a, SMT_BNOT, smt_bin(a, SMT_EQ, x, y));
}

smt_id smt_truth(struct smt_arena *a, smt_id x)
{
    if (!x) return 0;
    if (smt_width(a, x) == 0) return x;
    return smt_ne(a, x, smt_const(a, smt_width(a, x), 0));
}

bool smt_model_value(const struct smt_model *m, const char *name, uint64_t *value)
{
    for (unsigned i = 0; i < m->n; i++)
        if (!strcmp(m->name[i], name)) {
            *value = m->value[i];
            return true;
        }
    return false;
}

static void collect_syms(const struct smt_arena *a, smt_id x, smt_id *out, unsigned *n, unsigned max, uint8_t *seen)
{
    if (!x || seen[x]) return;
    seen[x] = 1;
    const struct smt_node *nd = &a->nodes[x];
    if (nd->op == SMT_SYM) {
        if (*n < max) out[(*n)++] = x;
        return;
    }
    if (nd->op == SMT_CONST) return;
    for (int i = 0; i < 3; i++) collect_syms(a, nd->arg[i], out, n, max, seen);
}

unsigned smt_symbols(const struct smt_arena *a, smt_id formula, smt_id *out, unsigned max)
{
    uint8_t *seen = xcalloc(a->n, 1);
    unsigned n = 0;
    collect_syms(a, formula, out, &n, max, seen);
    free(seen);
    return n;
}

bool smt_eval(const struct smt_arena *a, smt_id x, const struct smt_model *m, uint64_t *out)
{
    const struct smt_node *n = smt_node(a, x);
    if (!n) return false;
    uint64_t v[3] = {0, 0, 0};
    switch (n->op) {
    case SMT_CONST: *out = n->value; return true;
    case SMT_SYM:
        if (!smt_model_value(m, n->name, out)) *out = 0;
        return true;
    default:
        break;
    }
    for (int i = 0; i < 3; i++)
        if (n->arg[i] && !smt_eval(a, n->arg[i], m, &v[i])) return false;
    unsigned w = smt_width(a, n->arg[0]);
    switch (n->op) {
    case SMT_NOT: *out = ~v[0] & mask_of(n->width); return true;
    case SMT_NEG: *out = (0 - v[0]) & mask_of(n->width); return true;
    case SMT_BNOT: *out = !v[0]; return true;
    case SMT_ITE: *out = v[0] ? v[1] : v[2]; return true;
    case SMT_SEXT: *out = (uint64_t)as_signed(v[0], w) & mask_of(n->width); return true;
    case SMT_ZEXT: *out = v[0]; return true;
    case SMT_TRUNC: *out = v[0] & mask_of(n->width); return true;
    default: return fold_bin(n->op, w, v[0], v[1], out);
    }
}


/* ---- abstraction of shared non-linear terms ---- */

struct abstraction {
    struct smt_arena *a;
    uint32_t limit;      /* ids below it were there when it began */
    smt_id *memo;        /* per id: the rewritten term, 0 not yet */
    uint8_t *per_thread; /* per id: 1 unknown, 2 reads a per-thread symbol, 3 does not */
};

static bool reads_per_thread(struct abstraction *ab, smt_id x)
{
    if (!x) return false;
    if (ab->per_thread[x]) return ab->per_thread[x] == 2;
    const struct smt_node *n = &ab->a->nodes[x];
    bool r = false;
    if (n->op == SMT_SYM) r = strchr(n->name, '#') != NULL;
    else if (n->op != SMT_CONST)
        for (int i = 0; i < 3 && !r; i++) r = reads_per_thread(ab, n->arg[i]);
    ab->per_thread[x] = r ? 2 : 3;
    return r;
}

static bool non_linear(const struct smt_arena *a, const struct smt_node *n)
{
    switch (n->op) {
    case SMT_MUL:
    case SMT_SMUL_OK:
    case SMT_UMUL_OK:
        return !smt_is_const(a, n->arg[0], NULL) && !smt_is_const(a, n->arg[1], NULL);
    case SMT_UDIV: case SMT_SDIV: case SMT_UREM: case SMT_SREM:
    case SMT_SHL: case SMT_LSHR: case SMT_ASHR:
        return !smt_is_const(a, n->arg[1], NULL);
    default:
        return false;
    }
}

static smt_id abstract_rec(struct abstraction *ab, smt_id x, int depth)
{
    if (!x || x >= ab->limit) return x;
    if (ab->memo[x]) return ab->memo[x];
    struct smt_arena *a = ab->a;
    struct smt_node n = a->nodes[x]; /* a copy: building may move the array */
    smt_id r = x;
    if (n.op == SMT_CONST || n.op == SMT_SYM || depth > 10000) {
        r = x;
    } else if (non_linear(a, &n) && !reads_per_thread(ab, x)) {
        char name[32];
        snprintf(name, sizeof name, "$nl@%u", (unsigned)x);
        r = smt_sym(a, n.width, name);
    } else {
        smt_id k[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) k[i] = abstract_rec(ab, n.arg[i], depth + 1);
        if (k[0] == n.arg[0] && k[1] == n.arg[1] && k[2] == n.arg[2]) r = x;
        else if (n.op == SMT_ITE) r = smt_ite(a, k[0], k[1], k[2]);
        else if (n.op == SMT_NOT || n.op == SMT_NEG || n.op == SMT_BNOT) r = smt_un(a, n.op, k[0]);
        else if (n.op == SMT_SEXT || n.op == SMT_ZEXT || n.op == SMT_TRUNC) r = smt_ext(a, n.op, k[0], n.width);
        else r = smt_bin(a, n.op, k[0], k[1]);
    }
    ab->memo[x] = r;
    return r;
}

smt_id smt_abstract_shared(struct smt_arena *a, smt_id x)
{
    if (!x) return 0;
    struct abstraction ab = {a, a->n, xcalloc(a->n, sizeof(smt_id)), xcalloc(a->n, 1)};
    smt_id r = abstract_rec(&ab, x, 0);
    free(ab.memo);
    free(ab.per_thread);
    return r;
}

void **smt_arena_solver_slot(struct smt_arena *a, void (*release)(void *state))
{
    a->solver_release = release;
    return &a->solver;
}
