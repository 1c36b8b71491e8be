#!/usr/bin/env python3
"""install_test.py: `cmake --install` and what it installs.

- The man page and the bash and zsh completions (generated at build time from
  the option table) list, for each command (lint, lsp, confirm), exactly the
  options its --help lists: they cannot drift apart.
- The bash completion works in a real bash: options, option values (formats,
  colours, rules, comma-separated rule lists, --opt=value), subcommands.
- The man page renders without warnings (when man is installed); the zsh
  completion parses and, in a real interactive zsh on a pseudo-terminal
  (tests/data/zsh_complete.zsh), Tab completes options, values and
  subcommand options (when zsh is installed).
- `cmake --install` into a scratch prefix puts the binary, the man page and
  the completions in place (zsh: site-functions, or vendor-completions for
  /usr), and the installed binary runs.

Usage: tests/install_test.py [BUILD_DIR]   (default: $CUDALINT's directory, else build/)"""
import os, re, shutil, subprocess, sys, tempfile

SRC = os.environ.get("CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("CUDALINT", os.path.join(SRC, "build", "cudalint")))
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(BIN)
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def help_options(cmd):
    h = subprocess.run([BIN] + cmd + ["--help"], capture_output=True, text=True).stdout
    opts = set()
    for line in h.splitlines():
        m = re.match(r"^  (-\w)?(?:, )?(--[a-z][\w-]*)?(?= |$)", line)
        if m:
            opts |= {o for o in m.groups() if o}
    return opts


def bash_options(script, cmd):
    m = re.search(r"^\s+%s\) COMPREPLY=\(\$\(compgen -W \"([^\"]*)\"" % cmd, script, re.M)
    return set(m.group(1).split()) if m else set()


def zsh_options(script, cmd):
    m = re.search(r"^_cudalint_%s_options=\((.*?)^\)" % cmd, script, re.M | re.S)
    opts = set()
    for line in (m.group(1).splitlines() if m else []):
        line = line.strip()
        g = re.match(r"'\([^)]*\)'\{(-\w)\+?,(--[\w-]+)=?\}", line)
        if g:
            opts |= set(g.groups())
            continue
        g = re.match(r"'(--?[\w-]+?)[=+]?\[", line)
        if g:
            opts.add(g.group(1))
    return opts


def man_options(man, section):
    """Options of a man page section (.SH NAME up to the next .SH)."""
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH )" % section, man, re.M | re.S)
    opts = set()
    for tp in re.findall(r"^\.TP\n(.*)$", m.group(1) if m else "", re.M):
        for o in re.findall(r"\\fB((?:\\-)+[\w\\-]+)\\fR", tp):
            opts.add(o.replace("\\-", "-"))
    return opts


def complete(script_path, words, cword=None):
    """COMPREPLY for the command line `words` (the last word is being completed)."""
    cword = len(words) - 1 if cword is None else cword
    arr = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    prog = f'. "{script_path}"; COMP_WORDS=({arr}); COMP_CWORD={cword}; _cudalint; printf "%s\\n" "${{COMPREPLY[@]}}"'
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", prog], capture_output=True, text=True,
                       cwd=tempfile.gettempdir())
    check(p.returncode == 0, f"bash completion of {words}: {p.stderr.strip()}")
    return [l for l in p.stdout.splitlines() if l]


def main():
    man_path = os.path.join(BUILD, "share", "man", "man1", "cudalint.1")
    bash_path = os.path.join(BUILD, "share", "bash-completion", "cudalint")
    zsh_path = os.path.join(BUILD, "share", "zsh", "_cudalint")
    for p in (man_path, bash_path, zsh_path):
        if not check(os.path.exists(p), f"generated at build time: {p}"):
            return 1
    man, bash, zsh = (open(p).read() for p in (man_path, bash_path, zsh_path))
    for cmd, words, section in (("lint", [], "OPTIONS"), ("lsp", ["lsp"], "LANGUAGE SERVER OPTIONS"),
                                ("confirm", ["confirm"], "CONFIRM OPTIONS")):
        want = help_options(words)
        check(len(want) > 3, f"{cmd} --help lists options ({want})")
        for what, got in (("bash", bash_options(bash, cmd)), ("zsh", zsh_options(zsh, cmd)),
                          ("man", man_options(man, section))):
            check(got == want, f"{what} {cmd}: options differ from --help: missing {sorted(want - got)}, "
                               f"extra {sorted(got - want)}")

    # A real bash.
    r = complete(bash_path, ["cudalint", "--sta"])
    check(r == ["--statistics"], f"bash: --sta -> --statistics ({r})")
    r = complete(bash_path, ["cudalint", "--format", ""])
    check({"text", "json", "sarif", "github"} <= set(r), f"bash: --format values ({r})")
    r = complete(bash_path, ["cudalint", "--color", "=", ""])
    check(sorted(r) == ["always", "auto", "never"], f"bash: --color=<TAB> ({r})")
    r = complete(bash_path, ["cudalint", "--select", "CU201,CU1"])
    check(r and all(x.startswith("CU201,CU1") for x in r) and "CU201,CU101" in r, f"bash: rule lists ({r})")
    r = complete(bash_path, ["cudalint", "--explain", "double-l"])
    check(r == ["double-literal"], f"bash: --explain by name ({r})")
    r = complete(bash_path, ["cudalint", "lsp", "--no-r"])
    check(r == ["--no-reuse"], f"bash: lsp options ({r})")
    r = complete(bash_path, ["cudalint", "--no-r"])
    check(r == [], f"bash: no lsp option for lint ({r})")
    r = complete(bash_path, ["cudalint", "confirm", "--st"])
    check(r == ["--static"], f"bash: confirm options ({r})")
    r = complete(bash_path, ["cudalint", "l"])
    check("lsp" in r, f"bash: subcommands ({r})")
    r = complete(bash_path, ["cudalint", "-j", ""])
    check(r == [], f"bash: nothing to offer for -j N ({r})")

    if shutil.which("man"):
        p = subprocess.run(["man", "--warnings", "-l", man_path], capture_output=True, text=True,
                           env=dict(os.environ, MANPAGER="cat", MANWIDTH="80"))
        check(p.returncode == 0 and "--stdin-filename" in p.stdout.replace("\u2010", "-"),
              f"man renders cudalint.1 ({p.returncode})")
        check(p.stderr.strip() == "", f"man: no warnings ({p.stderr.strip()[:300]})")
    if shutil.which("zsh"):
        p = subprocess.run(["zsh", "-n", zsh_path], capture_output=True, text=True)
        check(p.returncode == 0, f"zsh parses _cudalint ({p.stderr.strip()})")
        # A real interactive zsh: Tab completes each line to the wanted one.
        cases = [("--stat", "--statistics"), ("--format sar", "--format sarif"), ("lsp --no-r", "lsp --no-reuse"),
                 ("--explain double-l", "--explain double-literal"), ("confirm --sta", "confirm --static"),
                 ("--color nev", "--color never"), ("--output-f", "--output-file")]
        zdir = tempfile.mkdtemp(prefix="cudalint-zsh.")
        try:
            shutil.copy(zsh_path, zdir)
            p = subprocess.run(["zsh", "-f", os.path.join(SRC, "tests", "data", "zsh_complete.zsh"), zdir]
                               + [c for c, _ in cases], capture_output=True, text=True, timeout=120, cwd=zdir)
            got = [l[len("RESULT "):].strip() for l in p.stdout.splitlines() if l.startswith("RESULT ")]
            for (typed, want), g in zip(cases, got + [None] * len(cases)):
                check(g == want, f"zsh: 'cudalint {typed}<Tab>' gives 'cudalint {want}' (got {g!r})")
        finally:
            shutil.rmtree(zdir, ignore_errors=True)

    # cmake --install into scratch prefixes.
    tmp = tempfile.mkdtemp(prefix="cudalint-install.")
    try:
        for prefix, zdir in (("/opt/cl", "site-functions"), ("/usr", "vendor-completions")):
            dest = os.path.join(tmp, "d" + prefix.replace("/", "_"))
            p = subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], capture_output=True, text=True,
                               env=dict(os.environ, DESTDIR=dest))
            if not check(p.returncode == 0, f"cmake --install --prefix {prefix}: {p.stderr.strip()}"):
                continue
            root = dest + prefix
            for rel in ("bin/cudalint", "share/man/man1/cudalint.1", "share/bash-completion/completions/cudalint",
                        f"share/zsh/{zdir}/_cudalint"):
                check(os.path.isfile(os.path.join(root, rel)), f"--prefix {prefix}: {rel} installed")
            p = subprocess.run([os.path.join(root, "bin", "cudalint"), "--version"], capture_output=True, text=True)
            check(p.returncode == 0 and p.stdout.startswith("cudalint "), f"the installed binary runs ({p.stdout})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
