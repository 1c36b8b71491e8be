// pair.cuh (CU301): launch description: each thread sums `count` elements spaced `stride` apart.
//
// The input is small enough to stay in L2 (and mostly in L1: neighbouring
// threads re-read each other's elements), so the loop is bound by issue and
// load latency rather than DRAM, which is where extra integer instructions
// per iteration can show.  The sums run in the same order in both kernels:
// outputs must match bit for bit.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 2;
    const long long n = (long long)blocks * block;
    const long long stride = 1031; // not a power of two: no partition camping
    const long long count = 128;
    s.kernel = "gather";
    s.add_input("in", harness::F32, (size_t)(n + (count - 1) * stride), 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.args[1] = stride;
    s.args[2] = count;
    s.compare = harness::EXACT;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    gather<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0],
                                           (int)s.args[1], (int)s.args[2]);
}
