// float_div.cu: candidate "division by a floating constant": x / 3.0f against x * (1.0f / 3.0f), and a power of two.
__global__ void div_bad(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = a[i] / 3.0f; }
__global__ void div_fixed(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = a[i] * (1.0f / 3.0f); }
__global__ void div_pow2(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = a[i] / 4.0f; }
__global__ void div_loop_bad(float *o, const float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    for (int k = 0; k < n; ++k) x = x / 3.0f + 1.0f;
    o[i] = x;
}
__global__ void div_loop_fixed(float *o, const float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    for (int k = 0; k < n; ++k) x = x * (1.0f / 3.0f) + 1.0f;
    o[i] = x;
}
