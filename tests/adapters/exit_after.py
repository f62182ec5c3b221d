"""Answers N inputs, then exits with STATUS (arguments: N STATUS)."""
import sys

from common import accept, flush, serve

limit, status = int(sys.argv[1]), int(sys.argv[2])
seen = 0


def handle(text):
    global seen
    if seen == limit:
        flush()
        sys.stderr.write("boom: exiting after %d answers\n" % limit)
        sys.exit(status)
    seen += 1
    return [accept(text)]


serve(handle)
