#!/usr/bin/env python3
"""pch_cold_test.py: a file linted in toolkit mode gives the same findings on a cold machine (its
first parse goes without a precompiled header, whose prefix is only marked as seen) as once the
precompiled header exists.  A parse without one shows the macro definitions of clang's CUDA wrapper
header (`__USE_FAST_MATH__ 0`), which a rule once read as the project's fast-math flag and went
silent on every first run.  Skips (exit 77) without a CUDA Toolkit."""
import json, os, shutil, subprocess, sys, tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint"))
FILES = ["fixtures/cu203_float_division_by_constant.cu", "fixtures/cu201_double_literal.cu",
         "fixtures/cu101_branches.cu", "fixtures/cu401_transpose.cu"]


def findings(cache, path):
    p = subprocess.run([BIN, "--no-config", "--cache-dir", cache, "--no-cache", "--preview", "--no-codegen",
                        "--format", "json", path], cwd=SRC, capture_output=True, text=True, timeout=600)
    doc = json.loads(p.stdout)
    return sorted((d["file"], d["line"], d["column"], d["code"]) for d in doc["diagnostics"])


def main():
    if not any(os.access(os.path.join(r, "bin", "nvcc"), os.X_OK) for r in
               [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"] if r) and not shutil.which("nvcc"):
        print("SKIP: no CUDA Toolkit on this machine")
        return 77
    tmp = tempfile.mkdtemp(prefix="cudalint-pchcold-")
    try:
        failed = 0
        for n, path in enumerate(FILES):
            # A cache directory of its own: this file's parse is the first one.
            cache = os.path.join(tmp, "cache%d" % n)
            cold = findings(cache, path)
            warm = findings(cache, path)
            if cold != warm or not cold:
                failed += 1
                print("FAIL %s: cold run %d findings, warm run %d" % (path, len(cold), len(warm)))
                for f in sorted(set(warm) - set(cold)):
                    print("  only warm:", f)
                for f in sorted(set(cold) - set(warm)):
                    print("  only cold:", f)
            else:
                print("ok   %s: %d findings, cold and warm alike" % (path, len(cold)))
        return 1 if failed else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
