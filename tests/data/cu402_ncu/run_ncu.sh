#!/bin/sh
# run_ncu.sh: measures global-load sectors per request with Nsight Compute and compares them with CU402's figures.
#
# Usage: tests/data/cu402_ncu/run_ncu.sh [CU402_JSON]
#   CU402_JSON: cudalint's findings on coalesce_kernels.cu (default: cu402_ncu.json
#   beside this script), made where cudalint is built (the GPU machine needs
#   no libclang):
#     build/cudalint --select CU402 --format json --exit-zero --no-cache \
#         tests/data/cu402_ncu/coalesce_kernels.cu > tests/data/cu402_ncu/cu402_ncu.json
# Environment: NVCC (default: nvcc on PATH, else $CUDA_PATH/bin or /usr/local/cuda/bin),
#              NCU (default: ncu on PATH, else next to nvcc).
#
# For each kernel the measured figure is
#   l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
# and cudalint's is the "touches N 32-byte sectors" of its finding on the
# kernel's load, or, for a kernel it must not flag, the "silent: N" of the
# kernel's comment in coalesce_kernels.cu (and then a finding is a failure).
# They must agree within 10%.  Exits 77 (skipped) when nvcc or ncu is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/coalesce_kernels.cu
lint_json=${1:-$here/cu402_ncu.json}

find_tool() { # NAME: on PATH, else in the toolkit's bin directory
    if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return 0; fi
    for d in "${CUDA_PATH:-}" /usr/local/cuda; do
        if [ -n "$d" ] && [ -x "$d/bin/$1" ]; then echo "$d/bin/$1"; return 0; fi
    done
    return 1
}

if [ ! -s "$lint_json" ]; then
    echo "error: $lint_json is missing: make it with cudalint (see the usage at the top of $0)" >&2
    exit 2
fi
nvcc=${NVCC:-$(find_tool nvcc || true)}
if [ -z "$nvcc" ]; then
    echo "SKIP: nvcc not found (set NVCC or CUDA_PATH)"
    exit 77
fi
ncu=${NCU:-$(find_tool ncu || true)}
if [ -z "$ncu" ] && [ -x "$(dirname "$nvcc")/ncu" ]; then ncu=$(dirname "$nvcc")/ncu; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$nvcc" -O3 -arch=sm_90 -o "$work/coalesce_kernels" "$src"
echo "built coalesce_kernels with $nvcc -O3 -arch=sm_90"
if [ -z "$ncu" ]; then
    echo "SKIP: ncu (Nsight Compute) not found; the kernels built, nothing was measured"
    exit 77
fi

metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
"$ncu" --metrics "$metrics" --csv "$work/coalesce_kernels" > "$work/ncu.csv"

python3 - "$src" "$lint_json" "$work/ncu.csv" <<'PY'
import csv, json, os, re, sys
src, lint_json, ncu_csv = sys.argv[1:4]

# Kernel of each source line; the "silent: N" of the comment above a kernel.
kernel_at, silent, kernels, current, pending = {}, {}, [], None, None
for no, line in enumerate(open(src, encoding="utf-8"), 1):
    m = re.match(r'// silent: (\d+)', line)
    if m:
        pending = int(m.group(1))
    m = re.match(r'__global__ void (\w+)\(', line)
    if m:
        current = m.group(1)
        kernels.append(current)
        if pending is not None:
            silent[current] = pending
        pending = None
    kernel_at[no] = current

# cudalint: sectors per request of the finding in each kernel.
figure, unexpected = {}, []
for d in json.load(open(lint_json))["diagnostics"]:
    if d["code"] != "CU402" or os.path.basename(d["file"]) != os.path.basename(src):
        continue
    k = kernel_at.get(d["line"])
    m = re.search(r'touches (\d+) 32-byte sectors', d["message"])
    if not k or not m:
        continue
    if k in silent:
        unexpected.append(k)
    figure[k] = max(figure.get(k, 0), int(m.group(1)))
for k, v in silent.items():
    figure.setdefault(k, v)

values = {}
rows = [l for l in open(ncu_csv, encoding="utf-8") if l.startswith('"')]
for r in csv.DictReader(rows):
    k = r["Kernel Name"].split("(")[0].strip()
    v = r["Metric Value"].replace(",", "")
    try:
        values.setdefault(k, {})[r["Metric Name"]] = float(v)
    except ValueError:
        pass

print(f'{"kernel":16} {"cudalint":>8} {"sectors":>12} {"requests":>10} {"measured":>8}  match')
bad = 0
for k in kernels:
    m = values.get(k)
    if not m or k not in figure:
        print(f"{k:16} (not profiled or no figure)")
        bad += 1
        continue
    sec = m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0)
    req = m.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0)
    per = sec / req if req else float("nan")
    ok = abs(per - figure[k]) <= 0.10 * figure[k] and k not in unexpected
    bad += not ok
    tag = " (silent)" if k in silent else ""
    print(f'{k:16} {figure[k]:8} {sec:12.0f} {req:10.0f} {per:8.2f}  {"yes" if ok else "NO"}{tag}')
for k in unexpected:
    print(f"{k}: cudalint flagged a kernel that must stay silent")
print(f"{len(kernels) - bad} of {len(kernels)} kernels: cudalint's sectors per request within 10% of the measured ones")
sys.exit(1 if bad else 0)
PY
