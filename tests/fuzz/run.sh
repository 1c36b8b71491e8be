#!/bin/sh
# tests/fuzz/run.sh: builds the libFuzzer harnesses (build-fuzz/, clang-22,
# ASan+UBSan) and runs them.
#   tests/fuzz/run.sh MINUTES [NAME...]   each harness for MINUTES minutes
#   tests/fuzz/run.sh --smoke [NAME...]   each for a few seconds (ctest fuzz.smoke)
# NAME: config suppress compile_args baseline lsp text_edits fix (default all).
# Each starts from its seed corpus tests/fuzz/corpus/NAME/ (seeds and the
# regression inputs of every crash found; never written to) plus the inputs
# earlier runs kept in build-fuzz/corpus/NAME/, and writes crashes to
# build-fuzz/crashes/NAME/.  The last line of build-fuzz/logs/NAME.log has
# libFuzzer's final figures (executions, cov, ft).  Exits 77 (ctest: skipped)
# without clang-22 or its libFuzzer (Debian: clang-22, libclang-rt-22-dev).
set -eu
cd "$(dirname "$0")/../.."
ALL="config suppress compile_args baseline lsp text_edits fix"
if [ $# -lt 1 ]; then
    echo "usage: tests/fuzz/run.sh MINUTES|--smoke [NAME...]" >&2
    exit 2
fi
mode=$1
shift
names=${*:-$ALL}
if [ "$mode" = --smoke ]; then
    seconds=${CUDALINT_FUZZ_SMOKE_SECONDS:-4}
else
    seconds=$(awk -v m="$mode" 'BEGIN { if (m !~ /^[0-9]+(\.[0-9]+)?$/) exit 1; printf "%d", m * 60 }') || {
        echo "run.sh: MINUTES must be a number, not '$mode'" >&2
        exit 2
    }
fi

CC=${CUDALINT_FUZZ_CC:-clang-22}
if ! command -v "$CC" >/dev/null 2>&1; then
    echo "run.sh: $CC not found (Debian: apt-get install clang-22 libclang-rt-22-dev): skipped"
    exit 77
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n' > "$probe/p.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1; then
    echo "run.sh: $CC cannot link libFuzzer (Debian: apt-get install libclang-rt-22-dev): skipped"
    exit 77
fi

jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f build-fuzz/CMakeCache.txt ]; then
    cmake -S . -B build-fuzz -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDALINT_FUZZ=ON \
        -DCUDALINT_TESTS=OFF >/dev/null
fi
cmake --build build-fuzz -j "$jobs" --target fuzzers >/dev/null

# libclang is never called by the harnesses; leaks in what they call are ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:use_sigaltstack=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# A long run goes on after a crash (-fork=1: each crash, timeout or
# out-of-memory input is saved and counted, and fuzzing continues); a smoke
# run stops at the first and fails.
keep_going=""
[ "$mode" = --smoke ] || keep_going="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
status=0
for n in $names; do
    mkdir -p "build-fuzz/corpus/$n" "build-fuzz/crashes/$n" build-fuzz/logs
    dict=""
    [ -f "tests/fuzz/dict/$n.dict" ] && dict="-dict=$PWD/tests/fuzz/dict/$n.dict"
    # shellcheck disable=SC2086
    if build-fuzz/tests/fuzz/fuzz_"$n" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 $keep_going $dict -artifact_prefix="$PWD/build-fuzz/crashes/$n/" \
        "$PWD/build-fuzz/corpus/$n" "$PWD/tests/fuzz/corpus/$n" >"build-fuzz/logs/$n.log" 2>&1; then
        # The final figures: "#EXECS DONE cov: ... ft: ..." (one process) or
        # the last "#EXECS: cov: ... ft: ..." line (-fork).
        figures=$(grep -E '^#[0-9]+(:| +DONE).* cov: ' "build-fuzz/logs/$n.log" | tail -1)
        found=$(find "build-fuzz/crashes/$n" -type f | wc -l)
        echo "fuzz $n: ok, ${seconds} s; ${figures:-?}; inputs saved as crash/timeout/oom: $found"
        [ "$found" = 0 ] || status=1
    else
        echo "fuzz $n: FAILED (see build-fuzz/logs/$n.log and build-fuzz/crashes/$n/)"
        grep -E 'ERROR|runtime error|SUMMARY' "build-fuzz/logs/$n.log" | head -5
        status=1
    fi
done
exit $status
