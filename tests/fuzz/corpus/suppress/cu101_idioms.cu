// CU101 divergent-syncthreads: correct kernels in the shapes real code uses
// (transposes, tiled products, reductions, scans, histograms) stay silent;
// the same kernels with the barrier moved under a thread condition do not.
#include "cu101_helpers.cuh"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_coalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_bounds_check_around_barrier(float *odata, const float *idata, int width)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < width && y < width) {
        tile[threadIdx.y][threadIdx.x] = idata[y * width + x];
        __syncthreads(); // expect: CU101 "the condition depends on threadIdx.x"
        odata[x * width + y] = tile[threadIdx.x][threadIdx.y];
    }
}

// The tiled product C = A * B of the Best Practices Guide's shared-memory
// chapter, with a loop over tiles.
__global__ void shared_abmultiply(const float *a, const float *b, float *c, int N)
{
    __shared__ float aTile[TILE_DIM][TILE_DIM + 1], bTile[TILE_DIM][TILE_DIM + 1];
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < N / TILE_DIM; ++t) {
        aTile[threadIdx.y][threadIdx.x] = a[row * N + t * TILE_DIM + threadIdx.x];
        bTile[threadIdx.y][threadIdx.x] = b[(t * TILE_DIM + threadIdx.y) * N + col];
        __syncthreads();
        for (int i = 0; i < TILE_DIM; i++) sum += aTile[threadIdx.y][i] * bTile[i][threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = sum;
}

__global__ void staged_through_header_helper(float *out, const float *in, int ld)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    stage_tile<TILE_DIM>(tile, in, ld);
    out[threadIdx.y * ld + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    if (threadIdx.y == 0) stage_tile<TILE_DIM>(tile, in, ld); // expect: CU101 "call to 'stage_tile' reaches __syncthreads()"
}

__global__ void warp_shuffle_reduction(const float *in, float *out, int n)
{
    __shared__ float partial[32];
    int tid = threadIdx.x;
    int lane = tid % 32, warp = tid / 32;
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = warp_sum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

__global__ void unrolled_reduction(const float *in, float *out, unsigned n)
{
    // The "reduce6" shape: a uniform loop, then warp-synchronous code with
    // __syncwarp under a thread condition.
    __shared__ float s[512];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x * 2 + tid;
    float v = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 32; k >>= 1) {
        if (tid < k) s[tid] = v = v + s[tid + k];
        __syncthreads();
    }
    if (tid < 32) {
        if (blockDim.x >= 64) v += s[tid + 32];
        for (int k = 16; k > 0; k /= 2) v += __shfl_down_sync(0xffffffffu, v, k);
    }
    if (tid == 0) out[blockIdx.x] = v;
}

__global__ void shared_histogram(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned bins[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&hist[b], bins[b]);
}

__global__ void stencil_with_halo(const float *in, float *out, int n)
{
    __shared__ float s[256 + 2];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + 1;
    s[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x == 0) s[0] = g > 0 ? in[g - 1] : 0.0f;
    if (threadIdx.x == blockDim.x - 1) s[l + 1] = g + 1 < n ? in[g + 1] : 0.0f;
    __syncthreads();
    if (g < n) out[g] = s[l - 1] + s[l] + s[l + 1];
}

__global__ void double_buffered_tiles(const float *in, float *out, int tiles)
{
    __shared__ float buf[2][256];
    int cur = 0;
    buf[cur][threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int t = 1; t < tiles; ++t) {
        buf[1 - cur][threadIdx.x] = in[t * 256 + threadIdx.x];
        out[(t - 1) * 256 + threadIdx.x] = buf[cur][255 - threadIdx.x];
        __syncthreads();
        cur = 1 - cur;
    }
}
