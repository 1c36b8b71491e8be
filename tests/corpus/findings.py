#!/usr/bin/env python3
"""findings.py: lists one rule's findings in the JSON that lint_corpus.sh keeps, for reading them by hand.

usage: tests/corpus/findings.py OUTDIR CODE [--corpus NAME ...] [--sample N] [--seed S] [--notes]

A finding reported in both parse modes (toolkit and shim) is listed once, with
the modes that report it; `--corpus` keeps only those corpora (the JSON files
are named <corpus>.<mode>.json); `--sample N` prints a seeded random sample of
N of them (sorted by place), as read for the rules whose findings are too many
to read all; `--notes` adds each finding's notes.  The last line gives the
number of findings.
"""
import argparse, json, os, random, sys


def corpus_path(corpus, path):
    """The file's path inside its corpus: a finding in a header is named
    relative to the linted folder by one translation unit and absolute by
    another, and both spellings are one place."""
    marker = "/" + corpus + "/"
    if os.path.isabs(path) and marker in path:
        path = path[path.index(marker) + len(marker):]
    while path.startswith("./"):
        path = path[2:]
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("code")
    ap.add_argument("--corpus", nargs="*", default=[])
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--notes", action="store_true")
    a = ap.parse_args()
    found = {}
    for fn in sorted(os.listdir(a.outdir)):
        if not fn.endswith(".json") or fn.count(".") < 2:
            continue
        corpus, mode = fn[:-5].rsplit(".", 1)
        if a.corpus and corpus not in a.corpus:
            continue
        try:
            doc = json.load(open(os.path.join(a.outdir, fn), encoding="utf-8"))
        except ValueError:
            print(f"findings.py: {fn} is not complete JSON (still being written?)", file=sys.stderr)
            continue
        for d in doc["diagnostics"]:
            if d["code"] != a.code:
                continue
            key = (corpus, corpus_path(corpus, d["file"]), d["line"], d["column"])
            f = found.setdefault(key, {"modes": [], "message": d["message"], "notes": d.get("notes", [])})
            if mode not in f["modes"]:
                f["modes"].append(mode)
    keys = sorted(found)
    total = len(keys)
    if a.sample and a.sample < total:
        random.seed(a.seed)
        keys = sorted(random.sample(keys, a.sample))
    for k in keys:
        f = found[k]
        print(f"{k[0]} {k[1]}:{k[2]}:{k[3]} [{','.join(sorted(f['modes']))}] {f['message']}")
        if a.notes:
            for n in f["notes"]:
                print(f"    {os.path.basename(n['file'])}:{n['line']}: {n['message']}")
    print(f"{total} findings" + (f", {len(keys)} sampled (seed {a.seed})" if a.sample and a.sample < total else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
