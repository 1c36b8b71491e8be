/* banks.c: the shared-memory bank model: the conflict degree of one access
 * pattern across the warps of a block (32 banks of 4-byte words; 8- and
 * 16-byte accesses are served a half- or quarter-warp at a time). */
#include "analysis/banks.h"

#include <stdlib.h>

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* Conflict degree of one phase: max over banks of the distinct 4-byte words
   the active lanes touch in that bank (the same word is a broadcast). */
static int phase_degree(const long long *bytes, const bool *on, unsigned first, unsigned n,
                        unsigned width, unsigned *banks_used, unsigned *active)
{
    long long words[WARP_LANES * 4];
    unsigned nw = 0;
    *active = 0;
    for (unsigned l = first; l < first + n; l++) {
        if (!on[l]) continue;
        (*active)++;
        long long w0 = bytes[l] >= 0 ? bytes[l] / 4 : -((-bytes[l] + 3) / 4);
        long long last = bytes[l] + width - 1;
        long long w1 = last >= 0 ? last / 4 : -((-last + 3) / 4);
        for (long long w = w0; w <= w1 && nw < WARP_LANES * 4; w++) words[nw++] = w;
    }
    qsort(words, nw, sizeof *words, cmp_ll);
    int per_bank[BANK_COUNT] = {0};
    int deg = 0;
    *banks_used = 0;
    for (unsigned i = 0; i < nw; i++) {
        if (i > 0 && words[i] == words[i - 1]) continue;
        int b = (int)(((words[i] % BANK_COUNT) + BANK_COUNT) % BANK_COUNT);
        if (per_bank[b]++ == 0) (*banks_used)++;
        if (per_bank[b] > deg) deg = per_bank[b];
    }
    return deg;
}

/* Lanes served together: a 4-byte-or-narrower access is one request for the
   warp; 8-byte accesses go a half-warp at a time and 16-byte ones a
   quarter-warp at a time (128 bytes per pass either way). */
unsigned bank_phase_lanes(unsigned width)
{
    return width <= 4 ? 32 : width <= 8 ? 16 : 8;
}

int bank_degree(const struct bank_access *acc, struct bank_degree *info)
{
    unsigned plen = bank_phase_lanes(acc->width);
    struct bank_degree best = {1, plen, 0, 0};
    /* For 1- and 2-byte elements the array may start mid-word and a uniform
       offset may move lanes across word boundaries: report what holds
       whatever the byte offset within the first word is. */
    int residues = acc->elem_size < 4 ? 4 : 1;
    int min_over_residues = -1;
    struct bank_degree min_info = best;
    for (int r = 0; r < residues; r++) {
        struct bank_degree worst = {0, plen, 0, 0};
        for (unsigned w = 0; w < WARP_LANES; w++) {
            if (!acc->masks[w]) continue;
            /* Without a stated shape every warp has the same pattern, shifted
               by whole rows of banks: only its lanes differ. */
            bool seen = false;
            for (unsigned v = 0; v < w && !seen && !block_shape_known(acc->shape); v++)
                seen = acc->masks[v] == acc->masks[w];
            if (seen) continue;
            long long bytes[WARP_LANES];
            bool on[WARP_LANES];
            for (unsigned l = 0; l < WARP_LANES; l++) {
                long long t[3];
                block_shape_lane(acc->shape, block_shape_known(acc->shape) ? w : 0, l, t);
                long long e = acc->ct[0] * t[0] + acc->ct[1] * t[1] + acc->ct[2] * t[2] + acc->c0;
                bytes[l] = acc->elem_size * e + acc->field_off + r;
                on[l] = (acc->masks[w] >> l) & 1u;
            }
            for (unsigned p = 0; p < WARP_LANES; p += plen) {
                unsigned banks, active;
                int d = phase_degree(bytes, on, p, plen, acc->width, &banks, &active);
                if (d > worst.degree) {
                    worst.degree = d;
                    worst.active = active;
                    worst.banks_used = banks;
                }
            }
        }
        if (min_over_residues < 0 || worst.degree < min_over_residues) {
            min_over_residues = worst.degree;
            min_info = worst;
        }
    }
    if (min_info.degree < 1) min_info.degree = 1;
    if (info) *info = min_info;
    return min_info.degree;
}
