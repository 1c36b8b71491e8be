#!/bin/sh
# check.sh: tests editor/emacs/cudalint.el with a real Emacs and eglot
# (cudalint-test.el, batch mode).  Exit 77 (skipped) without emacs or eglot.
# Usage: editor/emacs/check.sh [path/to/cudalint]   (else $CUDALINT, else build/cudalint)
set -u
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v emacs >/dev/null 2>&1; then
    echo "emacs not found: skipped (Debian: apt-get install emacs-nox elpa-eglot)"
    exit 77
fi
if ! emacs --batch --eval "(kill-emacs (if (require 'eglot nil t) 0 1))" >/dev/null 2>&1; then
    echo "eglot not found: skipped (Emacs 29+ has it; Debian 12: apt-get install elpa-eglot)"
    exit 77
fi
bin=${1:-${CUDALINT:-$here/../../build/cudalint}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "cudalint binary not found: $bin"
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalint-emacs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$here/../../tests/data/nvim/double_literal.cu" "$tmp/"
# The test project turns the preview rules on, as a user would: the checks expect CU201, a preview rule.
printf 'preview: true\n' >"$tmp/.cudalint.yaml"
HOME=$tmp CUDALINT=$bin CUDALINT_EMACS_FIXTURE=$tmp/double_literal.cu \
    timeout 300 emacs --batch -l "$here/cudalint-test.el" 2>"$tmp/stderr"
rc=$?
[ $rc -ne 0 ] && tail -n 20 "$tmp/stderr"
exit $rc
