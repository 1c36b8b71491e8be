// bad.cu (CU203): a float recurrence that divides by the constant 3.0f every step.
//
// 3.0f is not a power of two, so nvcc keeps an IEEE division (div.rn.f32,
// expanded by ptxas into a reciprocal estimate, refinement and a slow-path
// check) instead of multiplying by 1/3.  cudalint's fix-it writes the
// multiplication; `cudalint confirm` builds the fixed kernel from this file
// with that fix.
__global__ void third_steps(float *out, const float *in, int n, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    for (int k = 0; k < steps; ++k)
        x = x / 3.0f + 1.0f;
    out[i] = x;
}
