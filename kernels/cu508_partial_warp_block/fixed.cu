// fixed.cu (CU508): the same kernel launched with 128-thread blocks, four full warps: the same work in the fewest warps.
__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

static void run_program(float *out, const float *in, int n, cudaStream_t stream)
{
    const int threads = 128;
    scale<<<(n + threads - 1) / threads, threads, 0, stream>>>(out, in, n);
}
