// restrict.cu: candidate "missing __restrict__ on kernel pointer parameters": whether the loads take the read-only path (ld.global.nc).
__global__ void saxpy_bad(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void saxpy_fixed(float *__restrict__ y, const float *__restrict__ x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void stencil_bad(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) out[i] = in[i - 1] + in[i] + in[i + 1];
}
__global__ void stencil_fixed(float *__restrict__ out, const float *__restrict__ in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) out[i] = in[i - 1] + in[i] + in[i + 1];
}
