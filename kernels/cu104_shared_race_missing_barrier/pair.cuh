// pair.cuh (CU104): launch description: blocks of 256 threads, each reversing its 256 floats.
//
// The fixed kernel's output is the reversed input exactly; the bad kernel's
// may hold stale shared values where a warp ran ahead of the one it reads
// from.  The comparison is reported, not failed: a mismatch is the race.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256; // BLOCK in the kernels
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 8;
    const size_t n = (size_t)blocks * block;
    s.kernel = "block_reverse";
    s.add_input("in", harness::F32, n, 0.5, 1.5);
    s.add_output("out", harness::F32, n);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.compare = harness::EXACT;
    s.expect = harness::MAY_DIFFER;
    s.expect_note = "the bad kernel loads slots of other warps before they are stored; elements that "
                    "differ are the race CU104 reports";
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    block_reverse<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0]);
}
