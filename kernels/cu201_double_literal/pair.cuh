// pair.cuh (CU201): launch description: one thread per element, a long dependent loop, so arithmetic dominates.
//
// Tolerance: the bad kernel rounds each step's double result to float, the
// fixed one does a float FMA with 0.999f and 0.001f (which are not exactly
// 0.999 and 0.001).  The map contracts by 0.999 a step, so per-step rounding
// differences can build up to several hundred ulps near the fixed point x = 1;
// a CPU emulation of both recurrences over the input range gave at most
// 1.4e-5 relative difference, hence rel_tol 1e-4.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    // Four full waves of resident blocks on this GPU.
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block;
    s.kernel = "decay";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.args[1] = 4096; // steps
    s.compare = harness::TOLERANCE;
    s.rel_tol = 1e-4;
    s.abs_tol = 1e-6;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    decay<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0],
                                          (int)s.args[1]);
}
