#!/bin/sh
# sarif_validate.sh: validates cudalint's --format sarif with Microsoft's SARIF
# Multitool (npm @microsoft/sarif-multitool, which ships a self-contained
# linux-x64 binary), against both the SARIF 2.1.0 rules and the GitHub
# Advanced Security (code scanning) rules.  Any error or warning fails.
# The tool is installed once into a cache directory outside the repository.
# Exit 77 (skipped) without npm, off linux-x64, or when the install fails.
set -u

SRC=${CUDALINT_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${CUDALINT:-$SRC/build/cudalint}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
VERSION=5.7.0
CACHE=${CUDALINT_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudalint-tests}/sarif-multitool-$VERSION
TOOL="$CACHE/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"

[ -x "$BIN" ] || { echo "FAIL: no cudalint binary at $BIN (set CUDALINT)"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read the validator's report"; exit 77; }
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "SKIP: this test runs the validator's linux-x64 binary"
    exit 77
fi
if [ ! -x "$TOOL" ]; then
    command -v npm >/dev/null 2>&1 || { echo "SKIP: npm is not installed (Debian: apt-get install npm)"; exit 77; }
    mkdir -p "$CACHE"
    if ! npm install --prefix "$CACHE" --no-audit --no-fund --no-save "@microsoft/sarif-multitool@$VERSION" >"$CACHE/npm.log" 2>&1; then
        cat "$CACHE/npm.log"
        echo "SKIP: could not install @microsoft/sarif-multitool@$VERSION from the npm registry"
        exit 77
    fi
    # The package's postinstall only does this chmod; npm may skip scripts.
    chmod u+x "$TOOL" 2>/dev/null
fi
[ -x "$TOOL" ] || { echo "SKIP: the npm package did not provide $TOOL"; exit 77; }
# .NET needs ICU unless told to use the invariant culture.
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
export DOTNET_CLI_TELEMETRY_OPTOUT=1
echo "validator: $("$TOOL" --version 2>&1 | grep -m 1 'SARIF Multitool')"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Validates $1; prints the problems and returns 1 if any error or warning.
validate() {
    rm -f "$TMP/report.sarif"
    "$TOOL" validate --rule-kind "Sarif;Ghas" --level "Error;Warning" -o "$TMP/report.sarif" "$1" >"$TMP/validate.log" 2>&1
    [ -s "$TMP/report.sarif" ] || { cat "$TMP/validate.log"; fail "the validator wrote no report for $1"; }
    python3 - "$TMP/report.sarif" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
bad = [r for run in report["runs"] for r in run.get("results", [])
       if r.get("level", "warning") in ("error", "warning")]
for r in bad:
    loc = r.get("locations", [{}])[0].get("physicalLocation", {}).get("region", {})
    args = r.get("message", {}).get("arguments", [])
    print("  %s %s line %s: %s" % (r.get("level", "warning"), r["ruleId"], loc.get("startLine"), args))
sys.exit(1 if bad else 0)
EOF
}

# The validator must catch a broken log, or a pass below means nothing.
printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"}}]}]}\n' >"$TMP/broken.sarif"
if validate "$TMP/broken.sarif" >/dev/null; then
    fail "the validator accepted a log without rules, ruleId and locations"
fi
echo "ok: the validator rejects a broken log"

# Inputs: findings with fixes, a line with multi-byte characters before the
# finding (UTF-16 columns), a file that cannot be read (a failed invocation),
# a file outside the source root (absolute URI), a finding with notes (a code
# flow), and a clean file.  --preview: every rule, stable or not.
mkdir -p "$TMP/root/src dir"
cp "$SRC/tests/data/integrations/double_literal.cu" "$TMP/root/src dir/double literal.cu"
cp "$SRC/tests/data/integrations/unmatched_nolint.cu" "$TMP/root/"
cp "$SRC/tests/data/integrations/clean.cu" "$TMP/root/"
printf '// \303\251\303\274 \360\237\230\200\n__global__ void k(float *x)\n{\n    /* \360\237\230\200 */ x[0] = x[0] * 0.1;\n}\n' >"$TMP/root/unicode.cu"
printf '__global__ void k(float *x, int n)\n{\n    if (threadIdx.x < n) {\n        x[threadIdx.x] = 0.0f;\n        __syncthreads();\n    }\n}\n' >"$TMP/root/barrier.cu"
mkdir -p "$TMP/outside"
cp "$SRC/tests/data/integrations/unmatched_nolint.cu" "$TMP/outside/elsewhere.cu"
cd "$TMP/root" || exit 1

"$BIN" --preview --format sarif "src dir/double literal.cu" unmatched_nolint.cu unicode.cu barrier.cu clean.cu \
    "$TMP/outside/elsewhere.cu" >"$TMP/findings.sarif"
[ $? -eq 1 ] || fail "cudalint did not exit 1 on findings"
validate "$TMP/findings.sarif" || fail "cudalint's SARIF has errors or warnings (above)"
python3 - "$TMP/findings.sarif" <<'EOF' || fail "the SARIF log lacks what GitHub needs (above)"
import json, sys
log = json.load(open(sys.argv[1]))
run = log["runs"][0]
res = run["results"]
assert res, "no results"
assert run["columnKind"] == "utf16CodeUnits"
assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file:///")
for r in res:
    assert "cudalintFingerprint/v1" in r["partialFingerprints"], r
    loc = r["locations"][0]["physicalLocation"]
    uri = loc["artifactLocation"]["uri"]
    assert (loc["artifactLocation"].get("uriBaseId") == "%SRCROOT%") != uri.startswith("file:///"), uri
    assert run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in res}
assert "unmatched_nolint.cu" in uris, uris
assert any(u.startswith("file:///") and u.endswith("/outside/elsewhere.cu") for u in uris), uris
if any(r["ruleId"] == "CU201" for r in res):
    assert "src%20dir/double%20literal.cu" in uris, uris
    uni = [r for r in res if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "unicode.cu"]
    # '    /* U+1F600 */ x[0] = x[0] * ' is 27 UTF-16 code units (29 bytes).
    assert uni and uni[0]["locations"][0]["physicalLocation"]["region"]["startColumn"] == 28, uni
    assert any("fixes" in r for r in res)
# A finding with notes has a code flow: the notes in order, then the finding.
noted = [r for r in res if r.get("relatedLocations")]
assert noted, "no finding with notes"
for r in noted:
    steps = r["codeFlows"][0]["threadFlows"][0]["locations"]
    assert len(steps) == len(r["relatedLocations"]) + 1, steps
    for step, rel in zip(steps, r["relatedLocations"]):
        assert step["location"]["message"]["text"] == rel["message"]["text"], step
        assert step["location"]["physicalLocation"]["region"]["startLine"] == \
            rel["physicalLocation"]["region"]["startLine"], step
    last = steps[-1]["location"]
    assert last["message"]["text"] == r["message"]["text"], last
    assert last["physicalLocation"]["region"]["startLine"] == \
        r["locations"][0]["physicalLocation"]["region"]["startLine"], last
assert all("codeFlows" not in r for r in res if not r.get("relatedLocations"))
print("ok: URIs, UTF-16 columns, fingerprints, rule indexes, code flows")
EOF
echo "ok: a log with findings validates"

# In a repository, %SRCROOT% is its root (the nearest directory with .git above
# the linted files), wherever cudalint runs; files outside it stay absolute.
mkdir -p "$TMP/root/.git"
(cd "$TMP/root/src dir" && "$BIN" --preview --format sarif "double literal.cu" ../unmatched_nolint.cu \
    "$TMP/outside/elsewhere.cu" >"$TMP/repo.sarif")
[ $? -eq 1 ] || fail "cudalint did not exit 1 on findings in a repository"
validate "$TMP/repo.sarif" || fail "cudalint's SARIF in a repository has errors or warnings (above)"
python3 - "$TMP/repo.sarif" "$TMP/root" <<'EOF' || fail "the repository root is not %SRCROOT% (above)"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
assert root.startswith("file:///") and root.endswith("/root/"), root
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"].get("uriBaseId", "") + ":" +
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
assert "%SRCROOT%:unmatched_nolint.cu" in uris, uris
assert any(u.startswith(":file:///") and u.endswith("/outside/elsewhere.cu") for u in uris), uris
if any(r["ruleId"] == "CU201" for r in run["results"]):
    assert "%SRCROOT%:src%20dir/double%20literal.cu" in uris, uris
print("ok: the repository root is %SRCROOT%, relative to it wherever cudalint runs")
EOF
rm -rf "$TMP/root/.git"

"$BIN" --format sarif clean.cu >"$TMP/clean.sarif" || fail "cudalint did not exit 0 on a clean file"
validate "$TMP/clean.sarif" || fail "the SARIF of a clean run has errors or warnings (above)"
echo "ok: a log without findings validates"

"$BIN" --format sarif clean.cu missing.cu >"$TMP/error.sarif"
[ $? -eq 2 ] || fail "cudalint did not exit 2 on a missing file"
validate "$TMP/error.sarif" || fail "the SARIF of a failed run has errors or warnings (above)"
echo "ok: a log of a failed run validates"
echo "PASS"
