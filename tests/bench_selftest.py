#!/usr/bin/env python3
"""bench_selftest.py: tests/bench.py cannot pass by accident.

Feeds the benchmark broken references: a clang-tidy that exits 1, one that
exits 0 at once and prints nothing, one that does not exist, and a clang (the
-fsyntax-only floor) that prints nothing.  Each must give ERROR lines and a
non-zero exit.  A control run with the real clang-tidy 22 and clang 22 must
give figures and no ERROR, so that the test fails if the benchmark errs on
everything.  Exit 77 (skipped) without clang-tidy-22 or clang-22.
"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint"))
BENCH = os.path.join(SRC, "tests", "bench.py")


def script(d, name, body):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(p, os.stat(p).st_mode | stat.S_IXUSR)
    return p


def bench(*extra):
    cmd = [sys.executable, BENCH, "--cudalint", BIN, "--per-file-only", "--modes", "shim", "--files", "1",
           "--max-files", "1", "--runs", "1", "--no-lsp"] + list(extra)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    return r.returncode, r.stdout + r.stderr


def main():
    tidy = shutil.which("clang-tidy-22")
    clang = shutil.which("clang-22")
    if not tidy or not clang:
        print("bench_selftest: clang-tidy-22 and clang-22 are needed: skipped")
        return 77
    failures = []
    with tempfile.TemporaryDirectory(prefix="cudalint-bench-selftest-") as d:
        broken = [
            ("clang-tidy exits 1", ["--clang-tidy", script(d, "tidy-fails", "echo 'error: no input' >&2; exit 1")]),
            ("clang-tidy prints nothing", ["--clang-tidy", script(d, "tidy-silent", "exit 0")]),
            ("clang-tidy missing", ["--clang-tidy", os.path.join(d, "no-such-clang-tidy")]),
            ("clang prints nothing", ["--clang", script(d, "clang-silent", "exit 0")]),
        ]
        for what, args in broken:
            rc, out = bench(*args)
            if rc == 0 or "ERROR" not in out:
                failures.append("%s: exit %d, ERROR %s\n%s" % (what, rc, "printed" if "ERROR" in out else "missing",
                                                                out[-2000:]))
            else:
                print("ok: %s: ERROR, exit %d" % (what, rc))
        rc, out = bench("--clang-tidy", tidy, "--clang", clang)
        if "ERROR" in out or rc == 2 or "cudalint/clang-tidy" not in out:
            failures.append("control run with the real tools: exit %d\n%s" % (rc, out[-3000:]))
        else:
            print("ok: control run with clang-tidy-22 and clang-22 measures (exit %d)" % rc)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
