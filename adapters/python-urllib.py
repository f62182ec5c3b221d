#!/usr/bin/env python3
"""uridiff external oracle `python-urllib`: CPython's urllib.parse.urlsplit,
and urllib.parse.urljoin for pairs.

Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
line, then one JSON request {"id", "input", "base"} per line in and one JSON
answer per line out, in request order, each echoing the request's id.
Standard library only:

    python3 -I adapters/python-urllib.py

What each key reports, and the documented behaviours it relies on
(https://docs.python.org/3/library/urllib.parse.html):

- The input goes through `urlsplit(input)` exactly as an application would call
  it. urlsplit strips leading C0 control and space characters (the WHATWG rule,
  CVE-2023-24329) and removes every tab, CR and LF anywhere in the input
  ("URL parsing security" and the urlsplit entry of the docs), so the
  components below are pieces of that cleaned text, not of the raw input.
- scheme: as urlsplit gives it (lower-cased); null when urlsplit finds none
  (it returns '' then; a scheme cannot be present and empty).
- authority: `netloc`. urlsplit returns '' both for no authority and for an
  empty one, so presence is decided from the cleaned input: after the scheme
  and its ':', does the rest start with '//'? (`http:///p` has an empty
  authority, `http:/p` none.)
- userinfo: the part of netloc before its last '@' (the rpartition that
  `.username`/`.password` use); null when netloc has no '@'.
- host: `.hostname`, as an application sees it: lower-cased (except an IPv6
  zone after '%'), and None (null) for an empty host, so an empty host reads
  as absent. `.hostname` removes an IP literal's brackets; they are put
  back (a host written "[...]" in the netloc is reported "[...]", as in the
  URL), so that the host compares with other parsers' as the same text.
- port: `.port` is read (as an application would); it raises ValueError for a
  non-numeric port or one outside 0-65535, and then the verdict is `reject`
  with that message. When it succeeds, the reported port is the text after
  the host's ':' (e.g. "0080" for 80); null when `.port` is None, which
  includes an empty port (`http://h:/`).
- path: `path`, possibly ''.
- query, fragment: urlsplit returns '' for absent and empty alike, so
  presence is decided from the cleaned input: a '#' anywhere after the
  scheme means a fragment; a '?' before the first '#' means a query.
- verdict: `reject` when urlsplit or `.port` raises ValueError (invalid IPv6
  brackets, a bracketed host that is no IP address, NFKC-unsafe netloc
  characters, a bad port); `accept` otherwise. urlsplit never judges
  anything else: it splits any string.
- With a base: urlsplit(base) first (a ValueError there is `reject`, "base:
  ..."), then urljoin(base, input) (RFC 3986 section 5.2 resolution, per the
  docs), whose result is `resolved`; the components are those of that
  result, read exactly as above (urlsplit, `.hostname`, `.port`).

IO: stdin is read in chunks of whatever has arrived (read1); every complete
line of a chunk is answered, and the answers are written and flushed once
per chunk, so a batch costs a handful of system calls.
"""

import json
import platform
import sys
import urllib.parse
from urllib.parse import urljoin, urlsplit

# The running urllib's own cleaning rules (older Pythons lack one or both,
# and then urlsplit does not apply them either).
_STRIP = getattr(urllib.parse, "_WHATWG_C0_CONTROL_OR_SPACE", "")
_REMOVE = getattr(urllib.parse, "_UNSAFE_URL_BYTES_TO_REMOVE", ())

_KEYS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


def _port_text(netloc):
    # The text after the host's ':', found the way `.port` finds it.
    hostinfo = netloc.rpartition("@")[2]
    _, bracket, bracketed = hostinfo.partition("[")
    if bracket:
        _, _, port = bracketed.partition("]")[2].partition(":")
    else:
        _, _, port = hostinfo.partition(":")
    return port


def _bracketed(netloc, hostname):
    """`.hostname` with the brackets it removed put back, when the host was
    written as an IP literal ("[...]") in the netloc."""
    if hostname and netloc.rpartition("@")[2].startswith("["):
        return "[%s]" % hostname
    return hostname


def describe(text):
    try:
        parts = urlsplit(text)
        port = parts.port
        hostname = parts.hostname
    except ValueError as e:
        return {"verdict": "reject", "message": "ValueError: %s" % e}
    cleaned = text.lstrip(_STRIP) if _STRIP else text
    for ch in _REMOVE:
        cleaned = cleaned.replace(ch, "")
    scheme = parts.scheme
    rest = cleaned[len(scheme) + 1:] if scheme else cleaned
    before_fragment = rest.partition("#")[0]
    netloc = parts.netloc
    has_authority = rest.startswith("//")
    return {
        "verdict": "accept",
        "scheme": scheme or None,
        "authority": netloc if has_authority else None,
        "userinfo": netloc.rpartition("@")[0] if "@" in netloc else None,
        "host": _bracketed(netloc, hostname),
        "port": _port_text(netloc) if port is not None else None,
        "path": parts.path,
        "query": parts.query if "?" in before_fragment else None,
        "fragment": parts.fragment if "#" in rest else None,
        "message": None,
    }


def answer(request):
    """The answer to one request (a dict with "id", "input" and "base")."""
    base = request.get("base")
    text = request["input"]
    if base is None:
        result = describe(text)
    else:
        try:
            urlsplit(base)
        except ValueError as e:
            return {"id": request["id"], "verdict": "reject", "message": "base: ValueError: %s" % e}
        try:
            resolved = urljoin(base, text)
        except ValueError as e:
            return {"id": request["id"], "verdict": "reject", "message": "ValueError: %s" % e}
        result = describe(resolved)
        if result["verdict"] == "accept":
            result["resolved"] = resolved
    return {"id": request["id"], **result}


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
        "parser": "%s %s urllib.parse.urlsplit"
        % (platform.python_implementation(), platform.python_version()),
        "standard": "urllib.parse (RFC 3986 split with WHATWG input cleaning)",
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
        sys.stderr.write("python-urllib adapter: bad request line: %s\n" % e)
        sys.exit(2)
