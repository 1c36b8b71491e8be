// bad.cu (CU501): a program that uploads 17 filter coefficients into a 16-entry __constant__ table; the copy fails (cudaErrorInvalidValue), its status is discarded, and the kernel filters with the table's old contents while the program reports nothing.

// The program's own checking macro: it records the first failure it sees.
#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess && g_first_error == cudaSuccess) g_first_error = e_;        \
    } while (0)

static cudaError_t g_first_error = cudaSuccess;

__constant__ float c_coef[16];

__global__ void apply(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * c_coef[i & 15];
}

static void run_program(float *out, const float *in, int n, cudaStream_t stream)
{
    float coef[17];
    for (int k = 0; k < 17; k++) coef[k] = 1.0f / (float)(k + 1);
    CUDA_CHECK(cudaMemsetAsync(out, 0, (size_t)n * sizeof(float), stream));
    cudaMemcpyToSymbol(c_coef, coef, sizeof coef);
    apply<<<(n + 255) / 256, 256, 0, stream>>>(out, in, n);
}
