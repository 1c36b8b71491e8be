// pair.cuh (CU203): launch description: one thread per element, a long dependent loop of x = x / 3 + 1.
//
// Tolerance: x / 3.0f is correctly rounded; x * (1.0f / 3.0f) rounds the
// reciprocal and then the product, within 1 ulp of the quotient.  The map
// contracts by 1/3 a step towards its fixed point 1.5, so a step's error
// shrinks to a third in the next: the outputs stay within about 1.5 ulp
// (1.8e-7 relative) of each other; rel_tol 1e-5 covers that and fails any
// other arithmetic.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block;
    s.kernel = "third_steps";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.args[1] = 4096; // steps
    s.compare = harness::TOLERANCE;
    s.rel_tol = 1e-5;
    s.abs_tol = 1e-6;
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    third_steps<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0],
                                                (int)s.args[1]);
}
