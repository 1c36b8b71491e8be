#!/usr/bin/env python3
"""cache_test.py: the result cache and the precompiled headers give the same
answers as linting from scratch.

Checks, each against a --no-cache run of the same files:
  hit             a second run is served from the cache (CUDALINT_CACHE_STATS=1
                  prints hits/misses) with the same output; touching a header
                  without changing it still hits
  header edit     editing an included header re-lints the file
  comments        adding NOLINT / an unmatched NOLINTBEGIN takes effect at once;
                  removing it brings the cached findings back
  linted headers  the same file linted with and without its header's directory
                  on the command line gets the header's findings only when asked
  concurrency     8 processes on one fresh cache, then 8 on the warm one
  corrupt db      replaced with one warning, then used again
  unwritable dir  the run works, one warning (none with -q)
  --no-cache      no database is written
  -j              -j1 and -j4 print the same thing
  pch             with and without precompiled headers (CUDALINT_NO_PCH=1) the
                  output is the same, including findings in a header that a
                  prefix include finds through a user -I directory

The cache checks use the built-in declarations (fast; CACHE_TEST_MODE=toolkit
overrides); the PCH checks run in that mode and, when a CUDA Toolkit is found,
with the toolkit headers too (plus a warm cached run there: the system-header
dependency sets).
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def toolkit_present():
    roots = [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"]
    nvcc = shutil.which("nvcc")
    if nvcc:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    return any(r and os.path.exists(os.path.join(r, "include", "cuda_runtime.h")) for r in roots)


MODE = os.environ.get("CACHE_TEST_MODE") or "shim"
# (codegen evidence has its own cache checks: tests/codegen_test.py)
# --preview: the test expects findings of rules that are still preview (off by default).
MODE_ARGS = (["--no-cuda-headers"] if MODE == "shim" else ["--no-codegen"]) + ["--preview"]


def lint(args, cwd, env=None, cache=None, stats=True):
    e = dict(os.environ)
    e.pop("CUDALINT_NO_PCH", None)
    if stats:
        e["CUDALINT_CACHE_STATS"] = "1"
    e.update(env or {})
    cmd = [BIN, "--format", "json", "--exit-zero"] + MODE_ARGS
    cmd += ["--cache-dir", cache] if cache else ["--no-cache"]
    r = subprocess.run(cmd + args, cwd=cwd, env=e, capture_output=True, text=True)
    return r


def findings(r):
    """The JSON output, without the tool version: what must not change."""
    try:
        d = json.loads(r.stdout)
    except ValueError:
        return "unparsable output: %r / %r" % (r.stdout[-300:], r.stderr[-300:])
    d.pop("tool", None)
    return json.dumps(d, sort_keys=True, indent=1)


def stats(r):
    for line in r.stderr.splitlines():
        if line.startswith("cudalint: cache:"):
            parts = line.split()
            return int(parts[2]), int(parts[4]), int(parts[6])
    return None


def warnings(r):
    return [l for l in r.stderr.splitlines() if "warning:" in l]


def codes(r, code):
    try:
        return [(d["file"], d["line"]) for d in json.loads(r.stdout)["diagnostics"] if d["code"] == code]
    except ValueError:
        return []


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


INC = "#pragma once\ntypedef float real;\n"
A = """// a.cu: a kernel whose findings depend on inc.cuh
#include <cstdio>
#include "inc.cuh"
__global__ void ka(real *x) {
    x[0] = x[0] * 0.999 + 0.001;
}
"""
B = """#include <cstdio>
#include "inc.cuh"
__global__ void kb(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] * 1.02 + 0.5;
}
"""
HDR_DIR_H = """#pragma once
__device__ inline float hscale(float v) { return v * 0.999 + 0.001; }
"""
C = """#include "lib/hdr.cuh"
__global__ void kc(float *z) { z[0] = hscale(z[0]); }
"""


def main():
    if not os.path.exists(BIN):
        print("SKIP: no cudalint binary at %s" % BIN)
        return 77
    print("mode: %s" % MODE)
    tmp = tempfile.mkdtemp(prefix="cudalint-cache-test-")
    try:
        run_tests(tmp)
    finally:
        for dp, dn, fn in os.walk(tmp):
            for d in dn:
                os.chmod(os.path.join(dp, d), 0o755)
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all cache checks passed")
    return 0


def run_tests(tmp):
    global MODE_ARGS
    proj = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(proj, "lib"))
    write(os.path.join(proj, "inc.cuh"), INC)
    write(os.path.join(proj, "a.cu"), A)
    write(os.path.join(proj, "b.cu"), B)
    write(os.path.join(proj, "lib", "hdr.cuh"), HDR_DIR_H)
    write(os.path.join(proj, "c.cu"), C)
    cache = os.path.join(tmp, "cache")

    # ---- hit
    ref = lint(["a.cu"], proj)
    check(len(codes(ref, "CU201")) == 2, "a.cu has its two CU201 findings (%s)" % codes(ref, "CU201"))
    r1 = lint(["a.cu"], proj, cache=cache)
    r2 = lint(["a.cu"], proj, cache=cache)
    check(stats(r1) == (0, 1, 1), "first run misses and stores (%s)" % (stats(r1),))
    check(stats(r2) == (1, 0, 0), "second run hits (%s)" % (stats(r2),))
    check(findings(r1) == findings(ref) and findings(r2) == findings(ref), "cached output equals a fresh lint")
    check(r2.stderr.count("warning") == 0, "no warnings on a hit")
    os.utime(os.path.join(proj, "inc.cuh"), (time.time() + 5, time.time() + 5))
    r = lint(["a.cu"], proj, cache=cache)
    check(stats(r) == (1, 0, 0), "touching a header without changing it still hits (%s)" % (stats(r),))

    # ---- header edit
    write(os.path.join(proj, "inc.cuh"), INC.replace("float", "double"))
    ref_d = lint(["a.cu"], proj)
    r = lint(["a.cu"], proj, cache=cache)
    check(stats(r)[0] == 0, "editing the header misses (%s)" % (stats(r),))
    check(findings(r) == findings(ref_d) and codes(r, "CU201") == [], "the edit shows: no CU201 on double")
    write(os.path.join(proj, "inc.cuh"), INC)
    r = lint(["a.cu"], proj, cache=cache)
    check(findings(r) == findings(ref), "editing it back gives the float findings again")

    # ---- comments: suppressions apply after the cache
    a_path = os.path.join(proj, "a.cu")
    write(a_path, A.replace("+ 0.001;", "+ 0.001; // NOLINT(CU201)"))
    ref_n = lint(["a.cu"], proj)
    r = lint(["a.cu"], proj, cache=cache)
    check(codes(r, "CU201") == [] and findings(r) == findings(ref_n), "adding NOLINT hides the findings at once")
    write(a_path, A.replace("// a.cu", "// NOLINTBEGIN(CU201)\n// a.cu"))
    ref_b = lint(["a.cu"], proj)
    r = lint(["a.cu"], proj, cache=cache)
    check(len(codes(r, "CU001")) == 1 and findings(r) == findings(ref_b),
          "an unmatched NOLINTBEGIN is reported at once (CU001)")
    write(a_path, A)
    r = lint(["a.cu"], proj, cache=cache)
    check(stats(r) == (1, 0, 0) and findings(r) == findings(ref), "removing the comment: the cached findings are back")

    # ---- linted headers: the same file, with and without lib/ on the command line
    ref_c1 = lint(["c.cu"], proj)
    ref_c2 = lint(["c.cu", "lib"], proj)
    r_c1 = lint(["c.cu"], proj, cache=cache)
    r_c2 = lint(["c.cu", "lib"], proj, cache=cache)
    r_c1b = lint(["c.cu"], proj, cache=cache)
    check(codes(ref_c1, "CU201") == [] and len(codes(ref_c2, "CU201")) >= 2,
          "lib/hdr.cuh's findings show only when lib is linted (%s / %s)" % (codes(ref_c1, "CU201"), codes(ref_c2, "CU201")))
    check(findings(r_c1) == findings(ref_c1) and findings(r_c2) == findings(ref_c2) and findings(r_c1b) == findings(ref_c1),
          "the cache keeps that distinction")

    # ---- concurrency: 8 processes, fresh cache, then warm
    ref_all = lint(["."], proj)
    cc = os.path.join(tmp, "cache-concurrent")
    for wave in ("fresh", "warm"):
        e = dict(os.environ, CUDALINT_CACHE_STATS="1")
        procs = [subprocess.Popen([BIN, "--format", "json", "--exit-zero", "-j2", "--cache-dir", cc] + MODE_ARGS + ["."],
                                  cwd=proj, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(8)]
        outs = [p.communicate() for p in procs]
        rcs = [p.returncode for p in procs]
        same = all(findings(subprocess.CompletedProcess([], rc, o, er)) == findings(ref_all) for (o, er), rc in zip(outs, rcs))
        check(same and all(rc == 0 for rc in rcs), "8 concurrent processes (%s cache) all print the right findings" % wave)
        noisy = [er for _, er in outs if "warning" in er]
        check(not noisy, "... without warnings (%s)" % (noisy[:1],))
        if wave == "warm":
            hits = [stats(subprocess.CompletedProcess([], 0, "", er)) for _, er in outs]
            check(all(h and h[1] == 0 for h in hits), "... and the warm wave is all hits (%s)" % hits[:2])

    # ---- corrupt database
    db = os.path.join(cache, "results.sqlite")
    for sfx in ("-wal", "-shm"):
        if os.path.exists(db + sfx):
            os.remove(db + sfx)
    with open(db, "wb") as f:
        f.write(b"this is not a database, it was damaged " * 200)
    r = lint(["a.cu"], proj, cache=cache)
    w = warnings(r)
    check(r.returncode == 0 and findings(r) == findings(ref), "a corrupt database: the run still works")
    check(len(w) == 1 and "corrupt" in w[0], "... with one warning (%s)" % w)
    try:
        con = sqlite3.connect(db)
        n = con.execute("SELECT count(*) FROM results").fetchone()[0]
        con.close()
        check(n >= 1, "... and the database was recreated and used (%d rows)" % n)
    except sqlite3.Error as e:
        check(False, "... and the database was recreated (%s)" % e)
    r = lint(["a.cu"], proj, cache=cache)
    check(stats(r) == (1, 0, 0) and not warnings(r), "the next run hits, quietly")

    # ---- unwritable cache directory
    blocker = os.path.join(tmp, "not-a-dir")
    write(blocker, "x")
    bad = os.path.join(blocker, "cache")
    r = lint(["a.cu"], proj, cache=bad)
    w = warnings(r)
    check(r.returncode == 0 and findings(r) == findings(ref), "an unusable cache directory: the run works")
    check(len(w) == 1 and "not writable" in w[0], "... with one warning (%s)" % w)
    r = lint(["-q", "a.cu"], proj, cache=bad)
    check(not warnings(r) and findings(r) == findings(ref), "... and none with -q")
    if os.geteuid() != 0:
        ro = os.path.join(tmp, "ro")
        os.makedirs(ro)
        os.chmod(ro, 0o555)
        r = lint(["a.cu", "b.cu"], proj, cache=ro)
        check(r.returncode == 0 and len(warnings(r)) == 1, "a read-only cache directory: runs, one warning")

    # ---- --no-cache writes no database
    nc = os.path.join(tmp, "cache-none")
    r = subprocess.run([BIN, "--format", "json", "--exit-zero", "--no-cache", "--cache-dir", nc] + MODE_ARGS + ["a.cu"],
                       cwd=proj, capture_output=True, text=True)
    check(findings(r) == findings(ref) and not os.path.exists(os.path.join(nc, "results.sqlite")),
          "--no-cache reads and writes no database")

    # ---- -j does not change the output
    r1 = lint(["-j1", "."], proj)
    r4 = lint(["-j4", "."], proj)
    check(r1.stdout == r4.stdout, "-j1 and -j4 print the same")

    # ---- precompiled headers: same output as without
    for mode in ["shim"] + (["toolkit"] if toolkit_present() else []):
        MODE_ARGS = (["--no-cuda-headers"] if mode == "shim" else ["--no-codegen"]) + ["--preview"]
        pch_tests(tmp, mode)


PCH_FILES = {
    # three files that start alike (they share one PCH), one that does not
    "p1.cu": "#include <cstdio>\n#include <cstdlib>\n\n__global__ void p1(float *x) { x[0] = x[0] * 0.999 + 0.001; }\n"
             "int main() { p1<<<1, 1>>>(nullptr); return 0; }\n",
    "p2.cu": "// second\n#include <cstdio>\n#include <cstdlib>\n__global__ void p2(float *x, unsigned n) {\n"
             "  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) x[i] = x[i] * 1.02 + 0.5;\n}\n",
    "p3.cu": "#include <cstdio>\n#include <cstdlib>\n__global__ void p3(float *x) { __shared__ float t[32][32];\n"
             "  t[threadIdx.x][threadIdx.y] = x[threadIdx.x]; __syncthreads(); x[threadIdx.y] = t[threadIdx.y][threadIdx.x] * 0.999 + 0.5; }\n",
    "p4.cu": "#include <cmath>\n#include <userlib.h>\n__global__ void p4(float *x) { x[0] = uscale(x[0]) * 0.999 + 0.25; }\n",
    "p5.cu": "#include <cmath>\n#include <userlib.h>\n__global__ void p5(float *x) { x[1] = uscale(x[1]); }\n",
    # the prefix runs on through a project header's own leading includes, and
    # a value-less #define before it must still switch that header's code on
    "p6.cu": "#include <cstdio>\n#define ENABLE_HVAL\n#include \"include/projhdr.h\"\n"
             "__global__ void p6(float *x) { x[0] = hval(x[0]) * 0.999 + 0.25; }\n",
    "p7.cu": "#include <cstdio>\n#define ENABLE_HVAL\n#include \"include/projhdr.h\"\n"
             "__global__ void p7(float *x) { x[2] = hval(x[2]); }\n",
    # an error inside a system template that the file instantiates: the PCH
    # must keep the bodies that make it an error (CU000 either way)
    "p8.cu": "#include <vector>\nstruct NoCopy { NoCopy() {} NoCopy(const NoCopy &) = delete; };\n"
             "void f8() { std::vector<NoCopy> v; v.push_back(NoCopy()); }\n",
    "p9.cu": "#include <vector>\nvoid f9() { std::vector<int> v; v.push_back(1); }\n",
}
USERLIB = "#pragma once\n__device__ inline float uscale(float v) { return v * 0.999 + 0.001; }\n"
PROJHDR = ("#pragma once\n#include <cstdlib>\n#include <cmath>\n#ifdef ENABLE_HVAL\n"
           "__device__ inline float hval(float v) { return v * 1.02 + 0.5; }\n#endif\n")


def pch_tests(tmp, mode):
    P = "pch (%s): " % mode
    proj = os.path.join(tmp, "pchproj-" + mode)
    os.makedirs(os.path.join(proj, "include"))
    for n, t in PCH_FILES.items():
        write(os.path.join(proj, n), t)
    write(os.path.join(proj, "include", "userlib.h"), USERLIB)
    write(os.path.join(proj, "include", "projhdr.h"), PROJHDR)
    cache = os.path.join(tmp, "cache-pch-" + mode)
    if mode == "toolkit":
        prefix = "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n"
        for n in ("p1.cu", "p2.cu", "p3.cu"):
            p = os.path.join(proj, n)
            write(p, prefix + open(p).read())
    files = sorted(PCH_FILES) + ["include"]
    extra = ["--", "-I" + os.path.join(proj, "include")]
    ref = lint(files + extra, proj, env={"CUDALINT_NO_PCH": "1"})
    check(len(codes(ref, "CU201")) >= 6, P + "the reference run has its findings (%d CU201)" % len(codes(ref, "CU201")))
    check(any(f.endswith("userlib.h") for f, _ in codes(ref, "CU201")), P + "... including userlib.h's")
    check(any(f.endswith("projhdr.h") for f, _ in codes(ref, "CU201")), P + "... and projhdr.h's")
    check(any(f == "p8.cu" for f, _ in codes(ref, "CU000")), P + "... and p8.cu's CU000 (an error in <vector>)")
    r1 = lint(["-j1"] + files + extra, proj, cache=cache)          # sees the prefixes, builds on the 2nd file
    r1b = lint(["-j1"] + files + extra, proj, cache=cache)         # every result from the cache
    check(findings(r1b) == findings(ref) and stats(r1b)[1] == 0,
          P + "a warm run hits for every file (%s)" % (stats(r1b),))
    r2 = lint(["-j1", "--no-cache"] + files + extra, proj, cache=cache)  # every file through a PCH
    r3 = lint(["-j2", "--no-cache"] + files + extra, proj, cache=cache)
    pchs = [f for f in os.listdir(os.path.join(cache, "pch")) if f.endswith(".pch")] if os.path.isdir(
        os.path.join(cache, "pch")) else []
    check(len(pchs) >= 1, P + "precompiled headers were built (%d)" % len(pchs))
    check(findings(r1) == findings(ref), P + "building run gives the same output as without PCH")
    check(findings(r2) == findings(ref), P + "run through the PCHs gives the same output as without")
    check(findings(r3) == findings(ref), P + "... with -j2 too")
    check(not warnings(r2) and not warnings(r3), P + "no warnings")
    # A PCH clang cannot load is dropped (and rebuilt by a later run), never trusted.
    for f in pchs:
        with open(os.path.join(cache, "pch", f), "r+b") as fh:
            fh.truncate(4096)
    r4 = lint(["-j1", "--no-cache"] + files + extra, proj, cache=cache)
    check(findings(r4) == findings(ref) and not warnings(r4), P + "a damaged PCH falls back to a plain parse")
    r5 = lint(["-j1", "--no-cache"] + files + extra, proj, cache=cache)  # sees them again
    r6 = lint(["-j1", "--no-cache"] + files + extra, proj, cache=cache)  # rebuilds them
    check(findings(r5) == findings(ref) and findings(r6) == findings(ref), P + "... and later runs rebuild it")


if __name__ == "__main__":
    sys.exit(main())
