/* cuda_pipeline.h: stand-in for the CUDA header of this name: the primitives plus nvcuda::experimental::pipeline. */
#pragma clang system_header
#ifndef _CUDA_PIPELINE_H_
#define _CUDA_PIPELINE_H_
#include <cuda_pipeline_primitives.h>

namespace nvcuda {
namespace experimental {
class pipeline {
public:
    __device__ pipeline();
    __device__ unsigned int commit();
    __device__ void commit_and_wait();
    __device__ void wait(unsigned int batch);
    template <unsigned int Prior> __device__ void wait_prior();
};
template <class T> __device__ void memcpy_async(T &dst_shared, const T &src_global, pipeline &pipe);
template <class T, size_t DstN, size_t SrcN>
__device__ void memcpy_async(T *dst_shared, const T *src_global, pipeline &pipe);
} /* namespace experimental */
} /* namespace nvcuda */

#endif
