// pair.cuh (CU402): launch description: y = A x for a row-major 32768 x 1024 matrix; one thread (bad) or one warp (fixed) per row.
//
// The matrix (128 MiB) is far larger than the L2, so the bad kernel's
// scattered sectors come from DRAM.  The two kernels launch differently (one
// thread against 32 threads per row), so pair_launch picks the grid by
// variant (GPU run 1 launched the fixed kernel with the bad kernel's grid:
// only the first 1024 rows were computed).
//
// Tolerance: both add the same 1024 products, in a different order (a serial
// sum against 32 interleaved partial sums and a tree).  The products lie in
// [0.25, 2.25] and are all positive, so each order's rounding error is at most
// about n * 2^-24 relative (6e-5 for n = 1024, a loose worst case; typical
// errors are near sqrt(n) * 2^-24, about 2e-6); rel_tol 1e-4 covers the worst
// case and still fails a kernel that drops or repeats a product (>= 4e-4).

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    (void)d;
    const long long m = 32768, n = 1024;
    s.kernel = "matvec";
    s.add_input("a", harness::F32, (size_t)(m * n), 0.5, 1.5);
    s.add_input("x", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("y", harness::F32, (size_t)m);
    s.block = dim3(256);
    s.grid = dim3((unsigned)((m + 255) / 256)); // the bad kernel's; pair_launch picks each variant's
    s.args[0] = m;
    s.args[1] = n;
    s.compare = harness::TOLERANCE;
    s.rel_tol = 1e-4;
    s.abs_tol = 1e-3;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    // The grid is the variant's own: the harness may hand both variants the
    // Setup of one of them (a thread per row against a warp per row).
    const long long m = s.args[0];
#if defined(VARIANT_BAD)
    const dim3 grid((unsigned)((m + 255) / 256));
#else
    const dim3 grid((unsigned)((m * 32 + 255) / 256));
#endif
    matvec<<<grid, s.block, 0, stream>>>((float *)b[2], (const float *)b[0], (const float *)b[1],
                                         (int)s.args[0], (int)s.args[1]);
}
