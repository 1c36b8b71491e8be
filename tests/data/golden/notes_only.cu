// notes_only.cu: only a folded double literal, graded as a note (tests/golden.py).
__global__ void halve(float *x)
{
    x[threadIdx.x] = x[threadIdx.x] * 0.5;
}
