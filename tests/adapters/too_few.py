"""Writes no answer for the input "skip", and keeps running."""
from common import accept, serve


def handle(text):
    return [] if text == "skip" else [accept(text)]


serve(handle)
