#!/usr/bin/env python3
"""child_stall.py: a lint process that hangs where no file's time limit runs
(before its first file, after its last) must not hold the run.

CUDALINT_TEST_CHILD_HANG (engine/supervise.c) makes the lint process hang
there.  With --time-limit 10 (room for a sanitizer build on a loaded machine
to lint each small file) the run must end within a minute or two: after the
last file with every finding, before the first with each file's error."""
import json
import os
import subprocess
import sys
import time

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
FIXTURES = [os.path.join(SRC, "fixtures", f) for f in ("cu101_barrier_order.cu", "cu001_suppressions.cu")]
ARGS = ["--no-cuda-headers", "--no-cache", "--preview", "--time-limit", "10", "--format", "json"] + FIXTURES
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(hang):
    env = dict(os.environ)
    env.pop("CUDALINT_TEST_CHILD_HANG", None)
    if hang:
        env["CUDALINT_TEST_CHILD_HANG"] = hang
    t0 = time.time()
    try:
        p = subprocess.run([BIN] + ARGS, capture_output=True, text=True, env=env, timeout=300)
    except subprocess.TimeoutExpired:
        return None, "", "", time.time() - t0
    return p.returncode, p.stdout, p.stderr, time.time() - t0


def main():
    rc, want, _, _ = run(None)
    check(rc == 1 and '"diagnostics"' in want, f"a normal run finds something (exit {rc})")
    rc, out, err, secs = run("exit")
    check(rc is not None and secs < 100, f"hang after the last file: the run ends ({secs:.1f} s)")
    check(rc == 1 and out == want, "hang after the last file: every finding is kept")
    check("after its last result" in err, "hang after the last file: said on stderr")
    rc, out, err, secs = run("start")
    check(rc is not None and secs < 100, f"hang before the first file: the run ends ({secs:.1f} s)")
    try:
        files = json.loads(out)["files"] if rc is not None else []
    except ValueError:
        files = []
    errors = [f for f in files if f["status"] == "error" and "failed before linting" in f.get("message", "")]
    check(rc == 2 and len(errors) == len(FIXTURES), f"hang before the first file: each file gets an error (exit {rc})")
    check("no file in flight" in err, "hang before the first file: said on stderr")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
