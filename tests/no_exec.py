#!/usr/bin/env python3
"""no_exec.py: a cloned repository cannot make cudalint run a program or
write outside its cache and the files it was asked to fix.

Usage: no_exec.py [path/to/cudalint]   (else $CUDALINT, else build/cudalint)

A hostile checkout is built in a temporary directory: a compile_commands.json
whose commands carry plugin, program-path and output flags (-Xclang -load,
-fplugin=, -B, --gcc-toolchain=, -o, -MF, -include /dev/zero, a
`-ccbin` naming a script that would leave a mark) and a source file.  Then,
under `strace -f -e trace=execve,execveat,openat,open,creat,rename,unlink,
unlinkat,mkdir`:
  - a plain run executes nothing but cudalint itself (no other execve) and
    opens for writing only files under its --cache-dir;
  - a --fix run writes only under the cache and the fixed file's directory
    (its atomic temporary file and the file itself);
  - a .cudalint.yaml whose extra-args load a plugin is refused (exit 2,
    naming the file, key and argument), and nothing is executed either;
  - the marker the script would create never appears;
  - with a CUDA Toolkit, a run with codegen evidence (on by default there)
    executes only the toolkit's compilers (nvcc and what nvcc runs: its
    shell, cicc, ptxas, cudafe++, the host compiler gcc/g++ with cc1plus),
    never the checkout's -ccbin, and the database's -D values that nvcc's
    shell would run (`$(...)`, backquotes) never reach it; it writes only
    under the cache (its scratch copies included).
Skipped (exit 77) when strace is missing (Debian: apt-get install strace).
Python 3 stdlib only.  Exits non-zero and says what failed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)
    return cond


def find_binary(args):
    if args:
        return os.path.abspath(args[0])
    if os.environ.get("CUDALINT"):
        return os.environ["CUDALINT"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), "build", "cudalint")


OPEN_RE = re.compile(r'^\d+\s+(?:openat\(\w+, |open\(|creat\()"((?:[^"\\]|\\.)*)", ([^)]*)\)\s*=\s*(-?\d+)')
EXEC_RE = re.compile(r'^\d+\s+execve(?:at)?\((?:\w+, )?"((?:[^"\\]|\\.)*)"')


def traced(binary, args, cwd, log):
    cmd = ["strace", "-f", "-qq", "-e", "trace=execve,execveat,openat,open,creat", "-e", "signal=none",
           "-o", log, binary] + args
    # LeakSanitizer cannot run under ptrace: an ASan build aborts at exit
    # under strace unless leak checking is off for the traced run.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, env=env)
    execs, writes = [], []
    with open(log, errors="replace") as f:
        for line in f:
            m = EXEC_RE.match(line)
            if m:
                execs.append(m.group(1))
                continue
            m = OPEN_RE.match(line)
            if m and int(m.group(3)) >= 0 and re.search(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC", m.group(2)):
                writes.append(os.path.normpath(os.path.join(cwd, m.group(1))))
    return r, execs, writes


def toolkit_root():
    for root in [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"]:
        if root and os.access(os.path.join(root, "bin", "nvcc"), os.X_OK):
            return os.path.realpath(root)
    nvcc = shutil.which("nvcc")
    return os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else None


# What nvcc itself runs besides the toolkit's own programs: its steps go
# through the shell, and the host compiler preprocesses.
HOST_TOOLS = re.compile(r'^(/usr)?/bin/(sh|dash|bash|gcc|g\+\+|cc|c\+\+|cpp|x86_64-linux-gnu-(gcc|g\+\+|cpp)(-\d+)?|'
                        r'(gcc|g\+\+|cpp)-\d+)$|^/usr/(lib|libexec)/gcc/[^/]+/[^/]+/(cc1plus|cc1|collect2)$')


def successful_execs(log):
    """Programs strace saw started (execve returning 0); the PATH lookups
    that fail before (ENOENT) are not programs that ran."""
    done, pending = [], {}
    with open(log, errors="replace") as f:
        for line in f:
            m = re.match(r'^(\d+)\s+execve\("((?:[^"\\]|\\.)*)"', line)
            if m:
                if "<unfinished" in line:
                    pending[m.group(1)] = m.group(2)
                elif re.search(r'\)\s*=\s*0\s*$', line):
                    done.append(m.group(2))
                continue
            m = re.match(r'^(\d+)\s+<\.\.\. execve resumed>.*=\s*0\s*$', line)
            if m and m.group(1) in pending:
                done.append(pending.pop(m.group(1)))
    return done


def codegen_checks(binary, tmp, evil, marker):
    root = toolkit_root()
    if not root:
        print("skip codegen checks: no CUDA Toolkit")
        return
    repo = os.path.join(tmp, "cg")
    cache = os.path.join(tmp, "cgcache")
    os.makedirs(os.path.join(repo, "src"))
    with open(os.path.join(repo, "src", "k.cu"), "w") as f:
        f.write("__global__ void k(float *o)\n{\n    o[0] = o[1] * 1.1;\n}\n")
    args = ["nvcc", "-ccbin", evil, "-DA=$(touch %s)" % marker, "-DB=`touch %s`" % marker,
            "-I%s/inc;touch %s" % (repo, marker), "-c", "src/k.cu"]
    import json
    with open(os.path.join(repo, "compile_commands.json"), "w") as f:
        json.dump([{"directory": repo, "file": "src/k.cu", "arguments": args}], f)
    log = os.path.join(tmp, "strace-cg.log")
    r, execs, writes = traced(binary, ["--cache-dir", cache, "--preview", "--format", "json", "src"], repo, log)
    check(r.returncode in (0, 1), "a codegen run in the hostile checkout ends (exit %d %s)"
          % (r.returncode, r.stderr.strip()[:200]))
    check('"nvcc ' in r.stdout, "nvcc ran and gave its evidence")
    execs = successful_execs(log)
    others = [e for e in execs[1:] if not os.path.realpath(e).startswith(root + "/")
              and not HOST_TOOLS.match(e) and not HOST_TOOLS.match(os.path.realpath(e))]
    check(not others, "it executes only the toolkit's compilers and what nvcc runs (others: %s)" % others[:5])
    check(not any(os.path.realpath(e) == os.path.realpath(evil) for e in execs), "never the checkout's -ccbin")
    outside = [w for w in writes if not w.startswith(cache + "/") and w != "/dev/null"]
    check(not outside, "it writes only under its cache (outside: %s)" % outside[:5])
    check(not os.path.exists(marker), "no -D value or include path of the database ran in nvcc's shell")


def main(argv):
    if not shutil.which("strace"):
        print("strace not found (Debian: apt-get install strace): skipped")
        return 77
    binary = find_binary(argv)
    tmp = tempfile.mkdtemp(prefix="cudalint-noexec-")
    try:
        repo = os.path.join(tmp, "repo")
        cache = os.path.join(tmp, "cache")
        os.makedirs(os.path.join(repo, "src"))
        marker = os.path.join(tmp, "MARKER")
        evil = os.path.join(repo, "evil.sh")
        with open(evil, "w") as f:
            f.write("#!/bin/sh\ntouch %s\n" % marker)
        os.chmod(evil, 0o755)
        src = os.path.join(repo, "src", "k.cu")
        with open(src, "w") as f:
            f.write("__global__ void k(float *o)\n{\n    o[0] = o[1] * 2.1;\n}\n")
        cmd = ('%s -ccbin %s -Xclang -load -Xclang %s/evil.so -fplugin=%s/evil.so -fpass-plugin=%s/evil.so '
               '-B%s --gcc-toolchain=%s -MD -MF %s/deps.d -o %s/k.o -include /dev/zero '
               '-Xcompiler -fplugin=%s/evil.so -c src/k.cu' % (evil, evil, repo, repo, repo, repo, repo, tmp, tmp, repo))
        with open(os.path.join(repo, "compile_commands.json"), "w") as f:
            f.write('[{"directory": "%s", "file": "src/k.cu", "command": "%s"}]' % (repo, cmd))
        log = os.path.join(tmp, "strace.log")

        r, execs, writes = traced(binary, ["--cache-dir", cache, "--no-cuda-headers", "src"], repo, log)
        check(r.returncode in (0, 1, 2), "a plain run in the hostile checkout ends (exit %d)" % r.returncode)
        check(execs == [binary] or (len(execs) == 1 and os.path.samefile(execs[0], binary)),
              "it executes nothing but cudalint itself (execve: %s)" % execs)
        outside = [w for w in writes if not w.startswith(cache + "/") and w != cache and w != "/dev/null"]
        check(not outside, "it opens for writing only files under its cache (outside: %s)" % outside[:5])
        check(not os.path.exists(marker), "the checkout's script never ran")

        r, execs, writes = traced(binary, ["--cache-dir", cache, "--no-cuda-headers", "--preview", "--fix", "src"], repo, log)
        check(open(src).read().count("2.1f") == 1, "--fix fixed the file (exit %d)" % r.returncode)
        allowed = (cache + "/", os.path.join(repo, "src") + "/")
        outside = [w for w in writes if not w.startswith(allowed) and w != "/dev/null"]
        check(not outside, "--fix writes only under the cache and beside the fixed file (outside: %s)" % outside[:5])
        check(len(execs) == 1, "--fix executes nothing else (execve: %s)" % execs)

        with open(os.path.join(repo, ".cudalint.yaml"), "w") as f:
            f.write("extra-args: [-Xclang, -load, -Xclang, %s/evil.so]\n" % repo)
        r, execs, writes = traced(binary, ["--cache-dir", cache, "--no-cuda-headers", "src"], repo, log)
        check(r.returncode == 2 and re.search(r"\.cudalint\.yaml:1.*extra-args.*'-load' is not allowed", r.stderr),
              "a .cudalint.yaml loading a plugin is refused (%s)" % r.stderr.strip()[:200])
        check(len(execs) == 1, "and nothing is executed (execve: %s)" % execs)
        for bad in ["-fplugin=x.so", "-B/tmp", "--gcc-toolchain=/tmp", "-o /tmp/x", "@/dev/zero",
                    "-mllvm -x", "-MF /tmp/d", "-save-temps", "-fmodules-cache-path=/tmp"]:
            with open(os.path.join(repo, ".cudalint.yaml"), "w") as f:
                f.write("extra-args: [%s]\n" % ", ".join('"%s"' % w for w in bad.split()))
            r = subprocess.run([binary, "--no-cache", "--no-cuda-headers", "src"], cwd=repo, capture_output=True,
                               text=True, timeout=300)
            check(r.returncode == 2 and "is not allowed" in r.stderr, "extra-args: %s is refused" % bad)
        with open(src, "w") as f:
            f.write("__global__ void k(float *o)\n{\n    o[0] = o[1] * 1.1;\n}\n")
        with open(os.path.join(repo, ".cudalint.yaml"), "w") as f:
            f.write("extra-args: [-DX=1, -Wall, -Xclang, -fno-elide-constructors, -I, inc, -std=c++17]\n")
        r = subprocess.run([binary, "--no-cache", "--no-cuda-headers", "--preview", "src"], cwd=repo,
                           capture_output=True, text=True, timeout=300)
        check(r.returncode == 1 and "CU201" in r.stdout, "ordinary extra-args still work (exit %d %s)"
              % (r.returncode, r.stderr.strip()[:200]))
        codegen_checks(binary, tmp, evil, marker)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
