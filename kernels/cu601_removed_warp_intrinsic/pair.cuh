// pair.cuh (CU601): launch description: one sum per warp of n floats, n a multiple of the block.
//
// Only the fixed kernel compiles with a current toolkit (the point of the
// rule), so the GPU steps run the fixed kernel alone when `confirm` finds the
// bad one does not build; where an older toolkit builds both for an older
// GPU, the outputs are bitwise equal (the same additions in the same order).

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block;
    s.kernel = "warp_sums";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)(n / 32));
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.compare = harness::EXACT;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    warp_sums<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0]);
}
