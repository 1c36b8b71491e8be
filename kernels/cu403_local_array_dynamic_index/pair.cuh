// pair.cuh (CU403): launch description: a 16-row moving average down each column of a 256-row signal, one thread per column.
//
// Both kernels do the same additions in the same order (the fixed one only
// regroups the row loop), so the outputs must match bit for bit.  The signal
// (256 x cols floats, about 270 MB on an H100) is sized to fill the GPU with one column per thread;
// the ring buffer's local-memory traffic in the bad kernel is per thread and
// mostly hits L1, which is why the effect is a ratio to measure rather than
// a large one to expect.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block);
    const long long cols = (long long)blocks * block;
    const long long rows = 256;
    s.kernel = "moving_avg";
    s.add_input("in", harness::F32, (size_t)(rows * cols), 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)(rows * cols));
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = rows;
    s.args[1] = cols;
    s.compare = harness::EXACT;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    moving_avg<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0],
                                               (int)s.args[1]);
}
