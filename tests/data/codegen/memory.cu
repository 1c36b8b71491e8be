// memory.cu: codegen evidence for CU301, CU401, CU402, CU403: one finding
// nvcc's code confirms and one it disproves where the rule's classes allow
// (tests/codegen_test.py).

__global__ void counters(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (unsigned j = 0; j < 100; j++)   // codegen: CU301 confirmed
        s += in[i + j * n];
    /* t is never used: nvcc removes the loop, and with it any cost of the
       counter's type */
    const float *p = in + i;
    float t = 0.0f;
    for (unsigned k = 0; k < 8; k++)     // codegen: CU301 disproved
        t += p[k * n];
    out[i] = s;
}

__global__ void ring_buffer(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float ring[16];
    for (int k = 0; k < 16; ++k)
        ring[k] = 0.0f;
    float sum = 0.0f;
    for (int r = 0; r < rows; ++r) {
        float v = in[r * cols + c];
        sum += v - ring[r % 16];         // codegen: CU403 confirmed
        ring[r % 16] = v;
        out[r * cols + c] = sum;
    }
}

// The trip count is a parameter the two callers set to 8 and 16; every
// index is the loop's own counter, so the rule stays silent (nvcc inlines
// both calls, unrolls them and keeps the array in registers).  The rule's
// unroll-pragma cases moved into its static analysis: fixtures/cu403_*.
__device__ float local_sum(const float *in, int i, int m)
{
    float b[16];
    for (int j = 0; j < m; j++)
        b[j] = in[i + j * 1024];
    float acc = 0.0f;
    for (int j = 0; j < m; j++)
        acc += b[j] * b[(j + 3) % m];
    return acc;
}

__global__ void unrolled_by_caller(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = local_sum(in, i, 8) + local_sum(in, i, 16);
}

__global__ void shared_pairs(float *out, const float *in)
{
    // 8-byte aligned: s[2t] and s[2t+1] fuse into one ld.shared.v2 (the rule
    // knows it and stays silent; nvcc agrees).
    __shared__ __align__(8) float s[512];
    int t = threadIdx.x;
    s[2 * t] = in[2 * t];                // codegen: CU402 confirmed
    s[2 * t + 1] = in[2 * t + 1];        // codegen: CU402 confirmed
    __syncthreads();
    out[t] = s[2 * t] + s[2 * t + 1];
}

__global__ void shared_columns(float *out, const float *in)
{
    __shared__ float tile[32][32];       // codegen: CU401 confirmed
    int t = threadIdx.x;
    for (int r = 0; r < 32; r++) tile[t][r] = in[r * 32 + t];
    __syncthreads();
    out[t] = tile[t][0] + tile[t][5];
}

__global__ void strided(float *out, const float *in, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 32];                 // codegen: CU402 confirmed
}
