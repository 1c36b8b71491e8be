// fixed.cu (CU104): a __syncthreads() between the store and the load.
#define BLOCK 256

__global__ void block_reverse(float *out, const float *in)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int base = blockIdx.x * BLOCK;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[BLOCK - 1 - t];
}
