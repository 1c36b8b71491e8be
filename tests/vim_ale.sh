#!/bin/sh
# vim_ale.sh: tests editor/vim/cudalint.vim (the ALE recipe that pipes the
# buffer to `cudalint --stdin-filename`) with a real Vim and Debian's vim-ale,
# headless (on a pseudo-terminal from script(1)), driven by
# tests/data/vim/ale_test.vim.  Exit 77 (skipped) without vim or vim-ale.
# Usage: tests/vim_ale.sh [path/to/cudalint]   (else $CUDALINT, else build/cudalint)
set -u
if ! command -v vim >/dev/null 2>&1; then
    echo "vim not found: skipped (Debian: apt-get install vim vim-ale)"
    exit 77
fi
ale=""
for d in /usr/share/vim/vimfiles/pack/*/opt/ale /usr/share/vim-ale; do
    [ -f "$d/plugin/ale.vim" ] && ale=$d && break
done
if [ -z "$ale" ]; then
    echo "ALE not found: skipped (Debian: apt-get install vim-ale)"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-${CUDALINT:-$here/../build/cudalint}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "cudalint binary not found: $bin"
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalint-vim.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$here/data/integrations/double_literal.cu" "$tmp/"
# The test project turns the preview rules on, as a user would: the checks expect CU201, a preview rule.
printf 'preview: true\n' >"$tmp/.cudalint.yaml"
vim --version | head -n 1
HOME=$tmp CUDALINT=$bin CUDALINT_VIM_FIXTURE=$tmp/double_literal.cu CUDALINT_VIM_RESULT=$tmp/result.txt \
CUDALINT_VIM_SNIPPET=$here/../editor/vim/cudalint.vim \
    timeout 120 script -qec "vim -N -X -n -i NONE -u '$here/data/vim/ale_test.vim'" /dev/null >"$tmp/vim.out" 2>&1 </dev/null
rc=$?
if [ ! -f "$tmp/result.txt" ]; then
    echo "FAIL: Vim wrote no result (exit $rc)"
    tail -c 2000 "$tmp/vim.out"
    exit 1
fi
cat "$tmp/result.txt"
grep -q '^RESULT PASS$' "$tmp/result.txt"
