#!/bin/sh
# nvim_lsp.sh: tests `cudalint lsp` with a real editor: Neovim's built-in LSP
# client, headless, driven by tests/data/nvim/lsp_test.lua.  Exit 77 (skipped)
# when nvim is not installed.
# Usage: tests/nvim_lsp.sh [path/to/cudalint]   (else $CUDALINT, else build/cudalint)
set -u
if ! command -v nvim >/dev/null 2>&1; then
    echo "nvim not found: skipped (Debian: apt-get install neovim)"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-${CUDALINT:-$here/../build/cudalint}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "cudalint binary not found: $bin"
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalint-nvim.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# The fixture is edited by the test: work on a copy.  Neovim's state, cache
# and LSP log go to the temporary directory too.
cp "$here/data/nvim/double_literal.cu" "$tmp/"
# The test project turns the preview rules on, as a user would: the checks expect CU201, a preview rule.
printf 'preview: true\n' >"$tmp/.cudalint.yaml"
nvim --version | head -n 1
CUDALINT=$bin CUDALINT_NVIM_FIXTURE=$tmp/double_literal.cu CUDALINT_NVIM_RESULT=$tmp/result.txt \
CUDALINT_NVIM_SNIPPET=$here/../editor/nvim/cudalint.lua \
XDG_CACHE_HOME=$tmp/cache XDG_STATE_HOME=$tmp/state XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config \
    timeout 300 nvim --headless --clean -u "$here/data/nvim/lsp_test.lua" >"$tmp/nvim.out" 2>&1
rc=$?
if [ ! -f "$tmp/result.txt" ]; then
    echo "FAIL: Neovim wrote no result (exit $rc)"
    cat "$tmp/nvim.out"
    [ -f "$tmp/cache/nvim/lsp.log" ] && tail -n 30 "$tmp/cache/nvim/lsp.log"
    exit 1
fi
cat "$tmp/result.txt"
if grep -q '^RESULT PASS$' "$tmp/result.txt"; then
    exit 0
fi
[ -s "$tmp/nvim.out" ] && cat "$tmp/nvim.out"
[ -f "$tmp/cache/nvim/lsp.log" ] && tail -n 30 "$tmp/cache/nvim/lsp.log"
exit 1
