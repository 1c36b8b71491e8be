// bad.cu (CU204): a sum of exponentials computed through the double exp on float values, each result rounded back to float.
//
// (float)exp((double)d) converts d to double, runs the double-precision exp
// routine (about 40 FP64 instructions) and rounds the result to float, which
// throws away the extra precision it paid for.  cudalint's fix-it calls expf
// on the float value; `cudalint confirm` builds the fixed kernel from this
// file with that fix.
__global__ void sum_exp(float *out, const float *x, const float *table, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float xi = x[i];
    float acc = 0.0f;
    for (int j = 0; j < m; ++j)
        acc += (float)exp((double)(xi - table[j]));
    out[i] = acc;
}
