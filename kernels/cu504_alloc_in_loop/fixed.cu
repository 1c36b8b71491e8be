// fixed.cu (CU504): the same pipeline with the scratch buffer allocated once before the loop and freed once after it.
__global__ void square(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

static cudaError_t run_program(float *out, const float *in, int n, int batches, cudaStream_t stream)
{
    int per = n / batches;
    float *scratch = nullptr;
    cudaError_t e = cudaMalloc(&scratch, (size_t)per * sizeof(float));
    if (e != cudaSuccess) return e;
    for (int b = 0; b < batches; b++) {
        square<<<(per + 255) / 256, 256, 0, stream>>>(scratch, in + (size_t)b * per, per);
        square<<<(per + 255) / 256, 256, 0, stream>>>(out + (size_t)b * per, scratch, per);
    }
    e = cudaFree(scratch);
    if (e != cudaSuccess) return e;
    return cudaGetLastError();
}
