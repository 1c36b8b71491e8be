// pair.cuh (CU504): 64 batches of 64K elements per launch, so that each batch's kernels take a few microseconds and the per-batch allocation shows; timed with CUDA events around the whole program (host time between the events included).

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    (void)d;
    const int batches = 64;
    const long long n = 64LL * 65536;
    s.kernel = "square";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.grid = dim3((unsigned)(65536 / 256));
    s.block = dim3(256);
    s.args[0] = n;
    s.args[1] = batches;
    s.compare = harness::EXACT; // the same arithmetic in the same order
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    (void)run_program((float *)b[1], (const float *)b[0], (int)s.args[0], (int)s.args[1], stream);
}
