// coalesce_kernels.cu: small kernels with known global-load patterns, to compare CU402's sectors per request with Nsight Compute.
//
// Each kernel makes one global load per thread with the pattern under test
// (the row-per-thread kernel one per step of its loop, kept rolled) and a
// unit-stride store, so that the load metrics l1tex__t_sectors / requests
// (pipe_lsu, mem_global, op_ld) see only the pattern.  Each kernel's comment
// gives the sectors per request cudalint reports, or, for the kernels it must
// not flag, the sectors the pattern needs ("silent: N").  Arrays come from
// cudaMalloc (256-byte aligned), so every pattern starts on a sector.
#include <cstdio>
#include <cuda_runtime.h>

#define ROW 64

// silent: 4 (32 lanes x 4 bytes, contiguous)
__global__ void stride1(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// 8 sectors where 4 would do
__global__ void stride2(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i];
}

// 16 sectors where 4 would do
__global__ void stride4(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 4];
}

// 32 sectors where 4 would do
__global__ void stride8(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[8 * i];
}

// 32 sectors where 4 would do
__global__ void stride32(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[32 * i];
}

// 32 sectors where 4 would do: a row of n floats per thread, walked with k
__global__ void row_per_thread(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll 1
    for (int k = 0; k < n; k++)
        acc += in[i * n + k];
    out[i] = acc;
}

// 16 sectors where 8 would do
__global__ void stride2_double(double *out, const double *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i];
}

// silent: 16 (32 lanes x 16 bytes, contiguous)
__global__ void vector_float4(float4 *out, const float4 *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// silent: 1 (every lane reads the same element)
__global__ void broadcast(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[blockIdx.x];
}

// 16 sectors where 4 would do, in the 16x16 blocks main() launches: a warp
// is two rows of 16 threadIdx.x, each lane in its own 4 KiB column
__global__ void column_16x16(float *out, const float *in)
{
    int x = blockIdx.x * 16 + threadIdx.x;
    int o = (blockIdx.x * 16 + threadIdx.y) * 16 + threadIdx.x;
    out[o] = in[x * 1024 + threadIdx.y];
}

// silent: 4 in the 16x16 blocks main() launches: two rows of 16 floats
__global__ void row_16x16(float *out, const float *in)
{
    int o = (blockIdx.x * 16 + threadIdx.y) * 16 + threadIdx.x;
    out[o] = in[(blockIdx.x * 16 + threadIdx.y) * 1024 + threadIdx.x];
}

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main()
{
    const int blocks = 1024, threads = 256;
    const size_t n = (size_t)blocks * threads; // threads in a launch
    float *in, *out;
    // the widest pattern reads 32 floats per thread; the 2D ones 1024 x 16 x blocks
    size_t in_bytes = n * 32 * sizeof(float);
    if (in_bytes < (size_t)blocks * 16 * 1024 * sizeof(float) + 64)
        in_bytes = (size_t)blocks * 16 * 1024 * sizeof(float) + 64;
    CHECK(cudaMalloc(&in, in_bytes));
    CHECK(cudaMalloc(&out, n * sizeof(float4)));
    CHECK(cudaMemset(in, 0, in_bytes));
    stride1<<<blocks, threads>>>(out, in);
    stride2<<<blocks, threads>>>(out, in);
    stride4<<<blocks, threads>>>(out, in);
    stride8<<<blocks, threads>>>(out, in);
    stride32<<<blocks, threads>>>(out, in);
    row_per_thread<<<blocks / 8, threads>>>(out, in, ROW);
    stride2_double<<<blocks, threads>>>((double *)out, (const double *)in);
    vector_float4<<<blocks, threads>>>((float4 *)out, (const float4 *)in);
    broadcast<<<blocks, threads>>>(out, in);
    column_16x16<<<blocks, dim3(16, 16)>>>(out, in);
    row_16x16<<<blocks, dim3(16, 16)>>>(out, in);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("ok\n");
    return 0;
}
