// fixed.cu (CU507): the same program without the deprecated call, which had no effect (CU507 has a fix-it only for drop-in replacements such as cudaThreadSynchronize -> cudaDeviceSynchronize, whose bad form no longer compiles with CUDA 13).

__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

static cudaError_t run_program(float *out, const float *in, int n, cudaStream_t stream)
{
    scale<<<(n + 255) / 256, 256, 0, stream>>>(out, in, n);
    return cudaGetLastError();
}
