// pair.cuh (CU502): runs the program once per launch with a block size of 2048 (a tuning parameter gone wrong); the output "reported" holds the error the program itself reported (0: none), as a float.
//
// The failed launch leaves the runtime's last-error state set in the bad
// program; the harness checks that state after every launch, so the pair
// clears it after reading what the program reported.  Neither variant writes
// "out" (the launch fails in both): only the report differs.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block;
    s.kernel = "scale";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.add_output("reported", harness::F32, 1);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.args[1] = 2048; // threads per block: above the limit of 1024
    s.compare = harness::EXACT;
    s.expect = harness::MAY_DIFFER;
    s.expect_note = "'reported' is the error the program reported: 0 in bad (the checked "
                    "cudaStreamSynchronize returns success), 9 (cudaErrorInvalidConfiguration) "
                    "in the fixed program";
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    g_first_error = cudaSuccess;
    run_program((float *)b[1], (const float *)b[0], (int)s.args[0], (int)s.args[1], stream);
    float reported = (float)g_first_error;
    (void)cudaGetLastError();
    (void)cudaMemcpy(b[2], &reported, sizeof reported, cudaMemcpyHostToDevice);
}
