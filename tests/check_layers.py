#!/usr/bin/env python3
"""check_layers.py: enforces the layers of ARCHITECTURE.md on the C sources.

Every `#include "..."` of a file under analyzer/ and rules/ is read and mapped
to the layer of the folder it names.  The check fails on:
  - an include of a higher layer, or of another layer of the same rank;
  - an include cycle between modules (a module is x.c with its x.h);
  - an include not written relative to analyzer/ ("base/util.h"), or naming a
    file that does not exist;
  - a file in a folder that ARCHITECTURE.md does not place;
  - a function declared in x.h but defined in another module's .c (such a
    header hides real dependencies from the include graph) or nowhere;
  - a module's private header (below) included by a file of another module.
It prints each offending edge, cycle or declaration.

A module too long for one file may be split: x_internal.h is then its private
header, and x.c, x_internal.h and each x_*.c beside them that includes
x_internal.h are one module, whose files may call each other (value.c,
value_defs.c and value_memory.c in analysis/).  Its dependencies on other
modules are still edges of the include graph.

The layer order is read from the table under "## Layers" in ARCHITECTURE.md:
rows `| RANK | `folder/`, ... | what it owns |`, lowest rank first; a file may
include its own layer and any layer of a lower rank.

  check_layers.py [ROOT]     check the tree at ROOT (default: the repository)
  check_layers.py --self-test  build small fake trees in a temporary directory
                               and show that each kind of violation is caught
"""
import os
import re
import sys
import tempfile

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
ROW_RE = re.compile(r'^\|\s*(\d+)\s*\|([^|]*)\|', re.M)


def read_layers(root):
    """{layer name: rank}; names are "base/" ... for analyzer/ folders,
    "rules/" for the top-level rules folder, "main.c" for analyzer/main.c."""
    path = os.path.join(root, "ARCHITECTURE.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'^## Layers\s*$(.*?)(?=^## |\Z)', text, re.M | re.S)
    if not m:
        raise SystemExit(f"{path}: no '## Layers' section")
    layers = {}
    for rank, cell in ROW_RE.findall(m.group(1)):
        for name in re.findall(r'`([^`]+)`', cell):
            layers[name] = int(rank)
    if not layers:
        raise SystemExit(f"{path}: the '## Layers' table lists no layers")
    return layers


def layer_of(rel):
    """Layer name of a path relative to the repository root."""
    parts = rel.split("/")
    if parts[0] == "rules":
        return "rules/"
    if len(parts) == 2:
        return parts[1]          # analyzer/main.c
    return parts[1] + "/"


def source_files(root):
    out = []
    for top in ("analyzer", "rules"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            rel_d = os.path.relpath(d, root)
            # The embedded CUDA declarations header is input to clang, not
            # part of the C program.
            dirs[:] = sorted(x for x in dirs if not (rel_d == "analyzer/frontend" and x == "shim"))
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def strip_c(text):
    """Comments, strings, character literals and preprocessor lines blanked."""
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    # Preprocessor lines, with their continuations.
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', '', text, flags=re.M)
    return text


IDENT_BEFORE_PAREN = re.compile(r'([A-Za-z_]\w*)\s*$')


def top_level_functions(text):
    """(declared, defined): names of functions declared (prototype ending with
    ';') and defined (body) at file scope; static ones are left out."""
    text = strip_c(text)
    declared, defined = set(), set()
    depth = 0
    seg = []
    for ch in text:
        if depth == 0 and ch in ';{':
            s = "".join(seg)
            seg = []
            if ch == '{':
                depth = 1
            name = function_name(s)
            if name and not re.search(r'\b(static|typedef)\b', s):
                (defined if ch == '{' else declared).add(name)
            continue
        if depth > 0:
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
            continue
        if ch == '}':
            seg = []
            continue
        seg.append(ch)
    return declared, defined


def function_name(seg):
    """The name of a function prototype/definition head, or None."""
    seg = re.sub(r'__attribute__\s*\(\(.*?\)\)', '', seg, flags=re.S)
    seg = seg.strip()
    if not seg or '(' not in seg or '=' in seg.split('(')[0]:
        return None
    if re.match(r'^[^()]*\(\s*\*', seg):
        return None  # "(*name)(...)": a function pointer variable
    head = seg[:seg.index('(')]
    m = IDENT_BEFORE_PAREN.search(head)
    if not m or m.group(1) in ("if", "while", "for", "switch", "return", "sizeof"):
        return None
    # A declaration has a type before the name.
    if not head[:m.start()].strip():
        return None
    return m.group(1)


INTERNAL_SUFFIX = "_internal.h"


def split_modules(files, texts):
    """{file: module} for the files of modules split over several .c files:
    x_internal.h, and each x_*.c beside it that includes it, belong to module
    x (as x.c and x.h do)."""
    out = {}
    for rel in files:
        if not rel.endswith(INTERNAL_SUFFIX):
            continue
        base = rel[:-len(INTERNAL_SUFFIX)]
        inc = os.path.relpath(rel, "analyzer")
        out[rel] = base
        for other in files:
            if (other.endswith(".c") and other.startswith(base + "_")
                    and os.path.dirname(other) == os.path.dirname(rel)
                    and inc in INCLUDE_RE.findall(texts[other])):
                out[other] = base
    return out


def check(root):
    layers = read_layers(root)
    files = source_files(root)
    problems = []
    inc_root = os.path.join(root, "analyzer")
    module_edges = {}

    texts = {}
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            texts[rel] = f.read()
        lay = layer_of(rel)
        if lay not in layers:
            problems.append(f"{rel}: folder {lay} is not placed in ARCHITECTURE.md's layer table")
    split = split_modules(files, texts)

    def module(rel):
        return split.get(rel, os.path.splitext(rel)[0])

    for rel in files:
        lay = layer_of(rel)
        mod = module(rel)
        module_edges.setdefault(mod, set())
        for inc in INCLUDE_RE.findall(texts[rel]):
            target = os.path.normpath(os.path.join("analyzer", inc))
            if inc.startswith(("..", "/")) or not os.path.isfile(os.path.join(inc_root, inc)):
                problems.append(f'{rel}: #include "{inc}": not a file under analyzer/ '
                                '(write includes relative to analyzer/, e.g. "base/util.h")')
                continue
            tlay = layer_of(target)
            if tlay in layers and lay in layers and tlay != lay:
                if layers[tlay] > layers[lay]:
                    problems.append(f'{rel} -> {target}: upward include ({lay} is rank {layers[lay]}, '
                                    f'{tlay} is rank {layers[tlay]})')
                elif layers[tlay] == layers[lay]:
                    problems.append(f'{rel} -> {target}: include between peers ({lay} and {tlay} '
                                    f'share rank {layers[lay]})')
            tmod = module(target)
            if target.endswith(INTERNAL_SUFFIX) and tmod != mod:
                problems.append(f'{rel} -> {target}: the private header of module {tmod} '
                                f'(only {os.path.basename(tmod)}.c and the {os.path.basename(tmod)}_*.c '
                                'files that split it may include it)')
            if tmod != mod:
                module_edges[mod].add(tmod)

    for cyc in find_cycles(module_edges):
        problems.append("include cycle: " + " -> ".join(cyc + [cyc[0]]))

    # Declarations belong to their module, so that the include graph shows
    # every dependency.
    definitions = {}
    for rel in files:
        if rel.endswith(".c"):
            for name in top_level_functions(texts[rel])[1]:
                definitions.setdefault(name, []).append(rel)
    for rel in files:
        if not rel.endswith(".h"):
            continue
        for name in sorted(top_level_functions(texts[rel])[0]):
            where = definitions.get(name, [])
            if any(module(w) == module(rel) for w in where):
                continue
            if where:
                problems.append(f"{rel}: declares {name}(), defined in {', '.join(where)} "
                                f"(declare it in that module's header)")
            else:
                problems.append(f"{rel}: declares {name}(), defined nowhere")
    return problems, len(files), module_edges


def find_cycles(edges):
    """Each strongly connected component of more than one module (Tarjan),
    given as one cycle through it."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(cycle_in(sorted(comp), edges))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def cycle_in(comp, edges):
    """A shortest cycle through comp[0] within the component (BFS)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path))
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


# ---- self-test: each kind of violation in a fake tree ----

ARCH = """# fake
## Layers
| rank | layer | owns |
| --- | --- | --- |
| 1 | `base/` | helpers |
| 2 | `engine/` | the walk |
| 3 | `cli/`, `lsp/` | front ends |
| 4 | `rules/` | rules |
| 5 | `main.c` | main |
"""


def build_tree(d, files):
    with open(os.path.join(d, "ARCHITECTURE.md"), "w") as f:
        f.write(ARCH)
    for rel, text in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)


CLEAN = {
    "analyzer/base/util.h": "/* util.h */\nint util_add(int a, int b);\nstruct s { void (*fn)(int); };\n",
    "analyzer/base/util.c": '#include "base/util.h"\nint util_add(int a, int b)\n{\n    return a + b;\n}\n',
    "analyzer/engine/walk.h": '#include "base/util.h"\nvoid walk(void) __attribute__((cold));\n',
    "analyzer/engine/walk.c": '#include "engine/walk.h"\n/* #include "cli/cli.h" in a comment */\n'
                              'static int helper(void) { return 1; }\nvoid walk(void) { helper(); }\n',
    "analyzer/cli/cli.h": "void cli_main(void);\n",
    "analyzer/cli/cli.c": '#include "cli/cli.h"\n#include "engine/walk.h"\nvoid cli_main(void) { walk(); }\n',
    "analyzer/lsp/lsp.h": "void lsp_main(void);\n",
    "analyzer/lsp/lsp.c": '#include "lsp/lsp.h"\nvoid lsp_main(void) {}\n',
    "rules/r1.c": '#include "engine/walk.h"\nconst int r1 = 1;\n',
    "analyzer/main.c": '#include "cli/cli.h"\n#include "lsp/lsp.h"\nint main(void) { cli_main(); lsp_main(); return 0; }\n',
    # A module split over two files that call each other, through its private header.
    "analyzer/base/pool.h": "void pool_use(void);\n",
    "analyzer/base/pool_internal.h": '#include "base/pool.h"\nvoid pool_grow(int n);\nint pool_size(void);\n',
    "analyzer/base/pool.c": '#include "base/pool.h"\n#include "base/pool_internal.h"\n'
                            'int pool_size(void) { return 1; }\nvoid pool_use(void) { pool_grow(pool_size()); }\n',
    "analyzer/base/pool_grow.c": '#include "base/pool_internal.h"\n'
                                 'void pool_grow(int n) { if (n < pool_size()) pool_grow(n + 1); }\n',
}

# what: (files changed, a fragment the first problem must contain)
BROKEN = {
    "a cycle between two modules of one layer": ("include cycle", {
        "analyzer/base/a.h": "void a(void);\n",
        "analyzer/base/a.c": '#include "base/a.h"\n#include "base/b.h"\nvoid a(void) { b(); }\n',
        "analyzer/base/b.h": "void b(void);\n",
        "analyzer/base/b.c": '#include "base/b.h"\n#include "base/a.h"\nvoid b(void) { a(); }\n',
    }),
    "an upward include": ("upward include", {
        "analyzer/engine/walk.c": '#include "engine/walk.h"\n#include "cli/cli.h"\nvoid walk(void) {}\n',
    }),
    "an include between peers": ("between peers", {
        "analyzer/lsp/lsp.c": '#include "lsp/lsp.h"\n#include "cli/cli.h"\nvoid lsp_main(void) {}\n',
    }),
    "an include not relative to analyzer/": ("not a file under analyzer/", {
        "analyzer/cli/cli.c": '#include "cli/cli.h"\n#include "../engine/walk.h"\nvoid cli_main(void) {}\n',
    }),
    "a folder missing from the table": ("not placed", {
        "analyzer/extra/x.c": "int x;\n",
    }),
    "a header declaring another module's function": ("defined in analyzer/base/util.c", {
        "analyzer/base/shared.h": "void util_sub(int a);\n",
        "analyzer/base/util.c": '#include "base/util.h"\nint util_add(int a, int b) { return a + b; }\n'
                                'void util_sub(int a) { (void)a; }\n',
    }),
    "a declaration defined nowhere": ("defined nowhere", {
        "analyzer/cli/cli.h": "void cli_main(void);\nvoid cli_gone(void);\n",
    }),
    "a module's private header included by another module": ("the private header of module", {
        "analyzer/engine/walk.c": '#include "engine/walk.h"\n#include "base/pool_internal.h"\n'
                                  'void walk(void) { pool_grow(1); }\n',
    }),
    "a split file that does not include its module's private header": ("defined in analyzer/base/pool_grow.c", {
        "analyzer/base/pool_grow.c": "void pool_grow(int n) { (void)n; }\n",
    }),
}


def self_test():
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        build_tree(d, CLEAN)
        problems, n, _ = check(d)
        if problems:
            print("self-test FAILED: the clean tree was rejected:\n  " + "\n  ".join(problems))
            failures += 1
        else:
            print(f"self-test: clean tree of {n} files passes")
    for what, (expect, change) in BROKEN.items():
        with tempfile.TemporaryDirectory() as d:
            files = dict(CLEAN)
            files.update(change)
            build_tree(d, files)
            problems, _, _ = check(d)
            if not any(expect in p for p in problems):
                print(f"self-test FAILED: {what} was not caught ({problems or 'no problem found'})")
                failures += 1
            else:
                print(f"self-test: {what} is caught: {next(p for p in problems if expect in p)}")
    return 1 if failures else 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.environ.get(
        "CUDALINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    problems, n, edges = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} problem(s) in {n} files")
        return 1
    print(f"check_layers: {n} files, {len(edges)} modules, "
          f"{sum(len(v) for v in edges.values())} module includes: layered, no cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
