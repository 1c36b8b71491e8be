// harness.cu: the generic driver linked with a pair's bad and fixed variants: allocate, fill, check, time.
//
// Output is one JSON object per line on stdout (cudalint confirm parses it);
// human-readable messages go to stderr.  Exit codes:
//   0 ran, outputs agree (or may differ by design)   1 outputs differ
//   2 a CUDA call or launch failed                   3 no usable GPU
//   4 bad command line
//
// Modes: "all" (default: check, then time), "check", "time", and "profile",
// which launches one variant exactly once on one input set, so that Nsight
// Compute and compute-sanitizer see exactly one kernel.
#include "harness.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

enum ExitCode { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_CUDA = 2, EXIT_NO_GPU = 3, EXIT_USAGE = 4 };

// Strings in the JSON lines: quotes, backslashes and control bytes escaped.
void json_string(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

// Numbers in the JSON lines: JSON has no inf or nan, so those become null.
void json_number(const char *key, double v)
{
    if (std::isfinite(v))
        printf(",\"%s\":%.9g", key, v);
    else
        printf(",\"%s\":null", key);
}

void fail_cuda(cudaError_t err, const char *what, const char *file, int line)
{
    printf("{\"event\":\"error\",\"kind\":\"cuda\",\"where\":");
    json_string(what);
    printf(",\"line\":%d,\"code\":%d,\"name\":", line, (int)err);
    json_string(cudaGetErrorName(err));
    printf(",\"message\":");
    json_string(cudaGetErrorString(err));
    printf("}\n");
    fflush(stdout);
    fprintf(stderr, "harness: %s failed at %s:%d: %s (%s)\n", what, file, line,
            cudaGetErrorString(err), cudaGetErrorName(err));
    exit(EXIT_CUDA);
}

// Every CUDA call goes through CHECK; launches are followed by CHECK_LAUNCH,
// which catches both configuration errors and, with a sync, faults in the kernel.
#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) fail_cuda(err_, #call, __FILE__, __LINE__);               \
    } while (0)
#define CHECK_LAUNCH(what)                                                                 \
    do {                                                                                   \
        cudaError_t err_ = cudaGetLastError();                                             \
        if (err_ != cudaSuccess) fail_cuda(err_, what, __FILE__, __LINE__);                \
    } while (0)

size_t elem_size(harness::ElemType)
{
    return 4; // every element type the pairs use is 4 bytes
}

const char *type_name(harness::ElemType t)
{
    return t == harness::F32 ? "f32" : t == harness::I32 ? "i32" : "u32";
}

// splitmix64: a fixed, portable generator, so every run fills the same data.
uint64_t splitmix(uint64_t &state)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Random values in [lo, hi], never zero: zeros would hide a kernel that
// ignores its input or reads the wrong element.
void fill(std::vector<unsigned char> &host, const harness::Buffer &b, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < b.count; i++) {
        double u = (double)(splitmix(state) >> 11) * (1.0 / 9007199254740992.0);
        if (b.type == harness::F32) {
            float v = (float)(b.lo + u * (b.hi - b.lo));
            if (v == 0.0f) v = (float)b.hi;
            memcpy(&host[i * 4], &v, 4);
        } else {
            long long span = (long long)b.hi - (long long)b.lo + 1;
            long long v = (long long)b.lo + (long long)(u * (double)span);
            if (v > (long long)b.hi) v = (long long)b.hi;
            if (v == 0) v = (long long)b.hi != 0 ? (long long)b.hi : 1;
            if (b.type == harness::I32) {
                int32_t w = (int32_t)v;
                memcpy(&host[i * 4], &w, 4);
            } else {
                uint32_t w = (uint32_t)v;
                memcpy(&host[i * 4], &w, 4);
            }
        }
    }
}

struct Stats {
    double median, min, max, q1, q3, mean;
};

// Quantile with linear interpolation between order statistics.
double quantile(const std::vector<double> &sorted, double q)
{
    double pos = q * (double)(sorted.size() - 1);
    size_t lo = (size_t)pos;
    size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (pos - (double)lo) * (sorted[hi] - sorted[lo]);
}

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    Stats s;
    s.median = quantile(v, 0.5);
    s.q1 = quantile(v, 0.25);
    s.q3 = quantile(v, 0.75);
    s.min = v.front();
    s.max = v.back();
    double sum = 0;
    for (double x : v) sum += x;
    s.mean = sum / (double)v.size();
    return s;
}

struct Options {
    const char *mode = "all";
    const char *variant = "bad";
    int runs = 30;
    int warmup = 5;
    int sets = 4;
    int device = 0;
};

void usage(FILE *out)
{
    fprintf(out,
            "usage: harness [--mode all|check|time|profile] [--variant bad|fixed]\n"
            "               [--runs N] [--warmup N] [--sets N] [--device N]\n"
            "  all      compare the outputs of bad and fixed, then time both (default)\n"
            "  check    compare only      time   time only\n"
            "  profile  launch --variant once on one input set (for ncu, compute-sanitizer)\n"
            "Prints JSON lines on stdout.  Exit: 0 ok, 1 outputs differ, 2 CUDA error,\n"
            "3 no GPU, 4 usage.\n");
}

bool parse_int(const char *s, int lo, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > 1000000) return false;
    *out = (int)v;
    return true;
}

int parse_options(int argc, char **argv, Options &o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(EXIT_OK);
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "harness: %s needs a value (or is unknown)\n", a);
            return -1;
        }
        const char *v = argv[++i];
        bool ok = true;
        if (!strcmp(a, "--mode")) {
            o.mode = v;
            ok = !strcmp(v, "all") || !strcmp(v, "check") || !strcmp(v, "time") ||
                 !strcmp(v, "profile");
        } else if (!strcmp(a, "--variant")) {
            o.variant = v;
            ok = !strcmp(v, "bad") || !strcmp(v, "fixed");
        } else if (!strcmp(a, "--runs")) {
            ok = parse_int(v, 1, &o.runs);
        } else if (!strcmp(a, "--warmup")) {
            ok = parse_int(v, 0, &o.warmup);
        } else if (!strcmp(a, "--sets")) {
            ok = parse_int(v, 1, &o.sets);
        } else if (!strcmp(a, "--device")) {
            ok = parse_int(v, 0, &o.device);
        } else {
            fprintf(stderr, "harness: unknown option %s\n", a);
            return -1;
        }
        if (!ok) {
            fprintf(stderr, "harness: bad value for %s: %s\n", a, v);
            return -1;
        }
    }
    return 0;
}

// All device memory of one run: per input set, one device buffer per Buffer.
struct Buffers {
    std::vector<std::vector<void *>> sets; // sets[s][b]
};

void launch_checked(const harness::Variant &v, const harness::Setup &s, void *const *bufs,
                    cudaStream_t stream, bool sync)
{
    v.launch(s, bufs, stream);
    CHECK_LAUNCH(v.name[0] == 'b' ? "launch of the bad kernel" : "launch of the fixed kernel");
    if (sync) CHECK(cudaStreamSynchronize(stream));
}

// Poisons the outputs (all bits set: NaN for floats) so that an element one
// kernel never writes cannot inherit the other kernel's value.
void poison_outputs(const harness::Setup &s, const std::vector<void *> &bufs)
{
    for (int b = 0; b < s.n_buffers; b++)
        if (s.buffers[b].role == harness::OUTPUT)
            CHECK(cudaMemset(bufs[b], 0xFF, s.buffers[b].count * elem_size(s.buffers[b].type)));
}

std::vector<std::vector<unsigned char>> read_outputs(const harness::Setup &s,
                                                     const std::vector<void *> &bufs)
{
    std::vector<std::vector<unsigned char>> out(s.n_buffers);
    for (int b = 0; b < s.n_buffers; b++) {
        if (s.buffers[b].role != harness::OUTPUT) continue;
        out[b].resize(s.buffers[b].count * elem_size(s.buffers[b].type));
        CHECK(cudaMemcpy(out[b].data(), bufs[b], out[b].size(), cudaMemcpyDeviceToHost));
    }
    return out;
}

// Compares the outputs of bad and fixed on input set 0; returns true when they agree.
bool check(const harness::Setup &s, Buffers &mem, cudaStream_t stream)
{
    std::vector<void *> &bufs = mem.sets[0];
    poison_outputs(s, bufs);
    launch_checked(harness_variant_bad, s, bufs.data(), stream, true);
    std::vector<std::vector<unsigned char>> bad = read_outputs(s, bufs);
    poison_outputs(s, bufs);
    launch_checked(harness_variant_fixed, s, bufs.data(), stream, true);
    std::vector<std::vector<unsigned char>> fixed = read_outputs(s, bufs);

    bool all_match = true;
    for (int b = 0; b < s.n_buffers; b++) {
        const harness::Buffer &buf = s.buffers[b];
        if (buf.role != harness::OUTPUT) continue;
        size_t mismatches = 0, first = (size_t)-1;
        double max_abs = 0, max_rel = 0;
        for (size_t i = 0; i < buf.count; i++) {
            const unsigned char *pa = &bad[b][i * 4], *pb = &fixed[b][i * 4];
            bool same;
            if (buf.type == harness::F32) {
                float x, y;
                memcpy(&x, pa, 4);
                memcpy(&y, pb, 4);
                if (std::isnan(x) || std::isnan(y)) {
                    same = s.compare == harness::EXACT ? !memcmp(pa, pb, 4)
                                                       : (std::isnan(x) && std::isnan(y));
                    if (!same) max_abs = max_rel = INFINITY;
                } else {
                    double d = std::fabs((double)x - (double)y);
                    double r = y != 0.0f ? d / std::fabs((double)y) : (d > 0 ? INFINITY : 0.0);
                    max_abs = std::max(max_abs, d);
                    max_rel = std::max(max_rel, r);
                    same = s.compare == harness::EXACT
                               ? !memcmp(pa, pb, 4)
                               : d <= s.abs_tol + s.rel_tol * std::fabs((double)y);
                }
            } else {
                same = !memcmp(pa, pb, 4);
                if (!same) {
                    int32_t x, y;
                    memcpy(&x, pa, 4);
                    memcpy(&y, pb, 4);
                    max_abs = std::max(max_abs, std::fabs((double)x - (double)y));
                }
            }
            if (!same) {
                if (first == (size_t)-1) first = i;
                mismatches++;
            }
        }
        bool match = mismatches == 0;
        all_match = all_match && match;
        printf("{\"event\":\"check\",\"buffer\":");
        json_string(buf.name);
        printf(",\"type\":\"%s\",\"elements\":%zu,\"compare\":\"%s\",\"rel_tol\":%g,\"abs_tol\":%g,"
               "\"expect\":\"%s\",\"match\":%s,\"mismatches\":%zu",
               type_name(buf.type), buf.count, s.compare == harness::EXACT ? "exact" : "tolerance",
               s.compare == harness::EXACT ? 0.0 : s.rel_tol,
               s.compare == harness::EXACT ? 0.0 : s.abs_tol,
               s.expect == harness::MATCH ? "match" : "may-differ", match ? "true" : "false",
               mismatches);
        json_number("max_abs_err", max_abs);
        json_number("max_rel_err", max_rel);
        if (!match) {
            printf(",\"first_mismatch\":%zu", first);
            if (buf.type == harness::F32) {
                float x, y;
                memcpy(&x, &bad[b][first * 4], 4);
                memcpy(&y, &fixed[b][first * 4], 4);
                json_number("bad_value", x);
                json_number("fixed_value", y);
            }
        }
        if (s.expect == harness::MAY_DIFFER && s.expect_note) {
            printf(",\"note\":");
            json_string(s.expect_note);
        }
        printf("}\n");
    }
    fflush(stdout);
    return all_match;
}

void print_stats(const char *variant, const Stats &st, int runs, int sets)
{
    printf("{\"event\":\"time\",\"variant\":\"%s\",\"runs\":%d,\"sets\":%d,\"median_ms\":%.6f,"
           "\"min_ms\":%.6f,\"max_ms\":%.6f,\"q1_ms\":%.6f,\"q3_ms\":%.6f,\"mean_ms\":%.6f}\n",
           variant, runs, sets, st.median, st.min, st.max, st.q1, st.q3, st.mean);
}

// Times both variants with CUDA events.  Runs alternate between bad and fixed
// (and which goes first) so clock and thermal drift hits both alike, and each
// run takes the next input set so neither side finds its data already in L2.
void time_both(const harness::Setup &s, Buffers &mem, cudaStream_t stream, const Options &o)
{
    const harness::Variant *v[2] = {&harness_variant_bad, &harness_variant_fixed};
    int sets = (int)mem.sets.size();
    for (int w = 0; w < o.warmup; w++)
        for (int k = 0; k < 2; k++) launch_checked(*v[k], s, mem.sets[w % sets].data(), stream, false);
    CHECK(cudaStreamSynchronize(stream));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<double> ms[2];
    for (int r = 0; r < o.runs; r++) {
        for (int j = 0; j < 2; j++) {
            int k = (r % 2 == 0) ? j : 1 - j;
            int set = (r * 2 + j) % sets;
            CHECK(cudaEventRecord(start, stream));
            v[k]->launch(s, mem.sets[set].data(), stream);
            CHECK_LAUNCH(k == 0 ? "launch of the bad kernel" : "launch of the fixed kernel");
            CHECK(cudaEventRecord(stop, stream));
            CHECK(cudaEventSynchronize(stop));
            float t;
            CHECK(cudaEventElapsedTime(&t, start, stop));
            ms[k].push_back(t);
        }
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    Stats sb = stats(ms[0]), sf = stats(ms[1]);
    print_stats("bad", sb, o.runs, sets);
    print_stats("fixed", sf, o.runs, sets);
    printf("{\"event\":\"ratio\"");
    json_number("value", sf.median > 0 ? sb.median / sf.median : NAN);
    json_number("bad_median_ms", sb.median);
    json_number("fixed_median_ms", sf.median);
    printf("}\n");
    fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    if (parse_options(argc, argv, o) != 0) {
        usage(stderr);
        return EXIT_USAGE;
    }

    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0 || o.device >= count) {
        const char *why = err != cudaSuccess ? cudaGetErrorString(err)
                          : count == 0       ? "no CUDA device found"
                                             : "no such device ordinal";
        printf("{\"event\":\"no-gpu\",\"message\":");
        json_string(why);
        printf("}\n");
        fprintf(stderr, "harness: no usable GPU: %s\n", why);
        return EXIT_NO_GPU;
    }
    CHECK(cudaSetDevice(o.device));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, o.device));
    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));

    harness::Device dev;
    dev.ordinal = o.device;
    dev.sm_count = prop.multiProcessorCount;
    dev.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    dev.max_threads_per_block = prop.maxThreadsPerBlock;
    dev.cc_major = prop.major;
    dev.cc_minor = prop.minor;
    dev.global_mem = prop.totalGlobalMem;
    dev.l2_bytes = (size_t)prop.l2CacheSize;

    printf("{\"event\":\"device\",\"ordinal\":%d,\"name\":", o.device);
    json_string(prop.name);
    printf(",\"cc\":\"%d.%d\",\"sm_count\":%d,\"max_threads_per_sm\":%d,\"global_mem\":%zu,"
           "\"l2_bytes\":%zu,\"driver_api\":\"%d.%d\",\"runtime\":\"%d.%d\"}\n",
           prop.major, prop.minor, dev.sm_count, dev.max_threads_per_sm, dev.global_mem,
           dev.l2_bytes, driver / 1000, (driver % 1000) / 10, runtime / 1000,
           (runtime % 1000) / 10);

    harness::Setup s{};
    s.compare = harness::EXACT;
    s.expect = harness::MATCH;
    harness_variant_bad.setup(s, dev);

    // The input sets that timing rotates through; fewer when memory is short.
    size_t set_bytes = 0;
    for (int b = 0; b < s.n_buffers; b++)
        set_bytes += s.buffers[b].count * elem_size(s.buffers[b].type);
    bool profile = !strcmp(o.mode, "profile");
    int sets = profile ? 1 : o.sets;
    size_t free_mem = 0, total_mem = 0;
    CHECK(cudaMemGetInfo(&free_mem, &total_mem));
    while (sets > 1 && set_bytes * (size_t)sets > free_mem / 2) sets--;

    printf("{\"event\":\"config\",\"kernel\":");
    json_string(s.kernel);
    printf(",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"sets\":%d,\"set_bytes\":%zu,\"buffers\":[",
           s.grid.x, s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z, sets, set_bytes);
    for (int b = 0; b < s.n_buffers; b++) {
        printf("%s{\"name\":", b ? "," : "");
        json_string(s.buffers[b].name);
        printf(",\"role\":\"%s\",\"type\":\"%s\",\"elements\":%zu}",
               s.buffers[b].role == harness::INPUT ? "in" : "out", type_name(s.buffers[b].type),
               s.buffers[b].count);
    }
    printf("]}\n");
    fflush(stdout);

    Buffers mem;
    mem.sets.resize(sets);
    std::vector<unsigned char> host;
    for (int set = 0; set < sets; set++) {
        for (int b = 0; b < s.n_buffers; b++) {
            const harness::Buffer &buf = s.buffers[b];
            size_t bytes = buf.count * elem_size(buf.type);
            void *p = nullptr;
            CHECK(cudaMalloc(&p, bytes));
            mem.sets[set].push_back(p);
            if (buf.role == harness::INPUT) {
                host.resize(bytes);
                fill(host, buf, 0x5EED0000ull + (uint64_t)set * 131 + (uint64_t)b);
                CHECK(cudaMemcpy(p, host.data(), bytes, cudaMemcpyHostToDevice));
            } else {
                CHECK(cudaMemset(p, 0, bytes));
            }
        }
    }
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));

    int rc = EXIT_OK;
    if (profile) {
        const harness::Variant &v =
            !strcmp(o.variant, "bad") ? harness_variant_bad : harness_variant_fixed;
        launch_checked(v, s, mem.sets[0].data(), stream, true);
        printf("{\"event\":\"profiled\",\"variant\":\"%s\"}\n", v.name);
    } else {
        if (!strcmp(o.mode, "all") || !strcmp(o.mode, "check")) {
            bool match = check(s, mem, stream);
            if (!match && s.expect == harness::MATCH) rc = EXIT_MISMATCH;
        }
        if (!strcmp(o.mode, "all") || !strcmp(o.mode, "time")) time_both(s, mem, stream, o);
    }

    CHECK(cudaStreamDestroy(stream));
    for (auto &set : mem.sets)
        for (void *p : set) CHECK(cudaFree(p));
    printf("{\"event\":\"done\",\"status\":\"%s\"}\n", rc == EXIT_OK ? "ok" : "mismatch");
    return rc;
}
