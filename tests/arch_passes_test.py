#!/usr/bin/env python3
"""arch_passes_test.py: which device passes a file gets (issue 24).

By default one device pass, for the newest arch that --cuda-arch or the
compile database names; the others only when the file or a project header it
includes tests __CUDA_ARCH__ (or a macro derived from it), or with
--all-cuda-archs.  A finding that only some archs produce carries a note
naming them.  Toolkit mode only (the declarations header has one pass);
exit 77 without a toolkit.
"""
import json
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint"))

PLAIN = r'''#include <cuda_runtime.h>
#include <cooperative_groups.h>
__global__ void scale(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 0.1;
}
'''
# The arch test sits in a project header, as a derived feature macro.
FEATURES = r'''#pragma once
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HAS_FAST_PATH 1
#else
#define HAS_FAST_PATH 0
#endif
'''
DERIVED = r'''#include <cuda_runtime.h>
#include "features.h"
__global__ void scale(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if HAS_FAST_PATH
    if (i < n) out[i] = in[i] * 0.1;
#else
    if (i < n) out[i] = in[i] * 0.1f;
#endif
}
'''


def passes(args, cwd):
    env = dict(os.environ, CUDALINT_PRINT_CLANG_ARGS="1")
    # --preview: the rules these files trigger are preview (off by default).
    r = subprocess.run([BIN, "--no-cache", "--format", "json", "--exit-zero", "--preview"] + args, cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=600)
    found = []
    for line in r.stderr.splitlines():
        k = line.find('{"file"')
        if k >= 0:
            o = json.loads(line[k:])
            found.append((os.path.basename(o["file"]), o["pass"]))
    return found, json.loads(r.stdout) if r.stdout.strip() else None


def main():
    if not os.path.exists("/usr/local/cuda/include/cuda_runtime.h") and not os.environ.get("CUDA_PATH"):
        print("arch_passes_test: no CUDA Toolkit: skipped")
        return 77
    fails = []

    def check(cond, what):
        print(("ok: " if cond else "FAIL: ") + what)
        if not cond:
            fails.append(what)

    with tempfile.TemporaryDirectory(prefix="cudalint-arch-") as d:
        for name, text in [("plain.cu", PLAIN), ("features.h", FEATURES), ("derived.cu", DERIVED)]:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        archs = ["--cuda-arch", "sm_70,sm_90,sm_80"]
        got, _ = passes(archs + ["plain.cu"], d)
        check(got == [("plain.cu", "host"), ("plain.cu", "device sm_90")],
              "no arch test: host and the newest arch only (%s)" % got)
        got, _ = passes(archs + ["--all-cuda-archs", "plain.cu"], d)
        check([p for _, p in got] == ["host", "device sm_90", "device sm_80", "device sm_70"],
              "--all-cuda-archs: every arch, newest first (%s)" % got)
        got, out = passes(archs + ["derived.cu"], d)
        check([p for _, p in got] == ["host", "device sm_90", "device sm_80", "device sm_70"],
              "a project header tests __CUDA_ARCH__: every arch (%s)" % got)
        notes = [n["message"] for x in (out or {}).get("diagnostics", []) if x["code"] == "CU201"
                 for n in x.get("notes", [])]
        check(any("sm_90, sm_80 of the 3" in n for n in notes), "the sm_80+ finding names its archs (%s)" % notes)
        got, _ = passes(["--no-cuda-headers"] + archs + ["derived.cu"], d)
        check([p for _, p in got] == ["shim sm_90"], "declarations mode: one pass, the newest arch (%s)" % got)
        # A compile database with nvcc's -gencode per arch, as CMake writes it,
        # and the toolkit's include directory as -I: its headers test
        # __CUDA_ARCH__, but they are not the project's.
        gencode = " ".join("--generate-code=arch=compute_%d,code=[compute_%d,sm_%d]" % (a, a, a)
                           for a in (75, 80, 86, 90, 100, 120))
        db = [{"directory": d, "file": os.path.join(d, "plain.cu"),
               "command": "/usr/local/cuda/bin/nvcc -I/usr/local/cuda/include %s -std=c++17 -x cu -c %s -o plain.o" % (
                   gencode, os.path.join(d, "plain.cu"))}]
        os.makedirs(os.path.join(d, "build"))
        with open(os.path.join(d, "build", "compile_commands.json"), "w") as f:
            json.dump(db, f)
        got, _ = passes(["-p", "build", "plain.cu"], d)
        check([p for _, p in got] == ["host", "device sm_120"],
              "compile database with six archs: the newest, sm_120 (%s)" % got)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
