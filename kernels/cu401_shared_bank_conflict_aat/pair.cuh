// pair.cuh (CU401, C = A*A^T): launch description: A is M x 32, C is M x M with M = 4096, 32 x 32 threads per block.
//
// Both kernels multiply and add the same numbers in the same order (only the
// shared-memory layout differs), so C must match bit for bit.

static void pair_setup(harness::Setup &s, const harness::Device &)
{
    const int m = 4096;
    s.kernel = "aat";
    s.add_input("a", harness::F32, (size_t)m * 32, -1.0, 1.0);
    s.add_output("c", harness::F32, (size_t)m * m);
    s.grid = dim3(m / 32, m / 32);
    s.block = dim3(32, 32);
    s.args[0] = m;
    s.compare = harness::EXACT;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    aat<<<s.grid, s.block, 0, stream>>>((const float *)b[0], (float *)b[1], (int)s.args[0]);
}
