// pair.cuh (CU401, transpose): launch description: a 4096 x 4096 float matrix, 32 x 8 threads per 32 x 32 tile.
//
// 16384 blocks fill any GPU many times over, and each matrix (64 MiB) is
// larger than an H100's L2, so rotating input sets keeps both kernels honest.
// A transpose only moves data: outputs must match bit for bit.

static void pair_setup(harness::Setup &s, const harness::Device &)
{
    const int dim = 4096;
    s.kernel = "transpose";
    s.add_input("in", harness::F32, (size_t)dim * dim, -1000.0, 1000.0);
    s.add_output("out", harness::F32, (size_t)dim * dim);
    s.grid = dim3(dim / 32, dim / 32);
    s.block = dim3(32, 8);
    s.args[0] = dim; // width
    s.args[1] = dim; // height
    s.compare = harness::EXACT;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    transpose<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0],
                                              (int)s.args[1]);
}
