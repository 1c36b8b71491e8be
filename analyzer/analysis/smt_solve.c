/* smt_solve.c: asks the back end (smt_z3.h) whether a formula is
 * satisfiable, caches the answers per arena by formula id, and counts every
 * query of the process for --statistics. */
#include "analysis/smt_solve.h"
#include "analysis/smt_z3.h"
#include "base/report.h"
#include "base/util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cached {
    smt_id formula;
    enum smt_result result;
    struct smt_model model;
};

/* What the solver keeps about one arena. */
struct solver_state {
    struct cached *answers;
    size_t n_answers, cap_answers;
    void *backend;
};

static atomic_ulong st_one_lane, st_one_lane_proved;
static atomic_ulong st_queries, st_sat, st_unsat, st_unknown, st_cached, st_folded, st_unexpressed, st_launch_refuted, st_thorough,
    st_thorough_unknown;
static atomic_ullong st_solver_us;

static void state_release(void *p)
{
    struct solver_state *s = p;
    if (!s) return;
    smt_z3_release(s->backend);
    free(s->answers);
    free(s);
}

static struct solver_state *state_of(struct smt_arena *a)
{
    void **slot = smt_arena_solver_slot(a, state_release);
    if (!*slot) *slot = xcalloc(1, sizeof(struct solver_state));
    return *slot;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static enum smt_result check(struct smt_arena *a, smt_id formula, unsigned budget_ms, struct smt_model *model_out,
                             bool thorough);

enum smt_result smt_check(struct smt_arena *a, smt_id formula, unsigned budget_ms, struct smt_model *model_out)
{
    return check(a, formula, budget_ms, model_out, false);
}

enum smt_result smt_check_thorough(struct smt_arena *a, smt_id formula, unsigned budget_ms, struct smt_model *model_out)
{
    return check(a, formula, budget_ms, model_out, true);
}

static enum smt_result check(struct smt_arena *a, smt_id formula, unsigned budget_ms, struct smt_model *model_out,
                             bool thorough)
{
    struct smt_model scratch;
    struct smt_model *m = model_out ? model_out : &scratch;
    memset(m, 0, sizeof *m);
    if (!formula || smt_width(a, formula) != 0) return SMT_UNKNOWN;
    uint64_t v;
    if (smt_is_const(a, formula, &v)) {
        atomic_fetch_add(&st_folded, 1);
        return v ? SMT_SAT : SMT_UNSAT;
    }
    struct solver_state *s = state_of(a);
    for (size_t i = 0; i < s->n_answers; i++)
        if (s->answers[i].formula == formula) {
            atomic_fetch_add(&st_cached, 1);
            *m = s->answers[i].model;
            return s->answers[i].result;
        }
    double t0 = now_ms();
    enum smt_result r = smt_z3_check(a, &s->backend, formula, budget_ms, thorough, m);
    double dt = now_ms() - t0;
    atomic_fetch_add(&st_solver_us, (unsigned long long)(dt * 1000));
    if (thorough) {
        /* The launch-fact questions: counted apart, an undecided one keeps
           its finding. */
        atomic_fetch_add(&st_thorough, 1);
        if (r == SMT_UNKNOWN) atomic_fetch_add(&st_thorough_unknown, 1);
    } else {
        atomic_fetch_add(&st_queries, 1);
        atomic_fetch_add(r == SMT_SAT ? &st_sat : r == SMT_UNSAT ? &st_unsat : &st_unknown, 1);
    }
    if (r != SMT_SAT) m->n = 0;
    if (s->n_answers == s->cap_answers) {
        s->cap_answers = s->cap_answers ? 2 * s->cap_answers : 16;
        s->answers = xrealloc(s->answers, s->cap_answers * sizeof *s->answers);
    }
    s->answers[s->n_answers++] = (struct cached){formula, r, *m};
    return r;
}

void smt_stats_get(struct smt_stats *out)
{
    out->queries = atomic_load(&st_queries);
    out->sat = atomic_load(&st_sat);
    out->unsat = atomic_load(&st_unsat);
    out->unknown = atomic_load(&st_unknown);
    out->cached = atomic_load(&st_cached);
    out->folded = atomic_load(&st_folded);
    out->solver_ms = atomic_load(&st_solver_us) / 1000.0;
}

void smt_stats_count_unexpressed(void)
{
    atomic_fetch_add(&st_unexpressed, 1);
}

void smt_stats_count_launch_refuted(void)
{
    atomic_fetch_add(&st_launch_refuted, 1);
}

void smt_stats_count_one_lane(bool proved)
{
    atomic_fetch_add(&st_one_lane, 1);
    if (proved) atomic_fetch_add(&st_one_lane_proved, 1);
}

unsigned long smt_stats_unexpressed(void)
{
    return atomic_load(&st_unexpressed);
}

void smt_stats_report(void)
{
    struct smt_stats st;
    smt_stats_get(&st);
    report_info("solver: %lu queries (%lu sat, %lu unsat, %lu unknown: a divergence finding undecided is dropped, an "
                "access whose one-lane question is undecided is kept) in %.0f ms; "
                "%lu answered from the cache, %lu decided by folding; %lu constructs outside the value model "
                "(the walk's verdict kept); bit-vector questions (launch facts, one-lane accesses): %lu, %lu "
                "undecided (the finding kept); %lu pairs no launch runs; one-lane accesses: %lu asked, %lu proved "
                "(their findings dropped)",
                st.queries, st.sat, st.unsat, st.unknown, st.solver_ms, st.cached, st.folded, smt_stats_unexpressed(),
                (unsigned long)atomic_load(&st_thorough), (unsigned long)atomic_load(&st_thorough_unknown),
                (unsigned long)atomic_load(&st_launch_refuted), (unsigned long)atomic_load(&st_one_lane),
                (unsigned long)atomic_load(&st_one_lane_proved));
}
