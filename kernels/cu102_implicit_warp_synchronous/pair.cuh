// pair.cuh (CU102): launch description: one sum per block of 256 floats.
//
// Both kernels add the same values in the same order; when the bad kernel's
// warp tail reads every slot after the other lanes stored it, the sums are
// bit for bit equal.  A mismatch is the race CU102 reports, so the
// comparison is reported, not failed.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256; // BLOCK in the kernels
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 8;
    s.kernel = "block_sum";
    s.add_input("in", harness::F32, (size_t)blocks * block, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)blocks);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.compare = harness::EXACT;
    s.expect = harness::MAY_DIFFER;
    s.expect_note = "the bad kernel's warp tail reads slots of other lanes without __syncwarp(); "
                    "sums that differ are the race CU102 reports";
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    block_sum<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0]);
}
