#!/bin/sh
# new_rule_test.sh: tools/new_rule.py on a copy of the checkout: the scaffolded
# rule builds, its fixtures pass in both parse modes, --explain shows its doc,
# the README table matches the records, and the meta-test's only complaint is
# the scaffold's placeholders (TODO(new_rule)), which are the author's to fill.
# Environment: CUDALINT_SOURCE_DIR (the checkout).  Builds cudalint once (slow).
set -u
SRC=${CUDALINT_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/new-rule.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The checkout as it is (tracked and new files, not what git ignores).
mkdir "$TMP/src"
(cd "$SRC" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - 2> /dev/null) | tar xf - -C "$TMP/src" ||
    { echo "FAIL: cannot copy the checkout"; exit 1; }

cd "$TMP/src" || exit 1
python3 tools/new_rule.py CU998 scaffold-check --summary "A rule made by the scaffold test." \
    --category correctness --scope kernel --static barrier-skip > "$TMP/new.txt" 2>&1 ||
    { cat "$TMP/new.txt"; echo "FAIL: new_rule.py exited non-zero"; exit 1; }
for f in rules/cu998_scaffold_check.c rules/CU998-scaffold-check.md fixtures/cu998_scaffold_check.cu \
    kernels/cu998_scaffold_check/bad.cu kernels/cu998_scaffold_check/pair.cuh \
    kernels/cu998_scaffold_check/pair.json kernels/cu998_scaffold_check/fixed.cu; do
    [ -f "$f" ] || fail "new_rule.py did not create $f"
done
grep -q '&rule_cu998,' rules/registry.c || fail "no registry entry"
python3 tools/new_rule.py CU998 other-name --summary x --category x --static fp64 > /dev/null 2>&1 &&
    fail "new_rule.py accepted a code that is taken"

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$TMP/cmake.txt" 2>&1 &&
    cmake --build build -j 2 --target cudalint > "$TMP/build.txt" 2>&1 ||
    { tail -30 "$TMP/cmake.txt" "$TMP/build.txt"; echo "FAIL: the tree with the new rule does not build"; exit 1; }
BIN=$TMP/src/build/cudalint
[ -x "$BIN" ] || { echo "FAIL: no binary built"; exit 1; }
echo "built $BIN ($(grep -c "Building C" "$TMP/build.txt") C files compiled)"
export CUDALINT="$BIN" CUDALINT_SOURCE_DIR="$TMP/src"

"$BIN" --list-rules | grep -q '^CU998 *scaffold-check' || fail "--list-rules does not show CU998"
"$BIN" --explain CU998 | grep -q '^## Measured effect' || fail "--explain CU998 does not show the doc"
for mode in toolkit shim; do
    python3 tests/run_fixtures.py --mode $mode fixtures/cu998_scaffold_check.cu > "$TMP/fx.txt" 2>&1 ||
        { cat "$TMP/fx.txt"; fail "the scaffold's fixtures fail in $mode mode"; }
done
python3 tests/meta_rules.py > "$TMP/meta.txt" 2>&1
grep '^FAIL' "$TMP/meta.txt" > "$TMP/meta-fail.txt"
if grep -v '^FAIL CU998: scaffold placeholders (TODO(new_rule)) left in ' "$TMP/meta-fail.txt"; then
    fail "meta_rules.py has other complaints than the placeholders (above)"
fi
grep -q 'CU998: scaffold placeholders' "$TMP/meta-fail.txt" || fail "meta_rules.py accepts the placeholders"

# Filled in, the meta-test passes.
grep -rl 'TODO(new_rule)' rules fixtures kernels | xargs sed -i 's/TODO(new_rule)/filled in/g'
python3 tests/meta_rules.py > "$TMP/meta2.txt" 2>&1 || { cat "$TMP/meta2.txt"; fail "meta_rules.py fails once the placeholders are filled"; }

[ "$failures" -eq 0 ] || { echo "new_rule: $failures failure(s)"; exit 1; }
echo "new_rule: ok"
