#!/usr/bin/env python3
"""formats_test.py: the structure of every CI output format (sarif, github,
checkstyle, junit, gitlab) checked against the JSON output of the same run:
same findings, same places, the escaping each format needs, exit codes that do
not depend on the format, and fingerprints that survive unrelated edits.
sarif_validate.sh runs the real SARIF validator on top of this."""
import json, os, re, shutil, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
DATA = os.path.join(SRC, "tests", "data", "integrations")
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


# --preview: the test expects findings of rules that are still preview (off by default).
MODE = ["--preview"]


def run(args, cwd):
    p = subprocess.run([BIN] + MODE + args, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def pick_mode():
    """The built-in declarations header parses in a tenth of the toolkit's
    time; use it when it parses the test kernels cleanly."""
    p = subprocess.run([BIN, "--no-cuda-headers", "--format", "json", os.path.join(DATA, "clean.cu")],
                       capture_output=True, text=True)
    if p.returncode == 0 and '"CU000"' not in p.stdout:
        MODE.append("--no-cuda-headers")


def main():
    if not os.access(BIN, os.X_OK):
        print("FAIL: no cudalint binary at", BIN)
        return 1
    pick_mode()
    tmp = tempfile.mkdtemp()
    try:
        return test(tmp)
    finally:
        shutil.rmtree(tmp)


def test(tmp):
    os.makedirs(os.path.join(tmp, "src"))
    shutil.copy(os.path.join(DATA, "double_literal.cu"), os.path.join(tmp, "src", "double_literal.cu"))
    # A name with the characters the formats must escape: ',' and ':' in
    # GitHub properties, '&' and quotes in XML, '%' everywhere.
    weird = "100%,a:b&'q'.cu"
    shutil.copy(os.path.join(DATA, "unmatched_nolint.cu"), os.path.join(tmp, weird))
    shutil.copy(os.path.join(DATA, "clean.cu"), os.path.join(tmp, "clean.cu"))
    files = ["src/double_literal.cu", weird, "clean.cu"]

    rc, out, _ = run(["--format", "json"] + files, tmp)
    check(rc == 1, "json: exit 1 with findings, got %d" % rc)
    ref = json.loads(out)["diagnostics"]
    check(any(d["code"] == "CU001" for d in ref), "json: the CU001 finding is missing")
    have_cu201 = any(d["code"] == "CU201" for d in ref)
    if not have_cu201:
        print("note: no CU201 finding (rule or parse unavailable): fix checks reduced")
    places = sorted((d["file"], d["line"], d["column"], d["code"]) for d in ref)

    for fmt in ["sarif", "github", "checkstyle", "junit", "gitlab"]:
        rc, out, err = run(["--format", fmt] + files, tmp)
        check(rc == 1, "%s: exit code %d, expected 1 like json" % (fmt, rc))
        globals()["check_" + fmt](out, ref, places, weird, tmp)
        rc, out, _ = run(["--format", fmt, "clean.cu", "missing.cu"], tmp)
        check(rc == 2, "%s: a missing file gave %d, expected 2" % (fmt, rc))
        check_missing(fmt, out)

    check_fingerprints_stable(tmp, files)
    print("FAIL" if FAILURES else "PASS")
    return 1 if FAILURES else 0


def check_sarif(out, ref, places, weird, tmp):
    log = json.loads(out)
    check(log.get("version") == "2.1.0" and "sarif" in log.get("$schema", ""), "sarif: version/$schema")
    check(len(log["runs"]) == 1, "sarif: one run")
    run_ = log["runs"][0]
    driver = run_["tool"]["driver"]
    check(driver["name"] == "cudalint" and driver.get("version") and driver.get("informationUri"), "sarif: driver")
    listed = subprocess.run([BIN, "--list-rules"], capture_output=True, text=True).stdout.splitlines()[1:]
    codes = [l.split()[0] for l in listed if l.strip()]
    check([r["id"] for r in driver["rules"]] == codes, "sarif: rules are the registry, in order")
    for r in driver["rules"]:
        for key in ["id", "name", "shortDescription", "fullDescription", "help", "helpUri",
                    "defaultConfiguration", "properties"]:
            check(key in r, "sarif: rule %s lacks %s" % (r.get("id"), key))
        check(r["help"].get("text") and r["help"].get("markdown"), "sarif: rule %s help text+markdown" % r["id"])
        check(r["defaultConfiguration"]["level"] in ("error", "warning", "note"), "sarif: rule level")
        check(r["helpUri"].startswith("https://") and r["helpUri"].endswith(".md"), "sarif: helpUri")
        check(isinstance(r["properties"].get("tags"), list), "sarif: tags")
    check(run_["columnKind"] == "utf16CodeUnits", "sarif: columnKind")
    check(run_["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/"), "sarif: %SRCROOT% ends with /")
    res = run_["results"]
    check(len(res) == len(ref), "sarif: %d results for %d findings" % (len(res), len(ref)))
    fps = []
    for r in res:
        check(driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"], "sarif: ruleIndex")
        loc = r["locations"][0]["physicalLocation"]
        check(loc["artifactLocation"].get("uriBaseId") == "%SRCROOT%", "sarif: relative uri")
        reg = loc["region"]
        check(all(k in reg for k in ["startLine", "startColumn", "endLine", "endColumn"]), "sarif: region")
        check((reg["endLine"], reg["endColumn"]) >= (reg["startLine"], reg["startColumn"]), "sarif: region order")
        fps.append(r["partialFingerprints"]["cudalintFingerprint/v1"])
        if r["ruleId"] == "CU201":
            rep = r["fixes"][0]["artifactChanges"][0]["replacements"][0]
            check(rep["insertedContent"]["text"].endswith("f"), "sarif: CU201 fix")
            check(rep["deletedRegion"] == reg, "sarif: the fix replaces the flagged literal")
    check(len(set(fps)) == len(fps), "sarif: fingerprints unique within a run")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in res}
    check("100%25%2Ca%3Ab%26%27q%27.cu" in uris, "sarif: percent-encoded uri, got %s" % uris)
    got = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in res)
    check(got == sorted((p[3], p[1]) for p in places), "sarif: same findings as json")


GITHUB = re.compile(r"^::(error|warning|notice) file=([^,]*),line=(\d+),col=(\d+),endLine=(\d+),"
                    r"endColumn=(\d+),title=(CU\d{3}) ([a-z-]+)::(.*)$")


def check_github(out, ref, places, weird, tmp):
    lines = out.splitlines()
    check(len(lines) == len(ref), "github: one line per finding, got %d" % len(lines))
    got = []
    for line in lines:
        m = GITHUB.match(line)
        check(m is not None, "github: malformed annotation %r" % line)
        if not m:
            continue
        cmd, f, ln, col, _, _, code, _, msg = m.groups()
        check("\n" not in msg and "\r" not in msg, "github: raw newline in message")
        f = f.replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
        got.append((f, int(ln), int(col), code))
        sev = next(d["severity"] for d in ref if d["line"] == int(ln) and d["code"] == code)
        check(cmd == {"error": "error", "warning": "warning", "note": "notice"}[sev], "github: level")
        if code == "CU201":
            check("%0Afix: replace with" in msg, "github: the fix is in the message, escaped")
    check(sorted(got) == places, "github: same findings as json: %s vs %s" % (sorted(got), places))
    check(any("file=100%25%2Ca%3Ab&'q'.cu," in l for l in lines), "github: property escaping")


def check_checkstyle(out, ref, places, weird, tmp):
    root = ET.fromstring(out)
    check(root.tag == "checkstyle", "checkstyle: root")
    got = []
    names = [f.get("name") for f in root.findall("file")]
    check(weird in names and "clean.cu" in names, "checkstyle: every linted file listed: %s" % names)
    for f in root.findall("file"):
        for e in f.findall("error"):
            check(e.get("severity") in ("error", "warning", "info"), "checkstyle: severity")
            check(e.get("source", "").startswith("cudalint.CU"), "checkstyle: source")
            got.append((f.get("name"), int(e.get("line")), int(e.get("column")), e.get("source")[9:]))
    check(sorted(got) == places, "checkstyle: same findings as json")


def check_junit(out, ref, places, weird, tmp):
    root = ET.fromstring(out)
    check(root.tag == "testsuites", "junit: root")
    suites = root.findall("testsuite")
    check({s.get("name") for s in suites} >= {weird, "clean.cu", "src/double_literal.cu"}, "junit: a suite per file")
    cases = [c for s in suites for c in s.findall("testcase")]
    failures = [c for c in cases if c.find("failure") is not None]
    check(len(failures) == len([d for d in ref if d["severity"] != "note"]), "junit: a failure per finding")
    check(int(root.get("failures")) == len(failures), "junit: failures count")
    check(int(root.get("tests")) == len(cases), "junit: tests count")
    clean = [s for s in suites if s.get("name") == "clean.cu"][0]
    check(len(clean.findall("testcase")) == 1 and clean.find("testcase/failure") is None, "junit: clean file passes")
    # Below --fail-level a finding is reported but does not fail.
    rc, out2, _ = run(["--format", "junit", "--fail-level", "error", weird], tmp)
    r2 = ET.fromstring(out2)
    check(rc == 0 and r2.get("failures") == "0" and r2.find(".//system-out") is not None,
          "junit: warnings under --fail-level error are not failures")


def check_gitlab(out, ref, places, weird, tmp):
    issues = json.loads(out)
    check(isinstance(issues, list) and len(issues) == len(ref), "gitlab: an issue per finding")
    fps = [i["fingerprint"] for i in issues]
    check(len(set(fps)) == len(fps), "gitlab: unique fingerprints")
    got = []
    for i in issues:
        check(i["severity"] in ("info", "minor", "major", "critical", "blocker"), "gitlab: severity")
        check(i["description"] and i["check_name"].startswith("CU"), "gitlab: description, check_name")
        check(not i["location"]["path"].startswith("/"), "gitlab: relative path")
        got.append((i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"]))
    check(sorted(got) == sorted((p[0], p[1], p[3]) for p in places), "gitlab: same findings as json")


def check_missing(fmt, out):
    """A file that cannot be read shows up in the formats that have room for it."""
    if fmt == "sarif":
        inv = json.loads(out)["runs"][0]["invocations"][0]
        check(inv["executionSuccessful"] is False and inv["toolExecutionNotifications"], "sarif: failed invocation")
    elif fmt == "github":
        check("::error file=missing.cu" in out, "github: the missing file is an error annotation")
    elif fmt == "checkstyle":
        check(ET.fromstring(out).find("file[@name='missing.cu']/error") is not None, "checkstyle: missing file")
    elif fmt == "junit":
        check(ET.fromstring(out).find(".//testcase/error") is not None, "junit: missing file is an error")
    elif fmt == "gitlab":
        check(json.loads(out) == [], "gitlab: only findings")


def check_fingerprints_stable(tmp, files):
    """Lines inserted above the findings move them, but fingerprints stay."""
    def prints():
        _, out, _ = run(["--format", "sarif"] + files, tmp)
        res = json.loads(out)["runs"][0]["results"]
        return sorted(r["partialFingerprints"]["cudalintFingerprint/v1"] for r in res), \
            sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in res)
    def gitlab():
        return sorted(i["fingerprint"] for i in json.loads(run(["--format", "gitlab"] + files, tmp)[1]))
    before, lines_before = prints()
    gl_before = gitlab()
    for f in files:
        p = os.path.join(tmp, f)
        text = open(p).read()
        open(p, "w").write("// an unrelated edit\n\n" + text)
    after, lines_after = prints()
    check(lines_after == [l + 2 for l in lines_before], "fingerprints: the findings moved down two lines")
    check(before == after, "fingerprints: sarif fingerprints changed with line numbers")
    check(gl_before == gitlab(), "fingerprints: gitlab fingerprints changed with line numbers")


if __name__ == "__main__":
    sys.exit(main())
