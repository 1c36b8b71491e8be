// pair.cuh (CU103): launch description: one sum per warp over n floats, the last warp partial.
//
// Full warps add the same values in the same order in both kernels, so they
// match bit for bit; the last warp's sum may differ, because the bad kernel
// shuffles with lanes that have exited.  The comparison is reported, not
// failed: that difference is the bug.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block - 13; // the last warp has 19 lanes in range
    s.kernel = "warp_sums";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)((n + 31) / 32));
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.compare = harness::EXACT;
    s.expect = harness::MAY_DIFFER;
    s.expect_note = "the bad kernel's last warp shuffles with 13 lanes that returned; a mismatch in "
                    "its sum is the bug CU103 reports";
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    warp_sums<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0]);
}
