"""A protocol v2 adapter that breaks the rules on chosen inputs (argument:
the mode; "ok" breaks nothing). Accepts every input with the input as its
path; with a base, the path is BASE|INPUT and `resolved` is BASE + INPUT.

Modes, each acting on the input of the same name:
  drop    no answer for it
  repeat  two answers with its id
  swap    its answer held back and written after the next one
  invent  an answer with an id 1000 past its own
  no-id   an answer without an id
  late    its answer, then half a second later, in a write of its own, an
          answer with id 999
  hang    the answers before it written, then none for it: it sleeps
"""
import json
import sys
import time

from common import flush, serve

mode = sys.argv[1]
held = []


def answer(request, **change):
    base = request["base"]
    out = {"id": request["id"], "verdict": "accept", "scheme": None, "message": None}
    if base is None:
        out["path"] = request["input"]
    else:
        out["path"] = base + "|" + request["input"]
        out["resolved"] = base + request["input"]
        out["notes"] = ["test-resolved"]
    out.update(change)
    return json.dumps(out)


def handle(request):
    text = request["input"]
    if text != mode:
        out = [answer(request)] + held
        held.clear()
        return out
    if mode == "drop":
        return []
    if mode == "repeat":
        return [answer(request)] * 2
    if mode == "swap":
        held.append(answer(request))
        return []
    if mode == "invent":
        return [answer(request, id=request["id"] + 1000)]
    if mode == "no-id":
        return [json.dumps({"verdict": "accept", "path": text})]
    if mode == "late":
        flush()
        sys.stdout.buffer.write((answer(request) + "\n").encode("ascii"))
        flush()
        time.sleep(0.5)
        return [answer(request, id=999)]
    if mode == "hang":
        flush()
        time.sleep(600)
    return [answer(request)]


serve(handle, version=2)
