// bad.cu (CU505): an iterative smoother that waits for the device after every step although the host reads nothing until the end.
__global__ void smooth(float *next, const float *cur, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) next[i] = 0.25f * cur[i > 0 ? i - 1 : i] + 0.5f * cur[i] + 0.25f * cur[i < n - 1 ? i + 1 : i];
}

static cudaError_t run_program(const float *in, float *out, float *work, int n, int steps, cudaStream_t stream)
{
    const float *src = in;
    for (int s = 0; s < steps; s++) {
        float *dst = s % 2 == 0 ? out : work;
        smooth<<<(n + 255) / 256, 256, 0, stream>>>(dst, src, n);
        (void)cudaStreamSynchronize(stream);
        src = dst;
    }
    return cudaGetLastError();
}
