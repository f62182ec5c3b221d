"""Answers the input "twice" with two lines; with the argument "late", the
second comes half a second after the first, in a write of its own."""
import sys
import time

from common import accept, flush, serve

late = sys.argv[1:] == ["late"]


def handle(text):
    if text != "twice":
        return [accept(text)]
    if late:
        flush()
        sys.stdout.buffer.write((accept(text) + "\n").encode("ascii"))
        flush()
        time.sleep(0.5)
    return [accept(text)] * (1 if late else 2)


serve(handle)
