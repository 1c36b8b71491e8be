/* cuda_awbarrier.h: stand-in for the CUDA header of this name: nvcuda::experimental::awbarrier. */
#pragma clang system_header
#ifndef _CUDA_AWBARRIER_H_
#define _CUDA_AWBARRIER_H_
#include <cuda_awbarrier_primitives.h>

namespace nvcuda {
namespace experimental {
class awbarrier {
public:
    class arrival_token {};
    awbarrier() = default;
    __device__ arrival_token arrive();
    __device__ arrival_token arrive_and_drop();
    __device__ bool timed_wait(arrival_token token, unsigned int hint_cycles);
    __device__ void wait(arrival_token token);
    __device__ void arrive_and_wait();
    static __device__ constexpr unsigned int max() { return 0x7fffffff; }
};
__device__ void init(awbarrier *barrier, unsigned int expected_count);
} /* namespace experimental */
} /* namespace nvcuda */

#endif
