// bad.cu (CU202): squared distances summed with powf(d, 2.0f), which runs the general pow routine for a square.
//
// Each thread adds the squared distance from its value to every value of a
// small table (read by all threads alike: a broadcast that stays in L1), so
// the loop is bound by arithmetic.  powf(d, 2.0f) inlines about 120 PTX
// instructions (logarithm, exponential, special cases); d * d is one multiply.
// cudalint's fix-it writes the multiply; `cudalint confirm` builds the fixed
// kernel from this file with that fix.
__global__ void sum_sq_dist(float *out, const float *x, const float *table, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float xi = x[i];
    float acc = 0.0f;
    for (int j = 0; j < m; ++j)
        acc += powf(xi - table[j], 2.0f);
    out[i] = acc;
}
