// double_math.cu: candidate "double math functions on float arguments": float results computed through the double routine.
__global__ void sin_bad(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = (float)sin((double)a[i]); }
__global__ void sin_fixed(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = sinf(a[i]); }
__global__ void sqrt_bad(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; float r = sqrt((double)a[i]); o[i] = r; }
__global__ void sqrt_fixed(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; float r = sqrtf(a[i]); o[i] = r; }
__global__ void exp_bad(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = exp((double)a[i] * 2.0); }
__global__ void exp_fixed(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = expf(a[i] * 2.0f); }
__global__ void sin_overload(float *o, const float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = sin(a[i]); }
