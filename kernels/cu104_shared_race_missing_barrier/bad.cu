// bad.cu (CU104): each block reverses its 256 elements through shared memory, with no barrier between the store and the load.
//
// Thread t reads the slot thread 255 - t stored, which belongs to another
// warp: nothing makes that warp store first, so threads read whatever the
// slot held (the previous block's data on this multiprocessor, or garbage).
#define BLOCK 256

__global__ void block_reverse(float *out, const float *in)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int base = blockIdx.x * BLOCK;
    s[t] = in[base + t];
    out[base + t] = s[BLOCK - 1 - t];
}
