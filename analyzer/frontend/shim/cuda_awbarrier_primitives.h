/* cuda_awbarrier_primitives.h: stand-in for the CUDA header of this name: the __awbarrier_* arrive/wait primitives. */
#pragma clang system_header
#ifndef _CUDA_AWBARRIER_PRIMITIVES_H_
#define _CUDA_AWBARRIER_PRIMITIVES_H_
#include "cudalint_cuda.h"

typedef unsigned long long __mbarrier_t;
typedef unsigned long long __mbarrier_token_t;
__device__ void __mbarrier_init(__mbarrier_t *barrier, unsigned int expected_count);
__device__ void __mbarrier_inval(__mbarrier_t *barrier);
__device__ __mbarrier_token_t __mbarrier_arrive(__mbarrier_t *barrier);
__device__ __mbarrier_token_t __mbarrier_arrive_and_drop(__mbarrier_t *barrier);
__device__ bool __mbarrier_test_wait(__mbarrier_t *barrier, __mbarrier_token_t token);
__device__ unsigned int __mbarrier_token_pending_count(__mbarrier_token_t token);
__device__ unsigned int __mbarrier_maximum_count(void);
#define __awbarrier_t __mbarrier_t
#define __awbarrier_token_t __mbarrier_token_t
#define __awbarrier_init __mbarrier_init
#define __awbarrier_inval __mbarrier_inval
#define __awbarrier_arrive __mbarrier_arrive
#define __awbarrier_arrive_and_drop __mbarrier_arrive_and_drop
#define __awbarrier_test_wait __mbarrier_test_wait
#define __awbarrier_token_pending_count __mbarrier_token_pending_count
#define __awbarrier_maximum_count __mbarrier_maximum_count

#endif
