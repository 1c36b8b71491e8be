// bad.cu (CU101): a block sum whose out-of-range threads return before the block's barriers.
//
// In the last, partly filled block, threads with i >= n leave early, so
// __syncthreads() is reached by only part of the block (undefined behaviour
// by the CUDA C Programming Guide) and the tree reduction reads the shared
// slots those threads never wrote.  On Volta and later the barrier does not
// hang in this shape (exited threads stop counting), so the kernel finishes
// with a wrong sum for that block: timing cannot show this bug, only the
// static verdict and the output comparison can.
#define BLOCK 256

__global__ void block_sum(float *out, const float *in, int n)
{
    __shared__ float partial[BLOCK];

    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n)
        return;
    partial[threadIdx.x] = in[i];
    __syncthreads();

    for (int half = BLOCK / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}
