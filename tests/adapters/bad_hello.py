"""A bad hello line (argument: text, v2, no-version, silent)."""
import json
import sys
import time

from common import accept, serve

mode = sys.argv[1]
if mode == "silent":
    time.sleep(600)
hello = {
    "text": "hello, uridiff",
    "v2": json.dumps({"uridiff_protocol": 2, "parser": "test adapter", "standard": "none"}),
    "no-version": json.dumps({"parser": "test adapter", "standard": "none"}),
}[mode]
serve(lambda text: [accept(text)], hello=hello)
