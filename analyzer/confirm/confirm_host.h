/* confirm_host.h: the static evidence of a host-side pair (the CU5xx rules):
 * the host code's CUDA API calls read from the disassembly of each variant's
 * host object (objdump -d -r), and the difference the rule predicts:
 * statuses tested, launch errors queried, allocations and synchronisations
 * in loops, page-locked staging, the launch's block shape, deprecation
 * warnings of the compiler. */
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

/* Records a variant's counts as measurements ("host.unchecked" ...). */
void host_mix_record(struct pair_result *r, const char *variant, const struct host_mix *m);
/* The verdict of a host kind ("host-status-checked" ...) on the two
   variants' counts and compiler output; sets *detail. */
enum step_status host_mix_judge(const char *kind, const struct host_mix *bad, const struct host_mix *fixed,
                                const char *warnings_bad, const char *warnings_fixed, char **detail);

#endif
