/* asm_mix.h: the instruction mix of PTX and SASS texts (what `cudalint
 * confirm` compares between kernel pairs, and what codegen/ counts per line). */
#ifndef CUDALINT_ASM_MIX_H
#define CUDALINT_ASM_MIX_H

#include <stdbool.h>
#include <stdio.h>

/* ---- instruction mix of PTX and SASS ---- */

struct asm_mix {
    bool sass;
    long entries;            /* kernels (.entry / Function :) */
    long instructions;
    long loop_instructions;  /* inside a backward branch's range */
    long fp64_arith;         /* add/sub/mul/fma/div/... .f64, DADD/DMUL/DFMA/DSETP... */
    long cvt_f64_f32;        /* float -> double */
    long cvt_f32_f64;        /* double -> float */
    long int_mul;            /* integer mul/mad (PTX mul.lo/mul.wide/mad.lo, SASS IMAD/IMUL) */
    long loop_int_mul;
    long ld_shared, st_shared, atom_shared;
    long shared_bytes;       /* PTX .shared declarations; -1 for SASS */
    long barriers;           /* bar.sync / barrier.sync / BAR.SYNC (not warp syncs) */
    long barrier_skips;      /* conditional forward branches that jump over a barrier */
    long warp_collectives;   /* shfl.sync, vote.sync, bar.warp.sync, match, redux.sync / SHFL, VOTE, WARPSYNC... */
    long collective_skips;   /* conditional forward branches or exits that jump over a warp collective */
    long ld_local, st_local; /* PTX ld.local / st.local (SASS LDL / STL) */
    long fdiv;               /* PTX IEEE float divisions (div.rn.f32); -1 for SASS */
    long local_bytes;        /* PTX .local declarations (the local depot); -1 for SASS */
    long ld_global_step;     /* PTX: smallest positive gap between the immediate offsets of
                                ld.global instructions on one base register (the step a
                                thread's own consecutive loads take); -1 when none; -1 for SASS */
    long warp_barriers;      /* bar.warp.sync / WARPSYNC (__syncwarp) */
};

/* Counts the instruction mix of a PTX text (nvcc -ptx) or a SASS listing
   (cuobjdump -sass); the format is recognised from the text. */
void asm_mix_count(const char *text, struct asm_mix *m);
/* Counts one PTX instruction (opcode with modifiers: "ld.shared.v2.f32") into
   m's per-instruction counters: instructions, fp64_arith, cvt_*, int_mul,
   ld/st/atom_shared, barriers, ld/st_local, fdiv. */
void asm_mix_count_ptx_op(const char *op, struct asm_mix *m);
/* Prints the mix as "key value" lines (for --inspect and the logs). */
void asm_mix_print(FILE *out, const struct asm_mix *m);

#endif
