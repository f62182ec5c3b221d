#!/usr/bin/env python3
"""uridiff external oracle `httpx`: httpx.URL (httpx's own parser,
httpx/_urlparse.py), and URL.join for pairs.

Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
line, then one JSON request {"id", "input", "base"} per line in and one JSON
answer per line out, in request order, each echoing the request's id.
httpx and its dependencies (httpcore, anyio, certifi, h11, idna,
typing_extensions) are pinned in adapters/requirements.txt and installed by
scripts/setup-oracles.sh into <cache root>/python:

    URIDIFF_PYTHON_LIB=<cache root>/python python3 -I -S adapters/httpx.py

-I isolates it from the caller's environment (no PYTHON* variable, no user
site directory, not its own directory on sys.path); -S leaves out the
interpreter's site-packages too: `import httpx` tries click, pygments and
rich (its command line's extras), and a machine's own copies of them would
load from there. So the only code it loads is the standard library's and
the pinned directory's, named by URIDIFF_PYTHON_LIB (absolute), which it
puts on sys.path itself. The adapter imports the package `httpx` as an
application does (which imports idna, not httpcore or anyio: those load
when a client sends).

What each key reports: the ParseResult that httpx.URL(input) keeps
(`URL._uri_reference`; httpx/_urlparse.py: "The parsed ASCII bytestrings
are our canonical form. All properties of the URL are derived from these").
It is read instead of the public properties because they fold absent into
empty (`query` gives b"" for both) and decode the path; every public
property is a function of it (`raw_host` is its host, `port` its port,
`raw_path` its path and query). httpx normalises as it parses: it
lower-cases the scheme and host, IDNA-encodes a non-ASCII host, drops a
scheme's default port, removes dot segments and percent-encodes what a
component does not allow (the URL Standard's percent-encode sets), so the
components are its output, not slices of the input.

- httpx.URL(input) exactly as an application calls it. Whatever it raises
  (httpx.InvalidURL for a control character, a bad port, an invalid IP
  address or IDNA host, a path that cannot follow what precedes it) is
  `reject`, with the exception's class and text. httpx also parses a
  relative reference (`/p`): `accept` with no scheme.
- scheme: `scheme`; null when "" (none).
- authority: not reported (key left out): httpx keeps no authority text,
  only its parts; the ParseResult's `authority` is rebuilt from them
  (userinfo@host:port, the default port left out), so it says nothing the
  parts do not. httpx keeps no empty authority (`http:///p` serialises as
  "http:/p"): a URL has one when its userinfo, host or port is not empty.
- userinfo: `userinfo`; null when "" (httpx keeps no empty userinfo).
- host: `host`, which is `raw_host`, the IDNA-encoded host httpx's
  transport connects to (`httpcore.URL(host=request.url.raw_host)`); an
  IPv6 address is given back the brackets httpx removes ("[::1]", as its
  authority writes it). "" when there is an authority but no host text
  (`http://:8080/`); null when there is none.
- port: `port` in decimal; null when None, which includes an empty port and
  the scheme's default (httpx drops :80 for http, ws; :443 for https, wss;
  :21 for ftp).
- path: `path` (percent-encoded, possibly "").
- query, fragment: `query`, `fragment`: null when absent, "" when present
  and empty (httpx keeps them apart).
- With a base: httpx.URL(base) first (an exception there is `reject`,
  "base: ..."), then base.join(input) (httpx's URL.join: urllib.parse.urljoin
  of the two serialisations, parsed again by httpx.URL), whose str() is
  `resolved`; the components are the joined URL's, read as above.
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
# this file is named httpx.py: without this, `import httpx` would import the
# adapter itself.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

_lib = os.environ.get("URIDIFF_PYTHON_LIB", "")
if not os.path.isabs(_lib):
    # A relative entry would be read against whatever directory it runs in.
    sys.stderr.write(
        "httpx adapter: URIDIFF_PYTHON_LIB must be the absolute path of the "
        "pinned libraries (<cache root>/python), not %r\n" % _lib
    )
    sys.exit(3)
sys.path.insert(0, _lib)

try:
    import httpx
    import idna
except ImportError as e:
    sys.stderr.write(
        "httpx adapter: httpx is not installed in %s: "
        "run bash scripts/setup-oracles.sh (%s)\n" % (_lib, e)
    )
    sys.exit(3)


def _or_none(text):
    return text if text else None


def components(u):
    p = u._uri_reference
    has_authority = bool(p.authority)
    host = p.host
    if ":" in host:
        # httpx keeps an IPv6 address without its brackets.
        host = "[%s]" % host
    return {
        "verdict": "accept",
        "scheme": _or_none(p.scheme),
        "userinfo": _or_none(p.userinfo),
        "host": host if has_authority else None,
        "port": None if p.port is None else str(p.port),
        "path": p.path,
        "query": p.query,
        "fragment": p.fragment,
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
            return {"id": request["id"], **components(httpx.URL(text))}
        try:
            base_url = httpx.URL(base)
        except Exception as e:  # noqa: BLE001 - every refusal of the parser is a reject
            return {"id": request["id"], **_reject("base: ", e)}
        joined = base_url.join(text)
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
        "parser": "httpx %s" % httpx.__version__,
        "standard": "none claimed (httpx.URL: a normalised, IDNA-supporting URL)",
        "runtime": "%s %s" % (platform.python_implementation(), platform.python_version()),
        "libraries": {"idna": getattr(idna, "__version__", None)},
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
        sys.stderr.write("httpx adapter: bad request line: %s\n" % e)
        sys.exit(2)
