#!/bin/sh
# flycheck-check.sh: tests editor/emacs/flycheck-cudalint.el (Flycheck piping
# the buffer to `cudalint --stdin-filename`) with a real Emacs in batch mode
# (flycheck-test.el).  Exit 77 (skipped) without emacs or Flycheck.
# Usage: editor/emacs/flycheck-check.sh [path/to/cudalint]   (else $CUDALINT, else build/cudalint)
set -u
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v emacs >/dev/null 2>&1; then
    echo "emacs not found: skipped (Debian: apt-get install emacs-nox elpa-flycheck)"
    exit 77
fi
if ! emacs --batch --eval "(kill-emacs (if (require 'flycheck nil t) 0 1))" >/dev/null 2>&1; then
    echo "Flycheck not found: skipped (Debian: apt-get install elpa-flycheck)"
    exit 77
fi
bin=${1:-${CUDALINT:-$here/../../build/cudalint}}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
if [ ! -x "$bin" ]; then
    echo "cudalint binary not found: $bin"
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalint-flycheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$here/../../tests/data/integrations/double_literal.cu" "$tmp/"
# The test project turns the preview rules on, as a user would: the checks expect CU201, a preview rule.
printf 'preview: true\n' >"$tmp/.cudalint.yaml"
HOME=$tmp CUDALINT=$bin CUDALINT_FLYCHECK_FIXTURE=$tmp/double_literal.cu \
CUDALINT_FLYCHECK_SNIPPET=$here/flycheck-cudalint.el \
    timeout 300 emacs --batch -l "$here/flycheck-test.el" 2>"$tmp/stderr"
rc=$?
[ $rc -ne 0 ] && tail -n 20 "$tmp/stderr"
exit $rc
