#!/usr/bin/env python3
"""uridiff external oracle `upa-url`: the PyPI package upa-url (module
upa_url), Python bindings of the C++ Upa URL library, an implementation of
the WHATWG URL Standard; its URL class with a base for pairs.

Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
line, then one JSON request {"id", "input", "base"} per line in and one JSON
answer per line out, in request order, each echoing the request's id.
upa-url is pinned in adapters/requirements.txt (a wheel built for CPython
3.11 on x86-64 Linux: it is a compiled extension) and installed by
scripts/setup-oracles.sh into <cache root>/python:

    URIDIFF_PYTHON_LIB=<cache root>/python python3 -I -S adapters/upa-url.py

-I isolates it from the caller's environment (no PYTHON* variable, no user
site directory, not its own directory on sys.path); -S leaves out the
interpreter's site-packages too, so the only code it loads is the standard
library's and the pinned directory's, named by URIDIFF_PYTHON_LIB
(absolute), which it puts on sys.path itself.

The package follows the URL Standard's API (its README: "It uses the same
class names ..., their function names, the same function parameters, and
the same behavior"): URL.parse(input, base) runs the standard's API URL
parser and returns None on failure, and the getters are the standard's.
They fold a null query into an empty one (`search` is "" for both), so
presence is read from `href`, the standard's serialisation, which writes
"?" exactly when the query is not null and "#" exactly when the fragment is
not null (the encode sets percent-encode every other "?" and "#" before
them). What each key reports, mapped as the `whatwg-url` adapter and
uridiff's in-process WHATWG oracles (`url`, `ada`) map theirs, so that the
outcomes compare:

- Plain input: URL.parse(input). On failure, if URL.parse(input,
  "x-uridiff-probe:/") succeeds (a base no input names, a non-special
  scheme, so a special-scheme input is never read as a same-scheme
  reference), the input is a relative reference: `out-of-domain` (as for
  `ada` and `whatwg-url`); else `reject`.
  With a base: URL.parse(base) (failure gives `reject`, "base: ..."), then
  URL.parse(input, base) (failure gives `reject`); `resolved` is its href.
- scheme: `protocol` without its ':'.
- authority: not reported (key left out): the standard's URL has no
  authority, only username, password, host and port.
- userinfo: null when the host is null. Otherwise `username` and `password`
  joined as the serializer writes them: null when both are empty, the
  username alone when the password is empty, else "username:password".
- host: `hostname` (the serialised host: lower-cased and IDNA-encoded, an
  IPv4 address in dotted decimal, an IPv6 address compressed in brackets,
  "" for the empty host of `file:///p`); null when the host is null, which
  is when `href` has no "//" after the scheme's ':' (the getter gives ""
  for a null host too).
- port: `port`; null when "" (none, or the scheme's default, which the
  standard drops).
- path: `pathname`: the path list joined with '/', or the opaque path as it
  is (`mailto:a@b` gives "a@b").
- query, fragment: null when `href` has no "?" (before its first "#") or no
  "#"; otherwise `search` and `hash` without their first character, or ""
  when the getter gives "" (present and empty).
- notes: "opaque-path" when the URL has an opaque path (a null host and a
  pathname that does not start with '/') and "serialization-differs" when
  href differs from the input (plain inputs only), as the `whatwg-url`
  adapter and the in-process `url` oracle note them.
- message: for `reject` and `out-of-domain`, what failed.

IO: stdin is read in chunks of whatever has arrived (read1); every complete
line of a chunk is answered, and the answers are written and flushed once
per chunk.
"""

import json
import os
import platform
import sys

_lib = os.environ.get("URIDIFF_PYTHON_LIB", "")
if not os.path.isabs(_lib):
    # A relative entry would be read against whatever directory it runs in.
    sys.stderr.write(
        "upa-url adapter: URIDIFF_PYTHON_LIB must be the absolute path of the "
        "pinned libraries (<cache root>/python), not %r\n" % _lib
    )
    sys.exit(3)
sys.path.insert(0, _lib)

try:
    from upa_url import URL
except ImportError as e:
    sys.stderr.write(
        "upa-url adapter: upa-url is not installed in %s: "
        "run bash scripts/setup-oracles.sh (%s)\n" % (_lib, e)
    )
    sys.exit(3)


def _installed_version():
    # The module has no __version__: the version is its distribution's, read
    # from the pinned directory's metadata (the first one on sys.path).
    from importlib import metadata

    try:
        return metadata.version("upa_url")
    except metadata.PackageNotFoundError:
        return "unknown"


PROBE_BASE = "x-uridiff-probe:/"


def components(u, input_text):
    href = u.href
    scheme = u.protocol[:-1]
    after_scheme = href[len(scheme) + 1:]
    has_host = after_scheme.startswith("//")
    before_fragment, hash_mark, _ = href.partition("#")
    has_query = "?" in before_fragment
    pathname = u.pathname
    if has_host:
        username, password = u.username, u.password
        if username == "" and password == "":
            userinfo = None
        elif password == "":
            userinfo = username
        else:
            userinfo = "%s:%s" % (username, password)
    else:
        userinfo = None
    search, fragment = u.search, u.hash
    notes = []
    if not has_host and not pathname.startswith("/"):
        notes.append("opaque-path")
    if input_text is not None and href != input_text:
        notes.append("serialization-differs")
    return {
        "verdict": "accept",
        "scheme": scheme,
        "userinfo": userinfo,
        "host": u.hostname if has_host else None,
        "port": u.port or None,
        "path": pathname,
        "query": search[1:] if has_query else None,
        "fragment": fragment[1:] if hash_mark else None,
        "message": None,
        "notes": notes,
    }


def answer(request):
    """The answer to one request (a dict with "id", "input" and "base")."""
    try:
        return parse(request)
    except Exception as e:  # noqa: BLE001 - what the binding raises is a refusal too
        return {"id": request["id"], "verdict": "reject",
                "message": "%s: %s" % (type(e).__name__, e)}


def parse(request):
    rid = request["id"]
    base = request.get("base")
    text = request["input"]
    if base is None:
        u = URL.parse(text)
        if u is None:
            if URL.parse(text, PROBE_BASE) is not None:
                return {"id": rid, "verdict": "out-of-domain",
                        "message": "a relative reference and no base URL"}
            return {"id": rid, "verdict": "reject",
                    "message": "input: the URL parser returned failure"}
        return {"id": rid, **components(u, text)}
    base_url = URL.parse(base)
    if base_url is None:
        return {"id": rid, "verdict": "reject", "message": "base: the URL parser returned failure"}
    u = URL.parse(text, base_url)
    if u is None:
        return {"id": rid, "verdict": "reject",
                "message": "input against the base: the URL parser returned failure"}
    result = components(u, None)
    result["resolved"] = u.href
    return {"id": rid, **result}


def request(line):
    """Parses one request line; a line that is no request ends the adapter."""
    r = json.loads(line)
    if (
        not isinstance(r, dict)
        or type(r.get("id")) is not int
        or not isinstance(r.get("input"), str)
        or not (r.get("base") is None or isinstance(r.get("base"), str))
    ):
        raise ValueError(
            'not a request with an integer "id", a string "input" and a null or string "base": %r'
            % line[:200]
        )
    return r


def main():
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    dumps = json.dumps
    hello = {
        "uridiff_protocol": 2,
        "parser": "upa-url %s" % _installed_version(),
        "standard": "WHATWG URL Standard",
        "runtime": "%s %s" % (platform.python_implementation(), platform.python_version()),
    }
    out.write(dumps(hello).encode("ascii") + b"\n")
    out.flush()
    pending = b""
    while True:
        chunk = inp.read1(1 << 16)
        if not chunk:
            break
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        # ensure_ascii (the default) keeps the output 7-bit.
        answers = [dumps(answer(request(line))) for line in lines if line.strip()]
        if answers:
            answers.append("")
            out.write("\n".join(answers).encode("ascii"))
            out.flush()
    if pending.strip():
        out.write(dumps(answer(request(pending))).encode("ascii") + b"\n")
        out.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
    except (ValueError, UnicodeDecodeError) as e:
        sys.stderr.write("upa-url adapter: bad request line: %s\n" % e)
        sys.exit(2)
