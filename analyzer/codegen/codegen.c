/* codegen.c: codegen evidence for the performance findings of one file.
 *
 * The file (as linted) is copied into a scratch directory and compiled once
 * with the toolkit's nvcc, `-ptx -O3 -lineinfo -arch=sm_XX` and the include
 * paths, macros, -std and forced includes of its compile database entry (or
 * the defaults of toolkit mode); nothing else of the database's command is
 * used, so no program a checkout names (-ccbin, plugins) runs and nvcc only
 * compiles.  ptx_lines.c attributes the PTX to source lines; each rule's
 * finding is then judged on its own line(s):
 *   CU201, CU204  f64 instructions (arithmetic, cvt to or from f64)
 *   CU202         a call of the pow routine, or the instructions of an inlined one
 *   CU203         an IEEE division (div.rn.f32; div.full/approx with fast math)
 *   CU401         the shared accesses of the conflicting lines (vector widths)
 *   CU402         the width of the global accesses (evidence only)
 *   CU403         the function's stack frame (ptxas -v) and ld/st.local on the line
 *   CU301         the function compiled again with the counter made int
 * A compile error, a time-out or a line nvcc attributes nothing to leaves the
 * finding as found (CODEGEN_UNCHECKED) with a note saying why. */
#include "codegen/codegen.h"
#include "codegen/ptx_lines.h"
#include "base/cachedir.h"
#include "base/proc.h"
#include "base/util.h"
#include "frontend/compile_args.h"
#include "frontend/toolkit.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One nvcc compile a second, and a hard stop well inside the per-file limit
   (--time-limit) so that the static findings still come out. */
#define CODEGEN_TIMEOUT_S 60
/* CU301 compiles the file again per finding: at most this many per file. */
#define CODEGEN_MAX_CU301 8

static bool rule_is(const struct rule *r, const char *code)
{
    return r && strcmp(r->code, code) == 0;
}

bool codegen_checks_rule(const struct rule *r)
{
    static const char *const codes[] = {"CU201", "CU202", "CU203", "CU204", "CU301", "CU401", "CU402", "CU403", NULL};
    for (size_t i = 0; codes[i]; i++)
        if (rule_is(r, codes[i])) return true;
    return false;
}

bool codegen_enabled(const struct lint_options *o)
{
    if (o->codegen == 0 || o->headers == HEADERS_SHIM) return false;
    return o->toolkit && o->toolkit->nvcc;
}

/* ---- the compile ---- */

struct compile_setup {
    char *nvcc, *ptxas;
    char *arch;          /* "sm_90" */
    char *label;         /* "nvcc 13.0 -O3 sm_90" */
    struct strvec flags; /* include paths, macros, -std, -include */
    char *scratch;       /* the scratch directory */
    int timeout_s;       /* one compile's limit */
    double budget_s;     /* all of the file's compiles together */
    double seconds;
    bool timed_out;      /* a compile ran out of time: the verdicts are not kept */
};

static int arch_number(const char *a)
{
    const char *u = strchr(a, '_');
    return u ? atoi(u + 1) : 0;
}

/* nvcc runs its steps through /bin/sh and passes -D values, include paths
   and file names to it unquoted: `$(...)` in a database's -D would run.  An
   argument nvcc gets from the linted repository must therefore be made of
   characters no shell treats specially; one that is not is left out (the
   compile may then fail, and the findings stay unchecked). */
static bool shell_safe(const char *s)
{
    if (!*s) return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_./+,:=@%^~-", *p)) return false;
    return true;
}

/* The database's clang arguments that nvcc takes as well. */
static void add_flags_from(struct strvec *flags, const struct strvec *clang_args)
{
    const char *prev = NULL;
    for (size_t i = 0; i < clang_args->len; i++) {
        const char *a = clang_args->items[i];
        const char *next = i + 1 < clang_args->len ? clang_args->items[i + 1] : NULL;
        if (compile_arg_refused(prev, a)) {
            prev = a;
            continue;
        }
        prev = a;
        if ((str_starts_with(a, "-I") || str_starts_with(a, "-D") || str_starts_with(a, "-U")) && a[2]) {
            if (shell_safe(a + 2)) sv_push(flags, a);
        } else if ((!strcmp(a, "-I") || !strcmp(a, "-D") || !strcmp(a, "-U")) && next) {
            if (shell_safe(next)) sv_push_owned(flags, xasprintf("%s%s", a, next));
            i++;
        } else if ((!strcmp(a, "-isystem") || !strcmp(a, "-iquote") || !strcmp(a, "-idirafter")) && next) {
            /* nvcc has -isystem only: quoted and after-paths search as -I */
            if (shell_safe(next))
                sv_push_owned(flags, xasprintf("%s%s", strcmp(a, "-isystem") ? "-I" : "-isystem=", next));
            i++;
        } else if (!strcmp(a, "-include") && next) {
            if (!compile_arg_refused(a, next) && shell_safe(next)) {
                sv_push(flags, "-include");
                sv_push(flags, next);
            }
            i++;
        } else if (str_starts_with(a, "-std=")) {
            const char *v = a + 5;
            if (str_starts_with(v, "gnu++")) v += 3;
            if (str_starts_with(v, "c++") && shell_safe(v)) sv_push_owned(flags, xasprintf("-std=%s", v));
        }
    }
}

/* The flags of the database's nvcc command that change the code nvcc emits
   (fast math, flush to zero, division and square root precision, FMA
   contraction, relocatable device code); translate_compile_args drops them
   because clang has no use for them.  Only the forms with a true/false
   value are taken. */
static void add_codegen_flags(struct strvec *flags, const struct strvec *argv)
{
    static const char *const with_value[] = {"-ftz=", "--ftz=", "-prec-div=", "--prec-div=", "-prec-sqrt=",
                                             "--prec-sqrt=", "-fmad=", "--fmad=", "-rdc=",
                                             "--relocatable-device-code=", NULL};
    for (size_t i = 1; i < argv->len; i++) {
        const char *a = argv->items[i];
        if (!strcmp(a, "-use_fast_math") || !strcmp(a, "--use_fast_math")) {
            sv_push(flags, "--use_fast_math");
            continue;
        }
        if (!strcmp(a, "-dc") || !strcmp(a, "--device-c")) {
            sv_push(flags, "-rdc=true");
            continue;
        }
        for (size_t k = 0; with_value[k]; k++) {
            size_t n = strlen(with_value[k]);
            if (strncmp(a, with_value[k], n) == 0 && (!strcmp(a + n, "true") || !strcmp(a + n, "false")))
                sv_push_owned(flags, xasprintf("%s%s", with_value[k][1] == '-' ? with_value[k] + 1 : with_value[k],
                                               a + n));
        }
    }
}

static bool setup_compile(const struct lint_options *o, const char *path, const struct strvec *guessed,
                          struct compile_setup *cs)
{
    memset(cs, 0, sizeof *cs);
    cs->nvcc = xstrdup(o->toolkit->nvcc);
    char *bin = path_dirname(cs->nvcc);
    cs->ptxas = path_join(bin, "ptxas");
    free(bin);
    struct strvec db_args = {0}, db_archs = {0};
    char *abs = path_absolute(path);
    const struct compile_command *cc = o->compdb ? compdb_find(o->compdb, abs) : NULL;
    if (cc) {
        char *err = NULL;
        if (translate_compile_args(&cc->argv, cc->directory, &db_args, &db_archs, &err) != 0) {
            free(err);
            sv_release(&db_args);
            sv_release(&db_archs);
            free(abs);
            return false;
        }
    }
    /* The newest architecture the build (or --cuda-arch) names. */
    const struct strvec *archs = (!o->explicit_archs && db_archs.len) ? &db_archs : &o->archs;
    const char *best = NULL;
    for (size_t i = 0; i < archs->len; i++)
        if (!best || arch_number(archs->items[i]) > arch_number(best)) best = archs->items[i];
    cs->arch = best && arch_number(best) ? xasprintf("sm_%s", strchr(best, '_') + 1) : xstrdup("sm_90");
    cs->label = xasprintf("nvcc %s -O3 %s", o->toolkit->version ? o->toolkit->version : "", cs->arch);
    /* The file's own directory first: it is compiled from the scratch copy. */
    char *dir = path_dirname(abs);
    if (shell_safe(dir)) sv_push_owned(&cs->flags, xasprintf("-I%s", dir));
    free(dir);
    add_flags_from(&cs->flags, &db_args);
    add_flags_from(&cs->flags, &o->extra_args);
    /* No compile command: the include folders the parse guessed (the
       project's own headers in sibling folders), so that nvcc finds what
       clang found. */
    for (size_t i = 0; !cc && guessed && i < guessed->len; i++)
        if (shell_safe(guessed->items[i])) sv_push_owned(&cs->flags, xasprintf("-I%s", guessed->items[i]));
    if (cc) add_codegen_flags(&cs->flags, &cc->argv);
    /* What clang accepts in device code without being asked (constexpr host
       functions called from the device, annotated lambdas): nvcc wants flags. */
    sv_push(&cs->flags, "--expt-relaxed-constexpr");
    sv_push(&cs->flags, "--extended-lambda");
    bool has_std = false;
    for (size_t i = 0; i < cs->flags.len; i++) has_std |= str_starts_with(cs->flags.items[i], "-std=");
    if (!has_std) sv_push(&cs->flags, "-std=c++17");
    sv_release(&db_args);
    sv_release(&db_archs);
    free(abs);
    /* The file's whole lint must end inside --time-limit (else the
       supervisor reports it as an error and the static findings are lost):
       codegen gets a third of it. */
    cs->budget_s = o->time_limit > 0 ? o->time_limit / 3 : 5.0 * CODEGEN_TIMEOUT_S;
    cs->timeout_s = CODEGEN_TIMEOUT_S;
    if (cs->budget_s < cs->timeout_s) cs->timeout_s = (int)cs->budget_s + 1;
    return true;
}

static void release_setup(struct compile_setup *cs)
{
    free(cs->nvcc);
    free(cs->ptxas);
    free(cs->arch);
    free(cs->label);
    sv_release(&cs->flags);
    if (cs->scratch) remove_tree(cs->scratch);
    free(cs->scratch);
}

/* The scratch copy's name: the file's own when the shell cannot misread it
   (nvcc's messages then name it), else "source.cu". */
static char *scratch_name(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    return xstrdup(shell_safe(base) ? base : "source.cu");
}

/* A scratch directory under the cache directory (so that a run writes only
   there), else under $TMPDIR. */
static char *make_scratch(const struct lint_options *o)
{
    const char *cache = o->no_cache ? NULL : cache_dir_writable(o->cache_dir, false);
    char *base = cache ? path_join(cache, "codegen") : NULL;
    if (base) mkdir_p(base, 0700);
    const char *tmp = getenv("TMPDIR");
    char *tmpl = xasprintf("%s/cudalint-codegen-XXXXXX", base ? base : (tmp && *tmp ? tmp : "/tmp"));
    free(base);
    if (!shell_safe(tmpl)) { /* nvcc's shell would split it */
        free(tmpl);
        tmpl = xstrdup("/tmp/cudalint-codegen-XXXXXX");
    }
    if (!mkdtemp(tmpl)) {
        free(tmpl);
        return NULL;
    }
    return tmpl;
}

/* Compiles text as sub/NAME to PTX; returns the PTX (malloc'd) and sets
   *source to the name nvcc was given, or returns NULL with *why. */
static char *compile_ptx(struct compile_setup *cs, const char *name, const char *sub, const char *text,
                         size_t len, char **source, char **why)
{
    char *dir = path_join(cs->scratch, sub);
    mkdir_p(dir, 0700);
    char *src = path_join(dir, name);
    char *out = path_join(dir, "out.ptx");
    char *ptx = NULL;
    if (!file_write_text(src, text, len)) {
        *why = xstrdup("cannot write the scratch copy");
        goto done;
    }
    struct strvec argv = {0};
    double left = cs->budget_s - cs->seconds;
    int timeout_s = left < cs->timeout_s ? (int)left + 1 : cs->timeout_s;
    sv_push(&argv, cs->nvcc);
    sv_push(&argv, "-ptx");
    sv_push(&argv, "-O3");
    sv_push(&argv, "-lineinfo");
    sv_push_owned(&argv, xasprintf("-arch=%s", cs->arch));
    for (size_t i = 0; i < cs->flags.len; i++) sv_push(&argv, cs->flags.items[i]);
    sv_push(&argv, "-o");
    sv_push(&argv, out);
    sv_push(&argv, "-x"); /* a header (.cuh) is compiled as CUDA too */
    sv_push(&argv, "cu");
    sv_push(&argv, src);
    sv_push_owned(&argv, NULL);
    char *tmpenv = xasprintf("TMPDIR=%s", dir);
    const char *env[] = {tmpenv, NULL};
    struct proc_result pr;
    proc_run(argv.items, dir, dir, timeout_s, true, env, &pr);
    cs->seconds += pr.seconds;
    if (pr.timed_out) {
        *why = xasprintf("%s timed out after %d s", cs->label, timeout_s);
        cs->timed_out = true;
    }
    else if (pr.exit_code != 0) {
        /* nvcc's first error line ("x.cu(4): error: ..."), or the host
           compiler's ("x.cu:3:10: fatal error: y.h: No such file or
           directory"), else its last lines */
        const char *e = strstr(pr.out, ": error");
        const char *fe = strstr(pr.out, ": fatal error");
        if (fe && (!e || fe < e)) e = fe;
        const char *from = e;
        while (from && from > pr.out && from[-1] != '\n') from--;
        char *first = e ? xstrndup(from, strcspn(from, "\n")) : text_tail(pr.out, 2);
        /* the scratch copy's path means nothing to the user: its name */
        char *at = strstr(first, src);
        if (at) memmove(at, at + strlen(src) - strlen(name), strlen(at + strlen(src) - strlen(name)) + 1);
        *why = xasprintf("%s failed: %s", cs->label, first);
        free(first);
    } else if (!(ptx = file_read_text(out))) {
        *why = xasprintf("%s wrote no PTX", cs->label);
    }
    proc_result_release(&pr);
    free(tmpenv);
    argv.len--; /* the NULL pushed last */
    sv_release(&argv);
done:
    if (ptx) *source = src;
    else free(src);
    free(out);
    free(dir);
    return ptx;
}

/* ptxas -v over the PTX of sub/: its output (the stack frames), or NULL. */
static char *run_ptxas(struct compile_setup *cs, const char *sub)
{
    char *dir = path_join(cs->scratch, sub);
    char *in = path_join(dir, "out.ptx"), *out = path_join(dir, "out.cubin");
    char *arch = xasprintf("-arch=%s", cs->arch);
    char *argv[] = {cs->ptxas, "-v", arch, "-o", out, in, NULL};
    struct proc_result pr;
    proc_run(argv, dir, dir, cs->timeout_s, true, NULL, &pr);
    cs->seconds += pr.seconds;
    char *text = pr.exit_code == 0 ? xstrdup(pr.out) : NULL;
    proc_result_release(&pr);
    free(arch);
    free(in);
    free(out);
    free(dir);
    return text;
}

/* The name nvcc gave a header in the PTX's `.file` table (the path it found
   it under), for the header the linted path names; NULL when nothing of it
   was compiled. */
static char *ptx_file_entry_for(const char *ptx, const char *path)
{
    char *want = realpath(path, NULL);
    if (!want) return NULL;
    char *found = NULL;
    for (const char *line = ptx; line && *line && !found;) {
        const char *end = strchr(line, '\n');
        const char *t = line;
        while (*t == ' ' || *t == '\t') t++;
        if (str_starts_with(t, ".file") && (t[5] == ' ' || t[5] == '\t')) {
            const char *q = strchr(t, '"');
            const char *q2 = q ? strchr(q + 1, '"') : NULL;
            if (q2 && (!end || q2 < end)) {
                char *name = xstrndup(q + 1, (size_t)(q2 - q - 1));
                char *real = realpath(name, NULL);
                if (real && strcmp(real, want) == 0) found = name;
                else free(name);
                free(real);
            }
        }
        line = end ? end + 1 : NULL;
    }
    free(want);
    return found;
}

/* The line tables of the headers whose findings the file's compile judges
   (a kernel header's code compiled as the linted file includes it). */
struct header_lines {
    char *file;            /* the finding's file, as the finding names it */
    bool read;             /* some code of it was compiled */
    struct ptx_lines pl;
};

/* ---- the verdicts ---- */

struct line_span {
    struct asm_mix mix;
    long instructions, fdiv_other, shared_scalar, shared_vector, shared_vector_bytes;
    long global_accesses, global_widest, global_narrowest;
    char *call;      /* a pow routine called from the span, or NULL */
    int functions[8];
    size_t n_functions;
};

/* Sums the records of lines [first, last]. */
static void span_of(const struct ptx_lines *pl, unsigned first, unsigned last, struct line_span *s)
{
    memset(s, 0, sizeof *s);
    s->global_narrowest = -1;
    for (unsigned l = first; l <= last && l - first < 64; l++) {
        const struct ptx_line *r = ptx_lines_find(pl, l);
        if (!r) continue;
        s->instructions += r->mix.instructions;
        s->mix.fp64_arith += r->mix.fp64_arith;
        s->mix.cvt_f64_f32 += r->mix.cvt_f64_f32;
        s->mix.cvt_f32_f64 += r->mix.cvt_f32_f64;
        s->mix.fdiv += r->mix.fdiv;
        s->mix.ld_local += r->mix.ld_local;
        s->mix.st_local += r->mix.st_local;
        s->mix.ld_shared += r->mix.ld_shared;
        s->mix.st_shared += r->mix.st_shared;
        s->fdiv_other += r->fdiv_other;
        s->shared_scalar += r->shared_scalar;
        s->shared_vector += r->shared_vector;
        if (r->shared_vector_bytes > s->shared_vector_bytes) s->shared_vector_bytes = r->shared_vector_bytes;
        s->global_accesses += r->global_accesses;
        if (r->global_widest_bytes > s->global_widest) s->global_widest = r->global_widest_bytes;
        if (r->global_narrowest_bytes >= 0 && (s->global_narrowest < 0 || r->global_narrowest_bytes < s->global_narrowest))
            s->global_narrowest = r->global_narrowest_bytes;
        for (size_t i = 0; i < r->n_calls && !s->call; i++)
            if (strstr(r->calls[i], "pow")) s->call = r->calls[i];
        for (size_t i = 0; i < r->n_functions; i++) {
            bool seen = false;
            for (size_t j = 0; j < s->n_functions; j++) seen |= s->functions[j] == r->functions[i];
            if (!seen && s->n_functions < 8) s->functions[s->n_functions++] = r->functions[i];
        }
    }
}

/* The functions whose code has lines on both sides of line (the function a
   line without instructions sits in), into s->functions. */
static void functions_around(const struct ptx_lines *pl, unsigned line, struct line_span *s)
{
    for (size_t f = 0; f < pl->n_functions; f++) {
        bool before = false, after = false;
        for (size_t i = 0; i < pl->n_lines; i++) {
            const struct ptx_line *r = &pl->lines[i];
            for (size_t k = 0; k < r->n_functions; k++)
                if (r->functions[k] == (int)f) {
                    if (r->line < line) before = true;
                    if (r->line > line) after = true;
                }
        }
        if (before && after && s->n_functions < 8) s->functions[s->n_functions++] = (int)f;
    }
}

static void verdict(struct diag *d, enum codegen_verdict v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void verdict(struct diag *d, enum codegen_verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) < 0) text = NULL;
    va_end(ap);
    d->codegen = (unsigned char)v;
    if (text) diag_add_note(d, d->file, d->line, d->column, "%s", text);
    free(text);
}

static long f64_count(const struct asm_mix *m)
{
    return m->fp64_arith + m->cvt_f64_f32 + m->cvt_f32_f64;
}

/* A line nvcc attributed nothing to: disproved only when no function around
   it has any code of the kind (the whole expression folded away). */
static void judge_empty_line(struct diag *d, const struct ptx_lines *pl, const struct compile_setup *cs,
                             const char *kind, bool (*has_kind)(const struct ptx_line *))
{
    struct line_span s;
    memset(&s, 0, sizeof s);
    functions_around(pl, d->line, &s);
    if (!s.n_functions) {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s attributes no instruction to this line", cs->label);
        return;
    }
    for (size_t i = 0; i < pl->n_lines; i++) {
        const struct ptx_line *r = &pl->lines[i];
        for (size_t k = 0; k < r->n_functions; k++)
            for (size_t j = 0; j < s.n_functions; j++)
                if (r->functions[k] == s.functions[j] && has_kind(r)) {
                    verdict(d, CODEGEN_UNCHECKED,
                            "codegen not checked: %s attributes no instruction to this line (the function has %s "
                            "on line %u)", cs->label, kind, r->line);
                    return;
                }
    }
    verdict(d, CODEGEN_DISPROVED, "%s: no instruction on this line and no %s in the function: folded at compile time",
            cs->label, kind);
}

static bool line_has_f64(const struct ptx_line *r)
{
    return f64_count(&r->mix) > 0;
}

static bool line_has_div(const struct ptx_line *r)
{
    return r->mix.fdiv + r->fdiv_other > 0;
}

static void judge_f64(struct diag *d, const struct ptx_lines *pl, const struct compile_setup *cs)
{
    struct line_span s;
    span_of(pl, d->line, d->end_line > d->line ? d->end_line : d->line, &s);
    long n = f64_count(&s.mix);
    if (n > 0) {
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld f64 instruction%s on this line (%ld arithmetic, %ld conversion%s)",
                cs->label, n, n == 1 ? "" : "s", s.mix.fp64_arith, s.mix.cvt_f64_f32 + s.mix.cvt_f32_f64,
                s.mix.cvt_f64_f32 + s.mix.cvt_f32_f64 == 1 ? "" : "s");
    } else if (s.instructions > 0) {
        verdict(d, CODEGEN_DISPROVED, "%s: no f64 instruction among the %ld on this line: folded to f32", cs->label,
                s.instructions);
    } else {
        judge_empty_line(d, pl, cs, "f64 instruction", line_has_f64);
    }
}

static void judge_pow(struct diag *d, const struct ptx_lines *pl, const struct compile_setup *cs)
{
    struct line_span s;
    span_of(pl, d->line, d->end_line > d->line ? d->end_line : d->line, &s);
    if (s.call) {
        bool dbl = strstr(s.call, "accurate_pow") || (strstr(s.call, "pow") && !strstr(s.call, "powf"));
        verdict(d, CODEGEN_CONFIRMED, "%s: this line calls %s%s (%ld instructions on the line besides)", cs->label,
                s.call, dbl ? ", the double-precision pow routine" : "", s.instructions);
    } else if (s.instructions >= 16) {
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld instructions on this line (the pow routine inlined%s)", cs->label,
                s.instructions, f64_count(&s.mix) ? ", in double precision" : "");
    } else if (s.instructions > 0) {
        verdict(d, CODEGEN_DISPROVED, "%s: %ld instruction%s on this line and no pow call: nvcc already expanded it",
                cs->label, s.instructions, s.instructions == 1 ? "" : "s");
    } else {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s attributes no instruction to this line", cs->label);
    }
}

static void judge_div(struct diag *d, const struct ptx_lines *pl, const struct compile_setup *cs)
{
    struct line_span s;
    span_of(pl, d->line, d->end_line > d->line ? d->end_line : d->line, &s);
    if (s.mix.fdiv > 0)
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld IEEE division%s (div.rn.f32) on this line", cs->label, s.mix.fdiv,
                s.mix.fdiv == 1 ? "" : "s");
    else if (s.fdiv_other > 0)
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld division%s (div.full/div.approx.f32) on this line", cs->label,
                s.fdiv_other, s.fdiv_other == 1 ? "" : "s");
    else if (s.instructions > 0)
        verdict(d, CODEGEN_DISPROVED, "%s: no division among the %ld instructions on this line (a multiply by the "
                "reciprocal, or folded)", cs->label, s.instructions);
    else
        judge_empty_line(d, pl, cs, "division", line_has_div);
}

static void judge_global(struct diag *d, const struct ptx_lines *pl, const struct compile_setup *cs)
{
    struct line_span s;
    span_of(pl, d->line, d->end_line > d->line ? d->end_line : d->line, &s);
    if (!s.global_accesses) {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s has no global access on this line", cs->label);
        return;
    }
    if (s.global_widest == s.global_narrowest)
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld global access%s of %ld bytes per thread on this line", cs->label,
                s.global_accesses, s.global_accesses == 1 ? "" : "es", s.global_widest);
    else
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld global accesses of %ld to %ld bytes per thread on this line",
                cs->label, s.global_accesses, s.global_narrowest, s.global_widest);
}

/* CU401: the finding sits on the array's declaration; its notes name the
   conflicting accesses ("4-way bank conflict in this read: ...").  A k-way
   conflict of a stride-k word pattern is gone when nvcc fused each thread's
   k words into one k*4-byte vector access (a warp's 64- and 128-bit shared
   accesses are served in 2 and 4 conflict-free phases).  Anything else is
   kept: the PTX does not show the addresses. */
static void judge_shared(struct diag *d, const struct ptx_lines *pl, const struct compile_setup *cs)
{
    long scalar = 0, vector = 0, widest = 0;
    int degree = 0, least = 0;
    size_t lines = 0;
    for (size_t i = 0; i < d->n_notes; i++) {
        const struct diag_note *n = &d->notes[i];
        const char *w = strstr(n->message, "-way bank conflict");
        if (!w || strcmp(n->file, d->file) != 0) continue;
        const char *p = w;
        while (p > n->message && isdigit((unsigned char)p[-1])) p--;
        int k = atoi(p);
        if (k > degree) degree = k;
        if (!least || k < least) least = k;
        /* each line once: two accesses on one line share its instructions */
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) seen = d->notes[j].line == n->line && strstr(d->notes[j].message, "-way bank conflict");
        if (seen) continue;
        struct line_span s;
        span_of(pl, n->line, n->line, &s);
        lines++;
        scalar += s.shared_scalar;
        vector += s.shared_vector;
        if (s.shared_vector_bytes > widest) widest = s.shared_vector_bytes;
    }
    /* Accesses on neighbouring lines fuse into one instruction on one of
       them: the lines are judged together. */
    bool all_fused = scalar == 0 && vector > 0 && least == degree && widest == 4L * degree;
    if (!lines) {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: the finding names no conflicting access line");
    } else if (scalar + vector == 0) {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s has no shared access on the conflicting lines",
                cs->label);
    } else if (all_fused) {
        verdict(d, CODEGEN_DISPROVED, "%s: each thread's words are one %ld-byte vector access (ld/st.shared.v%ld): "
                "a %d-way pattern of scalar words is conflict-free as vectors", cs->label, widest, widest / 4, degree);
    } else if (vector) {
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld scalar and %ld vector shared access%s (up to %ld bytes) on the "
                "conflicting lines: the static model counts words", cs->label, scalar, vector, vector == 1 ? "" : "es",
                widest);
    } else {
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld scalar shared access%s on the conflicting lines", cs->label, scalar,
                scalar == 1 ? "" : "es");
    }
}

static void judge_local(struct diag *d, const struct ptx_lines *pl, const struct compile_setup *cs)
{
    struct line_span s;
    span_of(pl, d->line, d->end_line > d->line ? d->end_line : d->line, &s);
    if (!s.n_functions) functions_around(pl, d->line, &s);
    long frame = -1;
    for (size_t i = 0; i < s.n_functions; i++) {
        long f = pl->functions[s.functions[i]].stack_frame;
        if (f > frame) frame = f;
    }
    long local = s.mix.ld_local + s.mix.st_local;
    if (frame < 0)
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: ptxas -v gave no stack frame for this function");
    else if (frame == 0)
        verdict(d, CODEGEN_DISPROVED, "%s: ptxas -v: 0 bytes stack frame: the array is kept in registers", cs->label);
    else if (local)
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld bytes stack frame; %ld local load%s and stores (ld/st.local) on this line",
                cs->label, frame, local, local == 1 ? "" : "s");
    else if (s.instructions)
        verdict(d, CODEGEN_DISPROVED, "%s: no ld/st.local among the %ld instructions on this line (the %ld-byte stack "
                "frame is another array's or a spill)", cs->label, s.instructions, frame);
    else
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s attributes no instruction to this line (%ld bytes "
                "stack frame)", cs->label, frame);
}

/* CU301: the same file with the fix applied (the counter's type made int),
   compiled again; identical instruction counts of the functions that hold the
   loop mean the unsigned counter costs nothing. */
static void judge_counter(struct diag *d, const char *name, const char *text, size_t len,
                          const struct ptx_lines *pl, struct compile_setup *cs, int n)
{
    const struct diag_fix *fix = NULL;
    for (size_t i = 0; i < d->n_fixes; i++)
        if (!strcmp(d->fixes[i].file, d->file) && !strcmp(d->fixes[i].replacement, "int")) fix = &d->fixes[i];
    if (!fix || fix->end_offset > len || fix->offset > fix->end_offset) {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: no type declaration to rewrite");
        return;
    }
    struct line_span s;
    memset(&s, 0, sizeof s);
    span_of(pl, d->line, d->line, &s);
    for (size_t i = 0; i < d->n_notes; i++)
        if (!strcmp(d->notes[i].file, d->file)) {
            struct line_span t;
            span_of(pl, d->notes[i].line, d->notes[i].line, &t);
            for (size_t k = 0; k < t.n_functions && s.n_functions < 8; k++) {
                bool seen = false;
                for (size_t j = 0; j < s.n_functions; j++) seen |= s.functions[j] == t.functions[k];
                if (!seen) s.functions[s.n_functions++] = t.functions[k];
            }
        }
    if (!s.n_functions) functions_around(pl, d->line, &s);
    if (!s.n_functions) {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s attributes no instruction to the loop", cs->label);
        return;
    }
    struct strbuf copy;
    sb_init(&copy);
    sb_addn(&copy, text, fix->offset);
    sb_add(&copy, "int");
    sb_addn(&copy, text + fix->end_offset, len - fix->end_offset);
    char sub[32];
    snprintf(sub, sizeof sub, "int%d", n);
    char *why = NULL, *source = NULL;
    char *ptx = compile_ptx(cs, name, sub, copy.buf, copy.len, &source, &why);
    free(copy.buf);
    struct ptx_lines other;
    if (!ptx || !ptx_lines_read(ptx, source, &other)) {
        verdict(d, CODEGEN_UNCHECKED, "codegen not checked: the copy with an int counter: %s",
                why ? why : "no line information");
        free(why);
        free(ptx);
        free(source);
        return;
    }
    long before = 0, after = 0;
    for (size_t i = 0; i < s.n_functions; i++) {
        const struct ptx_function *f = &pl->functions[s.functions[i]];
        before += f->instructions;
        for (size_t j = 0; j < other.n_functions; j++)
            if (!strcmp(other.functions[j].name, f->name)) after += other.functions[j].instructions;
    }
    if (before == after)
        verdict(d, CODEGEN_DISPROVED, "%s: the same %ld instructions with an int counter (the loop is unrolled or "
                "the address already strength-reduced)", cs->label, before);
    else
        verdict(d, CODEGEN_CONFIRMED, "%s: %ld instructions with this unsigned counter, %ld with int", cs->label,
                before, after);
    ptx_lines_release(&other);
    free(ptx);
    free(source);
}

bool codegen_check(const struct lint_options *o, const char *path, const char *text, size_t len,
                   const struct strvec *guessed, struct diag_list *diags, double *seconds)
{
    /* The file's findings, and those of the headers it includes: nvcc
       compiles the headers' device code as this file uses it. */
    bool any = false, any_local = false;
    for (size_t i = 0; i < diags->len; i++) {
        const struct diag *d = &diags->items[i];
        if (codegen_checks_rule(d->rule) && d->file) {
            any = true;
            any_local |= rule_is(d->rule, "CU403");
        }
    }
    if (!any) return true;
    if (!codegen_enabled(o)) {
        /* Asked for (--codegen) in toolkit mode, but there is no nvcc to run:
           the findings say so, and --statistics counts them unchecked. */
        if (o->codegen == 1 && o->headers != HEADERS_SHIM)
            for (size_t i = 0; i < diags->len; i++) {
                struct diag *d = &diags->items[i];
                if (codegen_checks_rule(d->rule) && d->file)
                    verdict(d, CODEGEN_UNCHECKED, "codegen not checked: no CUDA Toolkit with nvcc was found");
            }
        return true;
    }
    struct compile_setup cs;
    char *why = NULL, *source = NULL, *ptx = NULL, *ptxas_out = NULL;
    struct ptx_lines pl = {0};
    bool read = false;
    if (!setup_compile(o, path, guessed, &cs)) {
        why = xstrdup("the compile database entry could not be translated");
    } else if (!(cs.scratch = make_scratch(o))) {
        why = xstrdup("no scratch directory");
    } else {
        char *name = scratch_name(path);
        ptx = compile_ptx(&cs, name, "main", text, len, &source, &why);
        free(name);
        if (ptx && !(read = ptx_lines_read(ptx, source, &pl))) why = xasprintf("%s emitted no code for this file (templates never instantiated and functions no kernel calls emit none)", cs.label);
        if (read && any_local) ptxas_out = run_ptxas(&cs, "main");
        if (ptxas_out) ptx_lines_add_ptxas(&pl, ptxas_out);
    }
    struct header_lines *headers = NULL;
    size_t n_headers = 0, cap_headers = 0;
    char *shown = path_display(path);
    int n_counter = 0;
    char *name = scratch_name(path);
    for (size_t i = 0; i < diags->len; i++) {
        struct diag *d = &diags->items[i];
        if (!codegen_checks_rule(d->rule) || !d->file) continue;
        bool in_header = strcmp(d->file, path) != 0;
        if (!ptx) {
            verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s", why ? why : "no toolkit");
            continue;
        }
        const struct ptx_lines *lines = &pl;
        if (in_header) {
            /* the header's line table, read once from this compile */
            size_t h = 0;
            while (h < n_headers && strcmp(headers[h].file, d->file) != 0) h++;
            if (h == n_headers) {
                XGROW(headers, n_headers, cap_headers, 4);
                struct header_lines *hl = &headers[n_headers++];
                memset(hl, 0, sizeof *hl);
                hl->file = xstrdup(d->file);
                char *entry = ptx_file_entry_for(ptx, d->file);
                hl->read = entry && ptx_lines_read(ptx, entry, &hl->pl);
                if (hl->read && ptxas_out) ptx_lines_add_ptxas(&hl->pl, ptxas_out);
                free(entry);
            }
            if (!headers[h].read) {
                verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s emitted no code of this header for %s",
                        cs.label, shown);
                continue;
            }
            lines = &headers[h].pl;
        } else if (!read) {
            verdict(d, CODEGEN_UNCHECKED, "codegen not checked: %s", why ? why : "no toolkit");
            continue;
        }
        const char *c = d->rule->code;
        if (!strcmp(c, "CU201") || !strcmp(c, "CU204")) judge_f64(d, lines, &cs);
        else if (!strcmp(c, "CU202")) judge_pow(d, lines, &cs);
        else if (!strcmp(c, "CU203")) judge_div(d, lines, &cs);
        else if (!strcmp(c, "CU401")) judge_shared(d, lines, &cs);
        else if (!strcmp(c, "CU402")) judge_global(d, lines, &cs);
        else if (!strcmp(c, "CU403")) judge_local(d, lines, &cs);
        else if (in_header) {
            /* the int copy is made of the linted file only */
            verdict(d, CODEGEN_UNCHECKED, "codegen not checked: the loop is in a header; only %s is compiled "
                    "again with the counter made int", shown);
        } else if (!strcmp(c, "CU301")) {
            if (cs.seconds >= cs.budget_s) {
                cs.timed_out = true; /* the machine's load, not the file: not cached */
                verdict(d, CODEGEN_UNCHECKED, "codegen not checked: the file's time for nvcc (%.0f s) is spent",
                        cs.budget_s);
            } else if (n_counter < CODEGEN_MAX_CU301) judge_counter(d, name, text, len, &pl, &cs, n_counter++);
            else verdict(d, CODEGEN_UNCHECKED, "codegen not checked: more than %d CU301 findings in the file",
                         CODEGEN_MAX_CU301);
        }
    }
    free(name);
    for (size_t h = 0; h < n_headers; h++) {
        if (headers[h].read) ptx_lines_release(&headers[h].pl);
        free(headers[h].file);
    }
    free(headers);
    free(shown);
    free(ptxas_out);
    if (seconds) *seconds += cs.seconds;
    ptx_lines_release(&pl);
    free(ptx);
    free(source);
    free(why);
    bool keep = !cs.timed_out;
    release_setup(&cs);
    return keep;
}
