"""A bad hello line (argument: text, v3, no-version, silent)."""
import json
import sys
import time

from common import accept, serve

mode = sys.argv[1]
if mode == "silent":
    time.sleep(600)
hello = {
    "text": "hello, uridiff",
    "v3": json.dumps({"uridiff_protocol": 3, "parser": "test adapter", "standard": "none"}),
    "no-version": json.dumps({"parser": "test adapter", "standard": "none"}),
}[mode]
serve(lambda text: [accept(text)], hello_line=hello)
