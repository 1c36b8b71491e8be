#!/usr/bin/env python3
"""meta_rules.py: every rule of the registry has its code file, its doc with
the fixed doc sections (What it flags ... Measured effect) in order, fixtures with positive expectations and
at least one negative, a kernel pair (performance and correctness rules), and a
row in the README's rule table that matches the record; and no placeholder of
tools/new_rule.py (TODO(new_rule)) is left in the rule's files."""
import os, re, subprocess, sys

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint"))
SECTIONS = ["What it flags", "Why", "Example", "Use instead", "Fix safety", "Exceptions", "Measured effect"]
PLACEHOLDER = "TODO(new_rule)"
failures = []


def placeholders(paths):
    """The paths (relative to SRC) among paths that still hold a scaffold placeholder."""
    left = []
    for p in paths:
        if os.path.isfile(p) and PLACEHOLDER in open(p, errors="replace").read():
            left.append(os.path.relpath(p, SRC))
    return left


def rules():
    out = subprocess.run([BIN, "--list-rules"], capture_output=True, text=True, check=True).stdout.splitlines()
    rows = []
    for line in out[1:]:
        parts = line.split(None, 8)
        rows.append(dict(code=parts[0], name=parts[1], severity=parts[2], scope=parts[4], status=parts[5],
                         precision=parts[6], fix=parts[7], summary=parts[8]))
    return rows


FUNC = re.compile(r"^(?:template\s*<[^\n]*>\s*)?(?:static\s+|inline\s+)*(?:__global__|__device__|__host__\s+__device__|__device__\s+__host__)\b[^;{]*\{", re.M)


# Host functions (for host-scope rules): a definition at the start of a line
# with a return type, not a kernel or device function.
HOST_FUNC = re.compile(r"^(?:template\s*<[^\n]*>\s*)?(?:static\s+|inline\s+|__host__\s+)*(?!__global__|__device__|if\b|for\b|while\b|switch\b|return\b|else\b|do\b)[A-Za-z_][\w:<>,\s\*&~]*?\b[A-Za-z_~][\w:~]*\s*\([^;{)]*\)[^;{]*\{", re.M)


def count_negatives(text, code, host=False):
    n = 0
    for m in (HOST_FUNC if host else FUNC).finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[m.start():i]
        if not re.search(r"expect(?:@[+-]\d+)?:[^\n]*" + code, body):
            n += 1
    return n


def main():
    readme = open(os.path.join(SRC, "README.md")).read() if os.path.exists(os.path.join(SRC, "README.md")) else ""
    fixtures = os.path.join(SRC, "fixtures")
    fixture_text = {}
    for dp, _, fs in os.walk(fixtures):
        for f in fs:
            if f.endswith((".cu", ".cuh")):
                fixture_text[os.path.join(dp, f)] = open(os.path.join(dp, f), errors="replace").read()
    for r in rules():
        # A rule earns stable with a measured precision of at least 0.95 (README, Rules); the two
        # pseudo-rules about the run itself (parse errors, unmatched NOLINT markers) are stable by fiat.
        if r["status"] == "stable" and r["code"] not in ("CU000", "CU001"):
            try:
                precise = float(r["precision"]) >= 0.95
            except ValueError:
                precise = False
            if not precise:
                failures.append(f"{r['code']}: stable with a measured precision of {r['precision']} (want >= 0.95)")
        if r["status"] not in ("stable", "preview"):
            failures.append(f"{r['code']}: status '{r['status']}' is neither stable nor preview")
        code, name = r["code"], r["name"]
        doc = os.path.join(SRC, "rules", f"{code}-{name}.md")
        if not os.path.exists(doc):
            failures.append(f"{code}: no doc rules/{code}-{name}.md")
        else:
            text = open(doc).read()
            heads = re.findall(r"^## (.+?)\s*$", text, re.M)
            if heads != SECTIONS:
                failures.append(f"{code}: doc sections {heads}, want {SECTIONS}")
            if not text.startswith(f"# {code} {name}"):
                failures.append(f"{code}: doc title must be '# {code} {name}'")
            if "being written" in text:
                failures.append(f"{code}: doc is a placeholder")
        if not code.startswith("CU0"):
            src = os.path.join(SRC, "rules", f"{code.lower()}_{name.replace('-', '_')}.c")
            if not os.path.exists(src):
                failures.append(f"{code}: no rules/{os.path.basename(src)}")
            own = {p: t for p, t in fixture_text.items() if os.path.basename(p).startswith(code.lower() + "_")}
            if not own:
                failures.append(f"{code}: no fixtures/{code.lower()}_*.cu")
            positives = sum(len(re.findall(r"expect(?:@[+-]\d+)?:[^\n]*" + code, t)) for t in own.values())
            if positives < 3:
                failures.append(f"{code}: only {positives} positive expectations in its fixtures (want >= 3)")
            # Negatives: device functions in the rule's fixtures that carry no
            # expectation of the rule (the runner fails if the rule fires there).
            host = r["scope"] == "host"
            negatives = sum(count_negatives(t, code, host) for t in own.values())
            if negatives < 3:
                failures.append(f"{code}: only {negatives} {'host' if host else 'device'} functions without a "
                                f"{code} expectation (negatives) in its fixtures (want >= 3)")
            kdir = os.path.join(SRC, "kernels", f"{code.lower()}_{name.replace('-', '_')}")
            if not os.path.isdir(kdir) or not os.path.exists(os.path.join(kdir, "bad.cu")):
                failures.append(f"{code}: no kernel pair kernels/{os.path.basename(kdir)}/bad.cu")
            kfiles = [os.path.join(kdir, f) for f in sorted(os.listdir(kdir))] if os.path.isdir(kdir) else []
            left = placeholders([src, doc] + sorted(own) + kfiles)
            if left:
                failures.append(f"{code}: scaffold placeholders ({PLACEHOLDER}) left in {', '.join(left)}")
    # The README's rule table is exactly what the records generate.
    table = subprocess.run([BIN, "--list-rules", "--format", "markdown"], capture_output=True, text=True,
                           check=True).stdout
    m = re.search(r"<!-- rule-table:[^\n]*-->\n(.*?)\n\n", readme, re.S)
    if not m:
        failures.append("README.md has no '<!-- rule-table: ... -->' block")
    elif m.group(1).strip() != table.strip():
        failures.append("README's rule table differs from `cudalint --list-rules --format markdown`: regenerate it")
    for f in failures:
        print("FAIL", f)
    print(f"meta: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
