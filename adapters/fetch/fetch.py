#!/usr/bin/env python3
"""uridiff fetch client (Python): one GET per request line, through urllib3
(`urllib3.PoolManager().request`) or urllib.request (an opener's `open`),
that can only ever connect to a loopback address on the trap's port.

    URIDIFF_PYTHON_LIB=<cache root>/python python3 -I fetch.py urllib3
    python3 -I fetch.py urllib.request

-I isolates it from the caller's environment (no PYTHON* variable, no user
site directory, not its own directory on sys.path); the pinned urllib3's
directory, named by URIDIFF_PYTHON_LIB (absolute), goes first on sys.path,
where PYTHONPATH would put it: before site-packages, which may hold another
urllib3.

Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
"runtime"}, then per line in {"client", "url", "port", "hosts": {name:
addr}, "timeout_ms", "token"} one line out {"dialled", "refused", "error",
"status"}, in order. "token" goes out as the request header
X-Uridiff-Token (urllib3: request(headers=...); urllib.request: a Request
with headers=..., the object opener.open(url) would build itself), so the
trap can tell this request from a stray connection; a line without it
sends no such header.

URIDIFF_FETCH_MODE=namespace (uridiff's network namespace, where only
loopback exists) leaves the libraries alone: no guard, the URL's own port,
the system resolver; "port" and "hosts" may then be absent. Otherwise the
guard hooks the two places both libraries go through:

- socket.getaddrinfo (urllib3.util.connection.create_connection and
  socket.create_connection, which http.client uses, both call it through
  the socket module): a host named in "hosts" (ASCII case-insensitively,
  one trailing dot ignored) stands for its address; any other host must be
  a numeric address as getaddrinfo itself reads it with AI_NUMERICHOST
  (glibc's inet_aton forms included: 0x7f.1, 127.1, 017700000001), else it
  is refused ("name not mapped: no DNS lookup") and never looked up. The
  port asked for is replaced with the trap's.
- socket.socket.connect / connect_ex: the address must be loopback
  (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104) on the trap's port, checked
  right before the connection is made; it is recorded as "dialled".

No proxies (PoolManager reads none; urllib.request gets ProxyHandler({})),
no redirects, no retries, a timeout per request. urllib.request's opener
has only the handlers an http:// URL needs (build_opener's defaults without
the file:, data:, ftp: and https: ones), so another scheme is its own
"unknown url type" error and never reads a local file.
"""

import ipaddress
import json
import os
import platform
import socket
import sys

CLIENT = sys.argv[1] if len(sys.argv) > 1 else ""

if CLIENT == "urllib3":
    _lib = os.environ.get("URIDIFF_PYTHON_LIB", "")
    if not os.path.isabs(_lib):
        sys.stderr.write(
            "fetch.py: URIDIFF_PYTHON_LIB must be the absolute path of the "
            "pinned libraries (<cache root>/python), not %r\n" % _lib
        )
        sys.exit(3)
    sys.path.insert(0, _lib)
    try:
        import urllib3
    except ImportError as e:
        sys.stderr.write(
            "fetch.py: urllib3 is not installed in %s: "
            "run bash scripts/setup-oracles.sh (%s)\n" % (_lib, e)
        )
        sys.exit(3)
elif CLIENT == "urllib.request":
    import urllib.error
    import urllib.request
else:
    sys.stderr.write("fetch.py: unknown client %r\n" % CLIENT)
    sys.exit(2)


class Refused(OSError):
    """The guard refused: no lookup, no connection."""


STATE = {"hosts": {}, "port": 0, "dialled": None, "refused": None}

_getaddrinfo = socket.getaddrinfo
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def refuse(reason):
    if STATE["refused"] is None:
        STATE["refused"] = reason
    raise Refused(reason)


def key(name):
    # ASCII case folding only, as the other clients and uridiff compare.
    name = "".join(c.lower() if c.isascii() else c for c in name)
    return name[:-1] if name.endswith(".") else name


def guarded_getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not host:
        refuse("no host: no lookup")
    mapped = STATE["hosts"].get(key(host))
    target = mapped if mapped is not None else host
    try:
        return _getaddrinfo(
            target, STATE["port"], family, type, proto, flags | socket.AI_NUMERICHOST
        )
    except socket.gaierror:
        if mapped is not None:
            raise
        refuse("name not mapped: no DNS lookup (%s)" % host)


def check_address(address):
    if not isinstance(address, tuple) or len(address) < 2:
        refuse("not an IP socket address: %r" % (address,))
    host, port = address[0], address[1]
    try:
        ip = ipaddress.ip_address(str(host).split("%", 1)[0])
    except ValueError:
        refuse("not an IP address: %r" % (host,))
    if ip.version == 6 and ip.ipv4_mapped is not None:
        loop = ip.ipv4_mapped.is_loopback
    else:
        loop = ip.is_loopback
    if not loop:
        refuse("%s is not a loopback address" % ip)
    if port != STATE["port"]:
        refuse("port %s is not the trap's port %s" % (port, STATE["port"]))
    STATE["dialled"] = str(ip)


def guarded_connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        check_address(address)
    else:
        refuse("not an IP socket")
    return _connect(self, address)


def guarded_connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        check_address(address)
    else:
        refuse("not an IP socket")
    return _connect_ex(self, address)


# URIDIFF_FETCH_MODE=namespace: uridiff runs this process in a network
# namespace whose only interface is lo, with its own hosts file and DNS
# trap (src/fetch/netns.rs): nothing can leave, so the library resolves and
# connects on its own, as it does in a service, and the trap observes
# where it went. Any other value keeps the guard.
GUARDED = os.environ.get("URIDIFF_FETCH_MODE") != "namespace"
if GUARDED:
    socket.getaddrinfo = guarded_getaddrinfo
    socket.socket.connect = guarded_connect
    socket.socket.connect_ex = guarded_connect_ex


def describe(e):
    text = "%s: %s" % (type(e).__name__, e)
    return text[:2000]


TOKEN_HEADER = "X-Uridiff-Token"


def fetch_urllib3(url, timeout, headers):
    manager = urllib3.PoolManager(retries=False)
    try:
        response = manager.request(
            "GET",
            url,
            headers=headers,
            redirect=False,
            retries=False,
            timeout=urllib3.Timeout(total=timeout),
            preload_content=True,
        )
        return response.status, None
    finally:
        manager.clear()


def fetch_urllib(url, timeout, headers):
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):
            return None

    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler({}),
        urllib.request.UnknownHandler(),
        urllib.request.HTTPHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        NoRedirect(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    try:
        # What opener.open(url) does with a string (Request(url)), with
        # the headers.
        request = urllib.request.Request(url, headers=headers)
        with opener.open(request, timeout=timeout) as response:
            response.read()
            return response.status, None
    except urllib.error.HTTPError as e:
        # A status other than 2xx (a redirect not followed included).
        return e.code, None


def answer(request):
    STATE["hosts"] = {key(k): v for k, v in request.get("hosts", {}).items()}
    STATE["port"] = int(request.get("port", 0))
    STATE["dialled"] = None
    STATE["refused"] = None
    timeout = max(request["timeout_ms"], 1) / 1000.0
    token = request.get("token")
    headers = {TOKEN_HEADER: token} if token else {}
    status, error = None, None
    try:
        if CLIENT == "urllib3":
            status, error = fetch_urllib3(request["url"], timeout, headers)
        else:
            status, error = fetch_urllib(request["url"], timeout, headers)
    except Exception as e:  # the client's own error, whatever it is
        error = describe(e)
    return {
        "dialled": STATE["dialled"],
        "refused": STATE["refused"],
        "error": error,
        "status": status,
    }


def main():
    version = urllib3.__version__ if CLIENT == "urllib3" else platform.python_version()
    hello = {
        "uridiff_fetch": 1,
        "client": "%s %s" % (CLIENT, version),
        "runtime": "%s %s" % (platform.python_implementation(), platform.python_version()),
    }
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
