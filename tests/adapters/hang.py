"""Answers every input until one containing "hang", then sleeps."""
import sys
import time

from common import accept, flush, serve


def handle(text):
    if "hang" in text:
        flush()
        time.sleep(600)
    return [accept(text)]


serve(handle)
