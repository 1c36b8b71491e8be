// compile_error.cu: a file clang parses and nvcc rejects: the finding stays
// as found, with a note that codegen could not check it (tests/codegen_test.py).
#ifndef __clang__
#error "nvcc stops here; cudalint parses with clang, which defines __clang__"
#endif

__global__ void scale(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 1.02;               // codegen: CU201 not-checked
}
