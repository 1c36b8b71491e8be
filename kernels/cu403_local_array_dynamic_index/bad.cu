// bad.cu (CU403): a per-thread moving average whose ring buffer is indexed with r % WIN, a value known only at run time.
//
// Each thread runs down one column of a row-major signal and keeps the last
// WIN values in ring[].  The index r % WIN changes with the run-time row
// counter r, so the compiler cannot give each element its own register: the
// whole array goes to local memory (off-chip, cached in L1), and every step
// does a local load and a local store.
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
    for (int r = 0; r < rows; ++r) {
        float v = in[r * cols + c];
        sum += v - ring[r % WIN];
        ring[r % WIN] = v;
        out[r * cols + c] = sum * (1.0f / WIN);
    }
}
