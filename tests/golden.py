#!/usr/bin/env python3
"""golden.py: golden tests of the driver: text and JSON output against files in
tests/golden/, every exit code, and bad input (missing path, directory without
CUDA files, unreadable, binary, empty, invalid UTF-8, 10 MB, malformed
compile_commands.json, bad options).  `golden.py --update` rewrites the goldens."""
import json, os, shutil, subprocess, sys, tempfile

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint"))
GOLDEN = os.path.join(SRC, "tests", "golden")
DATA = "tests/data/golden"
failures = []


def run(*args, cwd=SRC, env_extra=None):
    env = dict(os.environ, NO_COLOR="1")
    env.pop("CUDALINT", None)
    if env_extra:
        env.update(env_extra)
    return subprocess.run([BIN, *args], capture_output=True, text=True, cwd=cwd, env=env,
                          errors="replace")


def check(cond, what):
    if not cond:
        failures.append(what)


def golden(name, text, update):
    path = os.path.join(GOLDEN, name)
    if update:
        with open(path, "w") as f:
            f.write(text)
        return
    if not os.path.exists(path):
        failures.append(f"golden file {name} missing (run tests/golden.py --update and review)")
        return
    with open(path) as f:
        want = f.read()
    if want != text:
        import difflib
        diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True), name, "actual"))
        failures.append(f"{name} differs:\n{diff}")


def main():
    update = "--update" in sys.argv
    # --preview: the goldens show preview rules' output (every rule is preview until measured).
    common = ["--no-cuda-headers", "--color", "never", "--no-config", "--no-cache", "--preview"]
    # Options added by later parts may not exist in older builds: keep only known ones.
    help_text = run("--help").stdout
    common = [c for c in common if not c.startswith("--no-c") or c in help_text]

    # Text and JSON output.
    r = run(*common, f"{DATA}/sample.cu")
    check(r.returncode == 1, f"sample.cu: exit {r.returncode}, want 1 (findings)\n{r.stderr}")
    golden("sample.txt", r.stdout + "--- stderr\n" + r.stderr, update)
    r = run(*common, "--format", "json", f"{DATA}/sample.cu")
    check(r.returncode == 1, f"json: exit {r.returncode}, want 1")
    try:
        doc = json.loads(r.stdout)
        check(set(doc) == {"tool", "diagnostics", "files"}, "json: top-level keys")
        check(doc["tool"]["name"] == "cudalint", "json: tool.name")
        for d in doc["diagnostics"]:
            check(set(d) == {"file", "line", "column", "end_line", "end_column", "code", "rule", "severity",
                             "message", "notes", "fix"}, f"json: diagnostic keys {sorted(d)}")
            check(d["severity"] in ("error", "warning", "note"), "json: severity")
            check(d["line"] >= 1 and d["column"] >= 1, "json: 1-based positions")
            for f in d["fix"]:
                check(set(f) == {"file", "line", "column", "end_line", "end_column", "replacement"}, "json: fix keys")
            for n in d["notes"]:
                check(set(n) == {"file", "line", "column", "message"}, "json: note keys")
        for f in doc["files"]:
            check(set(f) == {"file", "status", "message"}, "json: file keys")
        doc["tool"]["version"] = "VERSION"
        golden("sample.json", json.dumps(doc, indent=2, sort_keys=True) + "\n", update)
    except json.JSONDecodeError as e:
        failures.append(f"json output is not JSON: {e}")

    # Exit codes.
    r = run(*common, f"{DATA}/clean.cu")
    check(r.returncode == 0, f"clean.cu: exit {r.returncode}, want 0")
    # Messages that state only what is known (CU201, CU202, CU402 and CU403 through macros).
    r = run(*common, "--select", "CU201,CU202,CU402,CU403", f"{DATA}/messages.cu")
    check(r.returncode == 1, f"messages.cu: exit {r.returncode}, want 1 (findings)\n{r.stderr}")
    golden("messages.txt", r.stdout, update)

    r = run(*common, "--exit-zero", f"{DATA}/sample.cu")
    check(r.returncode == 0, f"--exit-zero: exit {r.returncode}, want 0")
    r = run(*common, f"{DATA}/notes_only.cu")
    check(r.returncode == 0, f"notes only, default fail level: exit {r.returncode}, want 0")
    r = run(*common, "--fail-level", "note", f"{DATA}/notes_only.cu")
    check(r.returncode == 1, f"notes only, --fail-level note: exit {r.returncode}, want 1")
    r = run(*common, "--select", "CU1", f"{DATA}/sample.cu")
    check(r.returncode == 0, f"--select CU1 on a CU2-only file: exit {r.returncode}, want 0")
    r = run(*common, "--ignore", "double-literal", f"{DATA}/sample.cu")
    check(r.returncode == 0, f"--ignore double-literal: exit {r.returncode}, want 0")

    # Rule status (ruff's semantics): preview rules (CU201 among them while it is preview) run only with
    # --preview or when selected by their exact code or name; a prefix, a glob or ALL selects only stable
    # rules without --preview.
    def exit_without_preview(*args):
        return run(*[c for c in common if c != "--preview"], *args, f"{DATA}/sample.cu").returncode
    cu201_stable = "CU201" in run("--list-rules").stdout and any(
        l.split()[0] == "CU201" and l.split()[5] == "stable" for l in run("--list-rules").stdout.splitlines()[1:])
    want_default = 1 if cu201_stable else 0
    check(exit_without_preview() == want_default, f"default rule set on sample.cu: want exit {want_default}")
    check(exit_without_preview("--select", "CU201") == 1, "--select CU201 (an exact code) runs a preview rule")
    check(exit_without_preview("--select", "double-literal") == 1, "--select by name runs a preview rule")
    check(exit_without_preview("--select", "CU2") == want_default, "--select CU2 without --preview: stable rules only")
    check(exit_without_preview("--select", "ALL") == want_default, "--select ALL without --preview: stable rules only")
    check(exit_without_preview("--select", "ALL", "--preview") == 1, "--select ALL --preview: every rule")
    check(exit_without_preview("--select", "CU2", "--preview") == 1, "--select CU2 --preview: the preview CU2xx too")
    if not cu201_stable:
        r = run(*[c for c in common if c != "--preview"], "--select", "CU2", f"{DATA}/sample.cu")
        check("--select CU2 names only preview rules" in r.stderr, f"--select CU2 warns without --preview: {r.stderr!r}")
        r = run(*common, "--select", "CU2", f"{DATA}/sample.cu")
        check("names only preview rules" not in r.stderr, "--select CU2 --preview: no warning")
    for bad in (["--bogus"], ["--format", "nope", "x.cu"], ["--color", "sometimes", "x.cu"], ["-j", "0", "x.cu"],
                ["--select", "CU999", "x.cu"], []):
        r = run(*bad)
        check(r.returncode == 2, f"usage error {bad}: exit {r.returncode}, want 2")
        check(r.stderr.startswith("cudalint: error:"), f"usage error {bad}: message {r.stderr!r}")
    r = run("--version")
    check(r.returncode == 0 and r.stdout.startswith("cudalint "), "--version")
    r = run("--list-rules")
    check(r.returncode == 0 and "CU201" in r.stdout and "double-literal" in r.stdout, "--list-rules")
    r = run("--list-rules", "--format", "json")
    try:
        listed = json.loads(r.stdout)
        check(r.returncode == 0 and [x["code"] for x in listed][:2] == ["CU000", "CU001"], "--list-rules json: codes")
        check(all(x["status"] in ("stable", "preview") and "precision" in x for x in listed),
              "--list-rules json: status and precision of every rule")
    except json.JSONDecodeError as e:
        failures.append(f"--list-rules --format json is not JSON: {e}")
    r = run("--explain", "CU201")
    check("Status: " in r.stdout and "Measured precision: " in r.stdout, "--explain shows status and precision")
    check(r.returncode == 0 and "## What it flags" in r.stdout, "--explain CU201")
    r = run("--explain", "double-literal")
    check(r.returncode == 0 and "# CU201" in r.stdout, "--explain by name")

    # Bad input: each gets one clear line, the run goes on, the exit code says what happened.
    with tempfile.TemporaryDirectory() as tmp:
        def path(n):
            return os.path.join(tmp, n)
        shutil.copy(os.path.join(SRC, DATA, "sample.cu"), path("good.cu"))
        open(path("empty.cu"), "w").close()
        with open(path("binary.cu"), "wb") as f:
            f.write(b"\x7fELF\x00\x00\x01\x02" * 64)
        with open(path("utf8.cu"), "wb") as f:
            f.write(b"// caf\xe9 \xff\xfe\n__global__ void k(float *x) { x[threadIdx.x] = x[threadIdx.x] * 0.1; }\n")
        with open(path("big.cu"), "w") as f:
            line = "__device__ int pad_%07d = 1;\n"
            n = 10 * 1000 * 1000 // len(line % 0) + 1
            f.write("".join(line % i for i in range(n)))
        os.mkdir(path("nocuda"))
        open(path("nocuda/readme.txt"), "w").close()
        os.mkdir(path("db"))
        with open(path("db/compile_commands.json"), "w") as f:
            f.write('[{"directory": "/", "file": ')

        r = run(*common, path("missing.cu"), path("good.cu"))
        check(r.returncode == 2, f"missing path: exit {r.returncode}, want 2")
        check("missing.cu" in r.stderr and "No such file" in r.stderr, f"missing path message: {r.stderr!r}")
        check("CU201" in r.stdout, "missing path: the other file is still linted")

        r = run(*common, path("nocuda"))
        check(r.returncode == 0, f"dir without CUDA files: exit {r.returncode}, want 0")
        check("no CUDA files" in r.stderr, f"dir without CUDA files message: {r.stderr!r}")

        r = run(*common, path("empty.cu"), path("binary.cu"), "--format", "json")
        check(r.returncode == 0, f"empty+binary: exit {r.returncode}, want 0")
        st = {os.path.basename(f["file"]): f for f in json.loads(r.stdout)["files"]}
        check(st["empty.cu"]["status"] == "ok", "empty file is ok")
        check(st["binary.cu"]["status"] == "skipped" and "binary" in st["binary.cu"]["message"], "binary skipped")

        r = run(*common, "--format", "json", path("utf8.cu"))
        check(r.returncode == 1, f"invalid UTF-8: exit {r.returncode}, want 1")
        try:
            json.loads(r.stdout)
        except json.JSONDecodeError:
            failures.append("invalid UTF-8 input made invalid JSON output")

        r = run(*common, path("big.cu"))
        check(r.returncode == 0, f"10 MB file: exit {r.returncode}, want 0")
        check("too large" in r.stderr, f"10 MB file message: {r.stderr!r}")

        r = run(*common, "-p", path("db"), path("good.cu"))
        check(r.returncode == 2, f"malformed compile_commands.json: exit {r.returncode}, want 2")
        check("compile_commands.json" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
              f"malformed compile_commands.json message: {r.stderr!r}")

        if os.geteuid() != 0:
            shutil.copy(path("good.cu"), path("secret.cu"))
            os.chmod(path("secret.cu"), 0)
            r = run(*common, path("secret.cu"), path("good.cu"))
            check(r.returncode == 2 and "Permission denied" in r.stderr, f"unreadable file: {r.returncode} {r.stderr!r}")
        else:
            # root reads everything: a path through a regular file is unreadable instead.
            r = run(*common, path("good.cu/inner.cu"), path("good.cu"))
            check(r.returncode == 2 and "Not a directory" in r.stderr, f"unreadable path: {r.returncode} {r.stderr!r}")

    for f in failures:
        print("FAIL", f)
    print(f"golden: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
