#!/usr/bin/env python3
"""uridiff external oracle `yarl`: yarl.URL, the URL class aiohttp parses
every request URL with, and URL.join for pairs (aiohttp resolves a
redirect's Location with it).

Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
line, then one JSON request {"id", "input", "base"} per line in and one JSON
answer per line out, in request order, each echoing the request's id.
yarl and what it imports (multidict, propcache, idna) are pinned in
adapters/requirements.txt and installed by scripts/setup-oracles.sh into
<cache root>/python:

    URIDIFF_PYTHON_LIB=<cache root>/python python3 -I -S adapters/yarl.py

-I isolates it from the caller's environment (no PYTHON* variable, no user
site directory, not its own directory on sys.path); -S leaves out the
interpreter's site-packages too, so the only code it loads is the standard
library's and the pinned directory's, named by URIDIFF_PYTHON_LIB
(absolute), which it puts on sys.path itself.

What each key reports, read from the URL object as aiohttp reads it
(https://yarl.aio-libs.org/en/stable/api/). yarl normalises as it parses
("Constructor and modification operators perform encoding for all parts
automatically"): it lower-cases the scheme and host, IDNA-encodes a
non-ASCII host, percent-encodes what a component does not allow, decodes
%-escapes of unreserved characters and removes dot segments, so the
components are its output, not slices of the input.

- yarl.URL(input) exactly as an application calls it. Whatever it raises
  (ValueError for a backslash in the authority, a port outside 0-65535, a
  bracketed host that is no IPv6 address, or no host after "http://";
  UnicodeError from IDNA) is `reject`, with the exception's class and text.
  yarl also parses a relative reference (`/p`, `x/y`): `accept` with no
  scheme.
- scheme: `scheme`; null when "" (none).
- authority: `raw_authority` (the authority as yarl keeps it, encoded); null
  when "": yarl keeps no empty authority (`http:///p` and `http:/p` are one
  URL to it, serialised "http:///p").
- userinfo: `raw_user`, then ":" and `raw_password` when that is not None;
  null when both are None (yarl keeps no empty userinfo: `http://@h/` gives
  None).
- host: `raw_host`, the IDNA-encoded host that aiohttp connects to
  (aiohttp's ClientRequest.host and its connection key read
  `url.raw_host`); `host` would decode "xn--" labels back to Unicode and
  raises where they do not decode. An IPv6 address is given back its
  brackets ("[::1]", as the URL writes it), so that it compares with other
  parsers' hosts as the same text. "" when there is an authority but no
  host text; null when None.
- port: `explicit_port` in decimal (the port written in the URL; yarl's
  `port` would add the scheme's default); null when None, which includes
  an empty port (`http://h:/`).
- path: `raw_path` (yarl puts "/" for the empty path of a URL with an
  authority).
- query: `raw_query_string`; null when "": yarl keeps no empty query
  (`http://h/?` serialises as "http://h/").
- fragment: `raw_fragment`; null when "", likewise.
- With a base: yarl.URL(base) first (an exception there is `reject`, "base:
  ..."), then base.join(yarl.URL(input)) (RFC 3986 section 5.2 resolution,
  per the docs of URL.join), whose str() is `resolved`; the components are
  the joined URL's, read as above.
- message: the exception's text for `reject`, else null.

IO: stdin is read in chunks of whatever has arrived (read1); every complete
line of a chunk is answered, and the answers are written and flushed once
per chunk.
"""

import json
import os
import platform
import sys

# Run without -I, the adapter's own directory comes first on sys.path, and
# this file is named yarl.py: without this, `import yarl` would import the
# adapter itself.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

_lib = os.environ.get("URIDIFF_PYTHON_LIB", "")
if not os.path.isabs(_lib):
    # A relative entry would be read against whatever directory it runs in.
    sys.stderr.write(
        "yarl adapter: URIDIFF_PYTHON_LIB must be the absolute path of the "
        "pinned libraries (<cache root>/python), not %r\n" % _lib
    )
    sys.exit(3)
sys.path.insert(0, _lib)

try:
    import yarl
    from yarl import URL
except ImportError as e:
    sys.stderr.write(
        "yarl adapter: yarl is not installed in %s: "
        "run bash scripts/setup-oracles.sh (%s)\n" % (_lib, e)
    )
    sys.exit(3)


def _version(module):
    try:
        return __import__(module).__version__
    except (ImportError, AttributeError):
        return None


def _or_none(text):
    return text if text else None


def _bracketed(host):
    # yarl keeps an IPv6 address (with its zone) without the brackets.
    if host is not None and ":" in host:
        return "[%s]" % host
    return host


def components(u):
    authority = _or_none(u.raw_authority)
    user, password = u.raw_user, u.raw_password
    if user is None and password is None:
        userinfo = None
    else:
        userinfo = (user or "") + ("" if password is None else ":" + password)
    host = u.raw_host
    if host is None and authority is not None:
        host = ""
    port = u.explicit_port
    return {
        "verdict": "accept",
        "scheme": _or_none(u.scheme),
        "authority": authority,
        "userinfo": userinfo,
        "host": _bracketed(host),
        "port": None if port is None else str(port),
        "path": u.raw_path,
        "query": _or_none(u.raw_query_string),
        "fragment": _or_none(u.raw_fragment),
        "message": None,
    }


def _reject(prefix, e):
    return {"verdict": "reject", "message": "%s%s: %s" % (prefix, type(e).__name__, e)}


def answer(request):
    """The answer to one request (a dict with "id", "input" and "base")."""
    base = request.get("base")
    text = request["input"]
    try:
        if base is None:
            return {"id": request["id"], **components(URL(text))}
        try:
            base_url = URL(base)
        except Exception as e:  # noqa: BLE001 - every refusal of the parser is a reject
            return {"id": request["id"], **_reject("base: ", e)}
        joined = base_url.join(URL(text))
        result = components(joined)
        result["resolved"] = str(joined)
        return {"id": request["id"], **result}
    except Exception as e:  # noqa: BLE001 - every refusal of the parser is a reject
        return {"id": request["id"], **_reject("", e)}


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
        "parser": "yarl %s" % yarl.__version__,
        "standard": "none claimed (yarl.URL: encodes every part, normalising)",
        "runtime": "%s %s" % (platform.python_implementation(), platform.python_version()),
        "libraries": {m: _version(m) for m in ("multidict", "propcache", "idna")},
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
        sys.stderr.write("yarl adapter: bad request line: %s\n" % e)
        sys.exit(2)
