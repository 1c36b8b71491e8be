// bad.cu (CU507): a program that still sets the shared-memory bank size with cudaDeviceSetSharedMemConfig, deprecated in CUDA 12.4 (bank size has been fixed since Maxwell: the call does nothing).

__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

static cudaError_t run_program(float *out, const float *in, int n, cudaStream_t stream)
{
    cudaError_t e = cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte);
    if (e != cudaSuccess) return e;
    scale<<<(n + 255) / 256, 256, 0, stream>>>(out, in, n);
    return cudaGetLastError();
}
