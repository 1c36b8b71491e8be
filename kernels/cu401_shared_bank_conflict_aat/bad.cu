// bad.cu (CU401, C = A*A^T): the Best Practices Guide's shared-memory A*A^T kernel, before its padding fix.
//
// Each block computes a 32 x 32 tile of C = A * A^T for an M x 32 matrix A.
// The second tile is stored transposed (rowsT[threadIdx.x][threadIdx.y]), so the
// 32 lanes of a warp store words 32 apart into one bank: a 32-way conflict
// on every store.  The guide measures the padded version ([TILE][TILE + 1])
// faster; cudalint's fix-it makes exactly that change.
#define TILE 32

__global__ void aat(const float *a, float *c, int m)
{
    __shared__ float rows[TILE][TILE];
    __shared__ float rowsT[TILE][TILE];

    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    rows[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
    rowsT[threadIdx.x][threadIdx.y] = a[(blockIdx.x * blockDim.x + threadIdx.y) * TILE + threadIdx.x];
    __syncthreads();

    float sum = 0.0f;
    for (int i = 0; i < TILE; i++)
        sum += rows[threadIdx.y][i] * rowsT[i][threadIdx.x];
    c[row * m + col] = sum;
}
