#!/usr/bin/env python3
"""run_fixtures.py: lints fixtures/ and compares the findings with the inline
expectations, both ways: a missing finding and an unexpected one both fail.

Expectation syntax, in a comment on the line the finding is reported on:
    // expect: CU201 "fragment of the message"
    // expect: CU201:note "fragment", CU401
    // expect@+2: CU101 "..."      (the line two below this one)
    // expect@-1: CU401 "..."      (the line above)
A fixture's first lines may carry `// cudalint-args: --host` (extra options).
"""
import argparse, json, os, re, subprocess, sys
from collections import defaultdict

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint"))
EXPECT = re.compile(r'expect(?:@([+-]\d+))?:\s*(.*)')
ITEM = re.compile(r'(CU\d{3})(?::(error|warning|note))?(?:\s+"([^"]*)")?')


def expectations(path):
    exp, args = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = re.search(r'cudalint-args:\s*(.*)', line)
            if m and no <= 5:
                args += m.group(1).split()
            for m in EXPECT.finditer(line):
                if '//' not in line[:m.start()] and '/*' not in line[:m.start()]:
                    continue
                target = no + int(m.group(1) or 0)
                for it in ITEM.finditer(m.group(2)):
                    exp.append((target, it.group(1), it.group(2), it.group(3)))
    return exp, tuple(args)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["toolkit", "shim"], required=True)
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    fixtures_dir = os.path.join(SRC, "fixtures")
    files = a.paths or sorted(
        os.path.join(dp, f) for dp, _, fs in os.walk(fixtures_dir) for f in fs if f.endswith((".cu", ".cuh")))
    # The fixtures test the static rules; nvcc's codegen evidence has its own
    # test (tests/codegen_test.py).
    mode_args = ["--no-cuda-headers"] if a.mode == "shim" else ["--no-codegen"]
    if a.mode == "toolkit":
        import shutil
        roots = [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"]
        nvcc = shutil.which("nvcc")
        if nvcc:
            roots.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
        if not any(r and os.path.exists(os.path.join(r, "include", "cuda_runtime.h")) for r in roots):
            print("SKIP: no CUDA Toolkit on this machine")
            return 77
    groups = defaultdict(list)
    expected = {}
    for f in files:
        exp, args = expectations(f)
        # Host-side rules (CU5xx) are checked in their own fixtures (cu5*.cu);
        # elsewhere host code only launches the kernels under test.
        if not os.path.basename(f).startswith("cu5"):
            args = args + ("--ignore", "CU5")
        expected[os.path.abspath(f)] = exp
        # Headers are named too: a header's findings are reported when it is one
        # of the paths being linted (or lies under one), as for a user's run.
        groups[args].append(f)
    failures, checked = [], 0
    seen = defaultdict(list)
    for args, fs in groups.items():
        # --no-cache: a rebuilt binary with changed rule code must never be served old results.
        # --preview: the fixtures check every rule, stable or not.
        cmd = [BIN, "--format", "json", "--exit-zero", "--no-cache", "--preview", "-j2"] + mode_args + list(args) + fs
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"cudalint exited {r.returncode}: {' '.join(cmd)}\n{r.stderr}")
            continue
        doc = json.loads(r.stdout)
        for d in doc["diagnostics"]:
            seen[os.path.abspath(d["file"])].append(d)
    for f, exp in expected.items():
        got = list(seen.get(f, []))
        for (line, code, sev, frag) in exp:
            checked += 1
            match = None
            for d in got:
                if d["line"] == line and d["code"] == code and (sev is None or d["severity"] == sev) \
                        and (frag is None or frag in d["message"]):
                    match = d
                    break
            if match:
                got.remove(match)
            else:
                near = [f'{d["code"]}:{d["severity"]} "{d["message"]}"' for d in got if d["line"] == line]
                want = code + (":" + sev if sev else "") + (' "%s"' % frag if frag else "")
                failures.append(f"{os.path.relpath(f, SRC)}:{line}: missing {want}" + (f" (got {near})" if near else ""))
        for d in got:
            failures.append(f"{os.path.relpath(f, SRC)}:{d['line']}:{d['column']}: unexpected {d['code']} "
                            f"{d['severity']}: {d['message']}")
    for fl in failures:
        print("FAIL", fl)
    print(f"{a.mode}: {len(files)} fixture files, {checked} expectations, {len(failures)} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
