// notes_only.cu: only a float division by a constant, graded as a note (tests/golden.py).
__global__ void third(float *x)
{
    x[threadIdx.x] = x[threadIdx.x] / 3.0f;
}
