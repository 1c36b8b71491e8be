// bank_kernels.cu: small kernels with known shared-memory access patterns, to compare CU401's conflict degree with Nsight Compute.
//
// Each kernel fills its shared array without conflicts, then loads from it
// `iters` times with the pattern under test and writes a sum so that nothing
// is optimised away.  Most run one warp per block; the last three run blocks
// narrower than a warp: two assert their shape, one leaves it to its launch
// site in main().  The loop
// is kept rolled so that nvcc cannot merge neighbouring loads into wider
// ones, which would change the pattern being measured.  The comment on each
// kernel gives the degree cudalint should report for its loads.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

#define N 32

// degree 1: consecutive lanes, consecutive words.
__global__ void row_float(float *out, int iters)
{
    __shared__ float s[N * N];
    for (int r = 0; r < N; r++)
        s[r * N + threadIdx.x] = (float)(r + threadIdx.x);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += s[threadIdx.x + N * (i & 31)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 2: a stride of 2 words uses the 16 even banks.
__global__ void stride2_float(float *out, int iters)
{
    __shared__ float s[N * N];
    for (int r = 0; r < N; r++)
        s[r * N + threadIdx.x] = (float)(r + threadIdx.x);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += s[2 * threadIdx.x + (i & 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 16: a stride of 16 words uses banks 0 and 16.
__global__ void stride16_float(float *out, int iters)
{
    __shared__ float s[N * N];
    for (int r = 0; r < N; r++)
        s[r * N + threadIdx.x] = (float)(r + threadIdx.x);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += s[16 * threadIdx.x + (i & 15)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 32: a column of a 32 x 32 tile is one bank.
__global__ void column_float(float *out, int iters)
{
    __shared__ float tile[N][N];
    for (int r = 0; r < N; r++)
        tile[r][threadIdx.x] = (float)(r + threadIdx.x);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += tile[threadIdx.x][i & 31];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 1: the padded tile's column spans all 32 banks.
__global__ void column_float_padded(float *out, int iters)
{
    __shared__ float tile[N][N + 1];
    for (int r = 0; r < N; r++)
        tile[r][threadIdx.x] = (float)(r + threadIdx.x);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += tile[threadIdx.x][i & 31];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 2: doubles 2 apart; each half-warp covers 64 words on 16 banks.
__global__ void stride2_double(double *out, int iters)
{
    __shared__ double s[4 * N];
    for (int r = 0; r < 4; r++)
        s[r * N + threadIdx.x] = (double)(r + threadIdx.x);
    __syncthreads();
    double acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += s[2 * threadIdx.x + 64 * (i & 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 16: a double column; each half-warp touches banks 0 and 1 only.
__global__ void column_double(double *out, int iters)
{
    __shared__ double tile[N][N];
    for (int r = 0; r < N; r++)
        tile[r][threadIdx.x] = (double)(r + threadIdx.x);
    __syncthreads();
    double acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += tile[threadIdx.x][i & 31];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 1: the padded double column (66 words between rows).
__global__ void column_double_padded(double *out, int iters)
{
    __shared__ double tile[N][N + 1];
    for (int r = 0; r < N; r++)
        tile[r][threadIdx.x] = (double)(r + threadIdx.x);
    __syncthreads();
    double acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += tile[threadIdx.x][i & 31];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 8: a float4 column; each quarter-warp touches banks 0-3 only.
__global__ void column_float4(float *out, int iters)
{
    __shared__ float4 tile[N][N];
    for (int r = 0; r < N; r++)
        tile[r][threadIdx.x] = make_float4(r, threadIdx.x, 1, 2);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        float4 v = tile[threadIdx.x][i & 31];
        acc += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// degree 8: a char column; lanes 32 bytes (8 words) apart share 4 banks.
__global__ void column_char(float *out, int iters)
{
    __shared__ char tile[N][N];
    for (int r = 0; r < N; r++)
        tile[r][threadIdx.x] = (char)(r + threadIdx.x);
    __syncthreads();
    int acc = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += tile[threadIdx.x][i & 31];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)acc;
}

// degree 1: every lane reads the same word (a broadcast).
__global__ void broadcast_float(float *out, int iters)
{
    __shared__ float s[N * N];
    for (int r = 0; r < N; r++)
        s[r * N + threadIdx.x] = (float)(r + threadIdx.x);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += s[i & 1023];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Blocks narrower than a warp, with the shape stated by an assert (cudalint
// reads it): 16 x 16 threads, a warp is two rows of 16.
// degree 8: the column of a 16 x 16 tile for x = 0..15 and two values of y
// lands in 4 banks.
__global__ void narrow_16x16(float *out, int iters)
{
    assert(blockDim.x == 16 && blockDim.y == 16);
    __shared__ float tile[16][16];
    tile[threadIdx.y][threadIdx.x] = (float)(threadIdx.x + threadIdx.y);
    __syncthreads();
    float acc = 0.0f;
    // __syncwarp() orders shared memory, so the load is not hoisted.
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        acc += tile[threadIdx.x][threadIdx.y];
        __syncwarp();
    }
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = acc;
}

// degree 1: 4 x 8 threads, sub[threadIdx.x][threadIdx.y] is word 8x + y:
// 32 different banks although threadIdx.x moves 8 words at a time.
__global__ void narrow_4x8(float *out, int iters)
{
    assert(blockDim.x == 4 && blockDim.y == 8);
    __shared__ float sub[32][8];
    for (int k = threadIdx.y * 4 + threadIdx.x; k < 32 * 8; k += 32)
        sub[k / 8][k % 8] = (float)k;
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++)
        acc += sub[threadIdx.x + 4 * (i & 7)][threadIdx.y];
    out[blockIdx.x * 32 + threadIdx.y * 4 + threadIdx.x] = acc;
}

// The same 16 x 16 tile without an assert: the shape comes from the launch
// site in main() (dim3 tile_block(16, 16)), which cudalint reads.
// degree 8, as for narrow_16x16.
__global__ void launched_16x16(float *out, int iters)
{
    __shared__ float tile[16][16];
    tile[threadIdx.y][threadIdx.x] = (float)(threadIdx.x + threadIdx.y);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        acc += tile[threadIdx.x][threadIdx.y];
        __syncwarp();
    }
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = acc;
}

int main()
{
    const int blocks = 16, threads = N, iters = 256;
    float *f = nullptr;
    double *d = nullptr;
    if (cudaMalloc(&f, blocks * threads * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&d, blocks * threads * sizeof(double)) != cudaSuccess) {
        fprintf(stderr, "bank_kernels: no CUDA device\n");
        return 1;
    }
    row_float<<<blocks, threads>>>(f, iters);
    stride2_float<<<blocks, threads>>>(f, iters);
    stride16_float<<<blocks, threads>>>(f, iters);
    column_float<<<blocks, threads>>>(f, iters);
    column_float_padded<<<blocks, threads>>>(f, iters);
    stride2_double<<<blocks, threads>>>(d, iters);
    column_double<<<blocks, threads>>>(d, iters);
    column_double_padded<<<blocks, threads>>>(d, iters);
    column_float4<<<blocks, threads>>>(f, iters);
    column_char<<<blocks, threads>>>(f, iters);
    broadcast_float<<<blocks, threads>>>(f, iters);
    narrow_16x16<<<blocks / 8, dim3(16, 16)>>>(f, iters);
    narrow_4x8<<<blocks, dim3(4, 8)>>>(f, iters);
    dim3 tile_block(16, 16);
    launched_16x16<<<blocks / 8, tile_block>>>(f, iters);
    cudaError_t e = cudaDeviceSynchronize();
    cudaFree(f);
    cudaFree(d);
    if (e != cudaSuccess) {
        fprintf(stderr, "bank_kernels: %s\n", cudaGetErrorString(e));
        return 1;
    }
    printf("bank_kernels: 14 kernels ran\n");
    return 0;
}
