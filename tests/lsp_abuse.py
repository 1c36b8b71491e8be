#!/usr/bin/env python3
"""lsp_abuse.py: `cudalint lsp` under abuse: it must never crash or hang.

Usage: lsp_abuse.py [path/to/cudalint]   (else $CUDALINT, else build/cudalint)

Scripted against one server (--no-cuda-headers --no-cache), each step
followed by a liveness probe (a request that must be answered):
  - wrong, negative, huge and missing Content-Length headers, junk headers;
  - bodies that are not JSON, JSON that is not an object, batches (arrays),
    wrong field types everywhere, unknown methods;
  - didChange before didOpen, edits with ranges out of range and reversed,
    negative and fractional positions, versions of every type;
  - a 20 MB document (larger than --max-file-size: skipped with a note);
  - 1,000 rapid incremental changes, after which the published diagnostics
    must equal the command line's on the final text;
  - a document that crashes the lint process (deep template nesting): that
    document gets an error diagnostic, the others are still linted;
  - an unsaved document not on disk is linted (the embedded-header mode
    once found nothing in such a buffer);
  - requests after shutdown are refused, exit ends the server with 0;
and, against fresh servers: stdin closed in the middle of a message (the
server exits, no hang), and stdin closed after a huge Content-Length.
Python 3 stdlib only.  Exits non-zero and says what failed.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_session import Client, check, failures, find_binary, cli_findings  # noqa: E402

# --preview: the checks expect findings of rules that are still preview (off by default).
ARGS = ["--no-cuda-headers", "--no-cache", "--preview"]


def frame(body):
    if isinstance(body, str):
        body = body.encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def alive(c, what):
    """A request must be answered: the server lives and reads on."""
    try:
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": "file:///nowhere.cu"},
                                                  "range": {"start": {"line": 0, "character": 0},
                                                            "end": {"line": 0, "character": 0}},
                                                  "context": {"diagnostics": []}}, wait=False)
        c.wait_response(r, timeout=60)
        check(True, "alive after " + what)
        return True
    except (TimeoutError, EOFError) as e:
        check(False, "alive after %s (%s)" % (what, type(e).__name__))
        return False


def open_doc(c, uri, text, version=1):
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": version,
                                                       "text": text}})


def codes(diags):
    return sorted((d["range"]["start"]["line"], d["code"] if isinstance(d.get("code"), str) else "") for d in diags)


def main():
    binary = find_binary()
    tmp = tempfile.mkdtemp(prefix="cudalint-lsp-abuse-")
    c = Client([binary, "lsp"] + ARGS)
    r = c.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + tmp,
                                 "capabilities": {"general": {"positionEncodings": ["utf-16"]}}})
    check("result" in r, "initialize answered")
    c.notify("initialized", {})

    # ---- framing ----
    bad_frames = [
        ("negative Content-Length", b"Content-Length: -5\r\n\r\n{}"),
        ("non-numeric Content-Length", b"Content-Length: abc\r\n\r\n"),
        ("Content-Length beyond 2^64", b"Content-Length: 99999999999999999999999\r\n\r\n"),
        ("no Content-Length", b"Content-Type: application/json\r\n\r\n{}"),
        ("junk header line", b"garbage without colon\r\n\r\n"),
        ("Content-Length too short", b"Content-Length: 3\r\n\r\n{\"jsonrpc\":\"2.0\"}"),
        ("a NUL in the header", b"Content-\x00Length: 2\r\n\r\n{}"),
    ]
    for what, data in bad_frames:
        c.send_raw(data)
        alive(c, what)

    # ---- bodies ----
    bodies = [
        ("non-JSON", "this is not json"),
        ("truncated JSON", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "),
        ("a JSON string", "\"hello\""),
        ("a JSON number", "42"),
        ("an empty batch", "[]"),
        ("a batch", json.dumps([{"jsonrpc": "2.0", "id": 900, "method": "shutdown"},
                                {"jsonrpc": "2.0", "method": "exit"}])),
        ("id of type object", json.dumps({"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"})),
        ("method of type number", json.dumps({"jsonrpc": "2.0", "id": 901, "method": 5})),
        ("jsonrpc 1.0", json.dumps({"jsonrpc": "1.0", "id": 902, "method": "shutdown"})),
        ("params of type string", json.dumps({"jsonrpc": "2.0", "id": 903, "method": "textDocument/codeAction",
                                              "params": "x"})),
        ("unknown method", json.dumps({"jsonrpc": "2.0", "id": 904, "method": "no/such"})),
        ("didOpen with wrong types", json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                                 "params": {"textDocument": {"uri": 5, "text": [], "version": "x"}}})),
        ("didOpen of a non-file URI", json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                                  "params": {"textDocument": {"uri": "untitled:1", "text": "x",
                                                                              "version": 1}}})),
        ("didOpen with a bad escape", json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                                  "params": {"textDocument": {"uri": "file:///a%zz%", "text": "x",
                                                                              "version": 1}}})),
        ("didChange before didOpen", json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange",
                                                 "params": {"textDocument": {"uri": "file:///never.cu", "version": 2},
                                                            "contentChanges": [{"text": "x"}]}})),
        ("didClose of a closed document", json.dumps({"jsonrpc": "2.0", "method": "textDocument/didClose",
                                                      "params": {"textDocument": {"uri": "file:///never.cu"}}})),
        ("codeAction with wrong types", json.dumps({"jsonrpc": "2.0", "id": 905, "method": "textDocument/codeAction",
                                                    "params": {"textDocument": 1, "range": "x",
                                                               "context": {"only": 5}}})),
        ("a huge version number", json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                              "params": {"textDocument": {"uri": "file://%s/v.cu" % tmp,
                                                                          "text": "int x;\n", "version": 1e300}}})),
        ("deeply nested JSON", "[" * 100000 + "]" * 100000),
        ("a NUL in a string", "{\"jsonrpc\": \"2.0\", \"method\": \"textDocument/didOpen\", \"params\": "
                              "{\"textDocument\": {\"uri\": \"file:///n\\u0000ul.cu\", \"text\": \"a\\u0000b\", "
                              "\"version\": 1}}}"),
    ]
    for what, body in bodies:
        c.send_raw(frame(body))
        alive(c, what)

    # ---- edits out of range ----
    uri = "file://%s/edits.cu" % tmp
    open_doc(c, uri, "__global__ void k(float *a)\n{\n    a[0] = a[1] * 2.1;\n}\n")
    for what, rng in [
        ("a range past the end", {"start": {"line": 100, "character": 0}, "end": {"line": 200, "character": 5}}),
        ("a reversed range", {"start": {"line": 2, "character": 10}, "end": {"line": 0, "character": 0}}),
        ("negative positions", {"start": {"line": -1, "character": -5}, "end": {"line": -1, "character": -1}}),
        ("fractional positions", {"start": {"line": 0.5, "character": 1.5}, "end": {"line": 1e300, "character": 1e300}}),
        ("positions of type string", {"start": {"line": "0", "character": "0"}, "end": {"line": 0}}),
        ("a character inside a surrogate pair", {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}),
    ]:
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 5},
                                            "contentChanges": [{"range": rng, "text": "/*x*/"}]})
        alive(c, what)

    # ---- a 20 MB document ----
    big_uri = "file://%s/big.cu" % tmp
    big = "// " + "x" * (20 * 1000 * 1000) + "\n__global__ void k(float *a) { a[0] = a[1] * 2.1; }\n"
    t0 = time.time()
    open_doc(c, big_uri, big)
    try:
        p = c.wait_diagnostics(big_uri, timeout=120)
        check(True, "a 20 MB document gets a publish (%.1f s, %d diagnostics)" % (time.time() - t0,
                                                                                 len(p["diagnostics"])))
    except TimeoutError:
        check(False, "a 20 MB document gets a publish")
    alive(c, "a 20 MB document")
    c.notify("textDocument/didClose", {"textDocument": {"uri": big_uri}})

    # ---- a document that crashes the lint process ----
    crash_uri = "file://%s/crash.cu" % tmp
    good_uri = "file://%s/good.cu" % tmp
    open_doc(c, crash_uri, "template <class T> struct W {};\n" + "W<" * 100000 + "int" + ">" * 100000 + " *p;\n")
    try:
        p = c.wait_diagnostics(crash_uri, timeout=120)
        msgs = " ".join(d.get("message", "") for d in p["diagnostics"])
        check("crashed" in msgs, "the crashing document gets an error diagnostic (%s)" % msgs[:120])
    except TimeoutError:
        check(False, "the crashing document gets a publish")
    open_doc(c, good_uri, "__global__ void k(float *a)\n{\n    a[0] = a[1] * 2.1;\n}\n")
    try:
        p = c.wait_diagnostics(good_uri, timeout=120)
        check(any(d.get("code") == "CU201" for d in p["diagnostics"]),
              "after the crash another document is still linted (an unsaved buffer, not on disk)")
    except TimeoutError:
        check(False, "after the crash another document is still linted")
    alive(c, "a crash of the lint process")

    # ---- 1,000 rapid changes, then the CLI's findings on the final text ----
    storm_path = os.path.join(tmp, "storm.cu")
    storm_uri = "file://" + storm_path
    text = "__global__ void k(float *a)\n{\n    a[0] = 1.0f;\n}\n"
    open_doc(c, storm_uri, text)
    lines = text.split("\n")
    version = 1
    for i in range(1000):
        version += 1
        # Two insertions of a statement on line 2, then a deletion.
        if i % 3 != 2:
            ins = "    a[%d] = a[%d] * %d.1;\n" % (i % 7 + 1, i % 5, i % 9)
            change = {"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}},
                      "text": ins}
            lines.insert(2, ins[:-1])
        else:
            change = {"range": {"start": {"line": 2, "character": 0}, "end": {"line": 3, "character": 0}},
                      "text": ""}
            del lines[2]
        c.notify("textDocument/didChange", {"textDocument": {"uri": storm_uri, "version": version},
                                            "contentChanges": [change]})
    final = "\n".join(lines)
    try:
        p = c.wait_diagnostics(storm_uri, version=version, timeout=180)
        with open(storm_path, "w") as f:
            f.write(final)
        ref = cli_findings(binary, storm_path, ARGS)
        got = codes(p["diagnostics"])
        want = sorted((d["line"] - 1, d["code"]) for d in ref)
        check(got == want and len(want) > 100, "after 1,000 changes the diagnostics equal the command line's "
                                               "on the final text (%d vs %d)" % (len(got), len(want)))
    except TimeoutError:
        check(False, "the last of 1,000 changes is published")
    alive(c, "1,000 rapid changes")

    # ---- after shutdown ----
    r = c.request("shutdown", None)
    check("error" not in r, "shutdown answered")
    rid = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}}, wait=False)
    try:
        r = c.wait_response(rid, timeout=30)
        check(r.get("error", {}).get("code") == -32600, "a request after shutdown is refused")
    except (TimeoutError, EOFError):
        check(False, "a request after shutdown is answered")
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "text": "x", "version": 9}})
    c.notify("exit", None)
    check(c.wait_exit(30) == 0, "exit after shutdown ends the server with 0")

    # ---- stdin closed mid-message ----
    for what, data in [("in the middle of a body", b"Content-Length: 100\r\n\r\n{\"jsonrpc\": \"2.0\", "),
                       ("in the middle of a header", b"Content-Len"),
                       ("after a 1 TB Content-Length", b"Content-Length: 1000000000000\r\n\r\n{")]:
        c2 = Client([binary, "lsp"] + ARGS)
        c2.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c2.send_raw(data)
        c2.proc.stdin.close()
        rc = c2.wait_exit(30)
        check(rc is not None and rc >= 0, "stdin closed %s: the server exits (%s), no hang, no crash" % (what, rc))

    if failures:
        print("%d check(s) failed:" % len(failures))
        for f in failures:
            print("  " + f)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
