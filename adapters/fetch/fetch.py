#!/usr/bin/env python3
"""uridiff fetch client (Python): one GET per request line, through urllib3
(`urllib3.PoolManager().request`) or urllib.request (an opener's `open`),
that can only ever connect to a loopback address on the trap's port; or,
only in uridiff's network namespace, through requests (`Session().get`),
httpx (`httpx.Client().get`, sync) or aiohttp (`ClientSession().get`).

    URIDIFF_PYTHON_LIB=<cache root>/python python3 -I fetch.py urllib3
    python3 -I fetch.py urllib.request
    URIDIFF_FETCH_MODE=namespace URIDIFF_PYTHON_LIB=<cache root>/python python3 -I -S fetch.py requests
    URIDIFF_FETCH_MODE=namespace URIDIFF_PYTHON_LIB=<cache root>/python python3 -I -S fetch.py httpx
    URIDIFF_FETCH_MODE=namespace URIDIFF_PYTHON_LIB=<cache root>/python python3 -I -S fetch.py aiohttp

-I isolates it from the caller's environment (no PYTHON* variable, no user
site directory, not its own directory on sys.path); the pinned urllib3's
directory, named by URIDIFF_PYTHON_LIB (absolute), goes first on sys.path,
where PYTHONPATH would put it: before site-packages, which may hold another
urllib3. requests, httpx and aiohttp run with -S too (uridiff passes it):
no site-packages at all, so that none of their optional imports (httpx's
click and rich, requests' simplejson and chardet, aiohttp's aiodns, which
would replace its resolver, brotli and zstd) loads from the machine: only
the standard library and the pinned directory (adapters/requirements.txt).

Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
"runtime"}, then per line in {"client", "url", "port", "hosts": {name:
addr}, "timeout_ms", "token"} one line out {"dialled", "refused", "error",
"status"}, in order. "token" goes out as the request header
X-Uridiff-Token (urllib3: request(headers=...); urllib.request: a Request
with headers=..., the object opener.open(url) would build itself;
requests, httpx, aiohttp: get(url, headers=...)), so the trap can tell
this request from a stray connection; a line without it sends no such
header.

URIDIFF_FETCH_MODE=namespace (uridiff's network namespace, where only
loopback exists) leaves the libraries alone: no guard, the URL's own port,
the system resolver; "port" and "hosts" may then be absent. requests,
httpx and aiohttp run only there: outside it this program refuses to
start them (exit 2), as fetch.cjs does node-fetch. Otherwise the guard
hooks the two places urllib3 and urllib.request go through:

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

No proxies (PoolManager reads none; urllib.request gets ProxyHandler({});
requests, httpx and aiohttp are told trust_env=False, so they read no
proxy variable and no .netrc), no redirects, no retries, a timeout per
request. urllib.request's opener has only the handlers an http:// URL
needs (build_opener's defaults without the file:, data:, ftp: and https:
ones), so another scheme is its own "unknown url type" error and never
reads a local file. Each request has a client of its own (a PoolManager,
a Session, an httpx.Client, a ClientSession), closed after it: no
connection is reused from one input to the next.

- requests: requests.Session() with trust_env = False, then
  session.get(url, headers=..., allow_redirects=False, timeout=...):
  what requests.get(url) does (it opens a Session and calls its request),
  less the environment. requests prepares the URL itself
  (PreparedRequest.prepare_url: urllib3.util.parse_url, then IDNA for a
  non-ASCII host) and sends it through urllib3's connection pool, whose
  retries it sets to none (HTTPAdapter's max_retries=0).
- httpx: httpx.Client(trust_env=False, follow_redirects=False,
  timeout=...), then client.get(url, headers=...): httpx.URL parses
  (httpx/_urlparse.py), httpcore's sync backend connects
  (socket.create_connection).
- aiohttp: in a new event loop (asyncio.run) per request,
  aiohttp.ClientSession(trust_env=False), then session.get(url,
  headers=..., allow_redirects=False, timeout=ClientTimeout(total=...)):
  yarl.URL parses; aiohttp's default resolver (ThreadedResolver: the
  system's getaddrinfo in a thread) resolves, aiohappyeyeballs connects.
"""

import asyncio
import importlib
import ipaddress
import json
import os
import platform
import socket
import sys

CLIENT = sys.argv[1] if len(sys.argv) > 1 else ""

# The clients whose library is pinned in URIDIFF_PYTHON_LIB, and those of
# them that have no guard here (they run only in uridiff's namespace).
PINNED = ("urllib3", "requests", "httpx", "aiohttp")
NAMESPACE_ONLY = ("requests", "httpx", "aiohttp")

# URIDIFF_FETCH_MODE=namespace: uridiff runs this process in a network
# namespace whose only interface is lo, with its own hosts file and DNS
# trap (src/fetch/netns.rs): nothing can leave, so the library resolves and
# connects on its own, as it does in a service, and the trap observes
# where it went. Any other value keeps the guard.
GUARDED = os.environ.get("URIDIFF_FETCH_MODE") != "namespace"

if CLIENT not in PINNED and CLIENT != "urllib.request":
    sys.stderr.write("fetch.py: unknown client %r\n" % CLIENT)
    sys.exit(2)
if CLIENT in NAMESPACE_ONLY and GUARDED:
    sys.stderr.write(
        "fetch.py: %s runs only in uridiff fetch's network namespace\n" % CLIENT
    )
    sys.exit(2)

if CLIENT in PINNED:
    _lib = os.environ.get("URIDIFF_PYTHON_LIB", "")
    if not os.path.isabs(_lib):
        sys.stderr.write(
            "fetch.py: URIDIFF_PYTHON_LIB must be the absolute path of the "
            "pinned libraries (<cache root>/python), not %r\n" % _lib
        )
        sys.exit(3)
    sys.path.insert(0, _lib)
    try:
        LIBRARY = importlib.import_module(CLIENT)
    except ImportError as e:
        sys.stderr.write(
            "fetch.py: %s is not installed in %s: "
            "run bash scripts/setup-oracles.sh (%s)\n" % (CLIENT, _lib, e)
        )
        sys.exit(3)
else:
    import urllib.error
    import urllib.request


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


if GUARDED:
    socket.getaddrinfo = guarded_getaddrinfo
    socket.socket.connect = guarded_connect
    socket.socket.connect_ex = guarded_connect_ex


def describe(e):
    text = "%s: %s" % (type(e).__name__, e)
    return text[:2000]


TOKEN_HEADER = "X-Uridiff-Token"


def fetch_urllib3(url, timeout, headers):
    urllib3 = LIBRARY
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


def fetch_requests(url, timeout, headers):
    requests = LIBRARY
    with requests.Session() as session:
        session.trust_env = False
        response = session.get(
            url, headers=headers, allow_redirects=False, timeout=timeout
        )
        return response.status_code, None


def fetch_httpx(url, timeout, headers):
    httpx = LIBRARY
    with httpx.Client(
        trust_env=False, follow_redirects=False, timeout=timeout
    ) as client:
        response = client.get(url, headers=headers)
        return response.status_code, None


def fetch_aiohttp(url, timeout, headers):
    aiohttp = LIBRARY

    async def get():
        async with aiohttp.ClientSession(trust_env=False) as session:
            async with session.get(
                url,
                headers=headers,
                allow_redirects=False,
                timeout=aiohttp.ClientTimeout(total=timeout),
            ) as response:
                await response.read()
                return response.status, None

    return asyncio.run(get())


FETCH = {
    "urllib3": fetch_urllib3,
    "urllib.request": fetch_urllib,
    "requests": fetch_requests,
    "httpx": fetch_httpx,
    "aiohttp": fetch_aiohttp,
}


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
        status, error = FETCH[CLIENT](request["url"], timeout, headers)
    except Exception as e:  # the client's own error, whatever it is
        error = describe(e)
    return {
        "dialled": STATE["dialled"],
        "refused": STATE["refused"],
        "error": error,
        "status": status,
    }


def main():
    if CLIENT in PINNED:
        version = LIBRARY.__version__
    else:
        version = platform.python_version()
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
