// memory.cu: codegen evidence for CU301, CU401, CU402, CU403: one finding
// nvcc's code confirms and one it disproves where the rule's classes allow
// (tests/codegen_test.py).

__global__ void counters(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (unsigned j = 0; j < 100; j++)   // codegen: CU301 confirmed
        s += in[i + j * n];
    const float *p = in + i;
    float t = 0.0f;
    for (unsigned k = 0; k < 8; k++)     // codegen: CU301 disproved
        t += p[k * 4];
    out[i] = s + t;
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

__global__ void unrolled_by_pragma(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float b[64];
#pragma unroll 64
    for (int j = 0; j < 64; j++)
        b[j] = in[i + j * 1024];         // codegen: CU403 disproved
    float acc = 0.0f;
#pragma unroll(64)
    for (int j = 0; j < 64; j++)
        acc += b[j] * b[(j + 3) % 64];
    out[i] = acc;
}

__global__ void shared_pairs(float *out, const float *in)
{
    __shared__ __align__(8) float s[512];  // codegen: CU401 disproved
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
