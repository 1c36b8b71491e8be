// bad.cu (CU502): a program whose block size comes from a tuning parameter (2048: too large); the launch fails with cudaErrorInvalidConfiguration, and the checked cudaStreamSynchronize after it returns success, so the program reports nothing.
#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess && g_first_error == cudaSuccess) g_first_error = e_;        \
    } while (0)

static cudaError_t g_first_error = cudaSuccess;

__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

static void run_program(float *out, const float *in, int n, int threads, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemsetAsync(out, 0, (size_t)n * sizeof(float), stream));
    scale<<<(n + threads - 1) / threads, threads, 0, stream>>>(out, in, n);
    CUDA_CHECK(cudaStreamSynchronize(stream));
}
