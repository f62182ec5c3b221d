"""Writes 3 GB without a newline (argument: "hello", in place of its hello
line; "answer", in answer to its first input), then exits."""
import sys

from common import hello

out = sys.stdout.buffer
if sys.argv[1] == "answer":
    out.write(hello().encode("ascii") + b"\n")
    out.flush()
    sys.stdin.buffer.readline()
block = b"a" * (1 << 20)
try:
    for _ in range(3 * 1024):
        out.write(block)
    out.flush()
except BrokenPipeError:
    pass
