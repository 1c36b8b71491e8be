#!/bin/sh
# confirm_static.sh: CI test of `cudalint confirm --static`: every kernel pair is flagged, fixed, compiled and shows its rule's static difference (in PTX, or in the host object for host-side rules).
#
# Needs no GPU.  Without nvcc it checks only the instruction-mix parser on the
# stored listings in tests/data/confirm/ and exits 77 (ctest's SKIP_RETURN_CODE).
# Environment: CUDALINT (the binary), CUDALINT_SOURCE_DIR (the checkout).
set -u

SRC=${CUDALINT_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${CUDALINT:-$SRC/build/cudalint}
DATA=$SRC/tests/data/confirm
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

[ -x "$BIN" ] || { echo "FAIL: no cudalint binary at $BIN"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/confirm-static.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

# 1. The instruction-mix parser on stored listings (no nvcc needed).
#    expect FILE "key value" ...
expect() {
    file=$1
    shift
    if ! "$BIN" confirm --inspect "$DATA/$file" > "$TMP/inspect.txt" 2>&1; then
        fail "confirm --inspect $file exited non-zero: $(cat "$TMP/inspect.txt")"
        return
    fi
    for kv in "$@"; do
        grep -qx "$kv" "$TMP/inspect.txt" || fail "$file: want '$kv', got: $(tr '\n' ' ' < "$TMP/inspect.txt")"
    done
}
# early return before the barriers: one conditional branch skips them all
expect block_sum_bad.ptx "format ptx" "kernels 1" "barriers 9" "barrier_skips 1" \
    "shared_bytes 1024" "loop_instructions 0" "fp64_arith 0"
# unsigned counter: a widening multiply per load in the unrolled loop (4) and the remainder loop (1)
expect gather_bad.ptx "format ptx" "loop_int_mul 5" "barriers 0" "barrier_skips 0"
# SASS: @P0 EXIT before a barrier, IMAD.MOV not counted, the trailing BRA-to-itself not a loop
expect synthetic.sass "format sass" "kernels 1" "instructions 20" "loop_instructions 7" \
    "fp64_arith 1" "cvt_f64_f32 1" "cvt_f32_f64 1" "int_mul 2" "loop_int_mul 1" \
    "ld_shared 1" "st_shared 2" "barriers 2" "barrier_skips 1"

# 2. The whole static pipeline, when nvcc is there.
NVCC=""
if [ -n "${CUDA_PATH:-}" ] && [ -x "$CUDA_PATH/bin/nvcc" ]; then
    NVCC=$CUDA_PATH/bin/nvcc
elif command -v nvcc > /dev/null 2>&1; then
    NVCC=$(command -v nvcc)
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    NVCC=/usr/local/cuda/bin/nvcc
fi
if [ -z "$NVCC" ]; then
    if [ "$failures" -ne 0 ]; then
        echo "confirm_static: $failures failure(s)"
        exit 1
    fi
    echo "SKIP: nvcc not found (\$CUDA_PATH/bin, PATH, /usr/local/cuda/bin): the kernel pairs were not compiled"
    exit 77
fi

"$BIN" confirm --static --nvcc "$NVCC" --kernels "$SRC/kernels" --db "$TMP/confirm.sqlite" \
    --report "$TMP/report" > "$TMP/out.txt" 2>&1
rc=$?
cat "$TMP/out.txt"
[ "$rc" -eq 0 ] || fail "cudalint confirm --static exited $rc (want 0)"

# Every pair: flagged, fixed kernel clean, PTX built, static difference as the rule predicts.
pairs=$("$BIN" confirm --list --kernels "$SRC/kernels" | awk '{print $1}')
[ -n "$pairs" ] || fail "confirm --list printed no pairs"
for p in $pairs; do
    for step in lint-bad lint-fixed 'build-(ptx|host)' static; do
        grep -Eq "^$p: $step: pass" "$TMP/out.txt" || fail "$p: step $step did not pass"
    done
done

# The difference that matters, per rule (numbers that hold for any nvcc that keeps the pattern).
want() {
    grep -Eq "$2" "$TMP/out.txt" || fail "$1: no line matching /$2/"
}
want CU201 '^cu201_double_literal: static: pass: FP64 arithmetic \+ f32<->f64 conversions \(PTX\): bad [1-9][0-9]* .*, fixed 0$'
want CU301 '^cu301_unsigned_loop_counter: static: pass: integer multiply\(-add\)s inside loop bodies \(PTX[^)]*\): bad [1-9][0-9]*, fixed 0;'
want CU401 '^cu401_shared_bank_conflict: static: pass: shared memory declared 4096 -> 4224 bytes'
want CU401 '^cu401_shared_bank_conflict_aat: static: pass: shared memory declared 8192 -> 8320 bytes'
want CU101 '^cu101_divergent_syncthreads: static: pass: barriers [1-9][0-9]* vs [1-9][0-9]*; .*: bad [1-9][0-9]*, fixed 0'
want CU101 '^cu101_divergent_syncthreads: fix: info: hand-written fixed.cu'
# Host-side pairs: the host objects show the difference.
want CU501 '^cu501_unchecked_cuda_error: static: pass: CUDA API calls whose status the host code never tests: bad [1-9][0-9]*, fixed [0-9]+'
want CU501 "^cu501_unchecked_cuda_error: fix: pass: cudalint's fix-it applied .*CUDA_CHECK\\(cudaMemcpyToSymbol"
want CU502 '^cu502_unchecked_kernel_launch: static: pass: cudaGetLastError/cudaPeekAtLastError calls: bad [0-9]+, fixed [1-9][0-9]*'
want CU503 '^cu503_invalid_launch_config: static: pass: largest constant block passed to a launch: bad 1536 threads, fixed 1024'
want CU504 '^cu504_alloc_in_loop: static: pass: allocations and frees inside loops: bad [1-9][0-9]*, fixed 0'
want CU505 '^cu505_sync_in_loop: static: pass: synchronising calls inside loops: bad [1-9][0-9]*, fixed 0'
want CU506 '^cu506_pageable_async_copy: static: pass: page-locking calls .*: bad 0, fixed [1-9]'
want CU507 "^cu507_deprecated_runtime_api: static: pass: nvcc's deprecation warning: bad yes, fixed no"
want CU508 '^cu508_partial_warp_block: static: pass: largest constant block passed to a launch: bad 100 threads, fixed 128'
want CU202 '^cu202_pow_small_integer: static: pass: instructions in the kernel \(PTX\): bad [0-9]+, fixed [0-9]+'
want CU202 '^cu202_pow_small_integer: fix: pass: cudalint.s fix-it applied'
want CU203 '^cu203_float_division_by_constant: static: pass: IEEE float divisions, div.rn.f32 \(PTX\): bad [1-9][0-9]*, fixed 0$'
want CU203 '^cu203_float_division_by_constant: fix: pass: cudalint.s fix-it applied'
want CU204 '^cu204_double_math_on_float: static: pass: FP64 arithmetic \+ f32<->f64 conversions \(PTX\): bad [1-9][0-9]* .*, fixed 0$'
want CU204 '^cu204_double_math_on_float: fix: pass: cudalint.s fix-it applied'
want CU402 '^cu402_uncoalesced_global_access: static: pass: smallest step between a thread.s own global loads from one base register \(PTX\): bad [0-9]+ bytes .*, fixed [0-9]+ bytes'
want CU403 '^cu403_local_array_dynamic_index: static: pass: local memory \(PTX\): bad [1-9][0-9]* bytes declared, .*; fixed 0 bytes, 0 loads and 0 stores'
for p in cu201_double_literal cu301_unsigned_loop_counter cu401_shared_bank_conflict cu401_shared_bank_conflict_aat; do
    want "$p" "^$p: fix: pass: cudalint's fix-it applied"
done

# The report and the database were written.
[ -s "$TMP/report/RESULTS.md" ] || fail "no report/RESULTS.md"
grep -q '^<svg ' "$TMP/report/ratios.svg" 2> /dev/null || fail "no report/ratios.svg"
[ -s "$TMP/confirm.sqlite" ] || fail "no database written"
if command -v python3 > /dev/null 2>&1; then
    python3 - "$TMP/confirm.sqlite" "$TMP/report/ratios.svg" <<'EOF' || fail "database or SVG check"
import sqlite3, sys, xml.dom.minidom
db = sqlite3.connect(sys.argv[1])
runs = db.execute("select count(*) from run").fetchone()[0]
rows = db.execute("select count(*) from measurement where metric = 'step:static' and text like 'pass:%'").fetchone()[0]
pairs = db.execute("select count(distinct kernel) from measurement where kernel != ''").fetchone()[0]
assert runs == 1, f"{runs} runs"
assert rows == pairs and pairs >= 5, f"{rows} passing static steps for {pairs} pairs"
xml.dom.minidom.parse(sys.argv[2])
EOF
fi

# Usage errors exit 2.
"$BIN" confirm --no-such-option > /dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown option must exit 2"
"$BIN" confirm --static --kernels "$SRC/kernels" --db "$TMP/x.sqlite" CU999 > /dev/null 2>&1
[ $? -eq 2 ] || fail "a selector naming no pair must exit 2"

if [ "$failures" -ne 0 ]; then
    echo "confirm_static: $failures failure(s)"
    exit 1
fi
echo "confirm_static: ok"
exit 0
