// shared_occupancy.cu: candidate "__shared__ arrays larger than the launch can fit per SM": 40 KiB per 256-thread block against 24 KiB.
__global__ void big_tile(float *o, const float *a)
{
    __shared__ float t[10240]; // 40 KiB: 5 blocks (1280 threads) per 228 KiB SM at most
    for (int k = threadIdx.x; k < 10240; k += blockDim.x) t[k] = a[blockIdx.x * 10240 + k];
    __syncthreads();
    o[blockIdx.x * blockDim.x + threadIdx.x] = t[(threadIdx.x * 33) % 10240];
}
__global__ void small_tile(float *o, const float *a)
{
    __shared__ float t[6144]; // 24 KiB: 8 blocks (2048 threads) per SM
    for (int k = threadIdx.x; k < 6144; k += blockDim.x) t[k] = a[blockIdx.x * 6144 + k];
    __syncthreads();
    o[blockIdx.x * blockDim.x + threadIdx.x] = t[(threadIdx.x * 33) % 6144];
}
