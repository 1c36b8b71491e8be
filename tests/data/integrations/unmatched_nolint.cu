// A NOLINTBEGIN without its NOLINTEND: CU001, a warning that depends on no
// analysis rule, so hook and baseline tests have a finding whatever the rules do.
__global__ void copy(float *dst, const float *src, int n)
{
    // NOLINTBEGIN(CU301)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}
