#!/usr/bin/env python3
"""bench.py: how fast cudalint is, against clang-tidy 22 on the same files.

A benchmark, not a test (timings depend on the machine).  It generates its own
corpus (realistic .cu files that include the usual toolkit headers, kernels of
a few hundred lines, a shared project header) in a temporary directory, and
also measures any directory given on the command line (a checkout of llm.c,
cuda-samples ...).  For each corpus and each parse mode (toolkit headers, and
--no-cuda-headers) it prints:

  per file    cudalint -j1 against two references, run alternately (the
              order rotates every round), medians of --runs rounds:
              clang-tidy, what a user runs instead: once on the file, with
              the toolkit-mode flags cudalint would use (those of the compile
              database with -p; CUDALINT_PRINT_CLANG_ARGS=1 prints them) less
              the host/device split, and one cheap AST-matcher check
              (--tidy-checks); and the floor, clang -fsyntax-only for each of
              cudalint's passes through the same precompiled headers.  The
              embedded headers cudalint serves under /__cudalint_shim__ are
              given to both as real files (a copy of analyzer/frontend/shim).
              cudalint runs with --no-cache (the result cache off) after two
              warm-up runs built the precompiled headers: the state a
              pre-commit hook is in when a file was edited, and with
              --no-codegen (clang-tidy compiles nothing); in toolkit mode a
              further run with codegen gives what nvcc adds per file when a
              default run has findings codegen checks (the codegen column).  In
              --no-cuda-headers mode the clang-tidy reference stays the
              toolkit parse (what the user would otherwise run).  Ratios are of
              CPU time (user + system, steadier on a loaded machine) unless
              --clock wall.  A reference that did not run, exited non-zero,
              took no time or printed no evidence of its work (clang-tidy's
              check profile, clang's -print-stats) is an ERROR, never a
              figure, and the exit code is 2.
  corpus      the whole corpus: cold (an empty cache directory: precompiled
              headers and results built as it goes), warm (nothing changed),
              one file changed, with -j1 and -jN; all alternated, medians.
  memory      peak resident set size (the kernel's maxrss of the process, the
              figure /usr/bin/time -v prints), -j1 and -jN, and per worker.
  lsp         tests/lsp_latency.py's figures, when that script is present.

Then every target with PASS, MISS or ERROR; exit 0 (all met), 1 (a MISS) or
2 (an ERROR).

  tests/bench.py [--cudalint build/cudalint] [--clang-tidy clang-tidy-22] [--clang clang-22]
                 [--runs 3] [--jobs N] [--max-files 12] [--max-corpus-files 0] [--files 24]
                 [--modes toolkit,shim] [--clock cpu|wall] [-p BUILD] [--per-file-only]
                 [--no-generated] [--no-lsp] [DIR ...]

Python 3 standard library only.  Set CUDALINT to pick the binary too.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The directory cudalint serves its embedded headers under (frontend/shim.h).
SHIM_VIRTUAL = "/__cudalint_shim__"

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---------------------------------------------------------------- corpus

# Include blocks in the styles real projects use; a project tends to repeat
# a few of them, which is what lets files share a precompiled header.
STYLES = [
    ["cuda_runtime.h", "cooperative_groups.h", "cstdio"],
    ["cuda_runtime.h", "cuda_fp16.h", "cstdio", "cstdlib"],
    ["cstdio", "cuda_runtime.h", "cooperative_groups.h", "cooperative_groups/reduce.h", "cuda_fp16.h"],
    ["cuda_runtime.h", "cuda_bf16.h", "cmath", "vector"],
]

COMMON_H = r'''// common.cuh: helpers shared by the kernels of this project.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(err_));                                \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define WARP_SIZE 32

template <typename T>
__host__ __device__ inline T ceil_div(T a, T b) { return (a + b - 1) / b; }

__device__ inline float warp_reduce_sum(float v) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__device__ inline float warp_reduce_max(float v) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}
'''

KERNELS = [
    # element-wise, with a double literal now and then
    r'''__global__ void scale_bias_{n}(float *out, const float *in, float alpha, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        float x = in[i];
        out[i] = x * {lit} + alpha;
    }}
}}
''',
    # grid-stride loop with an unsigned counter
    r'''__global__ void saxpy_{n}(float a, const float *x, float *y, unsigned n) {{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {{
        y[i] = a * x[i] + y[i];
    }}
}}
''',
    # shared-memory reduction
    r'''__global__ void block_sum_{n}(const float *in, float *out, int n) {{
    __shared__ float partial[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float v = 0.0f;
    if (i < n) v += in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    partial[tid] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 32; s >>= 1) {{
        if (tid < s) partial[tid] += partial[tid + s];
        __syncthreads();
    }}
    if (tid < 32) {{
        float w = partial[tid] + partial[tid + 32];
        w = warp_reduce_sum(w);
        if (tid == 0) out[blockIdx.x] = w;
    }}
}}
''',
    # tiled transpose (the classic bank-conflict shape)
    r'''#define TILE_{n} 32
__global__ void transpose_{n}(float *out, const float *in, int width, int height) {{
    __shared__ float tile[TILE_{n}][TILE_{n}{pad}];
    int x = blockIdx.x * TILE_{n} + threadIdx.x;
    int y = blockIdx.y * TILE_{n} + threadIdx.y;
    for (int j = 0; j < TILE_{n}; j += 8)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_{n} + threadIdx.x;
    y = blockIdx.x * TILE_{n} + threadIdx.y;
    for (int j = 0; j < TILE_{n}; j += 8)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}}
''',
    # softmax over rows, one warp per row
    r'''__global__ void softmax_rows_{n}(float *out, const float *in, int rows, int cols) {{
    int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    int lane = threadIdx.x % WARP_SIZE;
    if (row >= rows) return;
    const float *x = in + (size_t)row * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += WARP_SIZE) m = fmaxf(m, x[c]);
    m = warp_reduce_max(m);
    float s = 0.0f;
    for (int c = lane; c < cols; c += WARP_SIZE) s += expf(x[c] - m);
    s = warp_reduce_sum(s);
    for (int c = lane; c < cols; c += WARP_SIZE) out[(size_t)row * cols + c] = expf(x[c] - m) / s;
}}
''',
    # 1-D stencil with a halo in shared memory
    r'''#define RADIUS_{n} 3
__global__ void stencil_{n}(const float *in, float *out, int n) {{
    __shared__ float buf[256 + 2 * RADIUS_{n}];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS_{n};
    buf[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS_{n}) {{
        buf[l - RADIUS_{n}] = g >= RADIUS_{n} ? in[g - RADIUS_{n}] : 0.0f;
        buf[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0f;
    }}
    __syncthreads();
    float acc = 0.0f;
    for (int k = -RADIUS_{n}; k <= RADIUS_{n}; k++) acc += buf[l + k];
    if (g < n) out[g] = acc / (2 * RADIUS_{n} + 1);
}}
''',
    # histogram with shared atomics
    r'''__global__ void histogram_{n}(const unsigned char *data, unsigned int *bins, int n) {{
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}}
''',
    # naive matmul with a register tile
    r'''__global__ void matmul_{n}(const float *A, const float *B, float *C, int M, int N, int K) {{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {{
        float acc = 0.0f;
        #pragma unroll 4
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }}
}}
''',
    # layernorm, one block per row
    r'''__global__ void layernorm_{n}(float *out, const float *in, const float *w, const float *b, int C) {{
    __shared__ float s_mean, s_rstd;
    const float *x = in + (size_t)blockIdx.x * C;
    float sum = 0.0f, sq = 0.0f;
    for (int c = threadIdx.x; c < C; c += blockDim.x) {{
        sum += x[c];
        sq += x[c] * x[c];
    }}
    sum = warp_reduce_sum(sum);
    sq = warp_reduce_sum(sq);
    if (threadIdx.x == 0) {{
        float mean = sum / C;
        s_mean = mean;
        s_rstd = rsqrtf(sq / C - mean * mean + {eps});
    }}
    __syncthreads();
    for (int c = threadIdx.x; c < C; c += blockDim.x)
        out[(size_t)blockIdx.x * C + c] = (x[c] - s_mean) * s_rstd * w[c] + b[c];
}}
''',
]

COOP = r'''namespace cg = cooperative_groups;
__global__ void coop_sum_{n}(const float *in, float *out, int n) {{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = 0.0f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n;
         i += gridDim.x * block.size())
        v += in[i];
    for (int o = warp.size() / 2; o > 0; o /= 2) v += warp.shfl_down(v, o);
    if (warp.thread_rank() == 0) atomicAdd(out, v);
}}
'''

HALF = r'''__global__ void to_half_{n}(__half *out, const float *in, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2half(in[i] * 0.5f);
}}
__global__ void half_axpy_{n}(__half *y, const __half *x, __half a, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hadd(__hmul(a, x[i]), y[i]);
}}
'''

BF16 = r'''__global__ void to_bf16_{n}(__nv_bfloat16 *out, const float *in, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2bfloat16(in[i]);
}}
'''

HOST = r'''
int run_{n}(int n) {{
    float *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, n * sizeof(float)));
    int block = 256, grid = ceil_div(n, block);
    scale_bias_{n}<<<grid, block>>>(d_out, d_in, 1.0f, n);
    CUDA_CHECK(cudaGetLastError());
    block_sum_{n}<<<grid, block>>>(d_in, d_out, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    float first = 0.0f;
    CUDA_CHECK(cudaMemcpy(&first, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    printf("run_{n}: %f\n", first);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}}
'''


def generate_corpus(root, n_files, seed=6):
    """Writes n_files .cu files and common.cuh under root; returns the paths."""
    rng = random.Random(seed)
    with open(os.path.join(root, "common.cuh"), "w") as f:
        f.write(COMMON_H)
    paths = []
    for i in range(n_files):
        style = STYLES[i % len(STYLES)]
        out = ["// kernels_%02d.cu: generated by tests/bench.py" % i, "//", "// A realistic kernel file: toolkit includes, a project header, kernels, host code.", ""]
        out += ["#include <%s>" % h for h in style]
        out += ['#include "common.cuh"', ""]
        n = 0
        # a few hundred lines: every kernel shape once, most of them twice
        shapes = list(range(len(KERNELS))) + rng.sample(range(len(KERNELS)), 7)
        for k in shapes:
            tag = "%d_%d" % (i, n)
            out.append(KERNELS[k].format(n=tag, lit=rng.choice(["0.5", "1.02", "0.999", "2.0f", "0.25f"]),
                                         pad=rng.choice(["", " + 1"]), eps=rng.choice(["1e-5", "1e-5f"])))
            n += 1
        if "cooperative_groups.h" in style:
            out.append(COOP.format(n=i))
        if "cuda_fp16.h" in style:
            out.append(HALF.format(n=i))
        if "cuda_bf16.h" in style:
            out.append(BF16.format(n=i))
        # the host code launches kernels whose tag is i_0 and i_2 (scale_bias, block_sum)
        host = HOST.replace("scale_bias_{n}", "scale_bias_%d_0" % i).replace("block_sum_{n}", "block_sum_%d_2" % i)
        out.append(host.format(n=i))
        p = os.path.join(root, "kernels_%02d.cu" % i)
        with open(p, "w") as f:
            f.write("\n".join(out) + "\n")
        paths.append(p)
    return paths


# ---------------------------------------------------------------- running

def run(cmd, env=None, cwd=None):
    """Runs cmd; returns (wall seconds, cpu seconds, maxrss KB, rc, stdout, stderr)."""
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=cwd)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    err.seek(0)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, p.returncode, out.read().decode(errors="replace"), \
        err.read().decode(errors="replace")


def med(xs):
    return statistics.median(xs) if xs else float("nan")


class Bench:
    def __init__(self, a):
        self.a = a
        self.bin = os.path.abspath(a.cudalint)
        self.env = dict(os.environ)
        self.env.pop("CUDALINT_NO_PCH", None)
        self.env.pop("CUDALINT_PRINT_CLANG_ARGS", None)
        self.figures = {}   # (corpus, key) -> value
        self.errors = []    # figures that could not be measured
        self.db_args = ["-p", os.path.abspath(a.compile_db)] if a.compile_db else []
        self.shim_copy = None  # a real directory holding the embedded headers

    def say(self, s=""):
        print(s, flush=True)

    def cudalint(self, files, cache, mode, jobs, extra=()):
        cmd = [self.bin, "-q", "--exit-zero", "--format", "json", "-j", str(jobs)]
        cmd += ["--cache-dir", cache] if cache else ["--no-cache"]
        if mode == "shim":
            cmd.append("--no-cuda-headers")
        cmd += self.db_args + list(extra) + list(files)
        return run(cmd, env=self.env)

    def error(self, what):
        """A figure that could not be measured: printed, counted, and the exit code says so."""
        self.errors.append(what)
        self.say("   ERROR %s" % what)

    def pass_args(self, f, mode, cache):
        """The clang arguments of each parse pass of f, as cudalint prints them
        (CUDALINT_PRINT_CLANG_ARGS=1: one JSON object per pass on stderr, after a
        'cudalint: warning: libclang: ' label when the lint child relays it), with
        "pch_args" when a precompiled header applies.  Returns (passes, error)."""
        env = dict(self.env, CUDALINT_PRINT_CLANG_ARGS="1")
        cmd = [self.bin, "-q", "--exit-zero", "--no-cache", "--cache-dir", cache, "-j1"] + \
            (["--no-cuda-headers"] if mode == "shim" else []) + self.db_args + [f]
        w, c, m, rc, out, err = run(cmd, env=env)
        passes = []
        for line in err.splitlines():
            k = line.find('{"file"')
            if k < 0:
                continue
            try:
                obj = json.loads(line[k:])
            except ValueError:
                continue
            if isinstance(obj, dict) and isinstance(obj.get("args"), list):
                passes.append(obj)
        if rc != 0:
            return [], "cudalint exited with %d while printing the clang arguments of %s: %s" % (
                rc, f, (err.strip().splitlines() or ["(no message)"])[-1])
        if not passes:
            return [], "cudalint printed no parse pass for %s (CUDALINT_PRINT_CLANG_ARGS=1)" % f
        return passes, None

    def readable(self, args):
        """args with cudalint's virtual header directory replaced by a real copy
        of the embedded headers (the same files), so that clang and clang-tidy
        can read what cudalint serves from memory."""
        return [a.replace(SHIM_VIRTUAL, self.shim_copy) for a in args]

    def tidy_command(self, f, passes):
        """What a user runs instead: clang-tidy once on the file, with the
        toolkit-mode flags (compile database flags included) less cudalint's
        pass split (--cuda-host-only / --cuda-device-only)."""
        host = next((p for p in passes if p.get("pass") == "host"), passes[0])
        args = [a for a in self.readable(host["args"]) if a not in ("--cuda-host-only", "--cuda-device-only")]
        return [self.a.clang_tidy, "--quiet", "--enable-check-profile", "-checks=-*," + self.a.tidy_checks, f,
                "--"] + args

    def floor_commands(self, f, passes):
        """The floor: clang -fsyntax-only for every pass, through the same
        precompiled header cudalint used (built from the virtual header path,
        so its inputs are not re-validated)."""
        cmds = []
        for p in passes:
            args = self.readable(p.get("pch_args") or p["args"])
            if "-include-pch" in args:
                args += ["-Xclang", "-fno-validate-pch"]
            cmds.append([self.a.clang, "-fsyntax-only", "-Xclang", "-print-stats"] + args + [f])
        return cmds

    def measured(self, what, cmd, evidence):
        """Runs a reference command; returns (wall, cpu) or None after an ERROR
        when it did not run, failed, took no time or printed no evidence of work."""
        try:
            w, c, m, rc, out, err = run(cmd, env=self.env)
        except OSError as e:
            self.error("%s: cannot run %s: %s" % (what, cmd[0], e))
            return None
        if rc != 0:
            self.error("%s: %s exited with %d: %s" % (what, os.path.basename(cmd[0]), rc,
                                                       ((err or out).strip().splitlines() or ["(no output)"])[-1][:200]))
            return None
        if w <= 0.001 or c <= 0.0:
            self.error("%s: %s took no time (%.4f s wall, %.4f s CPU): it did not parse" % (
                what, os.path.basename(cmd[0]), w, c))
            return None
        if evidence not in out + err:
            self.error("%s: %s printed no %r: it did not do the work" % (what, os.path.basename(cmd[0]), evidence))
            return None
        return w, c

    # -------------------------------------------------------- one corpus

    def corpus(self, name, files, whole, workdir):
        a = self.a
        lines = sum(open(f, errors="replace").read().count("\n") for f in whole)
        self.say("== corpus %s: %d files, %d lines (%.0f per file); per-file comparison on %d of them" % (
            name, len(whole), lines, lines / max(1, len(whole)), len(files)))
        for mode in a.modes:
            self.mode(name, files, whole, workdir, mode)

    def mode(self, name, files, whole, workdir, mode):
        a = self.a
        label = "toolkit headers" if mode == "toolkit" else "--no-cuda-headers"
        self.say("-- %s, %s" % (name, label))
        cache = os.path.join(workdir, "cache-%s-%s" % (name, mode))

        # Per file: clang-tidy (what a user runs instead) and the floor (clang
        # -fsyntax-only per pass, same PCHs) vs cudalint -j1 (results not cached,
        # PCHs built).
        shutil.rmtree(cache, ignore_errors=True)
        self.cudalint(whole, cache, mode, a.jobs, extra=("--no-cache",))  # sees every prefix once
        self.cudalint(whole, cache, mode, a.jobs, extra=("--no-cache",))  # builds their PCHs
        rows, codegen_rows = [], []
        self.say("   %-40s %9s %9s %9s %7s %7s   (medians of %d alternated runs; %s s)" % (
            "file", "tidy", "floor", "cudalint", "/tidy", "/floor", a.runs, a.clock))
        pick = 0 if a.clock == "wall" else 1
        for f in files:
            rel = os.path.relpath(f, self.roots[name])
            # The reference is always the toolkit parse (what the user would run otherwise).
            own_passes, e2 = self.pass_args(f, mode, cache)
            tidy_passes, e1 = (own_passes, None) if mode == "toolkit" else \
                self.pass_args(f, "toolkit", cache + "-reference")
            if e1 or e2:
                self.error("%s, %s: %s" % (name, label, e1 or e2))
                continue
            tidy_cmd = self.tidy_command(f, tidy_passes)
            floor_cmds = self.floor_commands(f, own_passes)
            # The analysis against clang-tidy without codegen's nvcc run (no
            # clang-tidy check compiles the file); what codegen adds, when a
            # default run has findings it checks, is measured on its own.
            lint_cmd = [self.bin, "-q", "--exit-zero", "-j1", "--no-cache", "--cache-dir", cache, "--no-codegen"] + \
                (["--no-cuda-headers"] if mode == "shim" else []) + self.db_args + [f]
            codegen_cmd = [c for c in lint_cmd if c != "--no-codegen"] if mode == "toolkit" else None
            tt, ff, ll, cg = [], [], [], []
            # The references and cudalint, one command each (the floor is one per pass).
            single = {"tidy": ("clang-tidy", tidy_cmd, "clang-tidy checks profiling", tt),
                      "lint": ("cudalint", lint_cmd, "", ll)}
            if codegen_cmd:
                single["codegen"] = ("cudalint with codegen", codegen_cmd, "", cg)
            ok = True
            for r in range(a.runs):
                order = ["tidy", "floor"] + list(single)[1:]
                order = order[r % len(order):] + order[:r % len(order)]
                for who in order:
                    if who == "floor":
                        tot = 0.0
                        for i, cmd in enumerate(floor_cmds):
                            m = self.measured("%s: clang -fsyntax-only (%s pass) on %s" % (
                                name, own_passes[i].get("pass"), rel), cmd, "STATISTICS:")
                            if m is None:
                                ok = False
                                break
                            tot += m[pick]
                        if not ok:
                            break
                        ff.append(tot)
                    else:
                        what, cmd, evidence, into = single[who]
                        m = self.measured("%s: %s on %s" % (name, what, rel), cmd, evidence)
                        if m is None:
                            ok = False
                            break
                        into.append(m[pick])
                if not ok:
                    break
            if not ok:
                continue
            t, fl, l = med(tt), med(ff), med(ll)
            extra = ""
            if cg:
                extra = "   codegen +%.3f" % max(0.0, med(cg) - l)
                codegen_rows.append(max(0.0, med(cg) - l))
            rows.append((f, t, fl, l))
            self.say("   %-40s %9.3f %9.3f %9.3f %7.3f %7.3f%s" % (rel[-40:], t, fl, l, l / t, l / fl, extra))
        if len(rows) != len(files):
            self.error("%s, %s: %d of %d files could not be compared" % (name, label, len(files) - len(rows), len(files)))
        if rows:
            tot_t = sum(r[1] for r in rows)
            tot_f = sum(r[2] for r in rows)
            tot_l = sum(r[3] for r in rows)
            ratios = sorted(r[3] / r[1] for r in rows)
            self.say("   total: clang-tidy %.2f s, floor %.2f s, cudalint %.2f s: cudalint/clang-tidy %.3f (per-file "
                     "median %.3f, worst %.3f), cudalint/floor %.3f, floor/clang-tidy %.3f" % (
                         tot_t, tot_f, tot_l, tot_l / tot_t, med(ratios), ratios[-1], tot_l / tot_f, tot_f / tot_t))
            self.figures[(name, mode, "ratio")] = tot_l / tot_t
            self.figures[(name, mode, "floor_ratio")] = tot_l / tot_f
            self.figures[(name, mode, "tidy_per_file")] = tot_t / len(rows)
            self.figures[(name, mode, "lint_per_file")] = tot_l / len(rows)
            if codegen_rows:
                self.say("   codegen (nvcc on the findings it checks, result and codegen caches off): +%.3f s per file "
                         "(median; 0 where no finding needs it)" % med(codegen_rows))
        if a.per_file_only:
            return

        # Whole corpus: cold / warm / one file changed, -j1 and -jN.
        files = whole
        res = {}
        edit_target = files[len(files) // 2]
        original = open(edit_target, "rb").read()
        try:
            for r in range(a.runs):
                for jobs in ([1, a.jobs] if r % 2 == 0 else [a.jobs, 1]):
                    d = "%s-j%d" % (cache, jobs)
                    shutil.rmtree(d, ignore_errors=True)
                    w, c, m, *_ = self.cudalint(files, d, mode, jobs)
                    res.setdefault(("cold", jobs), []).append(w)
                    res.setdefault(("rss", jobs), []).append(m)
                    w2 = [self.cudalint(files, d, mode, jobs)[0] for _ in range(3)]
                    res.setdefault(("warm", jobs), []).append(med(w2))
                    with open(edit_target, "ab") as fh:
                        fh.write(b"// edited by bench.py, round %d\n" % r)
                    w, *_ = self.cudalint(files, d, mode, jobs)
                    res.setdefault(("changed", jobs), []).append(w)
                    # results not cached, PCHs ready: what -jN buys on parsing
                    w, c, m, *_ = self.cudalint(files, cache, mode, jobs, extra=("--no-cache",))
                    res.setdefault(("nocache", jobs), []).append(w)
                    res.setdefault(("rss_nocache", jobs), []).append(m)
                    shutil.rmtree(d, ignore_errors=True)
        finally:
            with open(edit_target, "wb") as fh:
                fh.write(original)
        J = a.jobs
        self.say("   whole corpus (wall s, medians of %d):       -j1      -j%d" % (a.runs, J))
        for k, label in [("cold", "cold (empty cache dir)"), ("nocache", "results not cached, PCHs ready"),
                         ("warm", "warm (nothing changed)"), ("changed", "one file changed")]:
            self.say("     %-40s %8.3f %8.3f" % (label, med(res[(k, 1)]), med(res[(k, J)])))
        rss1 = max(res[("rss", 1)] + res[("rss_nocache", 1)]) / 1024
        rssn = max(res[("rss", J)] + res[("rss_nocache", J)]) / 1024
        self.say("     %-40s %8.0f %8.0f   (MB; per worker at -j%d: %.0f)" % ("peak RSS", rss1, rssn, J, rssn / J))
        self.say("     warm speed-up over cold: %.0fx (-j1), %.0fx (-j%d); -j%d over -j1: %.2fx cold, %.2fx results "
                 "not cached" % (med(res[("cold", 1)]) / med(res[("warm", 1)]), med(res[("cold", J)]) / med(res[("warm", J)]),
                                 J, J, med(res[("cold", 1)]) / med(res[("cold", J)]),
                                 med(res[("nocache", 1)]) / med(res[("nocache", J)])))
        self.figures[(name, mode, "warm")] = med(res[("cold", 1)]) / med(res[("warm", 1)])
        self.figures[(name, mode, "jN")] = med(res[("nocache", 1)]) / med(res[("nocache", J)])
        self.figures[(name, mode, "jN_cold")] = med(res[("cold", 1)]) / med(res[("cold", J)])
        self.figures[(name, mode, "rss_worker")] = max(rss1, rssn / J)

    # -------------------------------------------------------- targets

    def targets(self):
        a = self.a
        self.say("== targets (issue 24; ratios of %s time)" % a.clock)
        verdicts = []

        def line(text, value, ok, detail=""):
            v = "ERROR" if value is None else ("PASS" if ok else "MISS")
            verdicts.append(v)
            self.say("   %-5s %-62s %s%s" % (v, text, "not measured" if value is None else value,
                                             ("  " + detail) if detail and value is not None else ""))

        def fig(name, mode, key):
            return self.figures.get((name, mode, key))

        for name in self.names:
            for mode, limit, text in [("toolkit", 0.15, "toolkit headers"), ("shim", 0.06, "declarations header")]:
                if mode not in a.modes:
                    continue
                r = fig(name, mode, "ratio")
                line("%s: per file -j1, %s <= %.2f of clang-tidy" % (name, text, limit),
                     None if r is None else "%.3f (1/%.1f)" % (r, 1 / r), r is not None and r <= limit,
                     "%.3f s vs %.3f s per file; %.2fx the clang -fsyntax-only floor" % (
                         fig(name, mode, "lint_per_file") or 0, fig(name, mode, "tidy_per_file") or 0,
                         fig(name, mode, "floor_ratio") or 0))
            if a.per_file_only:
                continue
            for mode in a.modes:
                w = fig(name, mode, "warm")
                line("%s, %s: warm >= 50x faster than cold" % (name, mode), None if w is None else "%.0fx" % w,
                     w is not None and w >= 50)
            for mode in a.modes:
                j = fig(name, mode, "jN")
                line("%s, %s: -j%d >= 1.7x faster than -j1" % (name, mode, a.jobs), None if j is None else "%.2fx" % j,
                     j is not None and j >= 1.7, "(cold with empty cache: %.2fx)" % (fig(name, mode, "jN_cold") or 0))
            for mode in a.modes:
                m = fig(name, mode, "rss_worker")
                line("%s, %s: peak memory per worker <= 300 MB" % (name, mode), None if m is None else "%.0f MB" % m,
                     m is not None and m <= 300)
        if self.lsp_verdict:
            self.say("   %-5s %s" % (self.lsp_verdict[0], self.lsp_verdict[1]))
            verdicts.append(self.lsp_verdict[0])
        if self.errors:
            self.say("== %d figure%s could not be measured (ERROR above): the benchmark failed" % (
                len(self.errors), "" if len(self.errors) == 1 else "s"))
            return 2
        return 1 if "MISS" in verdicts or "ERROR" in verdicts else 0

    def lsp(self):
        self.lsp_verdict = None
        script = os.path.join(SRC, "tests", "lsp_latency.py")
        if self.a.no_lsp or not os.path.exists(script):
            return
        self.say("== language server (tests/lsp_latency.py)")
        r = subprocess.run([sys.executable, script, "--binary", self.bin], capture_output=True, text=True, env=self.env)
        for l in (r.stdout + r.stderr).splitlines():
            self.say("   " + l)
            if l.startswith("target:"):
                ok = l.rstrip().endswith(": met")  # lsp_latency.py says "met" or "not met"
                self.lsp_verdict = ("PASS" if ok else "MISS", "language server: " + l[len("target:"):].strip())

    def main(self, dirs):
        a = self.a
        work = tempfile.mkdtemp(prefix="cudalint-bench-")
        try:
            # The embedded headers, as files: clang and clang-tidy get the same
            # declarations cudalint serves from memory under SHIM_VIRTUAL.
            self.shim_copy = os.path.join(work, "embedded-headers")
            shutil.copytree(os.path.join(SRC, "analyzer", "frontend", "shim"), self.shim_copy)
            self.names, self.all_files, self.roots, chosen, whole = [], {}, {}, {}, {}
            if not a.no_generated:
                gen = os.path.join(work, "generated")
                os.makedirs(gen)
                fs = generate_corpus(gen, a.files)
                self.names.append("generated")
                self.all_files["generated"] = fs
                self.roots["generated"] = gen
            for d in dirs:
                d = os.path.abspath(d)
                fs = sorted(os.path.join(dp, f) for dp, dn, fn in os.walk(d) for f in fn
                            if f.endswith(".cu") and not any(p.startswith(".") for p in dp.split(os.sep)))
                name = os.path.basename(d.rstrip("/")) or d
                if name in self.all_files:
                    name = d
                self.names.append(name)
                self.all_files[name] = fs
                self.roots[name] = d
            def spread(fs, k):
                # a fixed-seed sample: the same files every run, no stride pattern
                if not k or len(fs) <= k:
                    return fs
                return sorted(random.Random(6).sample(fs, k))
            for n in self.names:
                chosen[n] = spread(self.all_files[n], a.max_files)
                whole[n] = spread(self.all_files[n], a.max_corpus_files)
            v = run([self.bin, "--version"])[4].strip()
            tv = run([a.clang_tidy, "--version"])[4].split("\n")
            tv = next((l.strip() for l in tv if "version" in l), "?")
            self.say("cudalint benchmark: %s; %s; %d CPUs (%s); -j%d; %d runs per figure" % (
                v, tv, os.cpu_count(), os.uname().machine, a.jobs, a.runs))
            self.say("clang-tidy check: %s; load average at start: %.1f" % (a.tidy_checks, os.getloadavg()[0]))
            for n in self.names:
                self.corpus(n, chosen[n], whole[n], work)
            if self.a.per_file_only:
                self.a.no_lsp = True
            self.lsp()
            rc = self.targets()
            self.say("load average at the end: %.1f" % os.getloadavg()[0])
            return rc
        finally:
            shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="*", help="more corpora: directories with .cu files")
    ap.add_argument("--cudalint", default=os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
    ap.add_argument("--clang-tidy", default=shutil.which("clang-tidy-22") or "clang-tidy")
    ap.add_argument("--clang", default=shutil.which("clang-22") or "clang",
                    help="the clang of the floor (clang -fsyntax-only through the same PCHs)")
    ap.add_argument("--tidy-checks", default="readability-braces-around-statements")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="time the ratios compare: CPU (user+system, steady on a loaded machine) or wall")
    ap.add_argument("-p", dest="compile_db", help="a directory with compile_commands.json, given to cudalint")
    ap.add_argument("--per-file-only", action="store_true",
                    help="only the per-file comparison (no whole-corpus runs, no language server)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--files", type=int, default=24, help="files in the generated corpus")
    ap.add_argument("--max-files", type=int, default=12, help="files compared with clang-tidy per corpus (0: all)")
    ap.add_argument("--max-corpus-files", type=int, default=0, help="files of the whole-corpus runs (0: all)")
    ap.add_argument("--modes", default="toolkit,shim")
    ap.add_argument("--no-generated", action="store_true")
    ap.add_argument("--no-lsp", action="store_true")
    a = ap.parse_args()
    a.modes = [m for m in a.modes.split(",") if m]
    # A reference that cannot run is an ERROR (exit 2), never a figure of 0.
    if not os.path.exists(a.cudalint):
        print("ERROR bench.py: no cudalint binary at %s (--cudalint or $CUDALINT)" % a.cudalint)
        sys.exit(2)
    for what, tool in [("clang-tidy (--clang-tidy)", a.clang_tidy), ("clang (--clang)", a.clang)]:
        if not shutil.which(tool):
            print("ERROR bench.py: %s not found: %s" % (what, tool))
            sys.exit(2)
    sys.exit(Bench(a).main(a.dirs))


if __name__ == "__main__":
    main()
