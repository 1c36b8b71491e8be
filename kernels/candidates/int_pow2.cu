// int_pow2.cu: candidate "integer division and modulo by a run-time power of two": i % blockDim.x and i / w against masks and shifts.
__global__ void rem_bad(int *o, const int *a, unsigned w)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = a[i % w] + (int)(i / w);
}
__global__ void rem_fixed(int *o, const int *a, unsigned w, unsigned log2w)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = a[i & (w - 1)] + (int)(i >> log2w);
}
__global__ void rem_blockdim(int *o, const int *a)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = a[i % blockDim.x];
}
