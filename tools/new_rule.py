#!/usr/bin/env python3
"""new_rule.py: scaffolds a new cudalint rule (see CONTRIBUTING.md).

    tools/new_rule.py CU502 launch-bounds-missing --category performance \\
        --scope kernel --severity warning --summary "A kernel ..." --static fp64 [--fix]

Creates, in the checkout it lives in (or --root):
  rules/cu502_launch_bounds_missing.c       the rule record and a starting on_cursor
  rules/CU502-launch-bounds-missing.md      the doc with the fixed sections
  fixtures/cu502_launch_bounds_missing.cu   5 positive and 5 negative functions (both parse modes)
  kernels/cu502_launch_bounds_missing/      bad.cu, pair.cuh, pair.json (+ fixed.cu without --fix)
and adds the rule to rules/registry.c and to README.md's rule table, in code order.

The starting rule flags calls of a placeholder function (cu502_example) so that the
fixtures, the meta-test and the build work at once; every place to fill in is marked
TODO(new_rule), and tests/meta_rules.py fails while any marker is left.
"""
import argparse, json, os, re, sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = ["What it flags", "Why", "Example", "Use instead", "Fix safety", "Exceptions", "Measured effect"]
SCOPES = {"kernel": "SCOPE_KERNEL", "device": "SCOPE_DEVICE", "host": "SCOPE_HOST", "any": "SCOPE_ANY"}
SEVERITIES = {"error": "SEV_ERROR", "warning": "SEV_WARNING", "note": "SEV_NOTE"}
TODO = "TODO(new_rule)"


def die(msg):
    print(f"new_rule: {msg}", file=sys.stderr)
    sys.exit(2)


def write_new(root, rel, text):
    path = os.path.join(root, rel)
    if os.path.exists(path):
        die(f"{rel} exists already")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    print(f"created  {rel}")


def rule_source(a, code, name, ident, example):
    return f'''/* {ident}.c: the {code} {name} rule: {a.summary}
 * {TODO}: how the rule finds it (which cursors, which analyses), in a few lines. */
#include "core/rule.h"
#include "clang/astutil.h"
#include "engine/walk.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* {TODO}: the cursor kinds the rule looks at. */
static const enum CXCursorKind subscriptions[] = {{CXCursor_CallExpr, 0}};

static void on_cursor(struct rule_ctx *ctx, CXCursor c)
{{
    if (!ctx_rule_applies_here(ctx)) return;
    /* {TODO}: the starting example flags calls of {example}().  Replace it
       with the rule's pattern; ask analysis/ for facts through the engine
       (ctx_analysis(ctx, &uniformity_analysis), &affine_analysis,
       &blockshape_analysis, &launch_analysis...) and word them here. */
    char *callee = ast_spelling(c);
    bool hit = strcmp(callee, "{example}") == 0;
    free(callee);
    if (hit) ctx_report(ctx, c, "call of '%s' ({TODO}: the message)", "{example}");
}}

const struct rule rule_{code.lower()} = {{
    .code = "{code}",
    .name = "{name}",
    .summary = "{a.summary}",
    .severity = {SEVERITIES[a.severity]},
    .category = "{a.category}",
    .scope = {SCOPES[a.scope]},
    .status = STATUS_PREVIEW, /* stable only once measured: README, Rules */
    .precision = NULL,        /* "0.97 (frozen test set 2026-11, 31 findings read)" once measured */
    .version = 1,
    .has_fix = {"true" if a.fix else "false"},
    .doc = "rules/{code}-{name}.md",
    .kernel = "kernels/{ident}",
    .subscriptions = subscriptions,
    .on_cursor = on_cursor,
}};
'''


def rule_doc(a, code, name):
    body = {
        "What it flags": f"{TODO}: the pattern, with the cases graded error/warning/note if the rule grades them.",
        "Why": f"{TODO}: the guide's section (CUDA C++ Programming Guide / Best Practices Guide) and the mechanism.",
        "Example": f"```cuda\n// {TODO}: the kernel of kernels/{code.lower()}_{name.replace('-', '_')}/bad.cu, shortened\n```",
        "Use instead": f"```cuda\n// {TODO}: the fixed code\n```",
        "Fix safety": (f"{TODO}: what the fix-it changes and when it is withheld." if a.fix
                       else "No fix-it. " + TODO + ": why, and what to change by hand."),
        "Exceptions": f"{TODO}: the look-alikes the rule stays silent on (they are the fixtures' negatives).",
        "Measured effect": (f"{TODO}: `cudalint confirm --static` on the kernel pair, then on a GPU.\n\n"
                            "Measured on an H100: pending."),
    }
    parts = [f"# {code} {name}\n"]
    for s in SECTIONS:
        parts.append(f"## {s}\n\n{body[s]}\n")
    return "\n".join(parts)


def fixture(code, ident, example):
    pos = "\n".join(f'''__device__ void positive_{i}(float *p)
{{
    {example}(); // expect: {code} "call of '{example}'"
    p[{i}] = 0.0f;
}}
''' for i in range(1, 6))
    neg = "\n".join(f'''__device__ void negative_{i}(float *p)
{{
    {example}_lookalike(); // {TODO}: a look-alike the rule must not flag
    p[{i}] = 0.0f;
}}
''' for i in range(1, 6))
    return f'''// {ident}.cu: {code} positives and negatives ({TODO}: real cases; run in both parse modes).
#include <cuda_runtime.h>

__device__ void {example}(void);
__device__ void {example}_lookalike(void);

// ---- positives ----

{pos}
// ---- negatives and look-alikes ----

{neg}'''


def kernel_files(a, code, ident):
    bad = f'''// bad.cu ({code}): {TODO}: one __global__ kernel showing the pattern, the way users write it.
//
// It includes nothing (harness.h brings the runtime header) and must compile
// with nvcc -O3 -arch=sm_90 without warnings.
__global__ void kernel(float *out, const float *in, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}}
'''
    cuh = f'''// pair.cuh ({code}): launch description ({TODO}: inputs sized to fill the GPU and defeat the L2).

static void pair_setup(harness::Setup &s, const harness::Device &d)
{{
    const int block = 256;
    const int blocks = d.sm_count * (d.max_threads_per_sm / block) * 2;
    const long long n = (long long)blocks * block;
    s.kernel = "kernel";
    s.add_input("in", harness::F32, (size_t)n, 0.5, 1.5);
    s.add_output("out", harness::F32, (size_t)n);
    s.grid = dim3(blocks);
    s.block = dim3(block);
    s.args[0] = n;
    s.compare = harness::EXACT; // {TODO}: EXACT, or TOLERANCE with a comment saying why
}}

static void pair_launch(const harness::Setup &s, void *const *b, cudaStream_t stream)
{{
    kernel<<<s.grid, s.block, 0, stream>>>((float *)b[1], (const float *)b[0], (int)s.args[0]);
}}
'''
    pair = {
        "//": "pair.json: what cudalint confirm expects of this kernel pair (fields: kernels/README.md)",
        "rule": code,
        "title": f"{TODO}: one line on the kernel",
        "expect_message": "",
        "fixed": "fix-it" if a.fix else "hand",
        "static": a.static,
        "note": f"{TODO}: what the fix changes in the generated code and what the GPU run should show.",
    }
    files = {"bad.cu": bad, "pair.cuh": cuh, "pair.json": json.dumps(pair, indent=2) + "\n"}
    if not a.fix:
        files["fixed.cu"] = bad.replace("// bad.cu", "// fixed.cu").replace(
            "one __global__ kernel showing the pattern", "the same kernel written by hand without it")
    return files


def code_key(line):
    m = re.search(r"rule_cu(\d{3})", line)
    return int(m.group(1)) if m else -1


def add_to_registry(root, code):
    path = os.path.join(root, "rules", "registry.c")
    text = open(path).read()
    ident = f"rule_{code.lower()}"
    if re.search(rf"\b{ident}\b", text):
        die(f"rules/registry.c already names {ident}")
    lines = text.split("\n")
    num = int(code[2:])
    # the extern declaration, among the others in code order
    externs = [i for i, l in enumerate(lines) if l.startswith("extern const struct rule rule_cu")]
    if not externs:
        die("rules/registry.c: no 'extern const struct rule' lines")
    at = next((i for i in externs if code_key(lines[i]) > num), externs[-1] + 1)
    lines.insert(at, f"extern const struct rule {ident};")
    # the table entry
    start = next(i for i, l in enumerate(lines) if l.startswith("const struct rule *const rule_registry[]"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("};"))
    entries = [i for i in range(start + 1, end) if "&rule_cu" in lines[i]]
    at = next((i for i in entries if code_key(lines[i]) > num), end)
    lines.insert(at, f"    &{ident},")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print("added    rules/registry.c: the extern declaration and the table entry")


def add_to_readme(root, a, code, name):
    path = os.path.join(root, "README.md")
    text = open(path).read()
    m = re.search(r"<!-- rule-table:[^\n]*-->\n(.*?)\n\n", text, re.S)
    if not m:
        die("README.md has no '<!-- rule-table: ... -->' block")
    rows = m.group(1).split("\n")
    row = (f"| {code} | [{name}](rules/{code}-{name}.md) | {a.severity} | {a.category} | {a.scope} | preview | "
           f"not measured | {'yes' if a.fix else 'no'} | {a.summary} |")
    body = rows[2:]
    num = int(code[2:])
    at = next((i for i, r in enumerate(body) if int(re.match(r"\| CU(\d{3})", r).group(1)) > num), len(body))
    body.insert(at, row)
    new = "\n".join(rows[:2] + body)
    with open(path, "w") as f:
        f.write(text[:m.start(1)] + new + text[m.end(1):])
    print("added    README.md: the rule table's row (as `cudalint --list-rules --format markdown` prints it)")


def static_kinds(root):
    text = open(os.path.join(root, "analyzer", "confirm", "confirm_static.c")).read()
    m = re.search(r"static_checks\[\] = \{(.*?)\n\};", text, re.S)
    return re.findall(r'\{"([^"]+)"', m.group(1)) if m else []


def main():
    ap = argparse.ArgumentParser(description="Scaffold a new cudalint rule (see CONTRIBUTING.md).")
    ap.add_argument("code", help="CUnnn, e.g. CU502")
    ap.add_argument("name", help="kebab-case name, e.g. launch-bounds-missing")
    ap.add_argument("--summary", required=True, help="one sentence, as in the README's rule table")
    ap.add_argument("--category", required=True, help="correctness, performance, portability ...")
    ap.add_argument("--scope", choices=sorted(SCOPES), default="device")
    ap.add_argument("--severity", choices=sorted(SEVERITIES), default="warning")
    ap.add_argument("--static", required=True,
                    help="confirm's static check kind for the kernel pair (a row of static_checks[] in "
                         "analyzer/confirm/confirm_static.c; a new kind needs a new row)")
    ap.add_argument("--fix", action="store_true", help="the rule has a fix-it (else the pair gets a fixed.cu)")
    ap.add_argument("--root", default=SRC, help="the checkout (default: the one this script is in)")
    a = ap.parse_args()

    if not re.fullmatch(r"CU\d{3}", a.code):
        die("the code must be CU followed by three digits")
    if a.code.startswith("CU0"):
        die("CU0xx are the driver's own codes")
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", a.name):
        die("the name must be kebab-case: lower-case words joined by '-'")
    if '"' in a.summary or "|" in a.summary or "\\" in a.summary:
        die("the summary may not contain quotes, '|' or backslashes")
    code, name = a.code, a.name
    ident = f"{code.lower()}_{name.replace('-', '_')}"
    root = os.path.abspath(a.root)
    for taken in os.listdir(os.path.join(root, "rules")):
        if taken.lower().startswith(code.lower() + "_") or taken.startswith(code + "-"):
            die(f"{code} is taken: rules/{taken}")
    example = f"{code.lower()}_example"

    write_new(root, f"rules/{ident}.c", rule_source(a, code, name, ident, example))
    write_new(root, f"rules/{code}-{name}.md", rule_doc(a, code, name))
    write_new(root, f"fixtures/{ident}.cu", fixture(code, ident, example))
    for fname, text in kernel_files(a, code, ident).items():
        write_new(root, f"kernels/{ident}/{fname}", text)
    add_to_registry(root, code)
    add_to_readme(root, a, code, name)

    print()
    print("Left to do (CONTRIBUTING.md lists every step):")
    print(f"  - replace every {TODO} (grep -rn '{TODO}' rules fixtures kernels); meta_rules.py fails while one is left")
    if a.static not in static_kinds(root):
        print(f"  - '{a.static}' is not a static check yet: add a judge function and a row to static_checks[]"
              " in analyzer/confirm/confirm_static.c, and a line in kernels/README.md")
    print("  - a fact the rule needs that no analysis gives: a new analysis in analyzer/analysis/ "
          "(ARCHITECTURE.md, 'An analysis') with a unit test in tests/unit/")
    print("  - build, then: ctest --test-dir build -R 'fixtures|meta' ; cudalint confirm --static --kernels kernels")
    print(f"  - tests/confirm_static.sh: a `want {code} ...` line for the pair's static difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
