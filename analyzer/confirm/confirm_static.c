/* confirm_static.c: the steps of `cudalint confirm` that need no GPU: lint
 * the bad kernel, build the fixed one with cudalint's own fix-it (or take the
 * hand-written one), lint it, compile both with nvcc and compare their PTX
 * (and SASS) instruction mix against what the rule predicts. */
#include "confirm/confirm_static.h"
#include "confirm/confirm_host.h"
#include "codegen/asm_mix.h"
#include "base/proc.h"
#include "fix/fixapply.h"
#include "engine/lint.h"
#include "core/rule.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs nvcc; on failure records step as failed with the output's tail. */
bool confirm_nvcc(struct confirm_env *env, struct pair_result *r, const char *step,
                     struct strvec *args, const char *log_path, char **warnings)
{
    size_t argc = args->len + 1;
    char **argv = xcalloc(argc + 1, sizeof *argv);
    argv[0] = env->nvcc;
    for (size_t i = 0; i < args->len; i++) argv[i + 1] = args->items[i];
    struct proc_result pr;
    proc_run(argv, NULL, env->work, TIMEOUT_NVCC, true, NULL, &pr);
    if (log_path) {
        FILE *f = fopen(log_path, "a");
        if (f) {
            for (size_t i = 0; i < argc; i++) fprintf(f, "%s%s", i ? " " : "$ ", argv[i]);
            fprintf(f, "\n%s\n", pr.out);
            fclose(f);
        }
    }
    bool ok = pr.exit_code == 0;
    if (!ok) {
        char *tail = text_tail(pr.out, 6);
        pr_step(r, step, STEP_FAIL, "nvcc %s: %s", pr.timed_out ? "timed out" : "failed",
                tail[0] ? tail : "(no output)");
        free(tail);
    } else if (warnings && pr.out[0]) {
        char *tail = text_tail(pr.out, 3);
        if (*warnings) free(*warnings);
        *warnings = tail;
    }
    proc_result_release(&pr);
    free(argv);
    return ok;
}

void confirm_variant_command(struct confirm_env *env, const struct pair *p, const char *pwork,
                             const char *variant, const char *mode, const char *out, struct strvec *a)
{
    sv_push(a, "-O3");
    sv_push_owned(a, xasprintf("-arch=%s", env->o->arch));
    sv_push_owned(a, xasprintf("-I%s", pwork));
    sv_push_owned(a, xasprintf("-I%s", p->dir));
    sv_push_owned(a, xasprintf("-I%s", env->kernels));
    sv_push(a, strcmp(variant, "bad") == 0 ? "-DVARIANT_BAD" : "-DVARIANT_FIXED");
    sv_push(a, mode);
    sv_push_owned(a, path_join(env->kernels, "variant.cu"));
    sv_push(a, "-o");
    sv_push(a, out);
}

/* ------------------------------------------------------------ lint steps */

/* Lints path for the pair's rule; returns the findings of that rule (a
   shallow list: release with free(list.items) only) and keeps the file
   result alive in fr for the caller to release. */
static bool lint_for_rule(struct confirm_env *env, const struct pair *p, const char *path,
                          struct file_result *fr, struct diag_list *found, char **error)
{
    struct lint_session session;
    lint_session_init(&session);
    struct lint_options *lo = &session.opts;
    sv_push(&lo->select, p->rule);
    sv_push(&lo->paths, path);
    sv_push(&lo->archs, env->o->arch);
    lo->explicit_archs = true; /* a compile database found nearby must not change it */
    lo->quiet = true;
    lo->no_config = true;      /* the pair is judged by the rule's defaults */
    lo->no_cache = true;
    lo->codegen = 0;           /* the pair's own compile is the evidence here */
    memset(fr, 0, sizeof *fr);
    memset(found, 0, sizeof *found);
    if (lint_session_prepare(&session, error) != 0) {
        lint_session_release(&session);
        return false;
    }
    lint_file(lo, path, NULL, 0, false, fr);
    lint_session_release(&session);
    if (fr->status == FILE_ERROR) {
        *error = xasprintf("%s", fr->message ? fr->message : "lint failed");
        return false;
    }
    for (size_t i = 0; i < fr->diags.len; i++) {
        struct diag *d = &fr->diags.items[i];
        if (!d->rule || strcmp(d->rule->code, p->rule) != 0) continue;
        XGROW(found->items, found->len, found->cap, 8);
        found->items[found->len++] = *d;
    }
    return true;
}

/* "line 15: `a` -> `b`" for the lines that differ (same line count), else a count. */
static char *describe_change(const char *before, const char *after)
{
    struct strbuf sb;
    sb_init(&sb);
    const char *a = before, *b = after;
    unsigned line = 1, shown = 0;
    while (*a || *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0) {
            if (shown++ < 4) {
                const char *ta = a, *tb = b;
                size_t na = la, nb = lb;
                while (na && (*ta == ' ' || *ta == '\t')) ta++, na--;
                while (nb && (*tb == ' ' || *tb == '\t')) tb++, nb--;
                sb_addf(&sb, "%sline %u: `%.*s` -> `%.*s`", shown > 1 ? "; " : "", line, (int)na,
                        ta, (int)nb, tb);
            }
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
        line++;
    }
    if (shown > 4) sb_addf(&sb, "; %u more lines", shown - 4);
    return sb_detach(&sb);
}

/* lint-bad, fix, lint-fixed.  Writes pwork/bad.cu and pwork/fixed.cu.
   Returns false when there is no usable fixed kernel. */
bool confirm_lint_and_fix(struct confirm_env *env, struct pair_result *r, const char *pwork)
{
    const struct pair *p = r->pair;
    const struct rule *rule = registry_find(p->rule);
    if (!rule) {
        pr_step(r, "lint-bad", STEP_ERROR, "rule %s is not in the registry", p->rule);
        return false;
    }
    char *bad_path = path_join(p->dir, "bad.cu");
    char *bad_text = file_read_text(bad_path);
    if (!bad_text) {
        pr_step(r, "lint-bad", STEP_ERROR, "cannot read %s", bad_path);
        free(bad_path);
        return false;
    }
    char *work_bad = path_join(pwork, "bad.cu"), *work_fixed = path_join(pwork, "fixed.cu");
    file_write_text(work_bad, bad_text, strlen(bad_text));
    bool ok = false;
    char *error = NULL, *fixed_text = NULL;
    struct file_result fr;
    struct diag_list found;

    /* lint-bad */
    if (!lint_for_rule(env, p, bad_path, &fr, &found, &error)) {
        pr_step(r, "lint-bad", STEP_ERROR, "cannot lint bad.cu: %s", error);
        goto out_fr;
    }
    const struct diag *match = NULL;
    for (size_t i = 0; i < found.len && !match; i++)
        if (strstr(found.items[i].message, p->expect_message)) match = &found.items[i];
    pr_number(r, "bad", "lint.findings", (double)found.len);
    if (!match) {
        if (found.len)
            pr_step(r, "lint-bad", STEP_FAIL, "%zu %s finding(s), none with \"%s\" (first: %u:%u %s)",
                    found.len, p->rule, p->expect_message, found.items[0].line,
                    found.items[0].column, found.items[0].message);
        else if (fr.status != FILE_OK)
            pr_step(r, "lint-bad", STEP_FAIL, "no %s finding in bad.cu (file status %s: %s)",
                    p->rule, file_status_name(fr.status), fr.message ? fr.message : "no message");
        else
            pr_step(r, "lint-bad", STEP_FAIL, "no %s finding in bad.cu", p->rule);
        if (fr.status != FILE_OK && fr.message)
            pr_text(r, "bad", "lint.status", fr.message);
        goto out_found;
    }
    pr_text(r, "bad", "lint.message", match->message);
    pr_step(r, "lint-bad", STEP_PASS, "%zu %s finding(s); bad.cu:%u:%u: %s", found.len, p->rule,
            match->line, match->column, match->message);

    /* fix */
    if (p->hand_fixed) {
        char *hand = path_join(p->dir, "fixed.cu");
        fixed_text = file_read_text(hand);
        if (!fixed_text) {
            pr_step(r, "fix", STEP_ERROR, "pair.json says \"fixed\": \"hand\" but %s is missing",
                    hand);
        } else {
            pr_step(r, "fix", STEP_INFO, "hand-written fixed.cu (%s)",
                    rule->has_fix ? "the rule has a fix-it, but this pair is fixed by hand"
                                  : "the rule has no fix-it");
        }
        free(hand);
    } else {
        size_t with_fix = 0;
        for (size_t i = 0; i < found.len; i++)
            if (found.items[i].n_fixes) with_fix++;
        if (!with_fix) {
            pr_step(r, "fix", STEP_FAIL,
                    "the %s finding offers no fix-it here; the pair expects one (or write "
                    "fixed.cu and set \"fixed\": \"hand\" in pair.json)",
                    p->rule);
        } else {
            /* fix_apply matches a fix's file as given: use the fix's own spelling
               when it names bad.cu another way. */
            const char *target = bad_path;
            const struct diag *first = NULL;
            for (size_t i = 0; i < found.len && !first; i++)
                if (found.items[i].n_fixes) first = &found.items[i];
            char *abs_fix = path_absolute(first->fixes[0].file), *abs_bad = path_absolute(bad_path);
            if (strcmp(abs_fix, abs_bad) == 0) target = first->fixes[0].file;
            size_t out_len = 0, applied = 0, skipped = 0;
            fixed_text = fix_apply(bad_text, strlen(bad_text), target, &found, &out_len, &applied,
                                   &skipped);
            pr_number(r, "fixed", "fix.applied", (double)applied);
            pr_number(r, "fixed", "fix.skipped", (double)skipped);
            if (!fixed_text || applied == 0) {
                pr_step(r, "fix", STEP_FAIL, "fix_apply applied no fix-it (%zu skipped)%s", skipped,
                        strcmp(abs_fix, abs_bad) ? "; the fix-it edits another file" : "");
                free(fixed_text);
                fixed_text = NULL;
            } else {
                char *change = describe_change(bad_text, fixed_text);
                pr_text(r, "fixed", "fix.change", change);
                pr_step(r, "fix", STEP_PASS, "cudalint's fix-it applied (%zu applied, %zu skipped): %s",
                        applied, skipped, change);
                free(change);
            }
            free(abs_fix);
            free(abs_bad);
        }
    }
    if (!fixed_text) goto out_found;
    if (!file_write_text(work_fixed, fixed_text, strlen(fixed_text))) {
        pr_step(r, "lint-fixed", STEP_ERROR, "cannot write %s: %s", work_fixed, strerror(errno));
        goto out_found;
    }

    /* lint-fixed */
    {
        struct file_result fr2;
        struct diag_list found2;
        if (!lint_for_rule(env, p, work_fixed, &fr2, &found2, &error)) {
            pr_step(r, "lint-fixed", STEP_ERROR, "cannot lint the fixed kernel: %s", error);
        } else {
            pr_number(r, "fixed", "lint.findings", (double)found2.len);
            if (found2.len)
                pr_step(r, "lint-fixed", STEP_FAIL, "the fixed kernel still has %zu %s finding(s): %u:%u %s",
                        found2.len, p->rule, found2.items[0].line, found2.items[0].column,
                        found2.items[0].message);
            else
                pr_step(r, "lint-fixed", STEP_PASS, "no %s finding in the fixed kernel", p->rule);
            ok = true; /* build and measure it even when still flagged: the numbers say why */
        }
        free(found2.items);
        file_result_release(&fr2);
    }

out_found:
    free(found.items);
out_fr:
    file_result_release(&fr);
    free(error);
    free(fixed_text);
    free(bad_text);
    free(bad_path);
    free(work_bad);
    free(work_fixed);
    return ok;
}

/* ---------------------------------------------------------- static steps */

static void record_mix(struct pair_result *r, const char *variant, const char *prefix,
                       const struct asm_mix *m)
{
    struct {
        const char *name;
        long v;
    } rows[] = {
        {"instructions", m->instructions},   {"loop_instructions", m->loop_instructions},
        {"fp64_arith", m->fp64_arith},       {"cvt_f64_f32", m->cvt_f64_f32},
        {"cvt_f32_f64", m->cvt_f32_f64},     {"int_mul", m->int_mul},
        {"loop_int_mul", m->loop_int_mul},   {"ld_shared", m->ld_shared},
        {"st_shared", m->st_shared},         {"atom_shared", m->atom_shared},
        {"shared_bytes", m->shared_bytes},   {"barriers", m->barriers},
        {"barrier_skips", m->barrier_skips},
        {"warp_collectives", m->warp_collectives}, {"collective_skips", m->collective_skips},
        {"ld_local", m->ld_local},           {"st_local", m->st_local},
        {"local_bytes", m->local_bytes},     {"ld_global_step", m->ld_global_step},
        {"fdiv", m->fdiv},
        {"warp_barriers", m->warp_barriers},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].v < 0) continue;
        char *metric = xasprintf("%s.%s", prefix, rows[i].name);
        pr_number(r, variant, metric, (double)rows[i].v);
        free(metric);
    }
}

/* ---- the static checks: one row per kind of pair.json's "static" ----

   Each compares the instruction mixes of the bad and fixed kernels (PTX,
   then SASS when cuobjdump is there): it returns the step's status and sets
   *summary (one line for the results table) and *detail.  A pair whose
   static steps differ (its bad kernel is not meant to build, say) gives a
   steps function instead, which runs them all.  A new rule adds a function
   and a row to static_checks[]. */

typedef enum step_status (*judge_fn)(const struct asm_mix *b, const struct asm_mix *f,
                                     const char *what, char **detail, char **summary);

/* CU201: FP64 work and f32/f64 conversions disappear. */
static enum step_status judge_fp64(const struct asm_mix *b, const struct asm_mix *f, const char *what,
                                   char **detail, char **summary)
{
    long nb = b->fp64_arith + b->cvt_f64_f32 + b->cvt_f32_f64;
    long nf = f->fp64_arith + f->cvt_f64_f32 + f->cvt_f32_f64;
    *summary = xasprintf("FP64 ops + f32/f64 conversions %ld -> %ld (%s)", nb, nf, what);
    *detail = xasprintf("FP64 arithmetic + f32<->f64 conversions (%s): bad %ld (f64 ops %ld, "
                        "f32->f64 %ld, f64->f32 %ld), fixed %ld",
                        what, nb, b->fp64_arith, b->cvt_f64_f32, b->cvt_f32_f64, nf);
    return nb > 0 && nf == 0 ? STEP_PASS : STEP_FAIL;
}

/* CU301: fewer integer multiplies inside loop bodies. */
static enum step_status judge_loop_int_mul(const struct asm_mix *b, const struct asm_mix *f,
                                           const char *what, char **detail, char **summary)
{
    *summary = xasprintf("integer mul/mad in loop bodies %ld -> %ld (%s)", b->loop_int_mul,
                         f->loop_int_mul, what);
    *detail = xasprintf("integer multiply(-add)s inside loop bodies (%s, static count over "
                        "the unrolled and remainder loops): bad %ld, fixed %ld; whole kernel "
                        "%ld vs %ld; instructions in loops %ld vs %ld",
                        what, b->loop_int_mul, f->loop_int_mul, b->int_mul, f->int_mul,
                        b->loop_instructions, f->loop_instructions);
    if (f->loop_int_mul < b->loop_int_mul) return STEP_PASS;
    /* PTX is the criterion: ptxas may lower the PTX multiply to LEA or to
       IMAD.WIDE in either kernel, so SASS without the difference is
       reported, not failed. */
    return b->sass ? STEP_INFO : STEP_FAIL;
}

/* CU401: the same shared accesses, only the padding (declared bytes) grows. */
static enum step_status judge_shared_padding(const struct asm_mix *b, const struct asm_mix *f,
                                             const char *what, char **detail, char **summary)
{
    bool same = b->ld_shared == f->ld_shared && b->st_shared == f->st_shared;
    if (b->sass)
        *summary = xasprintf("shared loads/stores %ld/%ld -> %ld/%ld (%s)", b->ld_shared,
                             b->st_shared, f->ld_shared, f->st_shared, what);
    else
        *summary = xasprintf("shared memory %ld -> %ld bytes, loads/stores %ld/%ld -> %ld/%ld (%s)",
                             b->shared_bytes, f->shared_bytes, b->ld_shared, b->st_shared,
                             f->ld_shared, f->st_shared, what);
    if (b->sass) {
        *detail = xasprintf("shared loads %ld vs %ld, stores %ld vs %ld (%s): the same "
                            "accesses; only their addresses change",
                            b->ld_shared, f->ld_shared, b->st_shared, f->st_shared, what);
        return same ? STEP_PASS : STEP_FAIL;
    }
    *detail = xasprintf("shared memory declared %ld -> %ld bytes (+%ld: the padding); shared "
                        "loads %ld vs %ld, stores %ld vs %ld (%s): the same accesses, only "
                        "the address pattern changes",
                        b->shared_bytes, f->shared_bytes, f->shared_bytes - b->shared_bytes,
                        b->ld_shared, f->ld_shared, b->st_shared, f->st_shared, what);
    return same && f->shared_bytes > b->shared_bytes ? STEP_PASS : STEP_FAIL;
}

/* CU101: no conditional branch or exit skips a barrier in the fixed kernel. */
static enum step_status judge_barrier_skip(const struct asm_mix *b, const struct asm_mix *f,
                                           const char *what, char **detail, char **summary)
{
    *summary = xasprintf("conditional branches or exits past a barrier %ld -> %ld (%s)",
                         b->barrier_skips, f->barrier_skips, what);
    *detail = xasprintf("barriers %ld vs %ld; conditional branches or exits that skip a "
                        "barrier (%s): bad %ld, fixed %ld (whether such a branch diverges is "
                        "cudalint's verdict, not the assembler's)",
                        b->barriers, f->barriers, what, b->barrier_skips, f->barrier_skips);
    return b->barriers > 0 && f->barriers > 0 && b->barrier_skips > 0 && f->barrier_skips == 0
               ? STEP_PASS
               : STEP_FAIL;
}

/* CU202: an inlined library routine replaced by a few instructions. */
static enum step_status judge_instruction_count(const struct asm_mix *b, const struct asm_mix *f,
                                                const char *what, char **detail, char **summary)
{
    /* PTX carries the inlined library routine whole (CU202: powf 121 instructions
       against 9 for v * v), so the fixed kernel must have at most half as many.
       SASS is the whole kernel after ptxas's scheduling and unrolling, where the
       routine is a smaller share (an H100 build: 280 -> 176): fewer is the test. */
    bool sass = b->sass;
    *summary = xasprintf("instructions %ld -> %ld (%s)", b->instructions, f->instructions, what);
    *detail = xasprintf("instructions in the kernel (%s): bad %ld, fixed %ld (the fixed kernel "
                        "must have %s)",
                        what, b->instructions, f->instructions,
                        sass ? "fewer" : "at most half as many");
    if (f->instructions <= 0) return STEP_FAIL;
    if (sass) return f->instructions < b->instructions ? STEP_PASS : STEP_FAIL;
    return 2 * f->instructions <= b->instructions ? STEP_PASS : STEP_FAIL;
}

/* CU103: no conditional branch or exit skips a warp collective in the fixed kernel. */
static enum step_status judge_collective_skip(const struct asm_mix *b, const struct asm_mix *f,
                                              const char *what, char **detail, char **summary)
{
    *summary = xasprintf("conditional branches or exits past a warp collective %ld -> %ld (%s)",
                         b->collective_skips, f->collective_skips, what);
    *detail = xasprintf("warp collectives (shfl/vote/warp sync) %ld vs %ld; conditional branches or "
                        "exits that skip one (%s): bad %ld, fixed %ld (whether such a branch splits "
                        "a warp is cudalint's verdict, not the assembler's)",
                        b->warp_collectives, f->warp_collectives, what, b->collective_skips,
                        f->collective_skips);
    return b->warp_collectives > 0 && f->warp_collectives > 0 && b->collective_skips > 0 &&
                   f->collective_skips == 0
               ? STEP_PASS
               : STEP_FAIL;
}

/* CU402: a thread's own consecutive global loads step through its row (a
   few bytes) in bad, and a warp's width (at least 128 bytes: 32 lanes share
   each row) in fixed. */
static enum step_status judge_load_step(const struct asm_mix *b, const struct asm_mix *f,
                                        const char *what, char **detail, char **summary)
{
    *summary = xasprintf("step of a thread's own global loads %ld -> %ld bytes (%s)",
                         b->ld_global_step, f->ld_global_step, what);
    *detail = xasprintf("smallest step between a thread's own global loads from one base "
                        "register (%s): bad %ld bytes (the thread walks its own row), fixed "
                        "%ld bytes (the warp's lanes share the row)",
                        what, b->ld_global_step, f->ld_global_step);
    if (b->sass) return STEP_INFO;
    return b->ld_global_step > 0 && b->ld_global_step < 32 && f->ld_global_step >= 128
               ? STEP_PASS
               : STEP_FAIL;
}

/* CU403: the array lives in local memory in bad, in registers in fixed. */
static enum step_status judge_local_memory(const struct asm_mix *b, const struct asm_mix *f,
                                           const char *what, char **detail, char **summary)
{
    *summary = xasprintf("local memory %ld -> %ld bytes, ld/st.local %ld/%ld -> %ld/%ld (%s)",
                         b->local_bytes, f->local_bytes, b->ld_local, b->st_local,
                         f->ld_local, f->st_local, what);
    *detail = xasprintf("local memory (%s): bad %ld bytes declared, %ld loads and %ld stores; "
                        "fixed %ld bytes, %ld loads and %ld stores",
                        what, b->local_bytes, b->ld_local, b->st_local, f->local_bytes,
                        f->ld_local, f->st_local);
    bool bad_local = b->ld_local + b->st_local > 0 && (b->sass || b->local_bytes > 0);
    bool fixed_none = f->ld_local + f->st_local == 0 && (f->sass || f->local_bytes == 0);
    return bad_local && fixed_none ? STEP_PASS : STEP_FAIL;
}

/* CU102 / CU104: the fix adds the missing synchronisation: more __syncwarp()
   (warp-barrier-added) or block barriers (barrier-added) in fixed than in
   bad, the shared accesses otherwise the same kernel's. */
static enum step_status judge_barrier_added(bool warp, const struct asm_mix *b,
                                            const struct asm_mix *f, const char *what,
                                            char **detail, char **summary)
{
    long nb = warp ? b->warp_barriers : b->barriers, nf = warp ? f->warp_barriers : f->barriers;
    const char *what_b =
        warp ? "__syncwarp() (bar.warp.sync/WARPSYNC)" : "block barriers (bar.sync/BAR.SYNC)";
    *summary = xasprintf("%s %ld -> %ld (%s)", warp ? "warp barriers" : "block barriers", nb, nf, what);
    *detail = xasprintf("%s (%s): bad %ld, fixed %ld; shared loads %ld vs %ld, stores %ld vs %ld",
                        what_b, what, nb, nf, b->ld_shared, f->ld_shared, b->st_shared,
                        f->st_shared);
    return nf > nb ? STEP_PASS : STEP_FAIL;
}

static enum step_status judge_warp_barrier_added(const struct asm_mix *b, const struct asm_mix *f,
                                                 const char *what, char **detail, char **summary)
{
    return judge_barrier_added(true, b, f, what, detail, summary);
}

static enum step_status judge_block_barrier_added(const struct asm_mix *b, const struct asm_mix *f,
                                                  const char *what, char **detail, char **summary)
{
    return judge_barrier_added(false, b, f, what, detail, summary);
}

/* CU203: IEEE float divisions replaced by multiplications. */
static enum step_status judge_fdiv(const struct asm_mix *b, const struct asm_mix *f, const char *what,
                                   char **detail, char **summary)
{
    *summary = xasprintf("div.rn.f32 %ld -> %ld (%s)", b->fdiv, f->fdiv, what);
    *detail = xasprintf("IEEE float divisions, div.rn.f32 (%s): bad %ld, fixed %ld", what, b->fdiv,
                        f->fdiv);
    if (b->sass) return STEP_INFO;
    return b->fdiv > 0 && f->fdiv == 0 ? STEP_PASS : STEP_FAIL;
}

typedef void (*steps_fn)(struct confirm_env *env, struct pair_result *r, const char *pwork);
static void static_removed_intrinsic(struct confirm_env *env, struct pair_result *r, const char *pwork);
static void static_host(struct confirm_env *env, struct pair_result *r, const char *pwork);

static const struct static_check {
    const char *kind;
    judge_fn judge; /* compares the mixes, or */
    steps_fn steps; /* runs the static steps itself */
} static_checks[] = {
    {"fp64", judge_fp64, NULL},
    {"loop-int-mul", judge_loop_int_mul, NULL},
    {"shared-padding", judge_shared_padding, NULL},
    {"barrier-skip", judge_barrier_skip, NULL},
    {"instruction-count", judge_instruction_count, NULL},
    {"collective-skip", judge_collective_skip, NULL},
    {"load-step", judge_load_step, NULL},
    {"fdiv", judge_fdiv, NULL},
    {"local-memory", judge_local_memory, NULL},
    {"warp-barrier-added", judge_warp_barrier_added, NULL},
    {"barrier-added", judge_block_barrier_added, NULL},
    {"removed-intrinsic", NULL, static_removed_intrinsic},
    {"host-status-checked", NULL, static_host},
    {"host-launch-checked", NULL, static_host},
    {"host-launch-config", NULL, static_host},
    {"host-launch-warps", NULL, static_host},
    {"host-alloc-in-loop", NULL, static_host},
    {"host-sync-in-loop", NULL, static_host},
    {"host-pinned", NULL, static_host},
    {"host-deprecation-warning", NULL, static_host},
};

static const struct static_check *static_check_of(const char *kind)
{
    for (size_t i = 0; i < sizeof static_checks / sizeof static_checks[0]; i++)
        if (strcmp(kind, static_checks[i].kind) == 0) return &static_checks[i];
    return NULL;
}

/* The rule's static expectation on two instruction mixes.  Returns the
   status and sets *detail and *summary. */
static enum step_status judge_static(const struct pair *p, const struct asm_mix *b,
                                     const struct asm_mix *f, const char *what, char **detail,
                                     char **summary)
{
    const char *k = p->static_check;
    *summary = NULL;
    const struct static_check *c = static_check_of(k);
    if (c && c->judge) return c->judge(b, f, what, detail, summary);
    *detail = xasprintf("unknown static check \"%s\" in pair.json", k);
    *summary = xstrdup(*detail);
    return STEP_ERROR;
}

/* "removed-intrinsic" (CU601): the bad kernel must not compile, and nvcc
   must say so about the intrinsic; the fixed one must compile, with the
   warp shuffles and votes as their .sync forms. */
static void static_removed_intrinsic(struct confirm_env *env, struct pair_result *r, const char *pwork)
{
    const struct pair *p = r->pair;
    char *log = path_join(pwork, "nvcc.log");
    struct strvec a = {0};
    char *bad_ptx = xasprintf("%s/bad.ptx", pwork);
    confirm_variant_command(env, p, pwork, "bad", "-ptx", bad_ptx, &a);
    free(bad_ptx);
    char **argv = xcalloc(a.len + 2, sizeof *argv);
    argv[0] = env->nvcc;
    for (size_t i = 0; i < a.len; i++) argv[i + 1] = a.items[i];
    struct proc_result pr;
    proc_run(argv, NULL, env->work, TIMEOUT_NVCC, true, NULL, &pr);
    free(argv);
    sv_release(&a);
    bool bad_failed = pr.exit_code != 0 && !pr.timed_out;
    const char *why = strstr(pr.out, "error");
    char *line = NULL;
    if (why) {
        const char *eol = strchr(why, '\n');
        line = xasprintf("%.*s", (int)(eol ? eol - why : (long)strlen(why)), why);
    }
    bool names_it = why && (strstr(why, "__shfl") || strstr(why, "__ballot") || strstr(why, "__any") ||
                            strstr(why, "__all"));
    proc_result_release(&pr);

    struct strvec f = {0};
    char *fixed_ptx = xasprintf("%s/fixed.ptx", pwork);
    confirm_variant_command(env, p, pwork, "fixed", "-ptx", fixed_ptx, &f);
    char *warn = NULL;
    bool fixed_ok = confirm_nvcc(env, r, "build-ptx", &f, log, &warn);
    sv_release(&f);
    free(warn);
    long sync_ops = 0, plain_ops = 0;
    if (fixed_ok) {
        char *text = file_read_text(fixed_ptx);
        for (const char *q = text ? text : ""; (q = strstr(q, "shfl.")); q++) {
            if (!strncmp(q, "shfl.sync", 9)) sync_ops++;
            else plain_ops++;
        }
        for (const char *q = text ? text : ""; (q = strstr(q, "vote.")); q++) {
            if (!strncmp(q, "vote.sync", 9)) sync_ops++;
            else plain_ops++;
        }
        free(text);
        pr_number(r, "fixed", "ptx.sync_warp_ops", (double)sync_ops);
        pr_step(r, "build-ptx", STEP_PASS, "nvcc -O3 -arch=%s -ptx: the bad kernel %s; the fixed one builds",
                env->o->arch, bad_failed ? "does not build (expected)" : "builds");
    }
    char *summary = xasprintf("bad: %s; fixed: %ld shfl.sync/vote.sync", bad_failed ? "does not compile" : "compiles",
                              sync_ops);
    pr_text(r, "", "static.summary", summary);
    free(summary);
    bool pass = bad_failed && names_it && fixed_ok && sync_ops > 0 && plain_ops == 0;
    pr_step(r, "static", pass ? STEP_PASS : STEP_FAIL,
            "bad kernel: %s%s%s; fixed kernel: %s, %ld warp shuffles/votes with a mask (.sync), %ld without",
            bad_failed ? "nvcc rejects it: " : "nvcc compiles it (the rule predicts it does not)",
            bad_failed ? (line ? line : "(no message)") : "", bad_failed && !names_it ? " (not about the intrinsic)" : "",
            fixed_ok ? "builds" : "does not build", sync_ops, plain_ops);
    free(line);
    free(fixed_ptx);
    free(log);
}

void confirm_static_steps(struct confirm_env *env, struct pair_result *r, const char *pwork)
{
    const struct pair *p = r->pair;
    const struct static_check *check = static_check_of(p->static_check);
    if (check && check->steps) {
        check->steps(env, r, pwork);
        return;
    }
    const char *variants[2] = {"bad", "fixed"};
    struct asm_mix mix[2];
    char *log = path_join(pwork, "nvcc.log");
    bool built = true;
    for (int v = 0; v < 2 && built; v++) {
        struct strvec a = {0};
        char *ptx = xasprintf("%s/%s.ptx", pwork, variants[v]);
        confirm_variant_command(env, p, pwork, variants[v], "-ptx", ptx, &a);
        free(ptx);
        char *warn = NULL;
        built = confirm_nvcc(env, r, "build-ptx", &a, log, &warn);
        if (built && warn) pr_text(r, variants[v], "build.warnings", warn);
        free(warn);
        sv_release(&a);
    }
    if (!built) {
        pr_step(r, "static", STEP_SKIP, "the PTX did not build");
        free(log);
        return;
    }
    for (int v = 0; v < 2; v++) {
        char *path = xasprintf("%s/%s.ptx", pwork, variants[v]);
        char *text = file_read_text(path);
        asm_mix_count(text ? text : "", &mix[v]);
        record_mix(r, variants[v], "ptx", &mix[v]);
        free(text);
        free(path);
    }
    pr_step(r, "build-ptx", STEP_PASS, "nvcc -O3 -arch=%s -ptx: bad %ld, fixed %ld instructions",
            env->o->arch, mix[0].instructions, mix[1].instructions);
    char *detail = NULL, *summary = NULL;
    enum step_status st = judge_static(p, &mix[0], &mix[1], "PTX", &detail, &summary);
    pr_text(r, "", "static.summary", summary);
    pr_step(r, "static", st, "%s", detail);
    free(detail);
    free(summary);

    /* SASS, when cuobjdump is there to read the cubin */
    if (!env->cuobjdump) {
        pr_step(r, "static-sass", STEP_SKIP, "cuobjdump not installed: PTX only");
        free(log);
        return;
    }
    for (int v = 0; v < 2 && built; v++) {
        struct strvec a = {0};
        char *cubin = xasprintf("%s/%s.cubin", pwork, variants[v]);
        confirm_variant_command(env, p, pwork, variants[v], "-cubin", cubin, &a);
        built = confirm_nvcc(env, r, "build-sass", &a, log, NULL);
        sv_release(&a);
        if (built) {
            char *argv[] = {env->cuobjdump, "-sass", cubin, NULL};
            struct proc_result pr;
            proc_run(argv, NULL, pwork, TIMEOUT_NVCC, false, NULL, &pr);
            if (pr.exit_code != 0) {
                char *tail = text_tail(pr.err, 4);
                pr_step(r, "build-sass", STEP_ERROR, "cuobjdump -sass failed: %s", tail);
                free(tail);
                built = false;
            } else {
                char *sass = xasprintf("%s/%s.sass", pwork, variants[v]);
                file_write_text(sass, pr.out, strlen(pr.out));
                free(sass);
                asm_mix_count(pr.out, &mix[v]);
                record_mix(r, variants[v], "sass", &mix[v]);
            }
            proc_result_release(&pr);
        }
        free(cubin);
    }
    if (built) {
        pr_step(r, "build-sass", STEP_PASS, "cuobjdump -sass: bad %ld, fixed %ld instructions",
                mix[0].instructions, mix[1].instructions);
        st = judge_static(p, &mix[0], &mix[1], "SASS", &detail, &summary);
        pr_text(r, "", "static-sass.summary", summary);
        pr_step(r, "static-sass", st, "%s", detail);
        free(detail);
        free(summary);
    } else {
        pr_step(r, "static-sass", STEP_SKIP, "the SASS could not be produced");
    }
    free(log);
}

/* The host kinds (CU5xx): both variants compiled to host objects with
   nvcc -c, disassembled with objdump -d -r, judged by confirm_host.c. */
static void static_host(struct confirm_env *env, struct pair_result *r, const char *pwork)
{
    const struct pair *p = r->pair;
    const char *variants[2] = {"bad", "fixed"};
    struct host_mix mix[2];
    char *warn[2] = {NULL, NULL};
    char *log = path_join(pwork, "nvcc.log");
    bool ok = true;
    for (int v = 0; v < 2 && ok; v++) {
        struct strvec a = {0};
        char *obj = xasprintf("%s/%s.o", pwork, variants[v]);
        confirm_variant_command(env, p, pwork, variants[v], "-c", obj, &a);
        char *before = file_read_text(log);
        size_t skip = before ? strlen(before) : 0;
        free(before);
        ok = confirm_nvcc(env, r, "build-host", &a, log, NULL);
        sv_release(&a);
        /* this build's whole output (the log holds both builds) */
        char *after = file_read_text(log);
        if (ok && after && strlen(after) > skip) warn[v] = xstrdup(after + skip);
        free(after);
        if (ok) {
            char *argv[] = {"objdump", "-d", "-r", "--no-show-raw-insn", obj, NULL};
            struct proc_result pr;
            proc_run(argv, NULL, pwork, TIMEOUT_NVCC, false, NULL, &pr);
            if (pr.exit_code != 0) {
                pr_step(r, "build-host", STEP_ERROR, "objdump -d -r failed%s",
                        pr.not_found ? " (objdump is not installed)" : "");
                ok = false;
            } else {
                host_mix_count(pr.out, &mix[v]);
                host_mix_record(r, variants[v], &mix[v]);
                if (warn[v] && strstr(warn[v], "warning")) {
                    char *tail = text_tail(warn[v], 3);
                    pr_text(r, variants[v], "build.warnings", tail);
                    free(tail);
                }
            }
            proc_result_release(&pr);
        }
        free(obj);
    }
    if (!ok) {
        pr_step(r, "static", STEP_SKIP, "the host objects did not build");
    } else {
        pr_step(r, "build-host", STEP_PASS, "nvcc -O3 -arch=%s -c and objdump -d -r: bad %ld, fixed %ld CUDA API calls",
                env->o->arch, mix[0].api_calls, mix[1].api_calls);
        char *detail = NULL;
        enum step_status st = host_mix_judge(p->static_check, &mix[0], &mix[1], warn[0], warn[1], &detail);
        pr_text(r, "", "static.summary", detail);
        pr_step(r, "static", st, "%s (host code)", detail);
        free(detail);
    }
    free(warn[0]);
    free(warn[1]);
    free(log);
}
