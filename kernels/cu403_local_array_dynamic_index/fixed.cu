// fixed.cu (CU403): the same moving average, its rows taken WIN at a time by a fully unrolled inner loop, so ring[] is indexed with constants.
//
// Written by hand (CU403 has no fix-it).  r0 is a multiple of WIN, so
// r % WIN is j, the counter of a loop with a constant trip count: after
// unrolling every index is a constant and ring[] lives in registers.  The
// arithmetic and its order are unchanged.
#define WIN 16

__global__ void moving_avg(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float ring[WIN];
    for (int k = 0; k < WIN; ++k)
        ring[k] = 0.0f;
    float sum = 0.0f;
    for (int r0 = 0; r0 < rows; r0 += WIN) {
#pragma unroll
        for (int j = 0; j < WIN; ++j) {
            int r = r0 + j;
            if (r < rows) {
                float v = in[r * cols + c];
                sum += v - ring[j];
                ring[j] = v;
                out[r * cols + c] = sum * (1.0f / WIN);
            }
        }
    }
}
