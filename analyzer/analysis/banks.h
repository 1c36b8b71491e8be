/* banks.h: the shared-memory bank model: how many distinct 4-byte words of
 * one bank the active lanes of a warp touch in one access (the conflict
 * degree), for an element index affine in the thread index.  Used by CU401;
 * coming rules (coalescing-like shared-memory checks) reuse it. */
#ifndef CUDALINT_BANKS_H
#define CUDALINT_BANKS_H

#include "analysis/blockshape.h"
#include <stdbool.h>
#include <stdint.h>

#define BANK_COUNT 32

/* One access: element index ct[0]*threadIdx.x + ct[1]*threadIdx.y +
   ct[2]*threadIdx.z + c0 of elements of elem_size bytes, each lane moving
   width bytes at field_off into its element; masks[w]: the active lanes of
   warp w (threads 32w .. 32w+31). */
struct bank_access {
    long long ct[3];
    long long c0;
    long long elem_size;
    long long field_off;
    unsigned width;
    const struct block_shape *shape;
    const uint32_t *masks; /* WARP_LANES entries */
};

/* Details of the worst phase, for messages. */
struct bank_degree {
    int degree;
    unsigned phase_lanes;     /* 32, 16 (8-byte) or 8 (16-byte) */
    unsigned active;          /* active lanes in the worst phase */
    unsigned banks_used;      /* distinct banks in the worst phase */
};

/* Lanes served together for accesses of width bytes. */
unsigned bank_phase_lanes(unsigned width);

/* The conflict degree (at least 1) of the worst phase of any warp; for 1-
   and 2-byte elements, what holds whatever the byte offset of the array
   within its first word is. */
int bank_degree(const struct bank_access *acc, struct bank_degree *info);

#endif
