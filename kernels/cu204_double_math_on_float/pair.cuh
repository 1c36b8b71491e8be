// pair.cuh (CU204): launch description: one thread per value, each summing exponentials of its distances to a 1024-entry table.
//
// Tolerance: both kernels add the same terms in the same order; each term
// differs by expf's error (2 ulp in the Programming Guide's table for
// single precision) against the double exp rounded once (0.5 ulp).  The terms
// are positive, so the sums differ by at most about 3 ulp relative, 3.6e-7;
// rel_tol 1e-5 covers that and fails a kernel that computes something else.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 2;
    const long long n = (long long)blocks * block;
    const long long m = 1024;
    s.kernel = "sum_exp";
    s.add_input("x", harness::F32, (size_t)n, -1.0, 1.0);
    s.add_input("table", harness::F32, (size_t)m, -1.0, 1.0);
    s.add_output("out", harness::F32, (size_t)n);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.args[1] = m;
    s.compare = harness::TOLERANCE;
    s.rel_tol = 1e-5;
    s.abs_tol = 1e-6;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    sum_exp<<<s.grid, s.block, 0, stream>>>((float *)b[2], (const float *)b[0], (const float *)b[1],
                                            (int)s.args[0], (int)s.args[1]);
}
