// bad.cu (CU201): a float recurrence written with unsuffixed literals, so every step runs in double.
//
// x * 0.999 + 0.001 promotes x to double, multiplies and adds in double and
// rounds back to float: two conversions and an FP64 FMA per step, on a GPU
// whose FP64 and conversion throughput is a fraction of its FP32 rate.
// cudalint's fix-it adds the f suffixes; `cudalint confirm` builds the fixed
// kernel from this file with that fix.
__global__ void decay(float *out, const float *in, int n, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    for (int k = 0; k < steps; ++k)
        x = x * 0.999 + 0.001;
    out[i] = x;
}
