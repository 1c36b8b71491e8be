// bad.cu (CU601): a per-warp sum with the mask-less __shfl_down of CUDA 8 and earlier.
//
// Every lane of every warp runs the loop, so the fix-it's full mask is the
// right one.  CUDA 13 no longer declares __shfl_down, and no CUDA version
// compiles it for sm_70 or later: nvcc stops with 'identifier "__shfl_down"
// is undefined' (CUDA 13) or an error about the removed intrinsic (CUDA 9-12
// for sm_70+).  The fixed kernel is bad.cu after `cudalint --fix`.
#define WARP 32

__global__ void warp_sums(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = WARP / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    if (threadIdx.x % WARP == 0)
        out[i / WARP] = v;
}
