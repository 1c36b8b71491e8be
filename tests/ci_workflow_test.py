#!/usr/bin/env python3
"""ci_workflow_test.py: the README's sharded CI workflows (the two YAML blocks
after the `ci-workflow` marker: GitHub Actions, then GitLab CI) are real.

For each matrix job (every shard of the GitHub matrix, every CI_NODE_INDEX of
GitLab's `parallel:`), every shell command of the job is run as written, with
the workflow's expressions filled in, on a small copy of the test data with
the built cudalint first on PATH: the commands must exit 0 or 1 (2 is a usage
error: an option that does not exist, a bad --shard), write the report they
name, and the jobs' files together must be the tree, each file once.  Also
checked: the cache key names the toolkit and cudalint versions and the shard,
each shard uploads under its own category, N in --shard K/N is the matrix size,
and every option the blocks use is in `cudalint --help`."""
import json, os, re, shutil, subprocess, sys, tempfile

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def blocks():
    text = open(os.path.join(SRC, "README.md")).read()
    i = text.find("<!-- ci-workflow:")
    if i < 0:
        return []
    return re.findall(r"```yaml\n(.*?)```", text[i:], re.S)[:2]


def run_scripts(yaml_text):
    """The shell commands of a workflow: `run:` values (one line or a `|`
    block) and `script:` list items, in order."""
    out, lines, i = [], yaml_text.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)(?:- )?run:\s*(.*)$", line)
        if m and m.group(2).strip() == "|":
            ind, body = None, []
            i += 1
            while i < len(lines) and (not lines[i].strip() or ind is None or lines[i].startswith(ind)):
                if lines[i].strip():
                    ind = ind or re.match(r"^(\s*)", lines[i]).group(1)
                    if len(ind) <= len(m.group(1)):
                        break
                    body.append(lines[i][len(ind):])
                i += 1
            out.append("\n".join(body))
            continue
        if m and m.group(2).strip():
            out.append(m.group(2).strip())
        if re.match(r"^\s*script:\s*$", line):
            i += 1
            while i < len(lines) and re.match(r"^\s*- ", lines[i]):
                out.append(re.sub(r"^\s*- ", "", lines[i]))
                i += 1
            continue
        i += 1
    return out


def help_options():
    h = subprocess.run([BIN, "--help"], capture_output=True, text=True).stdout
    return set(re.findall(r"--[a-z][a-z-]*", h)) | set(re.findall(r"(?<![\w-])-[a-zA-Z]\b", h))


def make_tree(tmp):
    tree = os.path.join(tmp, "repo")
    shutil.copytree(os.path.join(SRC, "tests", "data", "integrations"), os.path.join(tree, "src"))
    os.makedirs(os.path.join(tree, "kernels"))
    for f in sorted(os.listdir(os.path.join(SRC, "fixtures"))):
        if f.startswith("cu201") and f.endswith(".cu"):
            shutil.copy(os.path.join(SRC, "fixtures", f), os.path.join(tree, "kernels", f))
    return tree


def run_job(scripts, subst, tree, env, report):
    files = set()
    for s in scripts:
        for k, v in subst.items():
            s = s.replace(k, v)
        p = subprocess.run(["sh", "-ec", s], cwd=tree, env=env, capture_output=True, text=True)
        uses_cudalint = "cudalint" in s
        check(p.returncode in (0, 1), f"`{s}` exited {p.returncode}: {p.stderr.strip()[-400:]}")
        if uses_cudalint and "--shard" in s:
            check("finding" in p.stderr, f"`{s}`: the text summary on the terminal")
    path = os.path.join(tree, report)
    if check(os.path.exists(path), f"the job wrote {report}"):
        doc = json.load(open(path))
        if report.endswith(".sarif"):
            for r in doc["runs"]:
                for a in r.get("artifacts", []):
                    files.add(a["location"]["uri"])
                for res in r.get("results", []):
                    for loc in res.get("locations", []):
                        files.add(loc["physicalLocation"]["artifactLocation"]["uri"])
        os.rename(path, path + "." + subst.get("${{ matrix.shard }}", subst.get("$CI_NODE_INDEX", "")))
    return files


def shard_files(cmd_line, subst, tree, env):
    """The files a job's cudalint command lints (its --format json twin)."""
    for k, v in subst.items():
        cmd_line = cmd_line.replace(k, v)
    cmd_line = re.sub(r"--format \S+ -o \S+", "--format json", cmd_line)
    p = subprocess.run(["sh", "-ec", cmd_line], cwd=tree, env=env, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return []
    return [f["file"] for f in json.loads(p.stdout)["files"] if f["status"] != "skipped"]


def main():
    if not os.access(BIN, os.X_OK):
        print("FAIL: no cudalint binary at", BIN)
        return 1
    bl = blocks()
    if not check(len(bl) == 2, "README: two YAML blocks after the ci-workflow marker"):
        return 1
    gh, gl = bl
    known = help_options()
    for name, b in (("GitHub", gh), ("GitLab", gl)):
        for s in run_scripts(b):
            for cmd in re.findall(r"\bcudalint((?:\s+[^|;&)>]*)?)", s):
                for opt in re.findall(r"(?<![\w.~/-])(--?[a-zA-Z][\w-]*)", cmd):
                    check(opt in known, f"{name}: option {opt} of `cudalint{cmd}` is not in --help")

    # GitHub: the matrix, the cache key, the categories.
    shards = re.search(r"shard:\s*\[([^\]]*)\]", gh)
    n_gh = len(shards.group(1).split(",")) if shards else 0
    check(n_gh > 1, "GitHub: a matrix of shards")
    check(re.search(r"--shard \$\{\{ matrix\.shard \}\}/%d\b" % n_gh, gh) is not None,
          f"GitHub: --shard ${{{{ matrix.shard }}}}/{n_gh} matches the matrix")
    key = re.search(r"^\s*key:\s*(.*)$", gh, re.M)
    check(key and "toolkit" in key.group(1) and "cudalint" in key.group(1).replace("cudalint-", "", 1)
          and "matrix.shard" in key.group(1), "GitHub: the cache key names the toolkit and cudalint versions and the shard")
    check("actions/cache@" in gh, "GitHub: actions/cache")
    cat = re.search(r"^\s*category:\s*(.*)$", gh, re.M)
    check(cat and "matrix.shard" in cat.group(1), "GitHub: each shard uploads under its own category")
    cache_path = re.search(r"^\s*path:\s*(.*)$", gh, re.M).group(1).strip()
    check(f"--cache-dir {cache_path}" in gh, "GitHub: the lint step uses the cached directory")
    par = re.search(r"^\s*parallel:\s*(\d+)", gl, re.M)
    n_gl = int(par.group(1)) if par else 0
    check(n_gl > 1 and "$CI_NODE_INDEX/$CI_NODE_TOTAL" in gl, "GitLab: parallel: N with --shard $CI_NODE_INDEX/$CI_NODE_TOTAL")
    check("$CI_NODE_INDEX" in re.search(r"key:\s*(.*)", gl).group(1), "GitLab: a cache per shard")

    tmp = tempfile.mkdtemp(prefix="cudalint-ci.")
    try:
        tree = make_tree(tmp)
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(BIN, os.path.join(bindir, "cudalint"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), HOME=os.path.join(tmp, "home"),
                   GITHUB_OUTPUT=os.path.join(tmp, "github_output"), NO_COLOR="1")
        env.pop("XDG_CACHE_HOME", None)
        total = sorted(shard_files("cudalint --format json .", {}, tree, env))
        check(total, "the test tree has files")
        seen = []
        gh_scripts = run_scripts(gh)
        lint_gh = [s for s in gh_scripts if "--shard" in s]
        for k in range(1, n_gh + 1):
            sub = {"${{ matrix.shard }}": str(k), "~/": env["HOME"] + "/"}
            open(env["GITHUB_OUTPUT"], "w").close()
            run_job(gh_scripts, sub, tree, env, "cudalint.sarif")
            outputs = dict(l.split("=", 1) for l in open(env["GITHUB_OUTPUT"]).read().splitlines() if "=" in l)
            check(outputs.get("cudalint", "").startswith("cudalint-") and outputs.get("toolkit"),
                  f"GitHub: the versions step gives both versions ({outputs})")
            check(os.path.isdir(os.path.join(env["HOME"], ".cache", "cudalint")), "GitHub: the cache directory is filled")
            if lint_gh:
                seen += shard_files(lint_gh[0], sub, tree, env)
        check(sorted(seen) == total, f"GitHub: the shards lint every file once ({len(seen)} of {len(total)})")
        seen = []
        gl_scripts = run_scripts(gl)
        for k in range(1, n_gl + 1):
            sub = {"$CI_NODE_INDEX": str(k), "$CI_NODE_TOTAL": str(n_gl)}
            run_job(gl_scripts, sub, tree, env, "gl-code-quality-report.json")
            seen += shard_files([s for s in gl_scripts if "--shard" in s][0], sub, tree, env)
        check(sorted(seen) == total, f"GitLab: the shards lint every file once ({len(seen)} of {len(total)})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
