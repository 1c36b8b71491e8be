// messages.cu: findings whose messages must state only what is known (issue 22): the index written in
// a macro argument (CU403), the pow routine nvcc really calls (CU202), the literal that makes a call
// double (CU201), the component a macro's argument names (CU402: GID(y) is threadIdx.y).
#include <math.h>

#define GID(x) (blockIdx.x * blockDim.x + threadIdx.x)
#define CHECK_POSITIVE(x) do { if (!((x) > 0.0)) __trap(); } while (0)

__global__ void messages(float *out, const float *in, double *dout, const double *din)
{
    float v = in[threadIdx.x];
    out[0] = pow(v, 2);
    out[1] = powf(v, 3.0f);
    out[2] = exp(v * 2.0) + 1.0;
    double t[32];
    int w = (threadIdx.x * 7) % 32;
    for (int k = 0; k < 32; ++k) t[k] = din[k * 32 + threadIdx.x];
    CHECK_POSITIVE(t[(w + 3) % 32]);
    dout[threadIdx.x] = t[w];
}

__global__ void strides(const float *in, float *out)
{
    int col = GID(x);
    int row = GID(y);
    out[row * 61441 + col] = in[col * 61441 + row];
}
