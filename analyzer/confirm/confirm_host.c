/* confirm_host.c: static evidence for the host-side rules, read from
 * `objdump -d -r` of each variant's host object (confirm_static.c builds and
 * disassembles them); the relocations name the CUDA API functions each call
 * reaches.  A call lies in a loop when a later conditional jump of the same
 * function goes back to or before it.  A status is looked at when %eax/%rax is read after
 * the call before anything overwrites it. */
#include "confirm/confirm_host.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct insn {
    unsigned long addr;
    char mnem[16];
    char ops[160];
    char sym[96]; /* relocation target of a call, "" if none */
};

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static bool is_api(const char *s)
{
    if (starts(s, "cuda")) return true;
    return s[0] == 'c' && s[1] == 'u' && s[2] >= 'A' && s[2] <= 'Z';
}

static bool returns_status(const char *s)
{
    return is_api(s) && strcmp(s, "cudaGetErrorString") != 0 && strcmp(s, "cudaGetErrorName") != 0;
}

static bool is_alloc(const char *s)
{
    static const char *const names[] = {"cudaMalloc", "cudaFree", "cudaMallocHost", "cudaFreeHost",
                                        "cudaHostAlloc", "cudaMallocManaged", "cudaMallocPitch",
                                        "cuMemAlloc_v2", "cuMemFree_v2"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) return true;
    return false;
}

static bool is_sync(const char *s)
{
    return !strcmp(s, "cudaDeviceSynchronize") || !strcmp(s, "cudaStreamSynchronize") ||
           !strcmp(s, "cudaThreadSynchronize") || !strcmp(s, "cudaMemcpy");
}

static bool is_pin(const char *s)
{
    return !strcmp(s, "cudaMallocHost") || !strcmp(s, "cudaHostAlloc") || !strcmp(s, "cudaHostRegister");
}

/* Does the operand text mention the accumulator (the status register)? */
static bool mentions_eax(const char *ops)
{
    return strstr(ops, "%eax") || strstr(ops, "%rax") || strstr(ops, "%al") || strstr(ops, "%ax");
}

/* Is the instruction a plain overwrite of %eax (mov/xor into it without
   reading it)? */
static bool overwrites_eax(const struct insn *in)
{
    const char *comma = strrchr(in->ops, ',');
    if (!comma) return false;
    bool dest = mentions_eax(comma + 1);
    char src[160];
    size_t n = (size_t)(comma - in->ops);
    if (n >= sizeof src) n = sizeof src - 1;
    memcpy(src, in->ops, n);
    src[n] = 0;
    if (!dest) return false;
    if (starts(in->mnem, "xor") && mentions_eax(src)) return true; /* xor %eax,%eax */
    return (starts(in->mnem, "mov") || starts(in->mnem, "lea")) && !mentions_eax(src);
}

/* The immediate of "mov $0x..,%reg" / "movabs $0x..,%reg" when reg is one of
   the names given. */
static bool imm_to(const struct insn *in, const char *r64, const char *r32, unsigned long long *v)
{
    if (!starts(in->mnem, "mov")) return false;
    if (in->ops[0] != '$') return false;
    const char *comma = strrchr(in->ops, ',');
    if (!comma || (strcmp(comma + 1, r64) != 0 && strcmp(comma + 1, r32) != 0)) return false;
    *v = strtoull(in->ops + 1, NULL, 0);
    return true;
}

static void judge_function(const struct insn *f, size_t n, struct host_mix *m)
{
    for (size_t i = 0; i < n; i++) {
        if (!starts(f[i].mnem, "call") || !f[i].sym[0]) continue;
        const char *s = f[i].sym;
        if (!strcmp(s, "__cudaPushCallConfiguration")) {
            m->launches++;
            /* dim3 block arrives in %rdx (x | y << 32) and %ecx (z): the last
               constant writes since the previous call */
            unsigned long long xy = 0, z = 1;
            bool have_xy = false, have_z = false;
            for (size_t j = i; j-- > 0;) {
                if (starts(f[j].mnem, "call")) break;
                unsigned long long v;
                if (!have_xy && imm_to(&f[j], "%rdx", "%edx", &v)) {
                    xy = v;
                    have_xy = true;
                } else if (!have_z && imm_to(&f[j], "%rcx", "%ecx", &v)) {
                    z = v;
                    have_z = true;
                }
            }
            if (have_xy) {
                unsigned long long x = xy & 0xffffffffULL, y = xy >> 32;
                if (y == 0) y = 1;
                long threads = (long)(x * y * (z ? z : 1));
                if (threads > m->max_block) m->max_block = threads;
            }
            continue;
        }
        if (starts(s, "__")) continue;
        if (!is_api(s)) continue;
        m->api_calls++;
        bool in_loop = false;
        for (size_t j = i + 1; j < n && !in_loop; j++) {
            /* a loop's latch is a conditional jump back; an unconditional
               jmp back is usually an out-of-line block returning */
            if (f[j].mnem[0] != 'j' || starts(f[j].mnem, "jmp")) continue;
            unsigned long t = strtoul(f[j].ops, NULL, 16);
            if (t && t <= f[i].addr) in_loop = true;
        }
        if (!strcmp(s, "cudaGetLastError") || !strcmp(s, "cudaPeekAtLastError")) m->error_queries++;
        if (in_loop && is_alloc(s)) m->alloc_in_loop++;
        if (in_loop && is_sync(s)) m->sync_in_loop++;
        if (is_pin(s)) m->pinning++;
        if (returns_status(s)) {
            bool looked = false, done = false;
            for (size_t j = i + 1; j < n && !done; j++) {
                if (starts(f[j].mnem, "call") || starts(f[j].mnem, "jmp") || starts(f[j].mnem, "ret")) break;
                if (!mentions_eax(f[j].ops)) continue;
                if (overwrites_eax(&f[j])) done = true;
                else looked = done = true;
            }
            if (!looked) m->unchecked++;
        }
    }
}

void host_mix_count(const char *text, struct host_mix *m)
{
    memset(m, 0, sizeof *m);
    m->max_block = -1;
    size_t cap = 256, n = 0;
    struct insn *f = xcalloc(cap, sizeof *f);
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        if (len >= sizeof line) len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (eol ? 1 : 0);
        unsigned long addr;
        char a[64], b[64];
        if (line[0] != ' ' && line[0] != '\t' && strstr(line, ">:")) {
            /* a new function */
            judge_function(f, n, m);
            n = 0;
            continue;
        }
        if (sscanf(line, " %lx: %63s %63s", &addr, a, b) >= 2 && starts(a, "R_X86_64")) {
            if (n) {
                char *sym = strchr(line, '\t');
                sym = sym ? strrchr(line, '\t') : NULL;
                if (sym) {
                    sym++;
                    size_t k = strcspn(sym, "-+@");
                    if (k >= sizeof f[n - 1].sym) k = sizeof f[n - 1].sym - 1;
                    memcpy(f[n - 1].sym, sym, k);
                    f[n - 1].sym[k] = 0;
                }
            }
            continue;
        }
        char *colon = strchr(line, ':');
        if (!colon || sscanf(line, " %lx:", &addr) != 1) continue;
        char *ins = colon + 1;
        while (*ins == ' ' || *ins == '\t') ins++;
        if (!*ins) continue;
        if (n == cap) {
            cap *= 2;
            f = xrealloc(f, cap * sizeof *f);
        }
        struct insn *in = &f[n++];
        memset(in, 0, sizeof *in);
        in->addr = addr;
        size_t ml = strcspn(ins, " \t");
        if (ml >= sizeof in->mnem) ml = sizeof in->mnem - 1;
        memcpy(in->mnem, ins, ml);
        const char *ops = ins + strcspn(ins, " \t");
        while (*ops == ' ' || *ops == '\t') ops++;
        size_t ol = strcspn(ops, " \t#<");
        if (ol >= sizeof in->ops) ol = sizeof in->ops - 1;
        memcpy(in->ops, ops, ol);
    }
    judge_function(f, n, m);
    free(f);
}

void host_mix_record(struct pair_result *r, const char *variant, const struct host_mix *m)
{
    struct {
        const char *name;
        long v;
    } rows[] = {
        {"host.api_calls", m->api_calls},         {"host.unchecked", m->unchecked},
        {"host.error_queries", m->error_queries}, {"host.alloc_in_loop", m->alloc_in_loop},
        {"host.sync_in_loop", m->sync_in_loop},   {"host.pinning", m->pinning},
        {"host.launches", m->launches},           {"host.max_block", m->max_block},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) pr_number(r, variant, rows[i].name, (double)rows[i].v);
}

enum step_status host_mix_judge(const char *k, const struct host_mix *b, const struct host_mix *f,
                                const char *warn_b, const char *warn_f, char **detail)
{
    if (!strcmp(k, "host-status-checked")) {
        *detail = xasprintf("CUDA API calls whose status the host code never tests: bad %ld, fixed %ld "
                            "(of %ld and %ld calls)", b->unchecked, f->unchecked, b->api_calls, f->api_calls);
        return b->unchecked > f->unchecked ? STEP_PASS : STEP_FAIL;
    }
    if (!strcmp(k, "host-launch-checked")) {
        *detail = xasprintf("cudaGetLastError/cudaPeekAtLastError calls: bad %ld, fixed %ld",
                            b->error_queries, f->error_queries);
        return f->error_queries > b->error_queries ? STEP_PASS : STEP_FAIL;
    }
    if (!strcmp(k, "host-launch-config")) {
        *detail = xasprintf("largest constant block passed to a launch: bad %ld threads, fixed %ld "
                            "(limit 1024; -1: not a constant in the object code)",
                            b->max_block, f->max_block);
        return b->max_block > 1024 && f->max_block > 0 && f->max_block <= 1024 ? STEP_PASS : STEP_FAIL;
    }
    if (!strcmp(k, "host-launch-warps")) {
        *detail = xasprintf("largest constant block passed to a launch: bad %ld threads, fixed %ld "
                            "(a whole number of warps: a multiple of 32; -1: not a constant in the object code)",
                            b->max_block, f->max_block);
        return b->max_block > 1 && b->max_block % 32 != 0 && f->max_block > 0 && f->max_block % 32 == 0
                   ? STEP_PASS
                   : STEP_FAIL;
    }
    if (!strcmp(k, "host-alloc-in-loop")) {
        *detail = xasprintf("allocations and frees inside loops: bad %ld, fixed %ld", b->alloc_in_loop,
                            f->alloc_in_loop);
        return b->alloc_in_loop > 0 && f->alloc_in_loop == 0 ? STEP_PASS : STEP_FAIL;
    }
    if (!strcmp(k, "host-sync-in-loop")) {
        *detail = xasprintf("synchronising calls inside loops: bad %ld, fixed %ld", b->sync_in_loop,
                            f->sync_in_loop);
        return b->sync_in_loop > f->sync_in_loop ? STEP_PASS : STEP_FAIL;
    }
    if (!strcmp(k, "host-pinned")) {
        *detail = xasprintf("page-locking calls (cudaMallocHost, cudaHostAlloc, cudaHostRegister): bad %ld, "
                            "fixed %ld", b->pinning, f->pinning);
        return f->pinning > b->pinning ? STEP_PASS : STEP_FAIL;
    }
    if (!strcmp(k, "host-deprecation-warning")) {
        bool wb = warn_b && strstr(warn_b, "is deprecated"), wf = warn_f && strstr(warn_f, "is deprecated");
        *detail = xasprintf("nvcc's deprecation warning: bad %s, fixed %s", wb ? "yes" : "no", wf ? "yes" : "no");
        return wb && !wf ? STEP_PASS : STEP_FAIL;
    }
    *detail = xasprintf("unknown static check \"%s\" in pair.json", k);
    return STEP_ERROR;
}
