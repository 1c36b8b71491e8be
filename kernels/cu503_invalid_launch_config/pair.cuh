// pair.cuh (CU503): runs the program once per launch on a 4096 x 2048 image; "reported" holds the error the launch returned (9: cudaErrorInvalidConfiguration), as a float.
//
// The bad launch does not run, so its "out" keeps whatever the buffer held;
// the comparison is reported, not failed: that difference is the bug.

static void pair_setup(harness::Setup &s, const harness::Device &d)
{
    (void)d;
    const int w = 4096, h = 2048;
    s.kernel = "add_one";
    s.add_input("in", harness::F32, (size_t)w * h, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)w * h);
    s.add_output("reported", harness::F32, 1);
    s.grid = dim3(w / 32, h / 32);
    s.block = dim3(32, 32);
    s.args[0] = w;
    s.args[1] = h;
    s.compare = harness::EXACT;
    s.expect = harness::MAY_DIFFER;
    s.expect_note = "the bad launch (32x48 = 1536 threads per block) fails with "
                    "cudaErrorInvalidConfiguration (reported 9) and writes nothing; the fixed one "
                    "(32x32) runs (reported 0)";
}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{
    float reported = (float)run_program((float *)b[1], (const float *)b[0], (int)s.args[0],
                                        (int)s.args[1], stream);
    (void)cudaGetLastError();
    (void)cudaMemcpy(b[2], &reported, sizeof reported, cudaMemcpyHostToDevice);
}
