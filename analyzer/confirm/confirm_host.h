/* confirm_host.h: the static steps of a host-side pair (the CU5xx rules):
 * compile both variants to host objects, read the host code's CUDA API calls
 * from the disassembly (objdump -d -r), and check the difference the rule
 * predicts: statuses tested, launch errors queried, allocations and
 * synchronisations in loops, page-locked staging, the launch's block shape,
 * deprecation warnings of the compiler. */
#ifndef CUDALINT_CONFIRM_HOST_H
#define CUDALINT_CONFIRM_HOST_H

#include "confirm/confirm_model.h"
#include <stdbool.h>

/* What the host code of one variant does with the CUDA API. */
struct host_mix {
    long api_calls;       /* calls of cuda* / cu* functions (launch internals excluded) */
    long unchecked;       /* of those returning a status: status not looked at before the next call */
    long error_queries;   /* cudaGetLastError, cudaPeekAtLastError */
    long alloc_in_loop;   /* allocations and frees inside a loop */
    long sync_in_loop;    /* cudaDeviceSynchronize, cudaStreamSynchronize, cudaMemcpy inside a loop */
    long pinning;         /* cudaMallocHost, cudaHostAlloc, cudaHostRegister */
    long launches;        /* __cudaPushCallConfiguration calls */
    long max_block;       /* largest constant block (threads) passed to a launch, -1 if none known */
};

/* Counts from `objdump -d -r` text. */
void host_mix_count(const char *objdump_text, struct host_mix *m);

/* Is this pair's static check one of the host kinds ("host-...")? */
bool confirm_host_kind(const char *static_check);
/* build-host, static: compile both variants with -c, disassemble, judge. */
void confirm_host_static_steps(struct confirm_env *env, struct pair_result *r, const char *pwork);

#endif
