#!/usr/bin/env python3
"""bad_input.py: the bad-input matrix: hostile or broken inputs, each linted
next to a good file in one run.

Usage: bad_input.py [--table] [--only NAME] [path/to/cudalint]
       (else $CUDALINT, else build/cudalint)

Each case makes a fresh directory with good.cu (one CU201 warning) and its
bad input, runs `cudalint --no-cache --no-cuda-headers --preview ... BAD good.cu` under
resource limits (address space, CPU time, a wall-clock deadline), and checks:
  - the exit code;
  - one line of output that names the file (or option) and the problem;
  - the time and the peak memory (RSS of the process tree) stay under the
    case's bounds;
  - good.cu's finding is still reported (except for usage errors, where the
    run stops before any file is linted, by design: a bad option or
    configuration is fixed before anything is trusted).
--table prints a Markdown table (case, exit, message, time, memory, verdict).
Python 3 stdlib only.  Exits non-zero and says what failed.
"""
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

GOOD = b"__global__ void k(float *o)\n{\n    o[0] = o[1] * 1.1;\n}\n"
GOOD_RE = re.compile(r"good\.cu:3:\d+: warning: .*\[CU201")
AS_LIMIT = 8 << 30      # address space of each process (the lint reserves 256 MB stacks)
CPU_LIMIT = 240         # seconds of CPU per process
DEFAULT_WALL = 60.0     # seconds, unless a case says otherwise
DEFAULT_MEM = 1500      # MB of peak RSS, unless a case says otherwise


def find_binary(args):
    if args:
        return os.path.abspath(args[0])
    if os.environ.get("CUDALINT"):
        return os.environ["CUDALINT"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), "build", "cudalint")


def write(d, name, data, mode=None):
    p = os.path.join(d, name)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    if mode is not None:
        os.chmod(p, mode)
    return name


def nest(open_, inner, close, n):
    return open_ * n + inner + close * n


def kernel(body):
    return "__global__ void k(float *a)\n{\n    " + body + "\n}\n"


# ---- the cases: name -> function(dir) returning a dict:
#   args: the command line after the common options (good.cu is appended
#         unless usage=True); exit: the expected exit code; msg: a regex one
#         output line must match; usage: True when the run stops before
#         linting; wall, mem: bounds (s, MB); env: extra environment.

CASES = []


def case(fn):
    CASES.append(fn)
    return fn


@case
def missing_file(d):
    return dict(args=["missing.cu"], exit=2, msg=r"error: missing\.cu: No such file or directory")


@case
def unreadable_file(d):
    if os.geteuid() != 0:
        write(d, "secret.cu", kernel("a[0] = 1;"), 0)
        return dict(args=["secret.cu"], exit=2, msg=r"error: secret\.cu: cannot read: Permission denied")
    # root reads anything whatever its mode: a file whose read fails instead.
    return dict(args=["/proc/self/mem"], exit=2, msg=r"error: /proc/self/mem: cannot read: Input/output error")


@case
def directory_without_sources(d):
    os.mkdir(os.path.join(d, "empty"))
    return dict(args=["empty"], exit=1, msg=r"note: empty: no CUDA files")


@case
def symlink_loop_file(d):
    os.symlink("loop_b.cu", os.path.join(d, "loop_a.cu"))
    os.symlink("loop_a.cu", os.path.join(d, "loop_b.cu"))
    return dict(args=["loop_a.cu"], exit=2, msg=r"error: loop_a\.cu: Too many levels of symbolic links")


@case
def symlink_loop_directory(d):
    write(d, "tree/sub/x.cu", kernel("a[0] = a[1] * 1.1;"))
    os.symlink("..", os.path.join(d, "tree/sub/up"))
    os.symlink(".", os.path.join(d, "tree/self"))
    # Each file is linted once, not once per path around the cycle.
    return dict(args=["tree"], exit=1, msg=r"tree/sub/x\.cu:3:\d+: warning: .*CU201",
                check=lambda out: out.count("x.cu:3:") == 1 or "x.cu linted more than once")


@case
def fifo(d):
    os.mkfifo(os.path.join(d, "pipe.cu"))
    return dict(args=["pipe.cu"], exit=2, msg=r"error: pipe\.cu: cannot read: a FIFO, not a source file", wall=20)


@case
def character_device(d):
    return dict(args=["/dev/zero"], exit=2, msg=r"error: /dev/zero: cannot read: a character device", wall=20)


@case
def dev_null(d):
    return dict(args=["/dev/null"], exit=2, msg=r"error: /dev/null: cannot read: a character device", wall=20)


@case
def directory_as_file(d):
    os.mkdir(os.path.join(d, "dir.cu"))
    return dict(args=["dir.cu"], exit=1, msg=r"note: dir\.cu: no CUDA files")


@case
def binary_file(d):
    with open(sys.executable, "rb") as f:
        write(d, "prog.cu", f.read(200000))
    return dict(args=["prog.cu"], exit=1, msg=r"note: prog\.cu: binary file \(contains NUL bytes\), not linted")


@case
def nul_after_8k(d):
    write(d, "late_nul.cu", b"// " + b"x" * 9000 + b"\n" + b"int a\0b;\n" + kernel("a[0] = a[1] * 1.1;").encode())
    return dict(args=["late_nul.cu"], exit=1, msg=r"late_nul\.cu:\d+:\d+: warning: .*CU201")


@case
def invalid_utf8(d):
    write(d, "latin1.cu", b"// caf\xe9 \xff\xfe \xc3\x28\n" + kernel("a[0] = a[1] * 1.1; // \xe9").encode("latin-1"))
    return dict(args=["latin1.cu"], exit=1, msg=r"latin1\.cu:4:\d+: warning: .*CU201")


@case
def crlf(d):
    write(d, "crlf.cu", kernel("a[0] = a[1] * 1.1;").replace("\n", "\r\n"))
    return dict(args=["crlf.cu"], exit=1, msg=r"crlf\.cu:3:\d+: warning: .*CU201")


@case
def lone_cr(d):
    write(d, "cr.cu", kernel("a[0] = a[1] * 1.1;").replace("\n", "\r"))
    return dict(args=["cr.cu"], exit=1, msg=r"cr\.cu:3:\d+: warning: .*CU201")


@case
def empty_file(d):
    write(d, "empty.cu", b"")
    return dict(args=["empty.cu"], exit=1, msg=None)


@case
def lines_200000(d):
    body = "".join("int v%d;\n" % i for i in range(200000 - 5))
    write(d, "long.cu", body + kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["long.cu"], exit=1, msg=r"long\.cu:199998:\d+: warning: .*CU201", wall=90)


@case
def one_line_of_2mb(d):
    # 150,000 statements in one kernel on one line.  CU102 and CU104 take
    # time quadratic in a kernel's statements (25 s each here; reported to
    # their owners), so they are left out of this case; CU402's was fixed.
    write(d, "wide.cu", "__global__ void k(float *a) { " + "a[0] += 1.0f; " * 150000 + "a[1] = a[2] * 1.1; }\n")
    return dict(args=["--ignore", "CU102,CU104", "wide.cu"], exit=1, msg=r"wide\.cu:1:\d+: warning: .*CU201",
                wall=120)


@case
def too_large(d):
    write(d, "huge.cu", b"// " + b"x" * 5000000 + b"\n")
    return dict(args=["huge.cu"], exit=1, msg=r"note: huge\.cu: file too large \(5\.0 MB, the limit is 4\.0 MB")


@case
def parens_2000(d):
    write(d, "p2000.cu", kernel("float x = " + nest("(", "a[0]", ")", 2000) + "; a[1] = x * 1.1;"))
    return dict(args=["p2000.cu"], exit=1, msg=r"p2000\.cu:3:\d+: warning: .*CU201")


@case
def parens_100000(d):
    write(d, "p100k.cu", kernel("float x = " + nest("(", "a[0]", ")", 100000) + ";"))
    return dict(args=["p100k.cu"], exit=1, msg=r"p100k\.cu:3:\d+: note: .*bracket nesting level exceeded.*CU000")


@case
def braces_100000(d):
    write(d, "b100k.cu", kernel(nest("{", "a[0] = 1;", "}", 100000)))
    return dict(args=["b100k.cu"], exit=1, msg=r"b100k\.cu:3:\d+: note: .*bracket nesting level exceeded.*CU000")


@case
def unary_chain_100000(d):
    write(d, "u100k.cu", kernel("a[0] = " + "-" * 100000 + "a[1];"))
    return dict(args=["u100k.cu"], exit=1, msg=r"u100k\.cu:3:\d+: note: code nested deeper than 4096 levels.*CU000",
                wall=90)


@case
def binary_operator_chain_100000(d):
    # CU102 and CU104 are quadratic here too (see one_line_of_2mb).
    write(d, "bin100k.cu", kernel("a[0] = a[1]" + " + a[1]" * 100000 + ";"))
    return dict(args=["--ignore", "CU102,CU104", "bin100k.cu"], exit=1,
                msg=r"bin100k\.cu:3:\d+: note: code nested deeper than 4096 levels", wall=90)


@case
def templates_100000(d):
    write(d, "t100k.cu", "template <class T> struct W {};\n" + nest("W<", "int", ">", 100000) + " *p;\n")
    return dict(args=["t100k.cu"], exit=2, msg=r"error: t100k\.cu: crashed \(signal 11, Segmentation fault\)")


@case
def nested_ifs_100000(d):
    write(d, "if100k.cu", kernel("if (a[0]) " * 100000 + "a[1] = 1;"))
    return dict(args=["--time-limit", "8", "if100k.cu"], exit=2,
                msg=r"error: if100k\.cu: time limit of 8 s exceeded", wall=40)


@case
def nested_lambdas_2000(d):
    write(d, "lam.cu", kernel("a[0] = " + "[&]{ return " * 2000 + "a[1]" + ";}()" * 2000 + ";"))
    return dict(args=["--time-limit", "8", "lam.cu"], exit=2, msg=r"error: lam\.cu: time limit of 8 s exceeded",
                wall=40)


@case
def nested_macro_calls_10000(d):
    write(d, "mac.cu", "#define F(x) (x+1)\n" + kernel("a[0] = " + nest("F(", "a[1]", ")", 10000) + ";"))
    return dict(args=["--time-limit", "8", "--memory-limit", "800", "mac.cu"], exit=2,
                msg=r"error: mac\.cu: (time limit of 8 s exceeded|ran out of memory \(--memory-limit 800 MB\)|libclang crashed while parsing)",
                wall=40)


@case
def macro_bomb(d):
    lines = ["#define A0 a[1] + a[1]"] + ["#define A%d A%d + A%d" % (i, i - 1, i - 1) for i in range(1, 40)]
    write(d, "bomb.cu", "\n".join(lines) + "\n" + kernel("a[0] = A39;"))
    return dict(args=["--time-limit", "8", "--memory-limit", "800", "bomb.cu"], exit=2,
                msg=r"error: bomb\.cu: (time limit of 8 s exceeded|ran out of memory \(--memory-limit 800 MB\)|libclang crashed while parsing)",
                wall=40)


@case
def self_include(d):
    write(d, "self.cu", '#include "self.cu"\n' + kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["self.cu"], exit=1, msg=r"self\.cu:\d+:\d+: note: .*#include nested (depth|too deeply).*CU000")


@case
def include_dev_zero(d):
    # clang reads the device until memory runs out: contained by the limit.
    write(d, "zero.cu", '#include "/dev/zero"\n' + kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["--memory-limit", "1000", "zero.cu"], exit=2,
                msg=r"error: zero\.cu: (ran out of memory \(--memory-limit 1000 MB\)|libclang crashed while parsing)", wall=40)


@case
def include_fifo(d):
    os.mkfifo(os.path.join(d, "inc.fifo"))
    write(d, "incfifo.cu", '#include "inc.fifo"\n' + kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["--time-limit", "10", "incfifo.cu"], exit=None,
                msg=r"incfifo\.cu(:\d+:\d+: (note|warning)|: time limit of 10 s exceeded)", wall=40)


@case
def compdb_malformed_given(d):
    write(d, "db/compile_commands.json", b'[{"directory": "/", "file": "x.cu", "command": ')
    return dict(args=["-p", "db"], exit=2, usage=True, msg=r"error: .*db/compile_commands\.json.*")


@case
def compdb_malformed_discovered(d):
    write(d, "compile_commands.json", b'[{"directory": 5}, 7, "x"')
    return dict(args=[], exit=1, msg=r"warning: ignoring .*compile_commands\.json")


@case
def compdb_wrong_types(d):
    write(d, "compile_commands.json",
            b'[{"directory": [], "file": {}, "command": 5}, {"directory": ".", "file": "good.cu", "arguments": [1, null]}]')
    return dict(args=[], exit=None, msg=r"compile_commands\.json")


@case
def compdb_huge(d):
    entries = ",".join('{"directory": "%s", "file": "f%d.cu", "command": "nvcc -DN=%d -I inc -c f%d.cu"}'
                       % (d, i, i, i) for i in range(100000))
    write(d, "compile_commands.json", "[" + entries + "]")
    return dict(args=[], exit=1, msg=None, wall=60)


@case
def compdb_response_file_dev_zero(d):
    write(d, "bad.cu", kernel("a[0] = a[1] * 1.1;"))
    write(d, "compile_commands.json",
          '[{"directory": "%s", "file": "bad.cu", "command": "nvcc @/dev/zero -c bad.cu"}]' % d)
    return dict(args=["bad.cu"], exit=2, msg=r"error: bad\.cu: .*/dev/zero", wall=30)


@case
def compdb_response_file_cycle(d):
    write(d, "a.rsp", "@b.rsp -DA")
    write(d, "b.rsp", "@a.rsp -DB")
    write(d, "bad.cu", kernel("a[0] = a[1] * 1.1;"))
    write(d, "compile_commands.json",
          '[{"directory": "%s", "file": "bad.cu", "command": "nvcc @a.rsp -c bad.cu"}]' % d)
    return dict(args=["bad.cu"], exit=None, msg=r"bad\.cu.*(a\.rsp|b\.rsp|CU201)", wall=30)


@case
def compdb_plugin_flags(d):
    write(d, "compile_commands.json",
          '[{"directory": "%s", "file": "good.cu", "arguments": ["clang++", "-Xclang", "-load", "-Xclang", "/tmp/evil.so",'
          ' "-fplugin=/tmp/evil.so", "-fpass-plugin=/tmp/evil.so", "-B/tmp/evil", "-c", "good.cu"]}]' % d)
    # Dropped without a word, as every flag the translation does not know
    # (tests/no_exec.py shows that nothing runs).
    return dict(args=[], exit=1, msg=None)


@case
def config_alias_bomb(d):
    # A billion laughs through keys the configuration knows: nine levels of
    # nine aliases each (9^9 leaves if expanded); a list of lists is refused
    # at its first element, so nothing is expanded.
    lines = ['select: &a0 ["CU201", "CU201", "CU201", "CU201", "CU201", "CU201", "CU201", "CU201", "CU201"]']
    keys = ["ignore", "exclude", "extra-args", "cuda-arch", "options", "severity", "host", "cuda-path", "x9"]
    for i in range(1, 10):
        lines.append("%s: &a%d [%s]" % (keys[i - 1], i, ", ".join(["*a%d" % (i - 1)] * 9)))
    write(d, ".cudalint.yaml", "\n".join(lines) + "\n")
    return dict(args=[], exit=2, usage=True, msg=r"\.cudalint\.yaml:\d+: key 'ignore'", wall=10)


@case
def config_wrong_types(d):
    write(d, ".cudalint.yaml", "select: 5\nignore: {a: b}\nmax-file-size: [1, 2]\ncuda-arch: true\n")
    return dict(args=[], exit=2, usage=True, msg=r"\.cudalint\.yaml:\d+.*")


@case
def config_huge_string(d):
    write(d, ".cudalint.yaml", "select: \"" + "CU2" * 3000000 + "\"\n")
    return dict(args=[], exit=2, usage=True, msg=r"\.cudalint\.yaml.*", wall=30)


@case
def config_bom(d):
    write(d, ".cudalint.yaml", b"\xef\xbb\xbfignore: [CU101]\n")
    return dict(args=[], exit=1, msg=None)


@case
def config_tabs(d):
    write(d, ".cudalint.yaml", "ignore:\n\t- CU101\n")
    return dict(args=[], exit=2, usage=True, msg=r"\.cudalint\.yaml:\d+.*")


@case
def config_binary(d):
    write(d, ".cudalint.yaml", b"\x00\x01\x02\xff\xfe garbage \x00")
    return dict(args=[], exit=2, usage=True, msg=r"\.cudalint\.yaml.*")


@case
def config_deep_nesting(d):
    write(d, ".cudalint.yaml", "options: " + "[" * 100000 + "]" * 100000 + "\n")
    return dict(args=[], exit=2, usage=True, msg=r"\.cudalint\.yaml.*", wall=30)


@case
def config_is_fifo(d):
    # Only a regular file is a configuration: a FIFO of that name is passed
    # over (never opened, so nothing waits on it).
    os.mkfifo(os.path.join(d, ".cudalint.yaml"))
    return dict(args=[], exit=1, msg=None, wall=20)


@case
def jobs_zero(d):
    return dict(args=["-j", "0"], exit=2, usage=True, msg=r"error: -j needs a number of jobs from 1 to 1024, not '0'")


@case
def jobs_negative(d):
    return dict(args=["-j", "-1"], exit=2, usage=True, msg=r"error: -j needs a number of jobs from 1 to 1024, not '-1'")


@case
def jobs_100000(d):
    return dict(args=["-j", "100000"], exit=2, usage=True,
                msg=r"error: -j needs a number of jobs from 1 to 1024, not '100000'")


@case
def jobs_1024_few_files(d):
    return dict(args=["-j", "1024"], exit=1, msg=None)


@case
def max_file_size_negative(d):
    return dict(args=["--max-file-size", "-5"], exit=2, usage=True, msg=r"error: --max-file-size needs a size in MB, not '-5'")


@case
def max_file_size_nan(d):
    return dict(args=["--max-file-size", "nan"], exit=2, usage=True, msg=r"error: --max-file-size needs a size in MB, not 'nan'")


@case
def time_limit_junk(d):
    return dict(args=["--time-limit", "soon"], exit=2, usage=True, msg=r"error: --time-limit needs a number of seconds")


@case
def memory_limit_negative(d):
    return dict(args=["--memory-limit", "-1"], exit=2, usage=True, msg=r"error: --memory-limit needs a size in MB")


@case
def junk_arch(d):
    return dict(args=["--cuda-arch", "sm_junk"], exit=2, usage=True,
                msg=r"error: --cuda-arch: 'sm_junk' is not a GPU arch like sm_90")


@case
def empty_arch_list(d):
    return dict(args=["--cuda-arch", ",,"], exit=1, msg=None)


@case
def path_with_spaces(d):
    write(d, "my dir/a file.cu", kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["my dir/a file.cu"], exit=1, msg=r"my dir/a file\.cu:3:\d+: warning: .*CU201")


@case
def path_with_newline(d):
    write(d, "new\nline.cu", kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["new\nline.cu"], exit=1, msg=r"line\.cu:3:\d+: warning: .*CU201")


@case
def path_non_ascii(d):
    write(d, "caf\u00e9_\u6587\u4ef6_\U0001F600.cu", kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["caf\u00e9_\u6587\u4ef6_\U0001F600.cu"], exit=1,
                msg="caf\u00e9_\u6587\u4ef6_\U0001F600\\.cu:3:\\d+: warning: .*CU201")


@case
def path_invalid_utf8(d):
    name = b"bad\xff\xfe.cu"
    with open(os.path.join(d.encode(), name), "wb") as f:
        f.write(kernel("a[0] = a[1] * 1.1;").encode())
    return dict(args=[name], exit=1, msg=r"bad.*\.cu:3:\d+: warning: .*CU201")


@case
def path_dash(d):
    write(d, "-x.cu", kernel("a[0] = a[1] * 1.1;"))
    return dict(args=["./-x.cu"], exit=1, msg=r"-x\.cu:3:\d+: warning: .*CU201")


@case
def nolint_storm(d):
    write(d, "nolint.cu", "// NOLINTBEGIN(CU2*)\n" * 50000 + kernel("a[0] = a[1] * 1.1; // NOLINT(((((") +
          "// NOLINTEND\n" * 3)
    return dict(args=["nolint.cu"], exit=1, msg=r"nolint\.cu:\d+:\d+: (warning|note): .*CU001", wall=60)


@case
def same_file_many_names(d):
    return dict(args=["good.cu", "./good.cu", "../" + os.path.basename(d) + "/good.cu"], exit=1, msg=None)


# ---- running ----

def limits():
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT))
    os.setsid()


def run_case(binary, fn, root):
    d = os.path.join(root, fn.__name__)
    os.mkdir(d)
    write(d, "good.cu", GOOD)
    spec = fn(d)
    usage = spec.get("usage", False)
    # --preview: good.cu's finding is CU201's, a rule that is still preview (off by default).
    args = [binary, "--no-cache", "--no-cuda-headers", "--preview", "--color", "never", "-j", "2"] + spec["args"] + ["good.cu"]
    wall = spec.get("wall", DEFAULT_WALL)
    env = dict(os.environ, HOME=d, XDG_CACHE_HOME=os.path.join(d, ".cache"))
    out_path, err_path = os.path.join(root, fn.__name__ + ".out"), os.path.join(root, fn.__name__ + ".err")
    with open(out_path, "wb") as fo, open(err_path, "wb") as fe:
        t0 = time.monotonic()
        p = subprocess.Popen(args, cwd=d, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL, env=env,
                             preexec_fn=limits)
        killed = []

        def on_timeout():
            killed.append(True)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
        timer = threading.Timer(wall * 2 + 10, on_timeout)
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        timer.cancel()
        elapsed = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
    out = open(out_path, "rb").read().decode("utf-8", "replace")
    err = open(err_path, "rb").read().decode("utf-8", "replace")
    mem_mb = ru.ru_maxrss / 1024.0
    problems = []
    if killed:
        problems.append("hung (killed after %.0f s)" % (wall * 2 + 10))
    if p.returncode < 0:
        problems.append("died of signal %d" % -p.returncode)
    if spec["exit"] is not None and p.returncode != spec["exit"]:
        problems.append("exit %d, expected %d" % (p.returncode, spec["exit"]))
    lines = (err + out).splitlines()
    message = ""
    if spec.get("msg"):
        rx = re.compile(spec["msg"])
        hits = [l for l in lines if rx.search(l)]
        if hits:
            message = hits[0]
        else:
            problems.append("no line matches /%s/" % spec["msg"])
    else:
        message = next((l for l in err.splitlines() if l.strip()), "(none: linted normally)")
        if "error:" in err and p.returncode != 2:
            problems.append("unexpected error output")
    if not usage and not GOOD_RE.search(out):
        problems.append("good.cu's finding is missing")
    if usage and GOOD_RE.search(out):
        problems.append("usage error, yet files were linted")
    if elapsed > wall:
        problems.append("took %.1f s (bound %.0f s)" % (elapsed, wall))
    if mem_mb > spec.get("mem", DEFAULT_MEM):
        problems.append("peak RSS %.0f MB (bound %d MB)" % (mem_mb, spec.get("mem", DEFAULT_MEM)))
    chk = spec.get("check")
    if chk:
        r = chk(out)
        if r is not True:
            problems.append(r)
    return dict(name=fn.__name__, exit=p.returncode, message=message, time=elapsed, mem=mem_mb,
                problems=problems, others="n/a (usage)" if usage else ("yes" if GOOD_RE.search(out) else "NO"))


def main(argv):
    table = "--table" in argv
    argv = [a for a in argv if a != "--table"]
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = argv[i + 1].split(",")
        del argv[i:i + 2]
    binary = find_binary(argv)
    root = tempfile.mkdtemp(prefix="cudalint-bad-")
    results = []
    try:
        for fn in CASES:
            if only and fn.__name__ not in only:
                continue
            r = run_case(binary, fn, root)
            results.append(r)
            verdict = "ok" if not r["problems"] else "FAIL: " + "; ".join(r["problems"])
            print("%-4s %-32s exit %-3s %6.1f s %7.0f MB  %s" % (
                "ok" if not r["problems"] else "FAIL", r["name"], r["exit"], r["time"], r["mem"],
                r["message"][:110] if not r["problems"] else verdict), flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if table:
        print()
        print("| case | exit | message | time | peak RSS | other file linted | verdict |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for r in results:
            msg = r["message"].replace("|", "\\|").replace(root, "")
            if len(msg) > 120:
                msg = msg[:117] + "..."
            print("| %s | %s | `%s` | %.1f s | %.0f MB | %s | %s |" % (
                r["name"], r["exit"], msg, r["time"], r["mem"], r["others"],
                "ok" if not r["problems"] else "FAIL: " + "; ".join(r["problems"])))
    failed = [r["name"] for r in results if r["problems"]]
    print("%d cases, %d failed%s" % (len(results), len(failed), (": " + ", ".join(failed)) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
