#!/usr/bin/env python3
"""setup_packages.py: keeps the README's set-up table true to .ci/setup.

The table under `<!-- setup-packages: ... -->` in the README is generated from
the package lists in .ci/setup (BUILD_PKGS, TEST_PKGS, TEST_CMDS); this test
fails when the two differ, and when a package of .ci/setup is missing from the
README's Dependencies table (which says what each one is for).
    python3 tests/setup_packages.py           check
    python3 tests/setup_packages.py --write   regenerate the README's table
"""
import os, re, shlex, sys

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = re.compile(r"(<!-- setup-packages:[^\n]*-->\n)(.*?)(\n\n)", re.S)


def setup_lists():
    """The shell assignments NAME="..." of .ci/setup, split into words."""
    with open(os.path.join(SRC, ".ci", "setup"), encoding="utf-8") as f:
        text = f.read()
    lists = {}
    for name in ("BUILD_PKGS", "TEST_PKGS", "TEST_CMDS"):
        m = re.search(r'^%s="([^"]*)"' % name, text, re.M)
        if not m:
            sys.exit(f"FAIL .ci/setup has no {name}=\"...\" line")
        lists[name] = shlex.split(m.group(1))
    return lists


def table(lists):
    code = lambda names: ", ".join(f"`{n}`" for n in names)
    cmds = [c.split(":", 1) for c in lists["TEST_CMDS"]]
    when = " and ".join(f"`{p}`" for _, p in cmds)
    progs = " and ".join(f"`{c}`" for c, _ in cmds)
    return "\n".join([
        "| command | installs (Debian packages, only the missing ones; needs root) | builds |",
        "| --- | --- | --- |",
        f"| `.ci/setup` | {code(lists['BUILD_PKGS'])} | `build/cudalint` |",
        f"| `.ci/setup --tests`, `.ci/run` | those, and {code(lists['TEST_PKGS'])}; "
        f"{when} only when {progs} are not on `PATH` | `build/cudalint` and the tests |",
    ])


def main():
    lists = setup_lists()
    want = table(lists)
    path = os.path.join(SRC, "README.md")
    with open(path, encoding="utf-8") as f:
        readme = f.read()
    m = MARK.search(readme)
    if not m:
        print("FAIL README.md has no '<!-- setup-packages: ... -->' block")
        return 1
    if "--write" in sys.argv[1:]:
        with open(path, "w", encoding="utf-8") as f:
            f.write(readme[:m.start(2)] + want + readme[m.end(2):])
        print("setup_packages: README table written")
        return 0
    failures = []
    if m.group(2).strip() != want.strip():
        failures.append("the README's set-up table differs from .ci/setup's lists: "
                        "run python3 tests/setup_packages.py --write")
    deps = re.search(r"^## Dependencies\n(.*?)(?=^## )", readme, re.S | re.M)
    documented = set(re.findall(r"`([^`]+)`", deps.group(1))) if deps else set()
    packages = lists["BUILD_PKGS"] + lists["TEST_PKGS"] + [c.split(":", 1)[1] for c in lists["TEST_CMDS"]]
    for p in packages:
        if p not in documented:
            failures.append(f"{p} (installed by .ci/setup) is not in the README's Dependencies table")
    for f in failures:
        print("FAIL", f)
    print(f"setup_packages: {len(packages)} packages, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
