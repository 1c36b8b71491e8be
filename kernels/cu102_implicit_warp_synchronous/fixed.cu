// fixed.cu (CU102): each step of the warp tail reads into a register, then __syncwarp(), stores, __syncwarp().
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
        float v = s[tid] + s[tid + 32];
        __syncwarp();
        s[tid] = v;
        __syncwarp();
        for (unsigned k = 16; k > 0; k >>= 1) {
            v += s[tid + k];
            __syncwarp();
            s[tid] = v;
            __syncwarp();
        }
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
