// bad.cu (CU508): a scale kernel launched with 100-thread blocks, the way a round number is picked: every block is four warps, the last with 4 of its 32 lanes, so 28% more warps are launched than the work needs.
__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

static void run_program(float *out, const float *in, int n, cudaStream_t stream)
{
    const int threads = 100;
    scale<<<(n + threads - 1) / threads, threads, 0, stream>>>(out, in, n);
}
