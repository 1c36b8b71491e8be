// bad.cu (CU504): a batched pipeline that allocates and frees its scratch buffer on every batch; cudaFree synchronises the device each time.
__global__ void square(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

static cudaError_t run_program(float *out, const float *in, int n, int batches, cudaStream_t stream)
{
    int per = n / batches;
    for (int b = 0; b < batches; b++) {
        float *scratch = nullptr;
        cudaError_t e = cudaMalloc(&scratch, (size_t)per * sizeof(float));
        if (e != cudaSuccess) return e;
        square<<<(per + 255) / 256, 256, 0, stream>>>(scratch, in + (size_t)b * per, per);
        square<<<(per + 255) / 256, 256, 0, stream>>>(out + (size_t)b * per, scratch, per);
        e = cudaFree(scratch);
        if (e != cudaSuccess) return e;
    }
    return cudaGetLastError();
}
