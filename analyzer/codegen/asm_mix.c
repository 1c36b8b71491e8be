/* asm_mix.c: the instruction mix of PTX (nvcc -ptx) and SASS (cuobjdump
 * -sass) listings: the counts `cudalint confirm` compares between a bad and a
 * fixed kernel, including which instructions sit inside loops and which
 * conditional branches jump over a barrier.
 *
 * Loops are found without building a control-flow graph: every backward
 * branch marks the instructions from its target label to itself as a loop
 * body.  That covers the shapes nvcc emits for counted loops (unrolled main
 * loop plus remainder loop) and is what "per iteration" means here. */
#include "codegen/asm_mix.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct insn {
    char op[64];       /* opcode with modifiers: "mad.lo.s32", "IMAD.WIDE.U32" */
    bool predicated;
    char target[64];   /* branch target label ("" when not a branch) */
    long addr;         /* SASS address, -1 for PTX */
};

struct label {
    char name[64];
    size_t at;         /* index of the next instruction */
};

struct listing {
    struct insn *insns;
    size_t n, cap;
    struct label *labels;
    size_t n_labels, cap_labels;
};

static void add_insn(struct listing *l, const struct insn *in)
{
    XGROW(l->insns, l->n, l->cap, 256);
    l->insns[l->n++] = *in;
}

static void add_label(struct listing *l, const char *name, size_t len)
{
    XGROW(l->labels, l->n_labels, l->cap_labels, 64);
    struct label *lb = &l->labels[l->n_labels++];
    if (len >= sizeof lb->name) len = sizeof lb->name - 1;
    memcpy(lb->name, name, len);
    lb->name[len] = '\0';
    lb->at = l->n;
}

static void copy_token(char *dst, size_t cap, const char *s, size_t len)
{
    if (len >= cap) len = cap - 1;
    memcpy(dst, s, len);
    dst[len] = '\0';
}

/* Splits "mad.lo.s32" into its dot-separated parts (at most max). */
static size_t op_parts(const char *op, char parts[][24], size_t max)
{
    size_t n = 0;
    const char *p = op;
    while (*p && n < max) {
        const char *e = strchr(p, '.');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        copy_token(parts[n++], 24, p, len);
        if (!e) break;
        p = e + 1;
    }
    return n;
}

static bool has_part(char parts[][24], size_t n, const char *want)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(parts[i], want) == 0) return true;
    return false;
}

static bool is_int_type(const char *t)
{
    return (t[0] == 's' || t[0] == 'u') && isdigit((unsigned char)t[1]);
}

/* ---- PTX ---- */

static long ptx_type_width(const char *t)
{
    /* .b8 .u8 .s8 -> 1, .f32 -> 4 ... */
    if (!(t[0] == 'b' || t[0] == 'u' || t[0] == 's' || t[0] == 'f')) return 0;
    long bits = strtol(t + 1, NULL, 10);
    return bits > 0 ? bits / 8 : 0;
}

/* ".shared .align 4 .b8 name[4096];" -> 4096; "[32][33]" multiplies. */
static long ptx_shared_decl(const char *line)
{
    long width = 0, count = 1;
    bool dims = false;
    const char *p = line;
    while (*p) {
        if (*p == '.' && (p == line || isspace((unsigned char)p[-1]))) {
            char tok[24];
            size_t len = strcspn(p + 1, " \t;[");
            copy_token(tok, sizeof tok, p + 1, len);
            long w = ptx_type_width(tok);
            if (w && strcmp(tok, "shared") != 0) width = w;
            p += 1 + len;
            continue;
        }
        if (*p == '[') {
            char *end;
            long v = strtol(p + 1, &end, 10);
            if (end == p + 1) return 0; /* "[]": dynamic shared memory, size unknown */
            count *= v;
            dims = true;
            p = end;
            continue;
        }
        p++;
    }
    return dims ? width * count : width;
}

static void parse_ptx(const char *text, struct listing *l, struct asm_mix *m)
{
    const char *line = text;
    while (*line) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        const char *s = line, *end = line + len;
        while (s < end && isspace((unsigned char)*s)) s++;
        while (end > s && isspace((unsigned char)end[-1])) end--;
        size_t n = (size_t)(end - s);
        char buf[512];
        copy_token(buf, sizeof buf, s, n);

        if (n == 0 || str_starts_with(buf, "//") || buf[0] == '{' || buf[0] == '}' ||
            buf[0] == ')' || buf[0] == '(') {
            /* nothing */
        } else if (buf[0] == '.') {
            if (strstr(buf, ".entry ")) m->entries++;
            if (str_starts_with(buf, ".shared") || strstr(buf, " .shared ")) {
                long b = ptx_shared_decl(buf);
                if (b > 0) m->shared_bytes += b;
            }
        } else if (buf[n - 1] == ':' && !strchr(buf, ' ') && !strchr(buf, '\t')) {
            add_label(l, buf, n - 1);
        } else {
            struct insn in = {.addr = -1};
            const char *p = buf;
            if (*p == '@') {
                in.predicated = true;
                p += strcspn(p, " \t");
                while (isspace((unsigned char)*p)) p++;
            }
            size_t oplen = strcspn(p, " \t;");
            copy_token(in.op, sizeof in.op, p, oplen);
            if (str_starts_with(in.op, "bra")) {
                const char *t = p + oplen;
                while (isspace((unsigned char)*t)) t++;
                copy_token(in.target, sizeof in.target, t, strcspn(t, " \t;"));
            }
            if (in.op[0]) add_insn(l, &in);
        }
        if (!eol) break;
        line = eol + 1;
    }
}

static void classify_ptx(const struct insn *in, struct asm_mix *m, bool *is_barrier,
                         bool *is_int_mul)
{
    char parts[8][24];
    size_t n = op_parts(in->op, parts, 8);
    const char *base = parts[0];
    static const char *const fp_ops[] = {"add", "sub", "mul", "fma", "mad", "div", "rcp",
                                         "sqrt", "rsqrt", "neg", "abs", "min", "max",
                                         "setp", "set", "testp", "copysign", NULL};
    *is_barrier = *is_int_mul = false;
    if (strcmp(base, "cvt") == 0) {
        /* cvt[.rnd].dst.src: the first two type parts are dst, src */
        const char *types[2] = {NULL, NULL};
        size_t k = 0;
        for (size_t i = 1; i < n && k < 2; i++)
            if (ptx_type_width(parts[i]) && parts[i][0] != 'b') types[k++] = parts[i];
        if (k == 2 && !strcmp(types[0], "f64") && !strcmp(types[1], "f32")) m->cvt_f64_f32++;
        if (k == 2 && !strcmp(types[0], "f32") && !strcmp(types[1], "f64")) m->cvt_f32_f64++;
        return;
    }
    for (size_t i = 0; fp_ops[i]; i++)
        if (strcmp(base, fp_ops[i]) == 0 && has_part(parts, n, "f64")) {
            m->fp64_arith++;
            return;
        }
    if (!strcmp(base, "mul") || !strcmp(base, "mad") || !strcmp(base, "mul24") ||
        !strcmp(base, "mad24")) {
        for (size_t i = 1; i < n; i++)
            if (is_int_type(parts[i])) {
                *is_int_mul = true;
                break;
            }
        return;
    }
    if (has_part(parts, n, "shared") || has_part(parts, n, "shared::cta")) {
        if (!strcmp(base, "ld")) m->ld_shared++;
        else if (!strcmp(base, "st")) m->st_shared++;
        else if (!strcmp(base, "atom") || !strcmp(base, "red")) m->atom_shared++;
        return;
    }
    if ((!strcmp(base, "bar") || !strcmp(base, "barrier")) && !has_part(parts, n, "warp"))
        *is_barrier = true;
}

/* One PTX instruction (its opcode with modifiers) counted into m, as
   asm_mix_count counts a listing's: the per-line reader of codegen/ptx_lines.c
   uses the same classification. */
void asm_mix_count_ptx_op(const char *op, struct asm_mix *m)
{
    struct insn in = {.addr = -1};
    copy_token(in.op, sizeof in.op, op, strlen(op));
    bool barrier, int_mul;
    classify_ptx(&in, m, &barrier, &int_mul);
    if (barrier) m->barriers++;
    if (int_mul) m->int_mul++;
    if (str_starts_with(op, "div.rn.f32") || str_starts_with(op, "div.rn.ftz.f32")) m->fdiv++;
    if (str_starts_with(op, "ld.local")) m->ld_local++;
    else if (str_starts_with(op, "st.local")) m->st_local++;
    m->instructions++;
}

/* ---- SASS ---- */

static void parse_sass(const char *text, struct listing *l, struct asm_mix *m)
{
    const char *line = text;
    while (*line) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        char buf[512];
        copy_token(buf, sizeof buf, line, len);
        char *s = buf;
        while (isspace((unsigned char)*s)) s++;

        if (strstr(buf, "Function : ")) {
            m->entries++;
        } else if (s[0] == '.' && strchr(s, ':') && !strchr(s, ' ')) {
            add_label(l, s, strcspn(s, ":"));
        } else if (s[0] == '/' && s[1] == '*' && isxdigit((unsigned char)s[2])) {
            /* An instruction line: address comment, optional predicate, opcode,
               operands, then the encoding in another comment, e.g.
               [slash-star]0090[star-slash]  @!P0 IMAD.WIDE R2, R0, R3, c[0x0][0x168] ; */
            struct insn in = {0};
            in.addr = strtol(s + 2, NULL, 16);
            char *p = strstr(s + 2, "*/");
            if (!p) goto next;
            p += 2;
            while (isspace((unsigned char)*p)) p++;
            if (*p == '{') p++; /* dual-issue braces on old architectures */
            while (isspace((unsigned char)*p)) p++;
            if (*p == '@') {
                /* @PT is "always": not a condition */
                in.predicated = !str_starts_with(p, "@PT ");
                p += strcspn(p, " \t");
                while (isspace((unsigned char)*p)) p++;
            }
            size_t oplen = strcspn(p, " \t;");
            if (oplen == 0) goto next;
            copy_token(in.op, sizeof in.op, p, oplen);
            if (str_starts_with(in.op, "BRA")) {
                const char *t = strchr(p, '(');
                if (t) {
                    t++;
                    copy_token(in.target, sizeof in.target, t, strcspn(t, ")"));
                } else {
                    const char *h = p + oplen;
                    while (isspace((unsigned char)*h)) h++;
                    copy_token(in.target, sizeof in.target, h, strcspn(h, " \t;"));
                }
            }
            add_insn(l, &in);
        }
    next:
        if (!eol) break;
        line = eol + 1;
    }
}

static void classify_sass(const struct insn *in, struct asm_mix *m, bool *is_barrier,
                          bool *is_int_mul)
{
    char parts[8][24];
    size_t n = op_parts(in->op, parts, 8);
    const char *base = parts[0];
    *is_barrier = *is_int_mul = false;
    if (!strcmp(base, "F2F")) {
        if (strstr(in->op, ".F64.F32")) m->cvt_f64_f32++;
        else if (strstr(in->op, ".F32.F64")) m->cvt_f32_f64++;
        return;
    }
    if (!strcmp(base, "DADD") || !strcmp(base, "DMUL") || !strcmp(base, "DFMA") ||
        !strcmp(base, "DSETP") || !strcmp(base, "DSET") || !strcmp(base, "DMNMX")) {
        m->fp64_arith++;
        return;
    }
    if (!strcmp(base, "IMAD") || !strcmp(base, "IMUL") || !strcmp(base, "XMAD")) {
        /* IMAD.MOV, IMAD.IADD and IMAD.SHL are ptxas's move, add and shift
           idioms on the multiply-add pipe, not multiplies */
        if (!has_part(parts, n, "MOV") && !has_part(parts, n, "IADD") && !has_part(parts, n, "SHL"))
            *is_int_mul = true;
        return;
    }
    if (!strcmp(base, "LDS")) m->ld_shared++;
    else if (!strcmp(base, "STS")) m->st_shared++;
    else if (!strcmp(base, "ATOMS")) m->atom_shared++;
    else if (!strcmp(base, "BAR")) *is_barrier = true;
}

/* ---- both ---- */

/* A warp-level collective: PTX shfl.sync, vote.sync, bar.warp.sync,
   match.*.sync, redux.sync; SASS SHFL, VOTE, WARPSYNC, MATCH, REDUX. */
static bool is_warp_collective(const char *op)
{
    static const char *const ptx[] = {"shfl.sync", "vote.sync", "bar.warp.sync", "match.", "redux.sync", NULL};
    static const char *const sass[] = {"SHFL", "VOTE", "WARPSYNC", "MATCH", "REDUX", NULL};
    for (size_t i = 0; ptx[i]; i++)
        if (str_starts_with(op, ptx[i])) return true;
    for (size_t i = 0; sass[i]; i++)
        if (str_starts_with(op, sass[i]) && (op[strlen(sass[i])] == '.' || op[strlen(sass[i])] == 0))
            return true;
    return false;
}

static long find_target(const struct listing *l, const struct insn *in)
{
    if (!in->target[0]) return -1;
    for (size_t i = 0; i < l->n_labels; i++)
        if (strcmp(l->labels[i].name, in->target) == 0) return (long)l->labels[i].at;
    if (in->addr >= 0 && str_starts_with(in->target, "0x")) {
        long addr = strtol(in->target, NULL, 16);
        for (size_t i = 0; i < l->n; i++)
            if (l->insns[i].addr == addr) return (long)i;
    }
    return -1;
}

/* Local memory and the step of a thread's own global loads, from the PTX
   text: ".local .align 4 .b8 __local_depot0[128];", "ld.local", "st.local",
   "ld.global.f32 %f1, [%rd4+8];" (CU402, CU403).  SASS: LDL/STL only. */
static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static void count_memory_spaces(const char *text, struct asm_mix *m)
{
    struct {
        char reg[32];
        long off;
    } *lds = NULL;
    size_t n = 0, cap = 0;
    m->local_bytes = m->sass ? -1 : 0;
    m->fdiv = m->sass ? -1 : 0;
    m->ld_global_step = -1;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        line = end ? end + 1 : NULL;
        if (m->sass) {
            if (strstr(buf, " LDL") || strstr(buf, "\tLDL")) m->ld_local++;
            if (strstr(buf, " STL") || strstr(buf, "\tSTL")) m->st_local++;
            continue;
        }
        const char *t = buf;
        while (*t == ' ' || *t == '\t') t++;
        if (strncmp(t, ".local", 6) == 0) {
            const char *br = strchr(t, '[');
            if (br) m->local_bytes += strtol(br + 1, NULL, 10);
            continue;
        }
        if (*t == '@') { /* a guard predicate */
            while (*t && *t != ' ' && *t != '\t') t++;
            while (*t == ' ' || *t == '\t') t++;
        }
        if (strncmp(t, "div.rn.f32", 10) == 0 || strncmp(t, "div.rn.ftz.f32", 14) == 0) m->fdiv++;
        if (strncmp(t, "ld.local", 8) == 0) m->ld_local++;
        else if (strncmp(t, "st.local", 8) == 0) m->st_local++;
        else if (strncmp(t, "ld.global", 9) == 0) {
            const char *br = strchr(t, '[');
            if (!br) continue;
            const char *close = strchr(br, ']');
            if (!close) continue;
            char reg[32];
            size_t rl = 0;
            const char *q = br + 1;
            while (q < close && *q != '+' && rl + 1 < sizeof reg) reg[rl++] = *q++;
            reg[rl] = '\0';
            long off = *q == '+' ? strtol(q + 1, NULL, 10) : 0;
            if (n == cap) {
                cap = cap ? cap * 2 : 32;
                lds = xrealloc(lds, cap * sizeof *lds);
            }
            memcpy(lds[n].reg, reg, sizeof reg);
            lds[n].off = off;
            n++;
        }
    }
    /* per base register: the smallest positive gap between its offsets */
    long *offs = xcalloc(n + 1, sizeof *offs);
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t j = 0; j < i && first; j++) first = strcmp(lds[j].reg, lds[i].reg) != 0;
        if (!first) continue;
        size_t k = 0;
        for (size_t j = i; j < n; j++)
            if (strcmp(lds[j].reg, lds[i].reg) == 0) offs[k++] = lds[j].off;
        qsort(offs, k, sizeof *offs, cmp_long);
        for (size_t j = 1; j < k; j++) {
            long gap = offs[j] - offs[j - 1];
            if (gap > 0 && (m->ld_global_step < 0 || gap < m->ld_global_step)) m->ld_global_step = gap;
        }
    }
    free(offs);
    free(lds);
}

void asm_mix_count(const char *text, struct asm_mix *m)
{
    memset(m, 0, sizeof *m);
    m->sass = strstr(text, "Function : ") != NULL || strstr(text, "/*0000*/") != NULL;
    struct listing l = {0};
    if (m->sass) {
        parse_sass(text, &l, m);
        m->shared_bytes = -1;
    } else {
        parse_ptx(text, &l, m);
    }

    bool *in_loop = xcalloc(l.n + 1, sizeof *in_loop);
    bool *barrier = xcalloc(l.n + 1, sizeof *barrier);
    bool *int_mul = xcalloc(l.n + 1, sizeof *int_mul);
    bool *collective = xcalloc(l.n + 1, sizeof *collective);
    for (size_t i = 0; i < l.n; i++) {
        collective[i] = is_warp_collective(l.insns[i].op);
        if (collective[i]) m->warp_collectives++;
        if (str_starts_with(l.insns[i].op, "bar.warp.sync") || str_starts_with(l.insns[i].op, "WARPSYNC"))
            m->warp_barriers++;
        if (m->sass) classify_sass(&l.insns[i], m, &barrier[i], &int_mul[i]);
        else classify_ptx(&l.insns[i], m, &barrier[i], &int_mul[i]);
        if (barrier[i]) m->barriers++;
        if (int_mul[i]) m->int_mul++;
    }
    /* A conditional exit with a barrier after it skips that barrier too
       (SASS compiles an early return to "@P0 EXIT"). */
    size_t last_barrier = 0, last_collective = 0;
    bool any_barrier = false, any_collective = false;
    for (size_t i = 0; i < l.n; i++) {
        if (barrier[i]) last_barrier = i, any_barrier = true;
        if (collective[i]) last_collective = i, any_collective = true;
    }
    for (size_t i = 0; i < l.n; i++) {
        const char *op = l.insns[i].op;
        /* SASS RET returns from a call; EXIT ends the thread */
        bool is_exit = !strcmp(op, "ret") || !strcmp(op, "exit") || !strcmp(op, "EXIT");
        if (is_exit && l.insns[i].predicated && any_barrier && i < last_barrier) m->barrier_skips++;
        if (is_exit && l.insns[i].predicated && any_collective && i < last_collective)
            m->collective_skips++;
        long t = find_target(&l, &l.insns[i]);
        if (t < 0) continue;
        if ((size_t)t == i && !l.insns[i].predicated) {
            /* the "BRA to itself" nvcc places after the last EXIT: never runs */
        } else if ((size_t)t <= i) {
            for (size_t k = (size_t)t; k <= i; k++) in_loop[k] = true;
        } else if (l.insns[i].predicated) {
            for (size_t k = i + 1; k < (size_t)t && k < l.n; k++)
                if (barrier[k]) {
                    m->barrier_skips++;
                    break;
                }
            for (size_t k = i + 1; k < (size_t)t && k < l.n; k++)
                if (collective[k]) {
                    m->collective_skips++;
                    break;
                }
        }
    }
    m->instructions = (long)l.n;
    for (size_t i = 0; i < l.n; i++) {
        if (!in_loop[i]) continue;
        m->loop_instructions++;
        if (int_mul[i]) m->loop_int_mul++;
    }
    free(in_loop);
    free(barrier);
    free(int_mul);
    free(collective);
    free(l.insns);
    free(l.labels);
    count_memory_spaces(text, m);
}

void asm_mix_print(FILE *out, const struct asm_mix *m)
{
    fprintf(out, "format %s\n", m->sass ? "sass" : "ptx");
    fprintf(out, "kernels %ld\n", m->entries);
    fprintf(out, "instructions %ld\n", m->instructions);
    fprintf(out, "loop_instructions %ld\n", m->loop_instructions);
    fprintf(out, "fp64_arith %ld\n", m->fp64_arith);
    fprintf(out, "cvt_f64_f32 %ld\n", m->cvt_f64_f32);
    fprintf(out, "cvt_f32_f64 %ld\n", m->cvt_f32_f64);
    fprintf(out, "int_mul %ld\n", m->int_mul);
    fprintf(out, "loop_int_mul %ld\n", m->loop_int_mul);
    fprintf(out, "ld_shared %ld\n", m->ld_shared);
    fprintf(out, "st_shared %ld\n", m->st_shared);
    fprintf(out, "atom_shared %ld\n", m->atom_shared);
    if (m->shared_bytes >= 0) fprintf(out, "shared_bytes %ld\n", m->shared_bytes);
    fprintf(out, "barriers %ld\n", m->barriers);
    fprintf(out, "barrier_skips %ld\n", m->barrier_skips);
    fprintf(out, "warp_collectives %ld\n", m->warp_collectives);
    fprintf(out, "collective_skips %ld\n", m->collective_skips);
    fprintf(out, "ld_local %ld\n", m->ld_local);
    fprintf(out, "st_local %ld\n", m->st_local);
    if (m->local_bytes >= 0) fprintf(out, "local_bytes %ld\n", m->local_bytes);
    if (!m->sass) fprintf(out, "ld_global_step %ld\n", m->ld_global_step);
    if (!m->sass) fprintf(out, "fdiv %ld\n", m->fdiv);
    fprintf(out, "warp_barriers %ld\n", m->warp_barriers);
}
