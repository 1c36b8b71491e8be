// harness.h: the contract between the generic harness (harness.cu) and a pair's pair.cuh.
//
// A pair describes its buffers, launch shape and comparison in pair_setup() and
// launches its kernel in pair_launch().  variant.cu compiles pair.cuh twice, once
// around bad.cu and once around fixed.cu, so the same launch code drives both
// kernels; harness.cu owns everything generic (allocation, random fill, output
// comparison, timing, error checks, machine-readable output).
#ifndef CUDALINT_KERNELS_HARNESS_H
#define CUDALINT_KERNELS_HARNESS_H

#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

namespace harness {

enum ElemType { F32, I32, U32 };
enum Role { INPUT, OUTPUT };
// EXACT compares bit patterns: right wherever both kernels do the same
// arithmetic in the same order (pure data movement, identical sums).
enum Compare { EXACT, TOLERANCE };
// MAY_DIFFER is for pairs whose bad kernel is wrong on purpose (CU101): the
// comparison is reported, never failed.
enum Expect { MATCH, MAY_DIFFER };

struct Device {
    int ordinal;
    int sm_count;
    int max_threads_per_sm;
    int max_threads_per_block;
    int cc_major, cc_minor;
    size_t global_mem;
    size_t l2_bytes;
};

struct Buffer {
    const char *name;
    Role role;
    ElemType type;
    size_t count;  // elements
    double lo, hi; // fill range of inputs; zero is never written
};

const int MAX_BUFFERS = 8;
const int MAX_ARGS = 8;

struct Setup {
    const char *kernel;          // the kernel's name, for reports
    Buffer buffers[MAX_BUFFERS]; // inputs and outputs, in the order pair_launch reads them
    int n_buffers;
    dim3 grid, block;
    long long args[MAX_ARGS];    // scalar launch arguments (sizes, strides, counts)
    Compare compare;
    double rel_tol, abs_tol;     // TOLERANCE: |bad - fixed| <= abs_tol + rel_tol * |fixed|
    Expect expect;
    const char *expect_note;     // why outputs may differ (MAY_DIFFER)

    void add_input(const char *name, ElemType type, size_t count, double lo, double hi)
    {
        Buffer b = {name, INPUT, type, count, lo, hi};
        buffers[n_buffers++] = b;
    }
    void add_output(const char *name, ElemType type, size_t count)
    {
        Buffer b = {name, OUTPUT, type, count, 0.0, 0.0};
        buffers[n_buffers++] = b;
    }
};

typedef void (*SetupFn)(Setup &setup, const Device &device);
// Launches the variant's kernel once with buffers[i] holding Setup::buffers[i];
// only the launch: the harness checks errors and synchronises.
typedef void (*LaunchFn)(const Setup &setup, void *const *buffers, cudaStream_t stream);

struct Variant {
    const char *name; // "bad" or "fixed"
    SetupFn setup;
    LaunchFn launch;
};

} // namespace harness

extern const harness::Variant harness_variant_bad;
extern const harness::Variant harness_variant_fixed;

#endif
