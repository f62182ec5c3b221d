"""Shared loop of the deliberately broken adapters in tests/adapters.

Each script speaks the protocol well enough (hello, one JSON line per
request in) and breaks it in one way, through the `handle` function it
passes to `serve`: handle(request) returns the answer lines (strings) for
one request. Under v1 a request is the input string; under v2 (serve(...,
version=2)) it is the request object {"id", "input", "base"}. Answers of
one read are written and flushed together, like the shipped adapters, so
what arrives together in a test is deterministic.
"""

import json
import sys


def hello(version=1):
    return json.dumps({"uridiff_protocol": version, "parser": "test adapter", "standard": "none"})


def accept(text, **extra):
    """A well-formed answer: everything in the path."""
    answer = {"verdict": "accept", "scheme": None, "path": text, "message": None}
    answer.update(extra)
    return json.dumps(answer)


_pending = []


def flush():
    """Writes the answers so far in one write (atomic on a pipe when short)."""
    if _pending:
        sys.stdout.buffer.write("".join(_pending).encode("ascii"))
        _pending.clear()
    sys.stdout.buffer.flush()


def serve(handle, hello_line=None, version=1):
    _pending.append((hello(version) if hello_line is None else hello_line) + "\n")
    flush()
    pending = b""
    while True:
        chunk = sys.stdin.buffer.read1(1 << 16)
        if not chunk:
            return
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for line in lines:
            for answer in handle(json.loads(line)):
                _pending.append(answer + "\n")
        flush()
