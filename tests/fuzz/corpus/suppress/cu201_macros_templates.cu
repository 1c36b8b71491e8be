// cu201_macros_templates.cu: CU201 through macros, templates instantiated twice, lambdas and __host__ __device__ functions.
#include <cuda_runtime.h>
#include <math.h>

#define DECAY 0.999           // one literal, used only in float code: fixed in the definition
#define HALF 0.5              // also used where a double is meant: reported, no fix
#define THIRD (1.0 / 3.0)     // not a single literal: reported, fixed by hand
#define SCALE(v) ((v) * 0.25) // literal in a function-like macro's body
#define TIMES(a, b) ((a) * (b))

__device__ float use_macros(float x, float y)
{
    float r = x * DECAY + y;  // expect: CU201:warning "(macro 'DECAY') promotes 2 chained"
    r += y * DECAY;           // expect: CU201:warning "(macro 'DECAY') promotes 2 chained"
    r = r * HALF;             // expect: CU201:note "(macro 'HALF')"
    r = r * THIRD;            // expect: CU201:warning "(macro 'THIRD') promotes float arithmetic to double; THIRD is not exact"
    r = SCALE(r);             // expect: CU201:note "(macro 'SCALE')"
    r = TIMES(r, 0.1);        // expect: CU201:warning "0.1 is not exact in float"
    r = r * M_PI;             // expect: CU201:warning "(macro 'M_PI') promotes float arithmetic to double; M_PI is not exact"
    return r;
}

__device__ double half_in_double(double d)
{
    return d * HALF;          // the reason HALF gets no automatic fix
}

// A template instantiated twice: the float arithmetic below does not depend on
// T, so it is reported once, at the template.
template <typename T>
__device__ T scaled(T v, float gain)
{
    float g = gain * 0.7;     // expect: CU201:warning "0.7 is not exact"
    return v * T(2) + T(g);
}
template __device__ float scaled<float>(float, float);
template __device__ double scaled<double>(double, float);

// Dependent arithmetic is float for one instantiation and double for the
// other: the rule cannot tell which is meant and says nothing.
template <typename T>
__device__ T dependent(T v)
{
    return v * 0.5 + 0.25;
}
template __device__ float dependent<float>(float);
template __device__ double dependent<double>(double);

__global__ void lambdas(float *o, int n)
{
    auto f = [] __device__(float v) -> float { return v * 0.1; }; // expect: CU201:warning "0.1 is not exact"
    auto g = [=](float v) { o[0] = v * 1.5 + o[1]; };             // expect: CU201:warning "promotes 2 chained"
    // deduced return type: the double result leaves the lambda, not judged here
    auto h = [](float v) { return v * 0.5; };
    g(f(o[2]));
    o[3] = h(o[4]);
}

__host__ __device__ float both_sides(float x)
{
    return x * 0.1;           // expect: CU201:warning "0.1 is not exact"
}

float host_side(float x)
{
    return x * HALF;          // host code: not reported without --host
}
