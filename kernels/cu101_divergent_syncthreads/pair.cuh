// pair.cuh (CU101): launch description: block sums over n elements, with the last block a partial one.
//
// Full blocks add the same values in the same order in both kernels, so they
// match bit for bit; the last block's sum may differ because the bad kernel
// reads shared slots nobody wrote (whatever an earlier block left there).  The
// comparison is reported, not failed: that difference is the bug.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256; // BLOCK in the kernels
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block - 100; // the last block is partial
    s.kernel = "block_sum";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)blocks);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.compare = harness::EXACT;
    s.expect = harness::MAY_DIFFER;
    s.expect_note = "the bad kernel's last block sums shared slots that its exited threads never "
                    "wrote; a mismatch there is the bug CU101 reports";
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    block_sum<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0]);
}
