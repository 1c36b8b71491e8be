// bad.cu (CU503): a 2D tile kernel launched with 32x48 blocks (1536 threads, above the limit of 1024): the launch fails with cudaErrorInvalidConfiguration and the output is never written.
__global__ void add_one(float *out, const float *in, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = in[y * w + x] + 1.0f;
}

static cudaError_t run_program(float *out, const float *in, int w, int h, cudaStream_t stream)
{
    dim3 block(32, 48);
    dim3 grid((w + 31) / 32, (h + 47) / 48);
    add_one<<<grid, block, 0, stream>>>(out, in, w, h);
    return cudaGetLastError();
}
