// bad.cu (CU103): per-warp sums whose out-of-range lanes return before a full-mask shuffle.
//
// In the last, partly filled warp the lanes with i >= n have left, yet the
// reduction's __shfl_down_sync names all 32 lanes: the CUDA C Programming
// Guide makes that undefined (every lane named in the mask must execute the
// same __shfl_sync).  The lanes that stay read registers of lanes that
// exited, so the last warp's sum is whatever those registers held.
#define WARP 32

__global__ void warp_sums(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    for (int offset = WARP / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % WARP == 0)
        out[i / WARP] = v;
}
