#!/usr/bin/env python3
"""fix_test.py: --fix and --diff on throw-away copies of a kernel with CU201
findings: the diff applies with `git apply` and equals what --fix writes;
--fix keeps permissions and symlinks, re-linting shows the findings gone; a
file edited while cudalint runs is not overwritten; a header only reached
through #include is not touched; and a run killed (SIGKILL) in the middle of
writing leaves the file either intact or fully replaced, never half written.
CUDALINT_TEST_SLOW_WRITE=SECONDS makes cudalint pause inside the write (with
the temporary file half written, and again before the rename) and say so on
stderr, so the test can kill it there.  Exit 77 when no rule offers a fix."""
import json, os, shutil, signal, stat, subprocess, sys, tempfile, time

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
DATA = os.path.join(SRC, "tests", "data", "integrations")
FAILURES = []
# --preview: the test expects findings of rules that are still preview (off by default).
MODE = ["--preview"]


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def run(args, cwd, env=None):
    p = subprocess.run([BIN] + MODE + args, cwd=cwd, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def pick_mode():
    """The built-in declarations header is ten times faster than the toolkit's;
    use it when it parses the test kernels cleanly."""
    p = subprocess.run([BIN, "--no-cuda-headers", "--format", "json", os.path.join(DATA, "clean.cu")],
                       capture_output=True, text=True)
    if p.returncode == 0 and '"CU000"' not in p.stdout:
        MODE.append("--no-cuda-headers")


def codes(cwd, args):
    rc, out, _ = run(["--format", "json"] + args, cwd)
    return [d["code"] for d in json.loads(out)["diagnostics"]]


def read(p):
    with open(p, "rb") as f:
        return f.read()


def main():
    if not os.access(BIN, os.X_OK):
        print("FAIL: no cudalint binary at", BIN)
        return 1
    pick_mode()
    rc, out, _ = run(["--format", "json", os.path.join(DATA, "double_literal.cu")], SRC)
    if not any(d["fix"] for d in json.loads(out)["diagnostics"]):
        print("SKIP: no fix offered for tests/data/integrations/double_literal.cu (CU201 fixes unavailable)")
        return 77
    tmp = tempfile.mkdtemp()
    try:
        test(tmp)
    finally:
        shutil.rmtree(tmp)
    print("FAIL" if FAILURES else "PASS")
    return 1 if FAILURES else 0


def fresh(tmp, name):
    d = os.path.join(tmp, name)
    os.makedirs(os.path.join(d, "src"))
    p = os.path.join(d, "src", "k.cu")
    shutil.copy(os.path.join(DATA, "double_literal.cu"), p)
    return d, p


def test(tmp):
    original = read(os.path.join(DATA, "double_literal.cu"))

    # --- --diff: nothing written, a patch git accepts, exit 1 ---
    d, p = fresh(tmp, "diff")
    rc, out, err = run(["--diff", "src/k.cu"], d)
    check(rc == 1, "--diff exits 1 when there are fixes (got %d)" % rc)
    check(read(p) == original, "--diff does not write")
    check(out.startswith("--- a/src/k.cu\n+++ b/src/k.cu\n@@ "), "unified diff header: %r" % out[:60])
    check("\n-        x[i] = x[i] * 0.1;\n" in out and "\n+        x[i] = x[i] * 0.1f;\n" in out,
          "the diff shows the fix: %r" % out)
    rc2, _, _ = run(["--diff", "--exit-zero", "src/k.cu"], d)
    check(rc2 == 0, "--diff --exit-zero exits 0")
    patch = os.path.join(tmp, "fix.patch")
    open(patch, "w").write(out)
    if shutil.which("git"):
        g = subprocess.run(["git", "apply", patch], cwd=d, capture_output=True, text=True)
        check(g.returncode == 0, "git apply takes the diff: %s" % g.stderr)
        diffed = read(p)
    else:
        diffed = None

    # --- several hunks, and a fix on a last line without a newline ---
    d, p = fresh(tmp, "hunks")
    filler = "".join("// filler line %d\n" % i for i in range(30))
    last = "__global__ void tail(float *y) { y[0] = y[0] * 0.7; }"
    open(p, "ab").write(filler.encode() + last.encode())
    rc, out, _ = run(["--diff", "src/k.cu"], d)
    check(out.count("\n@@ ") + out.startswith("@@ ") == 2, "two hunks for distant fixes:\n" + out)
    check("\\ No newline at end of file\n" in out, "the missing final newline is marked")
    if shutil.which("git"):
        open(patch, "w").write(out)
        g = subprocess.run(["git", "apply", patch], cwd=d, capture_output=True, text=True)
        check(g.returncode == 0, "git apply takes a two-hunk diff: %s" % g.stderr)
        applied = read(p)
        d2, p2 = fresh(tmp, "hunks-fix")
        open(p2, "ab").write(filler.encode() + last.encode())
        run(["--fix", "src/k.cu"], d2)
        check(read(p2) == applied and read(p2).endswith(b"* 0.7f; }"), "--fix equals the applied diff")

    # --- --fix: written in place, permissions kept, findings gone ---
    d, p = fresh(tmp, "fix")
    os.chmod(p, 0o640)
    rc, out, err = run(["--fix", "src/k.cu"], d)
    check(rc == 0, "--fix exits 0 when everything was fixed (got %d: %s)" % (rc, err))
    fixed = read(p)
    check(b"x[i] = x[i] * 0.1f;" in fixed and b"0.999f + 0.001f" in fixed, "the literals got their f")
    check(stat.S_IMODE(os.stat(p).st_mode) == 0o640, "permissions kept: %o" % stat.S_IMODE(os.stat(p).st_mode))
    check("CU201" not in codes(d, ["src/k.cu"]), "re-linting shows the findings gone")
    rc, out, _ = run(["--diff", "src/k.cu"], d)
    check(rc == 0 and out == "", "nothing left to diff after --fix")
    if diffed is not None:
        check(diffed == fixed, "--diff applied equals --fix")
    check(not [f for f in os.listdir(os.path.dirname(p)) if "cudalint-" in f], "no temporary file left")

    # --- a symlink: the target is fixed, the link stays a link ---
    d, p = fresh(tmp, "link")
    os.symlink("src/k.cu", os.path.join(d, "link.cu"))
    rc, _, err = run(["--fix", "link.cu"], d)
    check(os.path.islink(os.path.join(d, "link.cu")), "the symlink is still a symlink")
    check(read(p) == fixed, "the symlink's target was fixed: %s" % err)

    # --- several files in parallel ---
    d, p = fresh(tmp, "many")
    for i in range(4):
        shutil.copy(p, os.path.join(d, "src", "k%d.cu" % i))
    rc, _, err = run(["--fix", "-j", "4", "src"], d)
    check(rc == 0 and all(read(os.path.join(d, "src", f)) == fixed for f in os.listdir(os.path.join(d, "src"))),
          "every file of a directory fixed: %s" % err)

    # --- a header only reached through #include is not touched ---
    d, p = fresh(tmp, "header")
    h = os.path.join(d, "src", "helpers.h")
    open(h, "w").write("__device__ inline float half_of(float v) { return v * 0.3; }\n")
    open(p, "a").write('#include "helpers.h"\n')
    hbefore = read(h)
    rc, out, err = run(["--fix", "src"], d)
    check(read(h) == hbefore, "an included header that was not linted itself is not rewritten")
    if "CU201" in codes(d, ["src"]):
        check("helpers.h" in err and "#include" in err, "says why the header was not fixed: %r" % err)

    # --- the file changes while cudalint works: it is not overwritten ---
    d, p = fresh(tmp, "race")
    env = dict(os.environ, CUDALINT_TEST_SLOW_WRITE="2")
    proc = subprocess.Popen([BIN] + MODE + ["--fix", "src/k.cu"], cwd=d, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    wait_for(proc, "before rename")
    edited = original + b"// edited by the user meanwhile\n"
    with open(p, "wb") as f:
        f.write(edited)
    _, err = proc.communicate(timeout=120)
    check(read(p) == edited, "a file edited during the run keeps the user's edit")
    check("changed on disk" in err, "says the file changed: %r" % err[-300:])
    check(proc.returncode == 1, "the findings are still reported (exit %d)" % proc.returncode)

    # --- killed mid-write: intact or fully replaced, never half written ---
    for phase in ["temporary file half written", "before rename"]:
        d, p = fresh(tmp, "kill-" + phase.split()[0])
        env = dict(os.environ, CUDALINT_TEST_SLOW_WRITE="60")
        proc = subprocess.Popen([BIN] + MODE + ["--fix", "src/k.cu"], cwd=d, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(proc, phase)
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        check(read(p) == original, "killed at '%s': the original is intact" % phase)
        litter = [f for f in os.listdir(os.path.dirname(p)) if f != "k.cu"]
        # The leftover temporary file is hidden and not a .cu: never linted.
        check(all(f.startswith(".k.cu.cudalint-") for f in litter), "only a hidden temporary file: %s" % litter)
        rc, out, _ = run(["--format", "json", "src"], d)
        check([f["file"] for f in json.loads(out)["files"]] == ["src/k.cu"], "the leftover is not linted")
        rc, _, _ = run(["--fix", "src/k.cu"], d)
        check(read(p) == fixed, "a later --fix still works after a killed one")

    # Killed at moments spread over the write (short pauses of 0.3 s: half
    # written, complete, renamed): always one of the two complete states.
    states = set()
    for trial, delay in enumerate([0.0, 0.15, 0.45, 0.75, 1.0, 1.5]):
        d, p = fresh(tmp, "kill%d" % trial)
        env = dict(os.environ, CUDALINT_TEST_SLOW_WRITE="0.3")
        proc = subprocess.Popen([BIN] + MODE + ["--fix", "src/k.cu"], cwd=d, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        proc.stderr.readline()  # the first pause: the write has begun
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        content = read(p)
        check(content in (original, fixed), "trial %d: the file is half written" % trial)
        states.add("intact" if content == original else "replaced")
    print("kills during the write left the file:", ", ".join(sorted(states)))


def wait_for(proc, phase, timeout=120):
    """Reads cudalint's stderr until the slow-write pause named phase."""
    end = time.time() + timeout
    while time.time() < end:
        line = proc.stderr.readline()
        if not line:
            break
        if "slow write" in line and phase in line:
            return
    proc.kill()
    raise SystemExit("FAIL: cudalint never reached the write phase '%s'" % phase)


if __name__ == "__main__":
    sys.exit(main())
