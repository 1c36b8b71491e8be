// bad.cu (CU402): a matrix-vector product with one thread per row, so consecutive threads read addresses a whole row apart.
//
// Thread `row` walks its own row of the row-major matrix: in each step k the
// 32 lanes of a warp read a[row * n + k] for 32 consecutive rows, 4 KiB
// apart (n = 1024 floats), so every lane needs its own 32-byte sector: 32
// sectors per request where 4 would do.  The L1 keeps part of each sector for
// the next steps, but the matrix is far larger than L1, so most of every
// sector fetched is thrown away before it is used.
__global__ void matvec(float *y, const float *a, const float *x, int m, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m)
        return;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
        acc += a[row * n + k] * x[k];
    y[row] = acc;
}
