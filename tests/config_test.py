#!/usr/bin/env python3
"""config_test.py: .cudalint.yaml on a copy of tests/data/config/project:
the nearest config governs each file, InheritParentConfig merges with the
parent's, exclude patterns (gitignore-like, relative to the config) skip
files, severity overrides, extra-args reach clang with -I relative to the
config, --config, --no-config, the command line winning over the file,
--dump-config, and every bad config in tests/data/config/bad failing with
exit 2 and an error naming the file, the line and the key."""
import json, os, re, shutil, subprocess, sys, tempfile

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
DATA = os.path.join(SRC, "tests", "data", "config")
FAILURES = []
# --preview: these tests check what configurations do to rules, stable or preview
# (test_preview checks the default set without it).
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
    clean = os.path.join(SRC, "tests", "data", "integrations", "clean.cu")
    p = subprocess.run([BIN, "--no-config", "--no-cuda-headers", "--format", "json", clean],
                       capture_output=True, text=True)
    if p.returncode == 0 and '"CU000"' not in p.stdout:
        MODE.append("--no-cuda-headers")


def lint(cwd, args):
    rc, out, err = run(["--format", "json"] + args, cwd)
    doc = json.loads(out) if out.strip() else {"diagnostics": [], "files": []}
    return rc, doc, err


def main():
    if not os.access(BIN, os.X_OK):
        print("FAIL: no cudalint binary at", BIN)
        return 1
    pick_mode()
    tmp = tempfile.mkdtemp()
    try:
        proj = os.path.join(tmp, "project")
        shutil.copytree(os.path.join(DATA, "project"), proj)
        test_project(proj)
        test_cli_wins(proj)
        test_dump(proj, tmp)
        test_bad(tmp, proj)
        test_host(tmp)
        test_preview(tmp)
    finally:
        shutil.rmtree(tmp)
    print("FAIL" if FAILURES else "PASS")
    return 1 if FAILURES else 0


def by_file(doc):
    return {d["file"]: d for d in doc["diagnostics"] if d["code"] == "CU001"}


def test_project(proj):
    rc, doc, err = lint(proj, ["."])
    files = sorted(f["file"] for f in doc["files"])
    cu001 = by_file(doc)
    # Excluded: third_party/ (a directory name) and *_gen.cu at any depth,
    # also in inherit/, whose config inherits the pattern.
    check(files == ["./alone/kernel.cu", "./alone/other_gen.cu", "./args/needs_args.cu",
                    "./inherit/kernel.cu", "./src/kernel.cu"], "linted files: %s" % files)
    check(cu001.get("./src/kernel.cu", {}).get("severity") == "error", "root severity override: %s" % cu001)
    check(cu001.get("./inherit/kernel.cu", {}).get("severity") == "note", "the nearer config's severity wins")
    check("./alone/kernel.cu" not in cu001, "alone/ ignores CU001 and does not inherit")
    check(rc == 1, "an error-level finding fails the run (rc %d)" % rc)
    # extra-args: the include path (relative to the config) and the define.
    needs = [d for d in doc["diagnostics"] if d["file"] == "./args/needs_args.cu"]
    check(not any(d["code"] == "CU000" for d in needs), "extra-args reach clang: %s" % needs)
    rc, doc, _ = lint(proj, ["--no-config", "args"])
    check(any(d["code"] == "CU000" for d in doc["diagnostics"]), "without the config the file does not parse")

    # Explicitly named excluded files are skipped, not linted.
    rc, doc, err = lint(proj, ["third_party/vendored.cu", "src/kernel_gen.cu"])
    st = {f["file"]: f["status"] for f in doc["files"]}
    check(st == {"third_party/vendored.cu": "skipped", "src/kernel_gen.cu": "skipped"} and rc == 0,
          "named excluded files are skipped: %s rc %d" % (st, rc))

    # --no-config: defaults everywhere, nothing excluded.
    rc, doc, _ = lint(proj, ["--no-config", "."])
    check(len(doc["files"]) == 8, "--no-config lints every file (%d)" % len(doc["files"]))
    check(all(d["severity"] == "warning" for d in by_file(doc).values()), "--no-config: default severities")

    # The same from a subdirectory: configs are found from each file up.
    rc, doc, _ = lint(os.path.join(proj, "inherit"), ["."])
    check([d["severity"] for d in by_file(doc).values()] == ["note"], "found from the file's directory")

    # --config FILE: one file for everything, patterns relative to it.
    cfg = os.path.join(proj, "alone", ".cudalint.yaml")
    rc, doc, _ = lint(proj, ["--config", cfg, "."])
    check(by_file(doc) == {} and len(doc["files"]) == 8, "--config applies one file everywhere")
    rc, out, err = run(["--config", cfg, "--no-config", "."], proj)
    check(rc == 2, "--config with --no-config is a usage error")
    rc, out, err = run(["--config", "nope.yaml", "."], proj)
    check(rc == 2 and "nope.yaml" in err, "a missing --config file is exit 2: %r" % err)


def test_cli_wins(proj):
    # --select on the command line replaces the config's selection...
    rc, doc, _ = lint(proj, ["--select", "CU2", "src"])
    check(by_file(doc) == {}, "--select replaces the config's rules")
    # ...--ignore adds to it.
    rc, doc, _ = lint(proj, ["--ignore", "CU001", "inherit"])
    check(by_file(doc) == {}, "--ignore adds to the config")


def test_dump(proj, tmp):
    rc, out, err = run(["--dump-config", "inherit/kernel.cu"], proj)
    check(rc == 0, "--dump-config exits 0: %s" % err)
    check(os.path.join(proj, ".cudalint.yaml") in out and os.path.join(proj, "inherit", ".cudalint.yaml") in out,
          "--dump-config names both files of the chain")
    check(re.search(r"^severity:\n  CU001: note$", out, re.M), "dump: merged severity\n" + out)
    check('cuda-arch: ["sm_80"]' in out, "dump: cuda-arch from the config")
    check('"**/*_gen.cu"' in out and '"third_party"' in out, "dump: inherited exclude patterns")
    rc, out2, _ = run(["--dump-config", "--select", "CU101", "inherit/kernel.cu"], proj)
    check('select: ["CU101"]' in out2 and "# enabled rules: CU101\n" in out2, "dump shows command-line options")
    # The dump is itself a valid configuration.
    dumped = os.path.join(tmp, "dumped.yaml")
    open(dumped, "w").write(out)
    rc, _, err = run(["--config", dumped, "--dump-config", "."], proj)
    check(rc == 0, "the dump loads as a config: %s" % err)
    rc, out, _ = run(["--no-config", "--dump-config"], proj)
    check(rc == 0 and "none (--no-config)" in out, "--dump-config without paths or configs")


def test_bad(tmp, proj):
    bad = os.path.join(DATA, "bad")
    for name in sorted(os.listdir(bad)):
        path = os.path.join(bad, name)
        first = open(path).readline()
        m = re.match(r"# expect: (\d+) (.+)", first)
        line, key = m.group(1), m.group(2).strip()
        rc, out, err = run(["--config", path, "src"], proj)
        check(rc == 2, "%s: exit %d, expected 2" % (name, rc))
        check(("%s:%s:" % (path, line)) in err and key in err, "%s: error names file, line %s and %r: %r"
              % (name, line, key, err))
    # A bad config met while walking directories fails the run too.
    sub = os.path.join(proj, "src", "broken")
    os.makedirs(sub)
    shutil.copy(os.path.join(proj, "src", "kernel.cu"), sub)
    open(os.path.join(sub, ".cudalint.yaml"), "w").write("select: [CU101]\nbogus: 1\n")
    rc, out, err = run([os.path.join("src")], proj)
    check(rc == 2 and "src/broken/.cudalint.yaml:2: unknown key 'bogus'" in err,
          "a bad config found during the walk: exit 2, named: rc %d %r" % (rc, err))
    shutil.rmtree(sub)


def test_host(tmp):
    """`host: true` in a config does what --host does."""
    d = os.path.join(tmp, "host")
    os.makedirs(d)
    k = os.path.join(d, "k.cu")
    open(k, "w").write("float host_scale(float v) { return v * 0.1; }\n"
                       "__global__ void kern(float *x) { x[0] = host_scale(x[0]); }\n")
    _, with_flag, _ = lint(d, ["--no-config", "--host", "k.cu"])
    _, without, _ = lint(d, ["--no-config", "k.cu"])
    open(os.path.join(d, ".cudalint.yaml"), "w").write("host: true\n")
    _, with_cfg, _ = lint(d, ["k.cu"])
    check(len(with_cfg["diagnostics"]) == len(with_flag["diagnostics"]), "host: true acts like --host")
    check(len(with_flag["diagnostics"]) > len(without["diagnostics"]),
          "--host reports host_scale's literal (%d > %d)" % (len(with_flag["diagnostics"]), len(without["diagnostics"])))
    # The per-rule form turns host code on for that rule only.
    open(os.path.join(d, ".cudalint.yaml"), "w").write("options:\n  CU201: {host: true}\n")
    rc, per_rule, err = lint(d, ["k.cu"])
    check(rc != 2, "options: {CU201: {host: true}} is accepted: %s" % err)
    check(len(per_rule["diagnostics"]) == len(with_flag["diagnostics"]),
          "options: {CU201: {host: true}} reports CU201 in host code like --host")
    open(os.path.join(d, ".cudalint.yaml"), "w").write("options:\n  CU301: {host: true}\n")
    _, other_rule, _ = lint(d, ["k.cu"])
    check(len(other_rule["diagnostics"]) == len(without["diagnostics"]),
          "options: {CU301: {host: true}} leaves CU201 to device code")

def test_preview(tmp):
    """`preview: true` in a config does what --preview does; without either, a preview rule runs only
    when selected by its exact code (CU201 is preview until it is measured; if it became stable, the
    default run would report it too and the first check says so)."""
    d = os.path.join(tmp, "preview")
    os.makedirs(d)
    open(os.path.join(d, "k.cu"), "w").write("__global__ void kern(float *x) { x[0] = x[0] * 0.1; }\n")
    listed = subprocess.run([BIN, "--list-rules"], capture_output=True, text=True).stdout.splitlines()[1:]
    cu201_preview = any(l.split()[0] == "CU201" and l.split()[5] == "preview" for l in listed)
    plain = [BIN, "--format", "json", "--no-cache"] + [m for m in MODE if m != "--preview"]

    def codes(args, cwd=d):
        p = subprocess.run(plain + args, cwd=cwd, capture_output=True, text=True)
        check(p.returncode != 2, "preview run %s: %s" % (args, p.stderr))
        return sorted(x["code"] for x in json.loads(p.stdout)["diagnostics"]) if p.stdout.strip() else []

    if cu201_preview:
        check(codes(["--no-config", "k.cu"]) == [], "a preview rule is off by default")
        check(codes(["--no-config", "--select", "CU2", "k.cu"]) == [], "a prefix does not select a preview rule")
    check(codes(["--no-config", "--select", "CU201", "k.cu"]) == ["CU201"], "an exact code selects a preview rule")
    check(codes(["--no-config", "--preview", "k.cu"]) == ["CU201"], "--preview runs the preview rules")
    open(os.path.join(d, ".cudalint.yaml"), "w").write("preview: true\nselect: [CU2]\n")
    check(codes(["k.cu"]) == ["CU201"], "preview: true with select: [CU2] runs CU201")
    # The text summary offers the preview rules only when nothing turned them on.
    text = [BIN, "--no-cache"] + [m for m in MODE if m != "--preview"]
    p = subprocess.run(text + ["--no-config", "k.cu"], cwd=d, capture_output=True, text=True)
    check("off by default" in p.stderr or not cu201_preview, "the summary offers the preview rules: %s" % p.stderr)
    open(os.path.join(d, ".cudalint.yaml"), "w").write("preview: true\n")
    p = subprocess.run(text + ["k.cu"], cwd=d, capture_output=True, text=True)
    check("off by default" not in p.stderr, "with preview: true the summary does not offer them: %s" % p.stderr)
    open(os.path.join(d, ".cudalint.yaml"), "w").write("preview: maybe\n")
    p = subprocess.run(plain + ["k.cu"], cwd=d, capture_output=True, text=True)
    check(p.returncode == 2 and "preview" in p.stderr, "preview: maybe is an error naming the key: %s" % p.stderr)
    open(os.path.join(d, ".cudalint.yaml"), "w").write("options:\n  CU501: {every-call: true}\n")
    p = subprocess.run(plain + ["k.cu"], cwd=d, capture_output=True, text=True)
    check(p.returncode != 2, "options: {CU501: {every-call: true}} is accepted: %s" % p.stderr)
    open(os.path.join(d, ".cudalint.yaml"), "w").write("options:\n  CU502: {every-call: true}\n")
    p = subprocess.run(plain + ["k.cu"], cwd=d, capture_output=True, text=True)
    check(p.returncode == 2 and "CU502 has no option 'every-call'" in p.stderr,
          "every-call is CU501's option only: %s" % p.stderr)


if __name__ == "__main__":
    sys.exit(main())
