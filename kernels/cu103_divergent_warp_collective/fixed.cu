// fixed.cu (CU103): every lane takes part in the shuffles; lanes past the end contribute 0.
#define WARP 32

__global__ void warp_sums(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = WARP / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (i < n && threadIdx.x % WARP == 0)
        out[i / WARP] = v;
}
