// bad.cu (CU301): a strided gather whose unsigned loop counter feeds the address arithmetic.
//
// With `unsigned k`, i + k * stride is computed modulo 2^32 and then
// zero-extended, so the compiler must rebuild the address every iteration (a
// 32-bit multiply or add and a widening multiply per load).  A signed counter
// cannot wrap (overflow is undefined), so the compiler strength-reduces the
// address to one 64-bit pointer increment per iteration.  The bound is a
// non-negative int, so changing the counter to int keeps the trip count.
__global__ void gather(float *out, const float *in, int n, int stride, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || count < 0)
        return;
    float acc = 0.0f;
    for (unsigned k = 0; k < count; ++k)
        acc += in[i + k * stride];
    out[i] = acc;
}
