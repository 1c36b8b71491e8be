#!/bin/sh
# efm_nvim.sh: tests editor/efm/efm-langserver.yaml (efm-langserver piping the
# buffer to `cudalint --stdin-filename`) with Neovim's built-in LSP client,
# headless, driven by tests/data/nvim/efm_test.lua.  Exit 77 (skipped)
# without nvim or efm-langserver.
# Usage: tests/efm_nvim.sh [path/to/cudalint]   (else $CUDALINT, else build/cudalint)
set -u
for tool in nvim efm-langserver; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "$tool not found: skipped (Debian: apt-get install neovim efm-langserver)"
        exit 77
    fi
done
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-${CUDALINT:-$here/../build/cudalint}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "cudalint binary not found: $bin"
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalint-efm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# The recipe runs `cudalint`: the binary under test comes first on PATH.
mkdir "$tmp/bin"
ln -s "$bin" "$tmp/bin/cudalint"
cp "$here/data/integrations/double_literal.cu" "$tmp/"
# The test project turns the preview rules on, as a user would: the checks expect CU201, a preview rule.
printf 'preview: true\n' >"$tmp/.cudalint.yaml"
PATH=$tmp/bin:$PATH CUDALINT_EFM_CONFIG=$here/../editor/efm/efm-langserver.yaml \
CUDALINT_EFM_FIXTURE=$tmp/double_literal.cu CUDALINT_EFM_RESULT=$tmp/result.txt \
XDG_CACHE_HOME=$tmp/cache XDG_STATE_HOME=$tmp/state XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config \
    timeout 300 nvim --headless --clean -u "$here/data/nvim/efm_test.lua" >"$tmp/nvim.out" 2>&1
rc=$?
if [ ! -f "$tmp/result.txt" ]; then
    echo "FAIL: Neovim wrote no result (exit $rc)"
    cat "$tmp/nvim.out"
    exit 1
fi
cat "$tmp/result.txt"
grep -q '^RESULT PASS$' "$tmp/result.txt"
