// fixed.cu (CU402): the same product with one warp per row: lane l reads a[row * n + k + l], so a warp request is 128 contiguous bytes.
//
// Written by hand (CU402 has no fix-it): the lanes of a warp split the row,
// each adds every 32nd product, and a shuffle reduction sums the 32 partial
// sums.  Each request now touches the 4 sectors that hold the 32 floats it
// uses.
__global__ void matvec(float *y, const float *a, const float *x, int m, int n)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row >= m)
        return;
    float acc = 0.0f;
    for (int k = lane; k < n; k += 32)
        acc += a[row * n + k] * x[k];
    for (int off = 16; off > 0; off /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (lane == 0)
        y[row] = acc;
}
