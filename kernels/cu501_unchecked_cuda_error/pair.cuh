// pair.cuh (CU501): runs the program once per launch; the output "reported" holds the error the program itself reported (0: none), as a float.
//
// The program's failed copy leaves the runtime's last-error state set; the
// harness checks that state after every launch, so the pair clears it after
// reading what the program reported: the question is whether the program saw
// the failure, not whether the harness does.  Both variants compute the same
// (wrong) filter: the copy fails in both; only the report differs.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 4;
    const long long n = (long long)blocks * block;
    s.kernel = "apply";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.add_output("reported", harness::F32, 1);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.compare = harness::EXACT;
    s.expect = harness::MAY_DIFFER;
    s.expect_note = "'reported' is the error the program reported: 0 in bad (the failed copy goes "
                    "unnoticed), 1 (cudaErrorInvalidValue) in the fixed program";
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    g_first_error = cudaSuccess;
    run_program((float *)b[1], (const float *)b[0], (int)s.args[0], stream);
    float reported = (float)g_first_error;
    (void)cudaGetLastError();
    (void)cudaMemcpyAsync(b[2], &reported, sizeof reported, cudaMemcpyHostToDevice, stream);
    (void)cudaStreamSynchronize(stream);
}
