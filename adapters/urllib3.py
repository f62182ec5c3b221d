#!/usr/bin/env python3
"""uridiff external oracle `urllib3`: urllib3.util.parse_url, the parser
`requests` (and urllib3's own PoolManager) connects with.

Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
line, then one JSON request {"id", "input", "base"} per line in and one JSON
answer per line out, in request order, each echoing the request's id.
urllib3 (and idna, which requests installs beside it) are pinned in
adapters/requirements.txt and installed by scripts/setup-oracles.sh into
<cache root>/python:

    URIDIFF_PYTHON_LIB=<cache root>/python python3 -I adapters/urllib3.py

-I isolates it from the caller's environment (no PYTHON* variable, no user
site directory, not its own directory on sys.path); the pinned libraries'
directory, named by URIDIFF_PYTHON_LIB (absolute), goes first on sys.path,
where PYTHONPATH would put it: before site-packages, which may hold another
urllib3.

What each key reports, read from the Url namedtuple parse_url returns
(https://urllib3.readthedocs.io/en/stable/reference/urllib3.util.html#urllib3.util.parse_url,
https://urllib3.readthedocs.io/en/stable/reference/urllib3.util.html#urllib3.util.Url):

- The input goes through parse_url(input) exactly as an application calls
  it. parse_url raises LocationParseError for what it refuses (a host or port
  its RFC 3986 patterns do not match, a port above 65535, a control
  character in the host, a non-ASCII label idna refuses): `reject`, with the
  exception's class and text. Any other exception from it is `reject` too.
  parse_url normalises as it parses: an input with no scheme gets "//" put
  before it (so `example.com/x` has host "example.com"); for http, https
  and no scheme it lower-cases the host, IDNA-encodes a non-ASCII one,
  removes dot segments and percent-encodes what RFC 3986 does not allow in
  the userinfo, path, query and fragment. The components below are its
  output, not slices of the input.
- A pair is `out-of-domain`: urllib3 has no resolution function (parse_url
  parses one URL; urllib3 and requests resolve a redirect's Location with
  urllib.parse.urljoin, the `python-urllib` oracle).
- scheme: `scheme` (lower-cased); null when None.
- authority: the `authority` property, which urllib3 rebuilds from its parts
  as userinfo@host:port (the port as an integer, so `h:080` gives "h:80");
  null when None (no authority, or an empty one: `http:///p`).
- userinfo: `auth`, kept percent-encoded; null when None, which includes an
  empty userinfo (`http://@h/`: parse_url keeps no empty auth).
- host: `host`: an IPv6 literal keeps its brackets ("[::1]", with a zone id
  after '%'), as the RFC 3986 oracles report it; "" for an empty host with
  a port (`http://:80/`); null when None.
- port: `port` (an int) in decimal; null when None, which includes an empty
  port (`http://h:/`).
- path: `path`; parse_url puts a '/' before a path that lacks one
  (`mailto:a@b` gives "/a@b"), gives "" when there is no path but a query
  or fragment, and null (None) when there is none of the three.
- query, fragment: `query`, `fragment`: "" when present and empty, null when
  absent (parse_url keeps them apart).
- message: the exception's text for `reject`, the reason for
  `out-of-domain`, else null.

IO: stdin is read in chunks of whatever has arrived (read1); every complete
line of a chunk is answered, and the answers are written and flushed once
per chunk.
"""

import json
import os
import platform
import sys

# Run without -I, the adapter's own directory comes first on sys.path, and
# this file is named urllib3.py: without this, `import urllib3` would
# import the adapter itself.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

_lib = os.environ.get("URIDIFF_PYTHON_LIB", "")
if not os.path.isabs(_lib):
    # A relative entry would be read against whatever directory it runs in.
    sys.stderr.write(
        "urllib3 adapter: URIDIFF_PYTHON_LIB must be the absolute path of the "
        "pinned libraries (<cache root>/python), not %r\n" % _lib
    )
    sys.exit(3)
sys.path.insert(0, _lib)

try:
    import urllib3
    from urllib3.util import parse_url
except ImportError as e:
    sys.stderr.write(
        "urllib3 adapter: urllib3 is not installed in %s: "
        "run bash scripts/setup-oracles.sh (%s)\n" % (_lib, e)
    )
    sys.exit(3)

try:
    import idna

    _IDNA = idna.__version__
except ImportError:
    _IDNA = None

NO_RESOLUTION = (
    "urllib3 has no resolution function: parse_url parses one URL "
    "(urllib3 and requests resolve a redirect with urllib.parse.urljoin: "
    "the python-urllib oracle)"
)


def _text(value):
    return None if value is None else str(value)


def describe(text):
    try:
        u = parse_url(text)
    except Exception as e:  # noqa: BLE001 - every refusal of the parser is a reject
        return {"verdict": "reject", "message": "%s: %s" % (type(e).__name__, e)}
    return {
        "verdict": "accept",
        "scheme": u.scheme,
        "authority": u.authority,
        "userinfo": u.auth,
        "host": u.host,
        "port": _text(u.port),
        "path": u.path,
        "query": u.query,
        "fragment": u.fragment,
        "message": None,
    }


def answer(request):
    """The answer to one request (a dict with "id", "input" and "base")."""
    if request.get("base") is not None:
        return {"id": request["id"], "verdict": "out-of-domain", "message": NO_RESOLUTION}
    return {"id": request["id"], **describe(request["input"])}


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
        "parser": "urllib3 %s" % urllib3.__version__,
        "standard": "RFC 3986 and RFC 6874 (urllib3.util.parse_url, normalising)",
        "runtime": "%s %s" % (platform.python_implementation(), platform.python_version()),
        "libraries": {"idna": _IDNA},
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
        sys.stderr.write("urllib3 adapter: bad request line: %s\n" % e)
        sys.exit(2)
