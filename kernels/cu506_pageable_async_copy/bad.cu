// bad.cu (CU506): a chunked upload-and-compute pipeline on two streams whose host staging buffer comes from malloc: cudaMemcpyAsync from pageable memory is staged by the driver and does not overlap with the kernels.
__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

static cudaError_t run_program(float *out, float *dev_in, int n, int chunks, cudaStream_t s0, cudaStream_t s1)
{
    static float *staging = nullptr;
    if (!staging) {
        staging = (float *)malloc((size_t)n * sizeof(float));
        for (int i = 0; i < n; i++) staging[i] = (float)(i % 97);
    }
    int per = n / chunks;
    for (int c = 0; c < chunks; c++) {
        cudaStream_t s = (c % 2) ? s1 : s0;
        cudaError_t e = cudaMemcpyAsync(dev_in + (size_t)c * per, staging + (size_t)c * per,
                                        (size_t)per * sizeof(float), cudaMemcpyHostToDevice, s);
        if (e != cudaSuccess) return e;
        scale<<<(per + 255) / 256, 256, 0, s>>>(out + (size_t)c * per, dev_in + (size_t)c * per, per);
    }
    return cudaGetLastError();
}
