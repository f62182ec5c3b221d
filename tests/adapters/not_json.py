"""Answers the input "bad" with a line that is not JSON."""
from common import accept, serve


def handle(text):
    return ["this is not json"] if text == "bad" else [accept(text)]


serve(handle)
