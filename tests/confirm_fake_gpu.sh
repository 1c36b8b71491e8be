#!/bin/sh
# confirm_fake_gpu.sh: CI test of the GPU half of `cudalint confirm` without a GPU, through test doubles of the harness, ncu, compute-sanitizer and nvidia-smi.
#
# tests/data/confirm/fake/ holds the doubles: its nvcc forwards -ptx/-cubin to
# the real nvcc and turns the harness link into a script that prints canned
# JSON lines (one pair meets its targets, one misses a timing target, one hits
# a CUDA error, one is a may-differ pair).  The test checks that every outcome
# is reported in the output, the database and the report, and that the exit
# code is 1.  Without nvcc it exits 77.
set -u

SRC=${CUDALINT_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${CUDALINT:-$SRC/build/cudalint}
FAKE=$SRC/tests/data/confirm/fake
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

REAL_NVCC=""
if [ -n "${CUDA_PATH:-}" ] && [ -x "$CUDA_PATH/bin/nvcc" ]; then
    REAL_NVCC=$CUDA_PATH/bin/nvcc
elif command -v nvcc > /dev/null 2>&1; then
    REAL_NVCC=$(command -v nvcc)
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    REAL_NVCC=/usr/local/cuda/bin/nvcc
fi
if [ -z "$REAL_NVCC" ]; then
    echo "SKIP: nvcc not found: the kernel pairs cannot be compiled"
    exit 77
fi
export REAL_NVCC

TMP=$(mktemp -d "${TMPDIR:-/tmp}/confirm-fake.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

# The pairs of CU1xx-CU4xx: the fake GPU's answers below are written for them.
PATH=$FAKE:$PATH "$BIN" confirm --gpu --nvcc "$FAKE/nvcc" --kernels "$SRC/kernels" \
    --db "$TMP/confirm.sqlite" --report "$TMP/report" 'CU1*' 'CU2*' 'CU3*' 'CU4*' > "$TMP/out.txt" 2>&1
rc=$?
cat "$TMP/out.txt"
[ "$rc" -eq 1 ] || fail "exit $rc, want 1 (a missed target and a CUDA error are failures)"

want() {
    grep -Eq "$1" "$TMP/out.txt" || fail "no line matching /$1/"
}
want '^  GPU steps: Test GPU; ncu: .*/ncu; compute-sanitizer: .*/compute-sanitizer$'
want '^cu401_shared_bank_conflict: build-gpu: pass'
want '^cu401_shared_bank_conflict: check: pass: out: bad and fixed agree on all 100 elements'
want '^cu401_shared_bank_conflict: timing: pass: bad/fixed median time 1\.75x .*target at least 1\.50x$'
want '^cu401_shared_bank_conflict: ncu: pass: .*l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld\.sum down by at least 99\.0%: yes \(99\.88%\)$'
want '^cu401_shared_bank_conflict_aat: timing: info: .*no target'
want '^cu201_double_literal: timing: FAIL: bad/fixed median time 2\.00x .*target at least 5\.00x$'
want '^cu201_double_literal: ncu: pass: .*dfma_pred_on\.sum: bad 65\.60 M, fixed 0 \(-100\.0%\)'
want '^cu301_unsigned_loop_counter: check: ERROR: CUDA error cudaErrorMemoryAllocation in cudaMalloc'
want '^cu101_divergent_syncthreads: check: info: out: 1 of 4224 elements differ .*expected: the bad kernel is wrong$'
want '^cu101_divergent_syncthreads: timing: info: .*timing cannot confirm CU101'
want '^cu101_divergent_syncthreads: synccheck: info: bad: 1 error\(s\) \(first: Barrier error detected\. Divergent thread\(s\) in block\); fixed: 0 error\(s\)'
# racecheck's own summary line (hazards, reported as warnings for warp-level races) is read too
want '^cu104_shared_race_missing_barrier: racecheck: info: bad: 1 error\(s\) \(first: Warning: Race reported .*fixed: 0 error\(s\)'
want '^cu401_shared_bank_conflict +CU401 +pass +pass +pass +pass +1\.75x +pass +pass$'
want '^cu201_double_literal +CU201 +pass +pass +pass +pass +2\.00x +pass +FAIL$'
want '^cu301_unsigned_loop_counter +CU301 .* ERROR +- +- +FAIL$'

grep -q '^| GPU | Test GPU (compute capability 9.0, 132 SMs) |$' "$TMP/report/RESULTS.md" ||
    fail "RESULTS.md does not name the GPU"
grep -q '^| Driver | 999.99 |$' "$TMP/report/RESULTS.md" || fail "RESULTS.md does not name the driver"
# One bar per pair that was timed (the pair with a CUDA error has none).
timed=$(grep -Ec '^[a-z0-9_]+: timing: (pass|FAIL|info)' "$TMP/out.txt")
[ "$timed" -ge 4 ] || fail "only $timed timed pairs, want at least 4"
[ "$(grep -c '<rect x=' "$TMP/report/ratios.svg")" -eq "$timed" ] || fail "ratios.svg: want $timed bars (one per timed pair)"

if command -v python3 > /dev/null 2>&1; then
    python3 - "$TMP/confirm.sqlite" "$TMP/report/ratios.svg" <<'EOF' || fail "database or SVG check"
import sqlite3, sys, xml.dom.minidom
db = sqlite3.connect(sys.argv[1])
run = db.execute("select gpu, driver, arch from run").fetchall()
assert run == [("Test GPU", "999.99", "sm_90")], run
def one(sql, *args):
    return db.execute(sql, args).fetchone()
assert one("select value from measurement where kernel = 'cu401_shared_bank_conflict' and metric = 'gpu.ratio'")[0] == 1.75
assert one("select value from measurement where kernel = 'cu201_double_literal' and variant = 'fixed' "
           "and metric = 'ncu.sm__sass_thread_inst_executed_op_dfma_pred_on.sum'")[0] == 0
assert one("select value from measurement where kernel = 'cu401_shared_bank_conflict' and variant = 'bad' "
           "and metric = 'ncu.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum'")[0] == 65600000
assert one("select text from measurement where kernel = 'cu301_unsigned_loop_counter' and metric = 'step:check'")[0].startswith("error: CUDA error")
assert one("select value from measurement where kernel = 'cu101_divergent_syncthreads' and variant = 'bad' and metric = 'synccheck.errors'")[0] == 1
assert one("select value from measurement where metric = 'run.exit_code'")[0] == 1
xml.dom.minidom.parse(sys.argv[2])
EOF
fi

if [ "$failures" -ne 0 ]; then
    echo "confirm_fake_gpu: $failures failure(s)"
    exit 1
fi
echo "confirm_fake_gpu: ok"
exit 0
