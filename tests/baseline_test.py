#!/usr/bin/env python3
"""baseline_test.py: --write-baseline and --baseline on a throw-away project:
the file is sorted, stable, line-number free and reviewable; known findings
stay hidden across unrelated edits and from another working directory; a new
finding (even a second copy of a known one) is reported; stale entries are
counted only for files the run linted; bad baselines and option mixes fail
with exit code 2."""
import json, os, shutil, subprocess, sys, tempfile

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


def run(args, cwd):
    p = subprocess.run([BIN] + MODE + args, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def pick_mode():
    """The built-in declarations header is ten times faster than the toolkit's;
    use it when it parses the test kernels cleanly."""
    p = subprocess.run([BIN, "--no-cuda-headers", "--format", "json", os.path.join(DATA, "clean.cu")],
                       capture_output=True, text=True)
    if p.returncode == 0 and '"CU000"' not in p.stdout:
        MODE.append("--no-cuda-headers")


def findings(cwd, args):
    rc, out, err = run(["--format", "json"] + args, cwd)
    return rc, json.loads(out)["diagnostics"], err


def main():
    if not os.access(BIN, os.X_OK):
        print("FAIL: no cudalint binary at", BIN)
        return 1
    pick_mode()
    tmp = tempfile.mkdtemp()
    try:
        test(tmp)
    finally:
        shutil.rmtree(tmp)
    print("FAIL" if FAILURES else "PASS")
    return 1 if FAILURES else 0


def test(tmp):
    proj = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(proj, "src"))
    os.makedirs(os.path.join(proj, "ci"))
    a = os.path.join(proj, "src", "a.cu")
    b = os.path.join(proj, "src", "b.cu")
    shutil.copy(os.path.join(DATA, "unmatched_nolint.cu"), a)
    shutil.copy(os.path.join(DATA, "double_literal.cu"), b)
    base = os.path.join("ci", "baseline.json")

    rc, diags, _ = findings(proj, ["src"])
    check(rc == 1 and diags, "the project has findings to record")
    n = len(diags)

    # --- writing ---
    rc, out, err = run(["--write-baseline", base, "src"], proj)
    check(rc == 0, "--write-baseline exits 0 (got %d: %s)" % (rc, err))
    check(out == "", "--write-baseline prints no findings")
    check("wrote %d finding" % n in err, "--write-baseline says how many it wrote: %r" % err)
    text = open(os.path.join(proj, base)).read()
    doc = json.loads(text)
    entries = doc["findings"]
    check(len(entries) == n, "one entry per finding (%d vs %d)" % (len(entries), n))
    keys = [(e["path"], e["code"], e["function"], e["source"]) for e in entries]
    check(keys == sorted(keys), "entries are sorted")
    check(all(e["path"].startswith("../src/") for e in entries), "paths relative to the baseline's directory")
    check(not any(k in e for e in entries for k in ("line", "column", "end_line")), "no line numbers")
    lines = text.splitlines()
    check(sum(1 for l in lines if l.strip().startswith('{"path"')) == n, "one entry per line (diff-friendly)")
    # CU001 comes from the comment scan, outside any function.
    check(any(e["code"] == "CU001" and e["source"] == "// NOLINTBEGIN(CU301)" and e["function"] == ""
              for e in entries), "the CU001 entry: normalized source line, no function")
    cu201 = [e for e in entries if e["code"] == "CU201"]
    if cu201:
        # Two literals on one line: two identical entries (count-aware).
        same = [e for e in cu201 if e["source"] == "x[i] = x[i] * 0.999 + 0.001;"]
        check(len(same) == 2 and all(e["function"] == "scale" for e in same), "two entries for two findings")
    # Stable: writing again gives the same bytes, from another directory too.
    run(["--write-baseline", "baseline.json", "../src"], os.path.join(proj, "ci"))
    check(open(os.path.join(proj, base)).read() == text, "rewriting the baseline changes nothing")

    # --- reading ---
    rc, diags, err = findings(proj, ["--baseline", base, "src"])
    check(rc == 0 and diags == [], "every known finding is hidden (rc %d, %d left)" % (rc, len(diags)))
    check("%d known finding" % n in err, "says how many it hid: %r" % err)
    rc, diags, _ = findings(os.path.join(proj, "src"), ["--baseline", "../ci/baseline.json", "."])
    check(rc == 0 and diags == [], "the same from another working directory")

    # Unrelated edits move lines and reindent: still known.
    src = open(a).read()
    open(a, "w").write("// header comment\n\n\n" + src.replace("    // NOLINTBEGIN", "        //   NOLINTBEGIN"))
    rc, diags, _ = findings(proj, ["--baseline", base, "src"])
    check(rc == 0 and diags == [], "line shifts and whitespace do not break the baseline")

    # A second copy of a known finding in the same function is new.
    src = open(a).read()
    open(a, "w").write(src.replace("    int i =", "    // NOLINTBEGIN(CU301)\n    int i =", 1))
    rc, diags, _ = findings(proj, ["--baseline", base, "src"])
    check(rc == 1 and len(diags) == 1 and diags[0]["code"] == "CU001",
          "a duplicate of a known finding is reported once (rc %d, %d findings)" % (rc, len(diags)))

    # The same line in another function is new too.
    if cu201:
        saved = open(b).read()
        open(b, "a").write("__global__ void other(float *x, int i)\n{\n    x[i] = x[i] * 0.1;\n}\n")
        rc, diags, _ = findings(proj, ["--baseline", base, "src/b.cu"])
        check(rc == 1 and len(diags) == 1 and diags[0]["line"] > 10,
              "a known line in another function is new: %s" % diags)
        open(b, "w").write(saved)

    # Fixed findings leave stale entries, counted only where the run looked.
    shutil.copy(os.path.join(DATA, "clean.cu"), b)
    rc, diags, err = findings(proj, ["--baseline", base, "src/a.cu"])
    check("stale" not in err, "entries of files this run did not lint are not stale: %r" % err)
    if cu201:
        rc, diags, err = findings(proj, ["--baseline", base, "src"])
        check("%d entries are stale" % len(cu201) in err, "stale entries counted: %r" % err)
    os.remove(b)
    rc, diags, err = findings(proj, ["--baseline", base, "src/a.cu"])
    if cu201:
        check("%d entries are stale" % len(cu201) in err, "entries of deleted files are stale: %r" % err)

    # --- errors ---
    open(os.path.join(tmp, "bad.json"), "w").write("{not json")
    rc, out, err = run(["--baseline", os.path.join(tmp, "bad.json"), "src"], proj)
    check(rc == 2 and "baseline" in err, "a malformed baseline is exit 2 (%d): %r" % (rc, err))
    open(os.path.join(tmp, "bad2.json"), "w").write('{"findings": [{"code": "CU001"}]}')
    rc, out, err = run(["--baseline", os.path.join(tmp, "bad2.json"), "src"], proj)
    check(rc == 2 and "finding 1" in err, "an entry without path is exit 2: %r" % err)
    rc, out, err = run(["--baseline", os.path.join(tmp, "none.json"), "src"], proj)
    check(rc == 2, "a missing baseline is exit 2")
    rc, out, err = run(["--baseline", base, "--write-baseline", base, "src"], proj)
    check(rc == 2, "--baseline with --write-baseline is a usage error")
    rc, out, err = run(["--write-baseline", os.path.join(tmp, "no", "such", "dir.json"), "src"], proj)
    check(rc == 2 and "dir.json" in err, "an unwritable baseline is exit 2: %r" % err)

    # An empty run writes an empty, valid baseline.
    rc, out, err = run(["--write-baseline", os.path.join(tmp, "empty.json"), os.path.join(DATA, "clean.cu")], proj)
    check(rc == 0 and json.load(open(os.path.join(tmp, "empty.json")))["findings"] == [], "empty baseline")


if __name__ == "__main__":
    sys.exit(main())
