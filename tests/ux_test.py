#!/usr/bin/env python3
"""ux_test.py: what users of ruff and clang-tidy expect (issue 16).

  stdin       --stdin-filename PATH lints standard input as PATH: findings
              name PATH, PATH's directory decides the configuration (also for
              a file that does not exist yet), `-` is accepted as the path,
              other paths are refused; --fix writes the fixed source to stdout
              and touches no file.
  statistics  --statistics in text and JSON: per-rule counts equal the
              findings of a normal run, fixable counts equal findings with fixes.
  output      -o FILE: FILE holds exactly what stdout would, the text report
              is printed on the terminal, no temporary file is left, an
              unwritable FILE is exit 2 and leaves the old file as it was.
  progress    in a pseudo-terminal (stderr a TTY) a self-updating line
              appears on stderr and is erased at the end; never on stdout,
              never when stderr is not a TTY, never with --quiet.
  shard       --shard K/N over a tree: the shards are disjoint, cover it,
              their findings together equal one run's, the same command gives
              the same shard, and adding a file moves few files between shards.
  watch       --watch lints, then again after a file is added, edited or
              removed (each change once), ignores files it does not lint, and
              stops on SIGINT.

Usage: tests/ux_test.py [GROUP...]   (default: every group)"""
import json, os, pty, select, shutil, subprocess, sys, tempfile, time

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
DATA = os.path.join(SRC, "tests", "data", "integrations")
FIXTURES = os.path.join(SRC, "fixtures")
FAILURES = []
# The built-in declarations header: ten times faster than the toolkit's.
# --preview: the checks expect findings of rules that are still preview (off by default).
MODE = ["--no-cuda-headers", "--no-cache", "--preview"]


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def run(args, cwd=SRC, stdin=None, mode=True, cache=None):
    """cache: a cache directory to use instead of --no-cache (runs that repeat one)."""
    m = (MODE if cache is None else [MODE[0], MODE[2], "--cache-dir", cache]) if mode else []
    p = subprocess.run([BIN] + m + args, cwd=cwd, capture_output=True,
                       input=stdin, env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), p.stdout


def read(p, mode="r"):
    with open(p, mode) as f:
        return f.read()


def key(d):
    return (d["file"], d["line"], d["column"], d["code"], d["message"])


# ---------------------------------------------------------------- stdin
def test_stdin(tmp):
    src = read(os.path.join(DATA, "double_literal.cu"))
    proj = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(proj, "quiet"))
    with open(os.path.join(proj, "quiet", ".cudalint.yaml"), "w") as f:
        f.write("ignore: [CU201]\n")
    rc, out, err, _ = run(["--format", "json", "--stdin-filename", "proj/kernel.cu"], tmp, src.encode())
    diags = json.loads(out)["diagnostics"] if rc in (0, 1) else []
    check(rc == 1 and diags, f"stdin: exit 1 with findings (exit {rc}: {err})")
    check(all(d["file"] == "proj/kernel.cu" for d in diags), "stdin: findings name the --stdin-filename path")
    check(not os.path.exists(os.path.join(proj, "kernel.cu")), "stdin: no file is created")
    disk = json.loads(run(["--format", "json", os.path.join(DATA, "double_literal.cu")])[1])["diagnostics"]
    check([(d["line"], d["column"], d["code"]) for d in diags] == [(d["line"], d["column"], d["code"]) for d in disk],
          "stdin: the same findings as linting the file on disk")
    # The path's directory decides the configuration.
    rc, out, err, _ = run(["--format", "json", "--stdin-filename", "proj/quiet/kernel.cu"], tmp, src.encode())
    check(rc == 0 and json.loads(out)["diagnostics"] == [],
          f"stdin: the .cudalint.yaml of the path's directory applies (exit {rc})")
    rc, out, err, _ = run(["--stdin-filename", "proj/kernel.cu", "-"], tmp, src.encode())
    check(rc == 1 and "proj/kernel.cu:7:" in out, f"stdin: '-' as the path is standard input (exit {rc}, {err})")
    rc, out, err, _ = run(["--stdin-filename", "proj/kernel.cu", "other.cu"], tmp, src.encode())
    check(rc == 2 and "--stdin-filename" in err, f"stdin: another PATH is a usage error (exit {rc})")
    # The text report quotes the input, not whatever is on disk.
    with open(os.path.join(proj, "kernel.cu"), "w") as f:
        f.write("// stale text on disk\n" * 20)
    rc, out, err, _ = run(["--stdin-filename", "proj/kernel.cu"], tmp, src.encode())
    check("x[i] = x[i] * 0.1;" in out and "stale text" not in out, "stdin: source lines come from the input")
    # --fix: the fixed source on stdout, the file on disk untouched.
    rc, out, err, raw = run(["--fix", "--stdin-filename", "proj/kernel.cu"], tmp, src.encode())
    check(rc == 0, f"stdin --fix: exit 0 when everything was fixed (exit {rc}, {err})")
    check("0.1f" in out and "0.999f + 0.001f" in out and out.count("\n") == src.count("\n"),
          "stdin --fix: stdout is the fixed source")
    check(read(os.path.join(proj, "kernel.cu")).startswith("// stale text"), "stdin --fix: the file is untouched")
    check("fixed 3 findings" in err, f"stdin --fix: says what it fixed on stderr ({err.strip()})")
    rc, out2, _, _ = run(["--format", "json", "--stdin-filename", "proj/kernel.cu"], tmp, raw)
    check(rc == 0 and json.loads(out2)["diagnostics"] == [], "stdin --fix: the fixed source lints clean")
    clean = read(os.path.join(DATA, "clean.cu"))
    rc, out, err, _ = run(["--fix", "--stdin-filename", "clean.cu"], tmp, clean.encode())
    check(rc == 0 and out == clean, "stdin --fix: a clean input comes back byte for byte")


# ---------------------------------------------------------------- statistics
def test_statistics(tmp):
    cache = os.path.join(tmp, "cache")
    rc, out, _, _ = run(["--format", "json", FIXTURES], cache=cache)
    diags = json.loads(out)["diagnostics"]
    want = {}
    for d in diags:
        c = want.setdefault(d["code"], [d["rule"], 0, 0])
        c[1] += 1
        c[2] += bool(d["fix"])
    rc2, out, err, _ = run(["--statistics", "--format", "json", FIXTURES], cache=cache)
    check(rc2 == rc, f"statistics: same exit code as the run ({rc2} vs {rc})")
    doc = json.loads(out)
    got = {s["code"]: [s["name"], s["count"], s["fixable"]] for s in doc["statistics"]}
    check(got == want, f"statistics json: counts per rule equal the findings ({got} vs {want})")
    check(doc["total"] == len(diags), "statistics json: total")
    counts = [s["count"] for s in doc["statistics"]]
    check(counts == sorted(counts, reverse=True), "statistics: most frequent first")
    rc3, out, err, _ = run(["--statistics", FIXTURES], cache=cache)
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0].isdigit():
            rows[parts[1]] = (int(parts[0]), parts[-1])
    check(rows == {c: (v[1], v[0]) for c, v in want.items()}, f"statistics text: count, code and name per rule")
    fixable_codes = [c for c, v in want.items() if v[2] == v[1]]
    for c in fixable_codes:
        check(any(l.split()[1:3] == [c, "[*]"] for l in out.splitlines() if l.split()[:1] and l.split()[0].isdigit()),
              f"statistics text: {c} marked fixable")
    check(" finding" in err and "CU" not in err, "statistics text: the summary on stderr")
    rc, out, err, _ = run(["--statistics", "--format", "sarif", FIXTURES])
    check(rc == 2, "statistics: --format sarif is a usage error")


# ---------------------------------------------------------------- output file
def test_output(tmp):
    target = os.path.join(DATA, "double_literal.cu")
    for fmt in ("sarif", "json", "text"):
        _, want, _, _ = run(["--format", fmt, target])
        dest = os.path.join(tmp, "out", "r." + fmt)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        rc, out, err, _ = run(["--format", fmt, "-o", dest, target])
        check(rc == 1, f"-o {fmt}: exit 1 with findings (exit {rc})")
        check(os.path.exists(dest) and read(dest) == want, f"-o {fmt}: the file holds what stdout would")
        if fmt != "text":
            check("double_literal.cu:7:" in out and "warning" in out, f"-o {fmt}: the text findings on stdout")
        else:
            check(out == "", "-o text: nothing else on stdout")
        check("3 findings" in err, f"-o {fmt}: the summary on the terminal ({err.strip()})")
    check(sorted(os.listdir(os.path.join(tmp, "out"))) == ["r.json", "r.sarif", "r.text"],
          f"-o: no temporary files left ({os.listdir(os.path.join(tmp, 'out'))})")
    # Statistics to a file.
    dest = os.path.join(tmp, "out", "stats.json")
    rc, out, err, _ = run(["--statistics", "--format", "json", "-o", dest, target])
    check(json.loads(read(dest))["statistics"][0]["code"] == "CU201" and out == "", "-o with --statistics")
    # An unwritable destination: exit 2, the old file as it was.
    ro = os.path.join(tmp, "ro")
    os.makedirs(ro)
    old = os.path.join(ro, "r.sarif")
    with open(old, "w") as f:
        f.write("old")
    os.chmod(ro, 0o555)
    try:
        rc, out, err, _ = run(["--format", "sarif", "-o", old, target])
        writable = os.access(ro, os.W_OK)  # root ignores the mode
    finally:
        os.chmod(ro, 0o755)
    if not writable:
        check(rc == 2 and read(old) == "old", f"-o unwritable: exit 2 and the old file kept (exit {rc})")
    rc, out, err, _ = run(["--format", "sarif", "-o", os.path.join(tmp, "no", "such", "dir", "r.sarif"), target])
    check(rc == 2 and "-o" in err, f"-o into a missing directory: exit 2 with a message (exit {rc}: {err.strip()})")
    rc, out, err, _ = run(["--diff", "-o", os.path.join(tmp, "d"), target])
    check(rc == 2, "-o with --diff: usage error")


# ---------------------------------------------------------------- progress
def in_pty(args, timeout=300, env=None):
    """Runs cudalint with stderr on a pseudo-terminal; returns (rc, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    out = tempfile.TemporaryFile()
    p = subprocess.Popen([BIN] + args, stdin=subprocess.DEVNULL, stdout=out, stderr=slave, cwd=SRC,
                         env=dict(os.environ, TERM="xterm", **(env or {})))
    os.close(slave)
    term = b""
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                d = os.read(master, 65536)
            except OSError:  # EIO: the last writer is gone
                break
            if not d:
                break
            term += d
        elif p.poll() is not None:
            break
    try:
        rc = p.wait(timeout=max(1.0, end - time.time()))
    except subprocess.TimeoutExpired:  # a hang is a failed check, not a stuck suite
        p.kill()
        p.wait()
        rc = None
    os.close(master)
    out.seek(0)
    return rc, out.read(), term


def test_progress(tmp):
    # Twelve fixtures, one job, no cache.  The line shows after a second;
    # CUDALINT_PROGRESS_DELAY=0 shows it at once, so that a fast machine
    # (twelve fixtures in under a second) still draws it.
    some = os.path.join(tmp, "some")
    os.makedirs(some)
    for f in sorted(x for x in os.listdir(FIXTURES) if x.endswith(".cu"))[:12]:
        shutil.copy(os.path.join(FIXTURES, f), some)
    args = ["--no-cache", "-j1", some]
    rc, out, term = in_pty(args, env={"CUDALINT_PROGRESS_DELAY": "0"})
    lines = term.split(b"\r\x1b[K")
    shown = [l for l in lines if l.startswith(b"cudalint: ") and b" files, " in l]
    check(rc == 1 and shown, f"progress: a line on the terminal (exit {rc}, {len(term)} bytes)")
    if shown:
        last = shown[-1].decode()
        check(" elapsed" in last and "/" in last and " finding" in last, f"progress: files, findings, elapsed ({last})")
        check(any(b"ETA" in l for l in shown), "progress: an estimate of the time left")
    check(b"\x1b[K" not in out and b"elapsed" not in out, "progress: nothing on stdout")
    # Erased at the end: after the last erase only the summary line remains.
    tail = lines[-1].decode(errors="replace")
    check(" files, " not in tail and "finding" in tail, f"progress: the line is erased before the summary ({tail!r})")
    rc, out, term = in_pty(["-q"] + args)
    check(b"elapsed" not in term, "progress: none with --quiet")
    # stderr not a TTY: none.
    rc, out, err, _ = run(args, mode=False)
    check("elapsed" not in err and "\x1b[K" not in err, "progress: none when stderr is not a terminal")


# ---------------------------------------------------------------- shards
def lint_json(args, cwd, cache=None):
    rc, out, err, _ = run(["--format", "json"] + args, cwd, cache=cache)
    if not check(rc in (0, 1), f"shard: exit {rc} for {args}: {err}"):
        return set(), set()
    doc = json.loads(out)
    return {f["file"] for f in doc["files"]}, {key(d) for d in doc["diagnostics"]}


def test_shard(tmp):
    tree = os.path.join(tmp, "tree")
    shutil.copytree(FIXTURES, os.path.join(tree, "fixtures"))
    shutil.copytree(DATA, os.path.join(tree, "data"))
    cache = os.path.join(tmp, "cache")
    all_files, all_diags = lint_json(["."], tree, cache)
    n = 4
    parts = [lint_json(["--shard", f"{k}/{n}", "."], tree, cache) for k in range(1, n + 1)]
    files = [p[0] for p in parts]
    union = set().union(*files)
    check(union == all_files, f"shard: the {n} shards cover the tree ({len(union)} of {len(all_files)} files)")
    check(sum(len(f) for f in files) == len(union), "shard: the shards are disjoint")
    check(all(files), f"shard: every shard has files ({[len(f) for f in files]})")
    check(set().union(*[p[1] for p in parts]) == all_diags, "shard: the shards' findings together equal one run's")
    sizes = []
    for f in files:
        sizes.append(sum(os.path.getsize(os.path.join(tree, x)) + 16384 for x in f))
    check(max(sizes) <= 2 * sum(sizes) / n, f"shard: balanced by size ({sizes})")
    again = lint_json(["--shard", f"2/{n}", "."], tree, cache)[0]
    check(again == files[1], "shard: the same shard twice gives the same files")
    # Stable when a file is added: only files next to a cut change shard.
    with open(os.path.join(tree, "fixtures", "zz_new.cu"), "w") as f:
        f.write("__global__ void k(float *x) { x[0] = x[0] * 0.5; }\n")
    after = [lint_json(["--shard", f"{k}/{n}", "."], tree, cache)[0] for k in range(1, n + 1)]
    moved = sum(len(files[k] - after[k]) for k in range(n))
    check(moved <= n - 1, f"shard: adding a file moved {moved} files (at most one per cut)")
    rc, _, err, _ = run(["--shard", "5/4", "."], tree)
    check(rc == 2 and "--shard" in err, "shard: K > N is a usage error")
    rc, _, err, _ = run(["--shard", "x", "."], tree)
    check(rc == 2, "shard: a malformed K/N is a usage error")


def test_watch(tmp):
    import signal, threading
    src = os.path.join(tmp, "src")
    os.makedirs(src)
    shutil.copy(os.path.join(DATA, "clean.cu"), src)
    p = subprocess.Popen([BIN, "--watch", "--no-cuda-headers", "--preview", "--cache-dir", os.path.join(tmp, "cache"), src],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    summaries = []
    ready = threading.Event()

    def reader():
        for line in p.stderr:
            if " finding" in line and " in " in line:
                summaries.append(line.split(" (")[0])
            if "watching" in line:
                ready.set()
    t = threading.Thread(target=reader, daemon=True)
    t.start()

    def step(what, action, want):
        ready.clear()
        n = len(summaries)
        action()
        ok = ready.wait(60)
        check(ok and summaries[n:] == [want], f"watch: {what}: {summaries[n:]} (want [{want!r}])")
    try:
        check(ready.wait(60) and summaries == ["0 findings"], f"watch: first run ({summaries})")
        step("a file added", lambda: shutil.copy(os.path.join(DATA, "double_literal.cu"), os.path.join(src, "new.cu")),
             "3 findings")

        def edit():
            path = os.path.join(src, "new.cu")
            text = read(path).replace("0.1;", "0.1f;")
            with open(path, "w") as f:
                f.write(text)
        step("a file edited", edit, "2 findings")
        ready.clear()
        with open(os.path.join(src, "notes.txt"), "w") as f:
            f.write("not a source\n")
        check(not ready.wait(2), "watch: a file it does not lint changes nothing")
        step("a file removed", lambda: os.remove(os.path.join(src, "new.cu")), "0 findings")
    finally:
        p.send_signal(signal.SIGINT)
        try:
            rc = p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
    check(rc != 0 and rc in (-signal.SIGINT, 130), f"watch: SIGINT stops it (exit {rc})")
    rc, _, err, _ = run(["--watch", "--fix", src])
    check(rc == 2, "watch: --fix is a usage error")


# ---------------------------------------------------------------- header names
def test_header_names(tmp):
    """A header linted on its own and reached through an includer (whose
    include path libclang spells absolute) gives its findings once, under the
    name the run gave it."""
    os.makedirs(os.path.join(tmp, "src"))
    os.makedirs(os.path.join(tmp, "app"))
    with open(os.path.join(tmp, "src", "k.cuh"), "w") as f:
        f.write("__global__ void k(float *a, int n)\n{\n    if (threadIdx.x < n) {\n"
                "        a[threadIdx.x] = 1.0f;\n        __syncthreads();\n    }\n}\n")
    with open(os.path.join(tmp, "app", "a.cu"), "w") as f:
        f.write('#include "k.cuh"\nvoid run(float *a) { k<<<1, 128>>>(a, 100); }\n')
    rc, out, err, _ = run(["--format", "json", "."], cwd=tmp)
    doc = json.loads(out) if out.strip().startswith("{") else {"diagnostics": []}
    names = sorted(d["file"] for d in doc["diagnostics"] if d["code"] == "CU101")
    check(names == ["src/k.cuh"] or names == ["./src/k.cuh"], f"header names: one CU101, named as linted ({names})")


GROUPS = {"header_names": test_header_names, "stdin": test_stdin, "statistics": test_statistics, "output": test_output, "progress": test_progress,
          "shard": test_shard, "watch": test_watch}


def main():
    if not os.access(BIN, os.X_OK):
        print("FAIL: no cudalint binary at", BIN)
        return 1
    names = sys.argv[1:] or list(GROUPS)
    for name in names:
        tmp = tempfile.mkdtemp(prefix="cudalint-ux.")
        t0 = time.time()
        try:
            GROUPS[name](tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(f"{name}: done in {time.time() - t0:.1f}s")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
