#!/usr/bin/env python3
"""lsp_session.py: a scripted JSON-RPC session against `cudalint lsp`.

Usage: lsp_session.py [path/to/cudalint]   (else $CUDALINT, else build/cudalint)
Extra server arguments can be given in $CUDALINT_LSP_ARGS (e.g. --no-cuda-headers).

Checks, as a client would see them: the lifecycle (requests before initialize,
shutdown, exit codes), position-encoding negotiation (UTF-16 default, UTF-8 when
offered) on a line with non-ASCII text before the finding, the diagnostic's
code/range/severity/source/href against `cudalint --format json` on the same
text, the quick fix's edit, incremental and full didChange, coalescing of edit
bursts (no stale publish), didClose clearing, JSON-RPC errors for malformed
and unknown messages while the server stays alive, and, for every file in
fixtures/, that the server's findings equal `cudalint --format json`'s on open
and after an edit (the reparse path).  Python 3 stdlib only.  Exits non-zero
and says what failed.
"""
import json
import os
import queue
import shlex
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = float(os.environ.get("CUDALINT_LSP_TIMEOUT", "90"))
failures = []


def check(cond, what):
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what)
        failures.append(what)
    return cond


def find_binary():
    if len(sys.argv) > 1:
        return sys.argv[1]
    if os.environ.get("CUDALINT"):
        return os.environ["CUDALINT"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), "build", "cudalint")


class Client:
    """A minimal LSP client: framed writes, a reader thread, a message queue."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.msgs = queue.Queue()
        self.pending = []  # read but not yet consumed
        self.next_id = 1
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self):
        self.stderr = self.proc.stderr.read()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.msgs.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.decode("ascii", "replace").partition(":")
                headers[k.strip().lower()] = v.strip()
            n = int(headers.get("content-length", "-1"))
            body = out.read(n)
            if len(body) != n:
                self.msgs.put(None)
                return
            self.msgs.put(json.loads(body.decode("utf-8")))

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, wait=True):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait_response(rid) if wait else rid

    def _next(self, deadline):
        left = deadline - time.time()
        if left <= 0:
            raise TimeoutError
        m = self.msgs.get(timeout=left)
        if m is None:
            raise EOFError("server closed its output")
        return m

    def wait_for(self, pred, timeout=TIMEOUT):
        """First message (pending ones first) satisfying pred; others stay pending."""
        for i, m in enumerate(self.pending):
            if pred(m):
                return self.pending.pop(i)
        deadline = time.time() + timeout
        while True:
            try:
                m = self._next(deadline)
            except queue.Empty:
                raise TimeoutError
            if pred(m):
                return m
            self.pending.append(m)

    def wait_response(self, rid, timeout=TIMEOUT):
        return self.wait_for(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def wait_diagnostics(self, uri, version=None, timeout=TIMEOUT):
        def pred(m):
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            p = m["params"]
            return p["uri"] == uri and (version is None or p.get("version") == version)
        return self.wait_for(pred, timeout)["params"]

    def drain(self, seconds):
        """Moves what arrives within seconds to pending."""
        deadline = time.time() + seconds
        while True:
            try:
                self.pending.append(self._next(deadline))
            except (TimeoutError, queue.Empty):
                return

    def publishes(self, uri, msgs=None):
        return [m["params"] for m in (self.pending if msgs is None else msgs)
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]

    def wait_exit(self, timeout=15):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


def offset_of(text, line, character, enc):
    """LSP position -> index into the str text."""
    lines = text.split("\n")
    off = sum(len(l) + 1 for l in lines[:line])
    cur = lines[line] if line < len(lines) else ""
    units = 0
    for i, ch in enumerate(cur):
        if units >= character:
            return off + i
        units += {"utf-16": utf16_len(ch), "utf-8": len(ch.encode("utf-8"))}.get(enc, 1)
    return off + len(cur)


def apply_edits(text, edits, enc):
    spans = []
    for e in edits:
        r = e["range"]
        a = offset_of(text, r["start"]["line"], r["start"]["character"], enc)
        b = offset_of(text, r["end"]["line"], r["end"]["character"], enc)
        spans.append((a, b, e["newText"]))
    for a, b, t in sorted(spans, reverse=True):
        text = text[:a] + t + text[b:]
    return text


# The finding sits after a comment with 2-byte, 3-byte and 4-byte UTF-8
# characters (1, 1 and 2 UTF-16 units), so byte, UTF-16 and code point
# columns all differ.
SOURCE = (
    "// scale.cu: one double-literal finding for the language server test\n"
    "__global__ void scale(float *x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] = /* Größe ≈ 😀 */ x[i] * 0.1;\n"
    "}\n"
)
FINDING_LINE = 3
LITERAL = "0.1"


def cli_findings(binary, path, args):
    """The command line's findings for the same file: the reference (without
    codegen evidence, which the language server leaves off by default)."""
    r = subprocess.run([binary, "--format", "json", "--exit-zero", "--no-codegen"] + args + [path],
                       capture_output=True, text=True, timeout=300)
    try:
        return json.loads(r.stdout)["diagnostics"]
    except (ValueError, KeyError):
        print("cudalint --format json failed:", r.stdout, r.stderr)
        return []


def session_utf16(binary, args, tmp, clients):
    path = os.path.join(tmp, "scale.cu")
    with open(path, "w", encoding="utf-8") as f:
        f.write(SOURCE)
    uri = "file://" + path
    ref = [d for d in cli_findings(binary, path, args) if d["code"] == "CU201"]
    check(len(ref) == 1, "the command line reports one CU201 on the fixture (got %d)" % len(ref))

    c = Client([binary, "lsp"] + args)
    clients.append(c)

    # Requests before initialize are refused with ServerNotInitialized.
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri},
                                              "range": {"start": {"line": 0, "character": 0},
                                                        "end": {"line": 0, "character": 0}},
                                              "context": {"diagnostics": []}})
    check(r.get("error", {}).get("code") == -32002, "request before initialize -> -32002")

    r = c.request("initialize", {
        "processId": os.getpid(), "rootUri": "file://" + tmp,
        "capabilities": {"general": {"positionEncodings": ["utf-16"]},
                         "workspace": {"workspaceEdit": {"documentChanges": True}},
                         "textDocument": {"publishDiagnostics": {"relatedInformation": True}}}})
    res = r.get("result", {})
    caps = res.get("capabilities", {})
    check(caps.get("positionEncoding") == "utf-16", "positionEncoding negotiated: utf-16")
    sync = caps.get("textDocumentSync", {})
    check(sync.get("openClose") is True and sync.get("change") == 2 and "save" in sync,
          "textDocumentSync: openClose, incremental change, save")
    cap = caps.get("codeActionProvider")
    check(isinstance(cap, dict) and "quickfix" in cap.get("codeActionKinds", []),
          "codeActionProvider offers quickfix")
    check(res.get("serverInfo", {}).get("name") == "cudalint", "serverInfo.name is cudalint")
    r = c.request("initialize", {"capabilities": {}})
    check(r.get("error", {}).get("code") == -32600, "a second initialize -> -32600")
    c.notify("initialized", {})

    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cuda-cpp", "version": 1, "text": SOURCE}})
    t0 = time.time()
    pub = c.wait_diagnostics(uri, 1)
    print("     first diagnostics after %.2f s" % (time.time() - t0))
    diags = [d for d in pub["diagnostics"] if d.get("code") == "CU201"]
    if not check(len(diags) == 1, "didOpen publishes one CU201 (got %s)" % json.dumps(pub["diagnostics"])):
        return
    d = diags[0]
    line_text = SOURCE.split("\n")[FINDING_LINE]
    col16 = utf16_len(line_text[:line_text.index(LITERAL)])
    rng = d["range"]
    check(rng["start"] == {"line": FINDING_LINE, "character": col16},
          "range start in UTF-16 units: %s, want line %d character %d" % (rng["start"], FINDING_LINE, col16))
    check(rng["end"] == {"line": FINDING_LINE, "character": col16 + len(LITERAL)},
          "range end covers the literal: %s" % rng["end"])
    if ref:
        byte_col = len(line_text[:line_text.index(LITERAL)].encode("utf-8")) + 1
        check(ref[0]["line"] == FINDING_LINE + 1 and ref[0]["column"] == byte_col,
              "the command line's byte column (%s:%s) is the same place" % (ref[0]["line"], ref[0]["column"]))
        want_sev = {"error": 1, "warning": 2, "note": 3}[ref[0]["severity"]]
        check(d.get("severity") == want_sev, "severity %s matches %s" % (d.get("severity"), ref[0]["severity"]))
        check(d.get("message") == ref[0]["message"], "message matches the command line's")
    check(d.get("source") == "cudalint", "source is cudalint")
    href = d.get("codeDescription", {}).get("href", "")
    check(href.startswith("https://") and href.endswith("/rules/CU201-double-literal.md"),
          "codeDescription.href points at the rule doc: %s" % href)
    repo_root = os.environ.get("CUDALINT_SOURCE_DIR")
    if repo_root:
        check(os.path.exists(os.path.join(repo_root, "rules", href.rsplit("/", 1)[-1])),
              "the doc named by href exists in rules/")

    # The quick fix.
    r = c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": d["range"],
        "context": {"diagnostics": [d], "only": ["quickfix"]}})
    actions = r.get("result") or []
    fixes = [a for a in actions if a.get("kind") == "quickfix"]
    new_text = None
    if check(len(fixes) == 1, "codeAction offers one quickfix (got %s)" % json.dumps(actions)):
        a = fixes[0]
        check("0.1f" in a.get("title", "") and "CU201" in a.get("title", ""),
              "title names the fix and the code: %r" % a.get("title"))
        check(a.get("isPreferred") is True, "the fix is preferred")
        dc = a.get("edit", {}).get("documentChanges", [])
        if check(len(dc) == 1 and dc[0]["textDocument"] == {"uri": uri, "version": 1},
                 "documentChanges names the document and the linted version"):
            edits = dc[0]["edits"]
            new_text = apply_edits(SOURCE, edits, "utf-16")
            want = SOURCE.replace("x[i] * 0.1;", "x[i] * 0.1f;")
            check(new_text == want, "applying the edit gives 0.1f: %r" % new_text.split("\n")[FINDING_LINE])
    # A range away from the finding offers nothing.
    r = c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 2}},
        "context": {"diagnostics": []}})
    check(r.get("result") == [], "no action on a line without findings")

    # Incremental didChange with the fix's own edits: the finding goes away.
    if new_text is not None:
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"range": e["range"], "text": e["newText"]}
                                                               for e in edits]})
        pub = c.wait_diagnostics(uri, 2)
        check(pub["diagnostics"] == [], "after the incremental fix: no diagnostics (got %s)" % pub["diagnostics"])

    # A burst of full-text edits: only the newest version may be published
    # after it; the last one brings the finding back.
    c.pending = []
    for v in range(3, 9):
        text = SOURCE if v == 8 else SOURCE.replace("0.1;", "0.1f; // v%d" % v)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                            "contentChanges": [{"text": text}]})
    # Asked before the lint of the new text is published: the old fix could
    # land in the wrong place, so nothing is offered.
    r = c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": []}})
    check(r.get("result") == [], "no code action while the text is newer than the last lint")
    pub = c.wait_diagnostics(uri, 8)
    check(len([x for x in pub["diagnostics"] if x.get("code") == "CU201"]) == 1,
          "after a burst of full edits the newest version (8) is linted")
    before = [p.get("version") for p in c.publishes(uri)]
    check(before == sorted(before) and all(3 <= v < 8 for v in before),
          "publishes during the burst come in version order (%s)" % before)
    n_before = len(c.pending)
    c.drain(1.0)
    late = [p.get("version") for p in c.publishes(uri, c.pending[n_before:])]
    check(late == [], "no stale publish after version 8 (got versions %s)" % late)
    print("     the burst of 6 edits was linted %d time(s)" % (len(before) + 1))
    c.pending = []

    # Malformed and unknown messages get JSON-RPC errors; the server lives on.
    c.send_raw(b"Content-Length: 9\r\n\r\n{not json")
    r = c.wait_for(lambda m: "error" in m and m.get("id") is None)
    check(r["error"]["code"] == -32700, "invalid JSON -> -32700 Parse error")
    c.send_raw(b"Content-Type: application/vscode-jsonrpc\r\n\r\n")
    r = c.wait_for(lambda m: "error" in m and m.get("id") is None)
    check(r["error"]["code"] == -32700, "headers without Content-Length -> -32700")
    c.send_raw(b"Content-Length: abc\r\n\r\n")
    r = c.wait_for(lambda m: "error" in m and m.get("id") is None)
    check(r["error"]["code"] == -32700, "a non-numeric Content-Length -> -32700")
    c.send({"jsonrpc": "2.0", "id": 900})
    r = c.wait_response(900)
    check(r.get("error", {}).get("code") == -32600, "a request without method -> -32600")
    c.send({"jsonrpc": "2.0", "id": 901, "method": "textDocument/codeAction", "params": 5})
    r = c.wait_response(901)
    check(r.get("error", {}).get("code") == -32600, "params that are not structured -> -32600")
    r = c.request("cudalint/noSuchMethod", {})
    check(r.get("error", {}).get("code") == -32601, "unknown request -> -32601")
    c.notify("$/noSuchNotification", {})
    c.notify("workspace/didChangeConfiguration", {"settings": {}})
    # A message split over several writes, with a large body, still parses.
    big = {"jsonrpc": "2.0", "id": 902, "method": "cudalint/noSuchMethod",
           "params": {"pad": "x" * 300000}}
    body = json.dumps(big).encode()
    raw = b"Content-Length: %d\r\n\r\n" % len(body) + body
    for i in range(0, len(raw), 70000):
        c.send_raw(raw[i:i + 70000])
        time.sleep(0.01)
    r = c.wait_response(902)
    check(r.get("error", {}).get("code") == -32601, "a 300 kB message written in pieces is read whole")
    r = c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": []}})
    check(isinstance(r.get("result"), list) and len(r["result"]) == 1,
          "the server still answers after the bad messages")
    check(c.proc.poll() is None, "the server is still running")

    c.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    pub = c.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                     and m["params"]["uri"] == uri and m["params"]["diagnostics"] == []
                     and "version" not in m["params"])
    check(True, "didClose clears the diagnostics")

    r = c.request("shutdown", None)
    check("result" in r and r["result"] is None, "shutdown -> null result")
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}})
    check(r.get("error", {}).get("code") == -32600, "a request after shutdown -> -32600")
    c.notify("exit", None)
    rc = c.wait_exit()
    check(rc == 0, "exit after shutdown -> exit code 0 (got %s)" % rc)


def session_utf8(binary, args, tmp, clients):
    """UTF-8 offered: the server picks it and columns are bytes.  Exit without
    shutdown must give exit code 1."""
    path = os.path.join(tmp, "scale8.cu")
    with open(path, "w", encoding="utf-8") as f:
        f.write(SOURCE)
    uri = "file://" + path
    c = Client([binary, "lsp"] + args)
    clients.append(c)
    r = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {
        "general": {"positionEncodings": ["utf-32", "utf-8", "utf-16"]}}})
    check(r.get("result", {}).get("capabilities", {}).get("positionEncoding") == "utf-8",
          "utf-8 is chosen when offered")
    c.notify("initialized", {})
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cuda", "version": 7, "text": SOURCE}})
    pub = c.wait_diagnostics(uri, 7)
    diags = [d for d in pub["diagnostics"] if d.get("code") == "CU201"]
    line_text = SOURCE.split("\n")[FINDING_LINE]
    col8 = len(line_text[:line_text.index(LITERAL)].encode("utf-8"))
    check(len(diags) == 1 and diags[0]["range"]["start"]["character"] == col8,
          "utf-8 columns are byte columns (want %d, got %s)" % (
              col8, [d["range"] for d in diags]))
    r = c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diags[0]["range"] if diags else
        {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}},
        "context": {"diagnostics": []}})
    acts = r.get("result") or []
    check(len(acts) == 1 and "changes" in acts[0].get("edit", {}),
          "without documentChanges support the edit uses changes")
    c.notify("exit", None)
    rc = c.wait_exit()
    check(rc == 1, "exit without shutdown -> exit code 1 (got %s)" % rc)


def lsp_key(d):
    """A published diagnostic (UTF-8 positions) as comparable data."""
    r = d["range"]
    fix = d.get("data", {}).get("fix", {}).get("edits", [])
    return (r["start"]["line"] + 1, r["start"]["character"] + 1, r["end"]["line"] + 1,
            r["end"]["character"] + 1, d.get("code"), d.get("severity"), d["message"],
            tuple((e["range"]["start"]["line"] + 1, e["range"]["start"]["character"] + 1,
                   e["range"]["end"]["line"] + 1, e["range"]["end"]["character"] + 1, e["newText"])
                  for e in fix))


def cli_key(d):
    sev = {"error": 1, "warning": 2, "note": 3}[d["severity"]]
    return (d["line"], d["column"], d["end_line"], d["end_column"], d["code"], sev, d["message"],
            tuple((f["line"], f["column"], f["end_line"], f["end_column"], f["replacement"])
                  for f in d.get("fix", []) if f["file"] == d["file"]))


def session_fixtures(binary, args, tmp, clients):
    """Every fixture: the server's findings equal the command line's, when
    the file is opened and after an edit (the reparse with the preamble)."""
    root = os.environ.get("CUDALINT_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fdir = os.path.join(root, "fixtures")
    names = sorted(n for n in os.listdir(fdir) if n.endswith((".cu", ".cuh"))) if os.path.isdir(fdir) else []
    if not names:
        print("     no fixtures/ found: comparison skipped")
        return
    c = Client([binary, "lsp"] + args)
    clients.append(c)
    c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {
        "general": {"positionEncodings": ["utf-8"]}}})
    c.notify("initialized", {})
    for n in names:
        path = os.path.join(fdir, n)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        uri = "file://" + path
        want = sorted(cli_key(d) for d in cli_findings(binary, path, args) if d["file"].endswith(n))
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda-cpp",
                                                           "version": 1, "text": text}})
        got = sorted(lsp_key(d) for d in c.wait_diagnostics(uri, 1)["diagnostics"])
        ok = check(got == want, "%s: the server's %d findings equal the command line's %d on open" % (
            n, len(got), len(want)))
        # An edit at the end keeps every position: the reparse must agree too.
        end_line = len(text.split("\n")) - 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": end_line, "character": 0}, "end": {"line": end_line, "character": 0}},
             "text": "\n"}]})
        got2 = sorted(lsp_key(d) for d in c.wait_diagnostics(uri, 2)["diagnostics"])
        ok2 = check(got2 == want, "%s: and after an edit (reparse)" % n)
        if not (ok and ok2):
            for k in sorted(set(want) - set(got2 if ok else got)):
                print("       missing:   ", k)
            for k in sorted(set(got2 if ok else got) - set(want)):
                print("       unexpected:", k)
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    c.request("shutdown", None)
    c.notify("exit", None)
    check(c.wait_exit() == 0, "fixture session exits 0")


def main():
    binary = find_binary()
    if not os.access(binary, os.X_OK):
        print("cudalint binary not found: %s" % binary)
        return 2
    # --preview: the sessions expect findings of rules that are still preview (off by default).
    args = ["--preview"] + shlex.split(os.environ.get("CUDALINT_LSP_ARGS", ""))
    clients = []
    with tempfile.TemporaryDirectory(prefix="cudalint-lsp-") as tmp:
        for session in (session_utf16, session_utf8, session_fixtures):
            try:
                session(binary, args, tmp, clients)
            except (TimeoutError, EOFError, BrokenPipeError) as e:
                check(False, "%s: %s: %s" % (session.__name__, type(e).__name__, e))
    for c in clients:
        if c.proc.poll() is None:
            c.proc.kill()
    if failures:
        print("\n%d check(s) failed:" % len(failures))
        for f in failures:
            print("  - " + f)
        for c in clients:
            if c.stderr:
                print("server stderr:", c.stderr.decode("utf-8", "replace")[-2000:])
        return 1
    print("\nall checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
