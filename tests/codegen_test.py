#!/usr/bin/env python3
"""codegen_test.py: the codegen evidence (--codegen) against nvcc itself.

Every finding of a rule codegen checks (CU201-CU204, CU301, CU401-CU403) in
tests/data/codegen/*.cu carries a comment on its line saying what nvcc's code
makes of it:
    // codegen: CU201 confirmed        (a note with the evidence)
    // codegen: CU201 disproved        (dropped; kept, marked, with --show-disproved)
    // codegen: CU201 not-checked      (compile error: kept as found, with a note)
and every such comment has its finding.  Then: a second run is answered by
the result cache (nvcc does not run again, the verdicts are the same);
--statistics counts the verdicts; --no-codegen and --no-cuda-headers never
run nvcc.

Skipped (exit 77) without a CUDA Toolkit (nvcc).  Python 3 stdlib only.
"""
import json, os, re, shutil, subprocess, sys, tempfile

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint"))
DATA = os.path.join(SRC, "tests", "data", "codegen")
CHECKED = {"CU201", "CU202", "CU203", "CU204", "CU301", "CU401", "CU402", "CU403"}
ANNOT = re.compile(r'codegen:\s*(CU\d{3})\s+(confirmed|disproved|not-checked)')
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)
    return cond


def toolkit():
    for root in [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"]:
        if root and os.access(os.path.join(root, "bin", "nvcc"), os.X_OK):
            return root
    nvcc = shutil.which("nvcc")
    return os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else None


def run(args, cwd):
    # --preview: the performance rules are preview (off by default).
    p = subprocess.run([BIN, "--no-config", "--color", "never", "--preview"] + args, cwd=cwd, capture_output=True, text=True,
                       timeout=600)
    return p


def verdict(d):
    if d["message"].startswith("[disproved by codegen]"):
        return "disproved"
    notes = [n["message"] for n in d.get("notes", [])]
    if any(m.startswith("codegen not checked") for m in notes):
        return "not-checked"
    if any(m.startswith("nvcc ") for m in notes):
        return "confirmed"
    return "none"


def findings(out):
    return {(d["line"], d["code"]): d for d in json.loads(out)["diagnostics"]}


def main():
    if not toolkit():
        print("SKIP: no CUDA Toolkit (nvcc) on this machine")
        return 77
    tmp = tempfile.mkdtemp(prefix="cudalint-codegen-")
    try:
        cache = os.path.join(tmp, "cache")
        for name in sorted(f for f in os.listdir(DATA) if f.endswith(".cu")):
            path = os.path.join(DATA, name)
            want = {}
            with open(path) as f:
                for no, line in enumerate(f, 1):
                    for m in ANNOT.finditer(line):
                        want[(no, m.group(1))] = m.group(2)
            p = run(["--cache-dir", cache, "--codegen", "--show-disproved", "--format", "json", path], DATA)
            check(p.returncode in (0, 1), "%s: lints (exit %d %s)" % (name, p.returncode, p.stderr.strip()[:300]))
            got = {k: verdict(d) for k, d in findings(p.stdout).items() if k[1] in CHECKED}
            for key, v in sorted(want.items()):
                check(got.get(key) == v, "%s:%d %s %s (got %s)" % (name, key[0], key[1], v, got.get(key, "no finding")))
            for key in sorted(set(got) - set(want)):
                check(False, "%s:%d %s: unexpected finding (%s)" % (name, key[0], key[1], got[key]))
            for key, d in findings(p.stdout).items():
                if want.get(key) == "confirmed":
                    ev = [n["message"] for n in d.get("notes", []) if n["message"].startswith("nvcc ")]
                    check(ev and re.match(r"nvcc [\d.]+ -O3 sm_\d+: ", ev[0]),
                          "%s:%d %s: evidence names nvcc, -O3 and the arch (%s)" % (name, key[0], key[1], ev[:1]))

            # Without --show-disproved the disproved findings are gone; the cache
            # answers (no nvcc time) with the same verdicts.
            p = run(["--cache-dir", cache, "--codegen", "--format", "json", path], DATA)
            plain = {k: verdict(d) for k, d in findings(p.stdout).items() if k[1] in CHECKED}
            check(all(v != "disproved" for v in plain.values()) and
                  set(plain) == {k for k, v in want.items() if v != "disproved"},
                  "%s: disproved findings dropped without --show-disproved" % name)
            p = run(["--cache-dir", cache, "--codegen", "--statistics", "--format", "json", path], DATA)
            st = json.loads(p.stdout)
            cg = st.get("codegen", {})
            check(cg.get("nvcc_seconds") == 0, "%s: the cached run does not call nvcc (nvcc %ss)"
                  % (name, cg.get("nvcc_seconds")))
            counts = {}
            for v in want.values():
                counts[v] = counts.get(v, 0) + 1
            stat = {"confirmed": 0, "disproved": 0, "not-checked": 0}
            for r in cg.get("rules", []):
                stat["confirmed"] += r["confirmed"]
                stat["disproved"] += r["disproved"]
                stat["not-checked"] += r["not_checked"]
            check(all(stat[k] == counts.get(k, 0) for k in stat),
                  "%s: --statistics counts %s (want %s)" % (name, stat, counts))

        # No compile database: a project header in a sibling folder, which the
        # parse finds by guessing the folder, reaches nvcc too (the finding is
        # checked, not "not checked" for a missing header).
        tree = os.path.join(tmp, "tree")
        os.makedirs(os.path.join(tree, "common"))
        os.makedirs(os.path.join(tree, "kernels"))
        with open(os.path.join(tree, "common", "scale.h"), "w") as f:
            f.write("#pragma once\n#define SCALE 1.5f\n")
        with open(os.path.join(tree, "kernels", "k.cu"), "w") as f:
            f.write('#include "scale.h"\n'
                    "__global__ void k(float *x) { x[threadIdx.x] = x[threadIdx.x] * 0.5 * SCALE; }\n")
        p = run(["--no-cache", "--codegen", "--format", "json", "."], tree)
        got = [verdict(d) for d in json.loads(p.stdout)["diagnostics"] if d["code"] == "CU201"]
        check(got == ["confirmed"], "a header in a sibling folder reaches nvcc through the guessed folder (%s)" % got)

        # A kernel header: alone it emits no code (nothing launches its kernel);
        # its findings are judged by the compile of the file that includes it.
        hdr = os.path.join(tmp, "hdr")
        os.makedirs(hdr)
        with open(os.path.join(hdr, "scale_kernel.cuh"), "w") as f:
            f.write("#pragma once\n"
                    "__global__ void scale(float *x) { x[threadIdx.x] = x[threadIdx.x] * 0.1; }\n"
                    "__device__ float unused_half(float v) { return v * 0.1; }\n")
        with open(os.path.join(hdr, "main.cu"), "w") as f:
            f.write('#include "scale_kernel.cuh"\n'
                    "void run(float *x) { scale<<<1, 32>>>(x); }\n")
        p = run(["--no-cache", "--codegen", "--select", "CU201", "--format", "json", "."], hdr)
        got = {d["line"]: verdict(d) for d in json.loads(p.stdout)["diagnostics"] if d["code"] == "CU201"}
        check(got == {2: "confirmed", 3: "not-checked"},
              "a header's findings are judged by its includer's compile: the launched kernel's line confirmed, "
              "a function nothing calls not checked (%s)" % got)

        # A fresh cache: the first run pays for nvcc.
        path = os.path.join(DATA, "float_math.cu")
        p = run(["--cache-dir", os.path.join(tmp, "cold"), "--statistics", "--format", "json", path], DATA)
        cg = json.loads(p.stdout).get("codegen", {})
        check(cg.get("nvcc_seconds", 0) > 0, "codegen is on by default with a toolkit; a cold run calls nvcc (%ss)"
              % cg.get("nvcc_seconds"))
        for args, what in [(["--no-codegen"], "--no-codegen"), (["--no-cuda-headers", "--codegen"], "--no-cuda-headers")]:
            p = run(["--no-cache", "--show-disproved", "--format", "json"] + args + [path], DATA)
            notes = [n["message"] for d in json.loads(p.stdout)["diagnostics"] for n in d.get("notes", [])]
            check(not any(m.startswith("nvcc ") or m.startswith("codegen") for m in notes),
                  "%s: no codegen evidence" % what)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
