// bad.cu (CU401): a tiled matrix transpose whose 32x32 shared tile is read down its columns.
//
// The tile is written row-wise (coalesced global loads) and read column-wise
// (tile[threadIdx.x][...]), so the 32 lanes of a warp read words 32 apart: all
// in one bank, a 32-way conflict that serialises every shared load.  Padding
// each row by one word ([TILE][TILE + 1], cudalint's fix-it) spreads the
// column over all 32 banks.
#define TILE 32
#define ROWS 8

__global__ void transpose(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
