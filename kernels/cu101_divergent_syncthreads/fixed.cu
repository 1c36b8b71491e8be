// fixed.cu (CU101): the block sum written by hand so every thread reaches every barrier.
//
// CU101 has no fix-it (moving code around barriers is not a mechanical edit),
// so this variant is hand-written: out-of-range threads contribute 0 instead
// of returning, and the only thread-dependent branches left enclose no barrier.
#define BLOCK 256

__global__ void block_sum(float *out, const float *in, int n)
{
    __shared__ float partial[BLOCK];

    int i = blockIdx.x * BLOCK + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (int half = BLOCK / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}
