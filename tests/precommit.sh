#!/bin/sh
# precommit.sh: the .pre-commit-hooks.yaml of this repository, run by the real
# pre-commit framework on a throw-away git repository: a staged .cu with a
# finding blocks the commit, a clean one goes through, and the cudalint-fix
# hook rewrites a staged file.  Exit 77 (skipped) without pre-commit or git.
set -u

SRC=${CUDALINT_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${CUDALINT:-$SRC/build/cudalint}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac

command -v git >/dev/null 2>&1 || { echo "SKIP: git is not installed"; exit 77; }
command -v pre-commit >/dev/null 2>&1 || { echo "SKIP: pre-commit is not installed (Debian: apt-get install pre-commit)"; exit 77; }
[ -x "$BIN" ] || { echo "FAIL: no cudalint binary at $BIN (set CUDALINT)"; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A private pre-commit cache and git identity: nothing of the user's is read
# or written.
export PRE_COMMIT_HOME="$TMP/pre-commit-home"
export HOME="$TMP/home"
mkdir -p "$HOME"
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
# language: system runs `cudalint` from PATH, as for a user.
mkdir -p "$TMP/bin"
ln -s "$BIN" "$TMP/bin/cudalint"
export PATH="$TMP/bin:$PATH"
echo "pre-commit: $(pre-commit --version)"

# pre-commit clones hook repositories at a revision, so the hooks file of the
# working tree goes into a small repository of its own.
HOOKS="$TMP/hooks-repo"
mkdir -p "$HOOKS"
cp "$SRC/.pre-commit-hooks.yaml" "$HOOKS/"
git -C "$HOOKS" init -q
git -C "$HOOKS" add .pre-commit-hooks.yaml
git -C "$HOOKS" commit -q -m hooks || fail "cannot commit the hooks repository"
REV=$(git -C "$HOOKS" rev-parse HEAD)

WORK="$TMP/project"
mkdir -p "$WORK"
cd "$WORK" || exit 1
git init -q
cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $HOOKS
    rev: $REV
    hooks:
      - id: cudalint
EOF
git add .pre-commit-config.yaml
git commit -q --no-verify -m config || fail "cannot commit the config"
pre-commit install >/dev/null || fail "pre-commit install failed"

# 1. A staged file with a finding (CU001: a NOLINTBEGIN without its END)
# blocks the commit, and the hook output names the finding.
cp "$SRC/tests/data/integrations/unmatched_nolint.cu" bad.cu
git add bad.cu
if git commit -m "bad" >"$TMP/out1" 2>&1; then
    cat "$TMP/out1"
    fail "the commit with a finding went through"
fi
grep -q "CU001" "$TMP/out1" || { cat "$TMP/out1"; fail "the hook output does not name CU001"; }
grep -q "^cudalint\.*Failed" "$TMP/out1" || { cat "$TMP/out1"; fail "pre-commit did not report the cudalint hook as failed"; }
git rev-parse -q --verify HEAD~1 >/dev/null && fail "a commit was created"
echo "ok: a staged file with a finding blocks the commit"

# 2. A clean file passes; files pre-commit does not type as cuda are not
# handed to cudalint at all.
git reset -q bad.cu
rm bad.cu
cp "$SRC/tests/data/integrations/clean.cu" good.cu
cp "$SRC/tests/data/integrations/unmatched_nolint.cu" not_cuda.txt
git add good.cu not_cuda.txt
git commit -m "good" >"$TMP/out2" 2>&1 || { cat "$TMP/out2"; fail "the clean commit was blocked"; }
grep -q "^cudalint\.*Passed" "$TMP/out2" || { cat "$TMP/out2"; fail "the cudalint hook did not run and pass"; }
echo "ok: a clean staged file passes"

# 3. A .cuh header is typed as cuda too (identify maps .cuh to cuda).
cp "$SRC/tests/data/integrations/unmatched_nolint.cu" bad.cuh
git add bad.cuh
if git commit -m "bad header" >"$TMP/out3" 2>&1; then
    cat "$TMP/out3"
    fail "the commit of a header with a finding went through"
fi
grep -q "bad.cuh" "$TMP/out3" || { cat "$TMP/out3"; fail "the hook did not lint bad.cuh"; }
git reset -q bad.cuh
rm bad.cuh
echo "ok: a staged .cuh is linted"

# 4. The cudalint-fix hook rewrites a file with fixes; pre-commit fails the
# commit because files changed, and the rewritten file lints clean.  Needs a
# rule that offers fixes (CU201) and a parse that sees the kernel.
cp "$SRC/tests/data/integrations/double_literal.cu" fixme.cu
if "$BIN" -q --format json fixme.cu | grep -q '"replacement"'; then
    cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $HOOKS
    rev: $REV
    hooks:
      - id: cudalint-fix
EOF
    git add .pre-commit-config.yaml fixme.cu
    if git commit -m "fix" >"$TMP/out4" 2>&1; then
        cat "$TMP/out4"
        fail "the commit went through although cudalint-fix changed a file"
    fi
    grep -q "files were modified by this hook" "$TMP/out4" || { cat "$TMP/out4"; fail "pre-commit did not see the fix"; }
    grep -q "0.1f" fixme.cu || fail "fixme.cu was not fixed"
    "$BIN" -q fixme.cu >/dev/null || fail "fixme.cu still has findings after the fix hook"
    git add fixme.cu
    git commit -m "fixed" >"$TMP/out5" 2>&1 || { cat "$TMP/out5"; fail "the fixed file does not pass"; }
    echo "ok: the cudalint-fix hook fixes a staged file"
else
    echo "note: no fixable finding in double_literal.cu (CU201 fixes unavailable): fix hook not tested"
fi

# 5. The README's plain git hook, for users without the framework: same
# behaviour, including file names with spaces and commits without CUDA files.
PLAIN="$TMP/plain"
mkdir -p "$PLAIN"
cd "$PLAIN" || exit 1
git init -q
cat > .git/hooks/pre-commit <<'EOF'
#!/bin/sh
# Lint the staged CUDA files with cudalint; a finding blocks the commit
# (git commit --no-verify skips the hook).
files=$(git diff --cached --name-only --diff-filter=ACMR -- '*.cu' '*.cuh')
[ -n "$files" ] || exit 0
printf '%s\n' "$files" | tr '\n' '\0' | xargs -0 cudalint --quiet
EOF
chmod +x .git/hooks/pre-commit
echo "notes" > notes.txt
git add notes.txt
git commit -q -m "no cuda" >"$TMP/out6" 2>&1 || { cat "$TMP/out6"; fail "plain hook: a commit without CUDA files was blocked"; }
cp "$SRC/tests/data/integrations/unmatched_nolint.cu" "bad file.cu"
git add "bad file.cu"
if git commit -q -m "bad" >"$TMP/out7" 2>&1; then
    fail "plain hook: the commit with a finding went through"
fi
grep -q "bad file.cu:.*CU001" "$TMP/out7" || { cat "$TMP/out7"; fail "plain hook: CU001 not reported"; }
git rm -q --cached "bad file.cu"
cp "$SRC/tests/data/integrations/clean.cu" "good file.cu"
git add "good file.cu"
git commit -q -m "good" >"$TMP/out8" 2>&1 || { cat "$TMP/out8"; fail "plain hook: the clean commit was blocked"; }
echo "ok: the plain git hook blocks a finding and passes a clean file"
echo "PASS"
