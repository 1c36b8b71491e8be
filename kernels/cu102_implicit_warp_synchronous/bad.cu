// bad.cu (CU102): a block sum whose last 64 elements are added by the first warp without __syncwarp().
//
// The unrolled tail relies on the 32 lanes of warp 0 running in lock-step:
// each step reads what another lane stored in the step before.  Since Volta
// the lanes may not run in lock-step, and without `volatile` the compiler
// may also keep s[tid] in a register and read the other lanes' slots
// before they are stored: the sums come out wrong.
#define BLOCK 256

__global__ void block_sum(float *out, const float *in)
{
    __shared__ float s[BLOCK];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (unsigned k = BLOCK / 2; k > 32; k >>= 1) {
        if (tid < k)
            s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid < 32) {
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
