// pair.cuh (CU202): launch description: one thread per value, each summing squared distances to a 1024-entry table.
//
// Tolerance: both kernels add the same terms in the same order; only each
// term may differ: powf is accurate to a few ulp (the Programming Guide's
// table of single-precision functions), the multiply is correctly rounded.
// All terms are non-negative, so the sums differ by at most the same relative
// amount; budgeting 8 ulp gives 8 * 2^-23, about 9.5e-7, and rel_tol 1e-5
// leaves room for that while a real change of the arithmetic would fail.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 2;
    const long long n = (long long)blocks * block;
    const long long m = 1024;
    s.kernel = "sum_sq_dist";
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
    sum_sq_dist<<<s.grid, s.block, 0, stream>>>((float *)b[2], (const float *)b[0],
                                                (const float *)b[1], (int)s.args[0],
                                                (int)s.args[1]);
}
