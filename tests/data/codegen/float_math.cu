// float_math.cu: codegen evidence for CU201, CU202, CU203, CU204: one finding
// nvcc's code confirms and one it disproves per rule (tests/codegen_test.py).
#include <math.h>

__global__ void literals(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    out[i] = x * 1.02;                 // codegen: CU201 confirmed
}

// A double product nobody reads: nvcc deletes it, and no f64 instruction
// is left in the kernel.  (A single float-exact operation such as x * 0.5,
// which nvcc folds back to float, is not reported at all.)
__global__ void dead_literal(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float unused = in[i] * 1.02;       // codegen: CU201 disproved
    out[i] = in[i];
}

__global__ void powers(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    out[i] = powf(x, 3);               // codegen: CU202 confirmed
    float base = 2.0f;
    out[i + 1] = powf(base, 3);        // codegen: CU202 disproved
}

// Two callers pass two constants: the rule cannot call the division constant,
// nvcc inlines both calls and folds it (a store of the quotient, no div.rn).
__device__ void put_third(float *o, float v)
{
    *o = v / 3.0f;                     // codegen: CU203 disproved
}

__global__ void divisions(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    out[i] = x / 3.0f;                 // codegen: CU203 confirmed
    put_third(out + i + 1, 6.0f);
    put_third(out + i + 2, 9.0f);
}

__global__ void double_math(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    out[i] = sin((double)x);           // codegen: CU204 confirmed
    out[i + 1] = sqrt((double)4.0f);   // codegen: CU204 disproved
}
