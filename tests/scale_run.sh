#!/bin/sh
# scale_run.sh: a cold run of cudalint over a whole corpus, in both parse modes:
# files per second, peak memory, the slowest files with where their time went
# (parse, precompiled header wait and build, analysis with its costliest rules
# and analyses, result cache: the engine's own timings, from --statistics), and
# every file that hit the time limit with the phase it was in.
#
#   tests/scale_run.sh [-j N] [--modes toolkit,shim] [--top 15] [--time-limit S] DIR [-- CUDALINT_ARGS]
#
# Cold: an empty cache directory per mode (precompiled headers and results
# built as the run goes).  $CUDALINT picks the binary (default build/cudalint).
# Exit 1 when a file hit the time limit or the run failed outright, else 0.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CUDALINT:-$SRC/build/cudalint}
JOBS=$(nproc)
MODES=toolkit,shim
TOP=15
TIME_LIMIT=
while [ $# -gt 0 ]; do
    case $1 in
    -j) JOBS=$2; shift 2 ;;
    -j*) JOBS=${1#-j}; shift ;;
    --modes) MODES=$2; shift 2 ;;
    --top) TOP=$2; shift 2 ;;
    --time-limit) TIME_LIMIT=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "scale_run.sh: unknown option $1" >&2; exit 2 ;;
    *) CORPUS=$1; shift ;;
    esac
done
[ -n "${CORPUS:-}" ] || { echo "usage: tests/scale_run.sh [-j N] [--modes toolkit,shim] [--top N] DIR [-- ARGS]" >&2; exit 2; }
[ -x "$BIN" ] || { echo "scale_run.sh: no cudalint at $BIN (set CUDALINT)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "scale_run.sh: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cudalint-scale.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

echo "cudalint scale run: $($BIN --version); corpus $CORPUS; -j$JOBS; $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
STATUS=0
for MODE in $(echo "$MODES" | tr ',' ' '); do
    case $MODE in
    toolkit) MODE_ARGS= ;;
    shim) MODE_ARGS=--no-cuda-headers ;;
    *) echo "scale_run.sh: unknown mode $MODE (toolkit, shim)" >&2; exit 2 ;;
    esac
    CACHE=$WORK/cache-$MODE
    LIMIT_ARGS=
    [ -z "$TIME_LIMIT" ] || LIMIT_ARGS="--time-limit $TIME_LIMIT"
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$WORK/time-$MODE" "$BIN" -j "$JOBS" --exit-zero --cache-dir "$CACHE" --statistics \
        --format json $MODE_ARGS $LIMIT_ARGS "$CORPUS" "$@" > "$WORK/stats-$MODE.json" 2> "$WORK/stderr-$MODE" || true
    python3 - "$MODE" "$WORK/stats-$MODE.json" "$WORK/time-$MODE" "$WORK/stderr-$MODE" "$TOP" <<'PY' || STATUS=1
import json, re, sys
mode, stats_path, time_path, err_path, top = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
label = "toolkit headers" if mode == "toolkit" else "--no-cuda-headers"
tv = open(time_path).read()
def field(name):
    m = re.search(r"^\s*" + re.escape(name) + r":\s*(.+)$", tv, re.M)
    return m.group(1).strip() if m else "?"
wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
secs = 0.0
for part in wall.split(":"):
    secs = secs * 60 + float(part)
try:
    doc = json.load(open(stats_path))
except ValueError:
    print("== %s: no statistics came back; stderr:\n%s" % (label, open(err_path).read()[-3000:]))
    sys.exit(1)
times = doc.get("timings", [])
n = len(times)
print("== %s: %d files in %.1f s wall: %.2f files/s; CPU %s s user + %s s system; peak memory %.0f MB (maxrss)"
      % (label, n, secs, n / secs if secs else 0, field("User time (seconds)"), field("System time (seconds)"),
         float(field("Maximum resident set size (kbytes)")) / 1024))
tot = {k: sum(t.get(k, 0) for t in times) for k in ("seconds", "parse", "pch_wait", "pch_build", "analysis", "cache")}
if tot["seconds"]:
    print("   where the time went (sum over files, s): parse %.1f, pch wait %.1f, pch build %.1f, analysis %.1f, "
          "cache %.1f, of %.1f" % (tot["parse"], tot["pch_wait"], tot["pch_build"], tot["analysis"], tot["cache"],
                                   tot["seconds"]))
print("   slowest files (s: parse, precompiled header wait / build, analysis, cache; slowest pass; costliest):")
for t in times[:top]:
    why = max(("parse", "pch_wait", "pch_build", "analysis", "cache"), key=lambda k: t.get(k, 0))
    extra = ""
    if t.get("slowest_pass"):
        extra += "; slowest pass %s %.2f" % (t["slowest_pass"], t.get("slowest_pass_seconds", 0))
    if t.get("costliest"):
        extra += "; costliest: " + t["costliest"]
    if t.get("message"):
        extra += "; " + t["message"]
    print("   %7.2f  %s  [mostly %s] parse %.2f, pch wait %.2f, pch build %.2f, analysis %.2f, cache %.2f%s" % (
        t.get("seconds", 0), t["file"], why.replace("_", " "), t.get("parse", 0), t.get("pch_wait", 0),
        t.get("pch_build", 0), t.get("analysis", 0), t.get("cache", 0), extra))
limited = [t for t in times if "time limit" in (t.get("message") or "")]
errors = [t for t in times if t.get("status") == "error" and t not in limited]
print("   files that hit the time limit: %d" % len(limited))
for t in limited:
    print("     %s: %s" % (t["file"], t["message"]))
if errors:
    print("   other files with an error status: %d" % len(errors))
    for t in errors[:top]:
        print("     %s: %s" % (t["file"], t.get("message", "")))
sys.exit(1 if limited else 0)
PY
done
exit $STATUS
