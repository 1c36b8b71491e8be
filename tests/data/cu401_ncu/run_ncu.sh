#!/bin/sh
# run_ncu.sh: measures shared-load wavefronts per request with Nsight Compute and prints them next to CU401's conflict degree.
#
# Usage: tests/data/cu401_ncu/run_ncu.sh [BUILD_DIR]   (default: build; uses BUILD_DIR/cudalint)
# Environment: NVCC (default: nvcc on PATH, else $CUDA_PATH/bin or /usr/local/cuda/bin),
#              NCU (default: ncu on PATH, else next to nvcc), CUDALINT (overrides BUILD_DIR/cudalint),
#              CUDALINT_JSON: cudalint's findings on bank_kernels.cu, made elsewhere; then no
#              cudalint (and no libclang) is needed on the GPU machine.  Make it from the root with
#                build/cudalint --select CU401 --format json --exit-zero --no-cache \
#                    tests/data/cu401_ncu/bank_kernels.cu > cu401.json
#              and run CUDALINT_JSON=cu401.json tests/data/cu401_ncu/run_ncu.sh there.
#
# A 4-byte-or-narrower shared load is one request of one wavefront per way of
# conflict; 8-byte loads take 2 wavefronts without conflict (two half-warps)
# and 16-byte loads 4 (four quarter-warps).  The measured degree is therefore
# wavefronts per request divided by that ideal, which is what cudalint's
# "N-way" compares with.  Exits 77 (skipped) when nvcc or ncu is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
cudalint=${CUDALINT:-$build/cudalint}
src=$here/bank_kernels.cu

find_tool() { # NAME: on PATH, else in the toolkit's bin directory
    if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return 0; fi
    for d in "${CUDA_PATH:-}" /usr/local/cuda; do
        if [ -n "$d" ] && [ -x "$d/bin/$1" ]; then echo "$d/bin/$1"; return 0; fi
    done
    return 1
}

nvcc=${NVCC:-$(find_tool nvcc || true)}
if [ -z "$nvcc" ]; then
    echo "SKIP: nvcc not found (set NVCC or CUDA_PATH)"
    exit 77
fi
lint_json=${CUDALINT_JSON:-}
if [ -n "$lint_json" ]; then
    if [ ! -r "$lint_json" ]; then
        echo "error: CUDALINT_JSON=$lint_json is not a readable file" >&2
        exit 2
    fi
    lint_json=$(cd "$(dirname "$lint_json")" && pwd)/$(basename "$lint_json")
elif [ ! -x "$cudalint" ]; then
    echo "error: $cudalint not found: build cudalint first, set CUDALINT, or give its JSON in CUDALINT_JSON" >&2
    exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$nvcc" -O3 -arch=sm_90 -o "$work/bank_kernels" "$src"
echo "built bank_kernels with $nvcc -O3 -arch=sm_90"
if [ -n "$lint_json" ]; then
    cp "$lint_json" "$work/cudalint.json"
    echo "cudalint's degrees from $lint_json"
else
    "$cudalint" --select CU401 --format json --exit-zero --no-cache "$src" > "$work/cudalint.json"
fi

ncu=${NCU:-$(find_tool ncu || true)}
if [ -z "$ncu" ] && [ -x "$(dirname "$nvcc")/ncu" ]; then ncu=$(dirname "$nvcc")/ncu; fi
if [ -z "$ncu" ]; then
    echo "SKIP: ncu (Nsight Compute) not found; the kernels built and cudalint ran, nothing was measured"
    exit 77
fi

metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum
"$ncu" --metrics "$metrics" --csv "$work/bank_kernels" > "$work/ncu.csv"

python3 - "$src" "$work/cudalint.json" "$work/ncu.csv" <<'PY'
import csv, json, os, re, sys
src, lint_json, ncu_csv = sys.argv[1:4]

# Kernel of each source line, and each kernel's load width (bytes).
kernel_at, widths, current = {}, {}, None
for no, line in enumerate(open(src, encoding="utf-8"), 1):
    m = re.match(r'__global__ void (\w+)\(', line)
    if m:
        current = m.group(1)
    kernel_at[no] = current
for k in set(kernel_at.values()) - {None}:
    widths[k] = 4
for k in ("stride2_double", "column_double", "column_double_padded"):
    widths[k] = 8
widths["column_float4"] = 16
widths["column_char"] = 1

# cudalint: the worst "N-way ... in this read" note per kernel; 1 when none.
degree = {k: 1 for k in widths}
for d in json.load(open(lint_json))["diagnostics"]:
    for n in d["notes"]:
        if os.path.basename(n["file"]) != os.path.basename(src):
            continue
        m = re.match(r'(\d+)-way bank conflict in this read', n["message"])
        if m and kernel_at.get(n["line"]):
            k = kernel_at[n["line"]]
            degree[k] = max(degree[k], int(m.group(1)))

# ncu: one row per kernel and metric.
values = {}
rows = [l for l in open(ncu_csv, encoding="utf-8") if l.startswith('"')]
for r in csv.DictReader(rows):
    k = r["Kernel Name"].split("(")[0].strip()
    v = r["Metric Value"].replace(",", "")
    try:
        values.setdefault(k, {})[r["Metric Name"]] = float(v)
    except ValueError:
        pass

print(f'{"kernel":22} {"bytes":>5} {"cudalint":>8} {"wavefronts/req":>14} {"ideal":>5} {"measured":>8} {"ld conflicts":>12} {"st conflicts":>12}  match')
bad = 0
for k in sorted(widths, key=lambda k: list(kernel_at.values()).index(k)):
    m = values.get(k)
    if not m:
        print(f"{k:22} (not profiled)")
        bad += 1
        continue
    req = m.get("smsp__sass_inst_executed_op_shared_ld.sum", 0)
    wav = m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0)
    ideal = {8: 2, 16: 4}.get(widths[k], 1)
    per = wav / req if req else float("nan")
    measured = per / ideal
    ok = abs(measured - degree[k]) <= 0.15 * degree[k]
    bad += not ok
    print(f'{k:22} {widths[k]:5} {degree[k]:8} {per:14.2f} {ideal:5} {measured:8.2f} '
          f'{m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0):12.0f} '
          f'{m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0):12.0f}  {"yes" if ok else "NO"}')
print(f"{len(widths) - bad} of {len(widths)} kernels: cudalint's degree within 15% of the measured one")
sys.exit(1 if bad else 0)
PY
