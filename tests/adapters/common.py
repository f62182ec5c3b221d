"""Shared loop of the deliberately broken adapters in tests/adapters.

Each script speaks protocol v1 well enough (hello, one JSON string per line
in) and breaks it in one way, through the `handle` function it passes to
`serve`: handle(text) returns the answer lines (strings) for one input.
Answers of one read are written and flushed together, like the shipped
adapters, so what arrives together in a test is deterministic.
"""

import json
import sys

HELLO = {"uridiff_protocol": 1, "parser": "test adapter", "standard": "none"}


def accept(text):
    """A well-formed answer: everything in the path."""
    return json.dumps({"verdict": "accept", "scheme": None, "path": text, "message": None})


_pending = []


def flush():
    """Writes the answers so far in one write (atomic on a pipe when short)."""
    if _pending:
        sys.stdout.buffer.write("".join(_pending).encode("ascii"))
        _pending.clear()
    sys.stdout.buffer.flush()


def serve(handle, hello=None):
    _pending.append((json.dumps(HELLO) if hello is None else hello) + "\n")
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
