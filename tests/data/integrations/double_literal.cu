// A float kernel with unsuffixed double literals: CU201 reports each one and
// offers the 'f' suffix as a fix (tests of --fix, --diff, baselines, formats).
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] * 0.1;
        x[i] = x[i] * 0.999 + 0.001;
    }
}
