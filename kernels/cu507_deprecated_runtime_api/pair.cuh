// pair.cuh (CU507): runs the program once per launch; both variants compute the same, the bad one through a deprecated call that has no effect.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block;
    s.kernel = "scale";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.compare = harness::EXACT;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    (void)run_program((float *)b[1], (const float *)b[0], (int)s.args[0], stream);
}
