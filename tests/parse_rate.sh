#!/bin/sh
# parse_rate.sh: measures how much real CUDA code cudalint parses without clang errors, per parse mode.
#
# usage: tests/parse_rate.sh [options] DIR... [-- CLANG_ARGS...]
#
#   -b BINARY   the cudalint binary (default: build/cudalint)
#   -m MODES    comma-separated parse modes: toolkit (the CUDA Toolkit's
#               headers, host pass plus device passes) and shim (the built-in
#               declarations header, --no-cuda-headers); default: toolkit,shim
#   -j N        files linted at the same time (default 1: the timings are
#               per file, and parallel runs on a busy machine skew them)
#   -t N        how many error messages to list per mode (default 12)
#   -x EXT      also count files with this extension (repeatable; .cu always)
#   -s PCT      exit 1 when a mode's parse-clean share is below PCT
#   -h          this help
#
# Each file is linted on its own (--show-parse-errors --format json
# --exit-zero --no-cache) so that its time can be measured; CLANG_ARGS after
# -- are passed through (for example -I for a project's own include
# directory).  For each mode it prints the number of files, how many parsed
# clean, the share, the median wall and CPU seconds per file, the first-error
# kinds (one per failing file) and the most frequent clang errors overall.
# Needs python3 (standard library only); no network.
set -eu

binary=build/cudalint
modes=toolkit,shim
jobs=1
top=12
exts=cu
min_share=

usage() {
    sed -n '4,23p' "$0" | sed 's/^# \{0,1\}//'
}

while getopts b:m:j:t:x:s:h opt; do
    case $opt in
    b) binary=$OPTARG ;;
    m) modes=$OPTARG ;;
    j) jobs=$OPTARG ;;
    t) top=$OPTARG ;;
    x) exts="$exts,${OPTARG#.}" ;;
    s) min_share=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

if [ $# -eq 0 ] || [ "$1" = "--" ]; then
    echo "parse_rate.sh: no directory given" >&2
    usage >&2
    exit 2
fi
if [ ! -x "$binary" ]; then
    echo "parse_rate.sh: $binary is not an executable (build it, or pass -b)" >&2
    exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "parse_rate.sh: python3 is required" >&2
    exit 2
fi

exec python3 - "$binary" "$modes" "$jobs" "$top" "$exts" "${min_share:-}" "$@" <<'PYTHON'
import concurrent.futures
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time


def fail(message):
    print("parse_rate.sh: " + message, file=sys.stderr)
    sys.exit(2)

binary, modes, jobs, top, exts, min_share = sys.argv[1:7]
rest = sys.argv[7:]
dirs, clang_args = (rest[:rest.index("--")], rest[rest.index("--") + 1:]) if "--" in rest else (rest, [])
modes = [m for m in modes.split(",") if m]
jobs, top = int(jobs), int(top)
exts = tuple("." + e for e in exts.split(",") if e)
mode_flags = {"toolkit": [], "shim": ["--no-cuda-headers"]}
for m in modes:
    if m not in mode_flags:
        fail(f"unknown mode '{m}' (toolkit or shim)")

files = []
for d in dirs:
    if not os.path.isdir(d):
        fail(f"{d}: not a directory")
    for root, subdirs, names in os.walk(d):
        subdirs.sort()
        files += [(d, os.path.join(root, n)) for n in sorted(names) if n.endswith(exts)]
if not files:
    fail("no files with extension " + ", ".join(exts))

# "clang error: path:12:3: error: message" -> "message", so that the same
# error in different files and lines counts as one kind.
location = re.compile(r"^.*?:\d+:\d+: (?:fatal )?error: ")


def kind(message):
    message = message[len("clang error: "):] if message.startswith("clang error: ") else message
    return location.sub("", message)


def lint(mode, path):
    cmd = [binary, "--show-parse-errors", "--format", "json", "--exit-zero", "--no-cache", "-j", "1"]
    cmd += mode_flags[mode] + [path]
    if clang_args:
        cmd += ["--"] + clang_args
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        return {"status": "error", "errors": [f"cannot run {binary}: {e.strerror}"], "wall": 0.0, "cpu": None}
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Children's CPU is only exact with one job; with several it is shared out.
    cpu = (cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime) if jobs == 1 else None
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        first = (proc.stderr.strip().splitlines() or ["no output"])[0]
        return {"status": "error", "errors": [f"cudalint failed (exit {proc.returncode}): {first}"],
                "wall": wall, "cpu": cpu}
    status = doc["files"][0]["status"] if doc.get("files") else "error"
    errors = [kind(d["message"]) for d in doc.get("diagnostics", []) if d.get("code") == "CU000"]
    if status == "error" and not errors:
        errors = [doc["files"][0].get("message", "error")]
    return {"status": status, "errors": errors, "wall": wall, "cpu": cpu}


def table(counter, label):
    print(f"  {label}:")
    for msg, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:top]:
        print(f"    {n:5d}  {msg[:160]}")
    if len(counter) > top:
        print(f"    ... {len(counter) - top} more")


below = False
for mode in modes:
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda f: lint(mode, f[1]), files))
    linted = [(f, r) for f, r in zip(files, results) if r["status"] in ("ok", "parse-errors")]
    clean = [(f, r) for f, r in linted if r["status"] == "ok" and not r["errors"]]
    share = 100.0 * len(clean) / len(linted) if linted else 0.0
    walls = [r["wall"] for _, r in linted]
    cpus = [r["cpu"] for _, r in linted if r["cpu"] is not None]
    timing = f"median {statistics.median(walls):.2f} s/file" if walls else "no timing"
    if cpus:
        timing += f" (CPU {statistics.median(cpus):.2f} s)"
    print(f"mode {mode}: {len(linted)} files, {len(clean)} parse-clean ({share:.1f}%), {timing}")
    for d in dirs:
        mine = [(f, r) for f, r in linted if f[0] == d]
        if len(dirs) > 1 and mine:
            ok = sum(1 for f, r in mine if r["status"] == "ok" and not r["errors"])
            print(f"  {d}: {ok}/{len(mine)} parse-clean ({100.0 * ok / len(mine):.1f}%)")
    others = [(f, r) for f, r in zip(files, results) if r["status"] not in ("ok", "parse-errors")]
    for f, r in others:
        print(f"  not linted ({r['status']}): {f[1]}: {r['errors'][0] if r['errors'] else ''}")
    first, every = {}, {}
    for _, r in linted:
        if r["errors"]:
            first[r["errors"][0]] = first.get(r["errors"][0], 0) + 1
        for e in r["errors"]:
            every[e] = every.get(e, 0) + 1
    if first:
        table(first, "first error of each failing file")
        table(every, "all clang errors")
    if min_share and share < float(min_share):
        below = True
    sys.stdout.flush()
sys.exit(1 if below else 0)
PYTHON
