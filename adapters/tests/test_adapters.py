#!/usr/bin/env python3
"""Tests of uridiff's shipped external adapters (adapters/), over the pipe
protocol v2 (GUIDE.md, "External oracles").

    python3 adapters/tests/test_adapters.py [--only NAME]... [--allow-missing NAME]...

Each adapter is started as uridiff starts it: its file copied into a fresh
temporary directory and run from there with its runtime, with the cache
root's libraries named by URIDIFF_PYTHON_LIB / URIDIFF_WHATWG_URL /
URIDIFF_FAST_URI / URIDIFF_URI_JS / URIDIFF_URL_PARSE, and the
Go adapter run as the binary <cache root>/go/go-net-url-<KEY> (KEY: the
first 16 hex of the SHA-256 of its source followed by what `go env GOVERSION
GOOS GOARCH` says), built with `go build` when it is missing, as uridiff
does on first use (scripts/setup-oracles.sh --help: the same recipe).
The cache root is $URIDIFF_CACHE, else $XDG_CACHE_HOME/uridiff, else
$HOME/.cache/uridiff.

What is checked, for each adapter:
- the hello: the first line, protocol 2, a parser with its version (the
  pinned one for urllib3 and the npm libraries), a standard and a runtime;
- the v2 rules: one answer per request, in request order, each echoing its
  request's id (ids with gaps and beyond 2**32, never reset between
  batches); answers arrive before the input closes (the adapter flushes);
  well-formed answers (verdict, message, only known keys, the components the
  adapter documents, `null` for an absent query or fragment and "" for an
  empty one); inputs holding a NUL, a newline, non-ASCII text (outside the
  BMP too) and 4 KiB; no surplus line and exit status 0 when the input
  closes;
- behaviours from the parsers' documentation and known confusions (the
  BEHAVIOURS table below), and that every adapter with a resolution
  function resolves a network-path reference to its host, while those
  without one answer `out-of-domain`.

An adapter whose runtime or library is missing FAILS, with the command that
installs it, unless --allow-missing NAME is given (then it is listed as
missing, never skipped in silence). Exit status: 0 when every adapter tested
passed, 1 otherwise, 2 on a usage error.
"""

import argparse
import hashlib
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTERS_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(ADAPTERS_DIR)

SETUP = "bash scripts/setup-oracles.sh"

# Deadlines only keep a broken adapter from hanging the test; they are no
# measure of speed (Java's source launcher compiles the adapter first).
HELLO_DEADLINE = 120.0
BATCH_DEADLINE = 60.0
EXIT_DEADLINE = 30.0

COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
ANSWER_KEYS = {"id", "verdict", "message", "resolved", "notes"} | set(COMPONENTS)
VERDICTS = {"accept", "reject", "out-of-domain"}


def cache_root():
    # Absolute, as uridiff makes it: the adapters are given absolute paths.
    if os.environ.get("URIDIFF_CACHE"):
        return os.path.abspath(os.environ["URIDIFF_CACHE"])
    if os.environ.get("XDG_CACHE_HOME"):
        return os.path.abspath(os.path.join(os.environ["XDG_CACHE_HOME"], "uridiff"))
    return os.path.join(os.path.expanduser("~"), ".cache", "uridiff")


def apt(packages):
    return "apt-get update && apt-get install -y %s" % packages


def pinned(project):
    """The version adapters/requirements.txt pins for a PyPI project."""
    with open(os.path.join(ADAPTERS_DIR, "requirements.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(project + "=="):
                return line.split("==", 1)[1].split()[0]
    raise SystemExit("adapters/requirements.txt pins no %s" % project)


def pinned_npm(package):
    with open(os.path.join(ADAPTERS_DIR, "package.json"), encoding="utf-8") as f:
        return json.load(f)["dependencies"][package]


class Adapter:
    """How uridiff runs one shipped adapter, and what it documents."""

    def __init__(self, name, file, runtime, argv, install, resolves, omits=(),
                 env=None, library=None, parser=None, parser_prefix=None, varies=(),
                 unset=(), probe=None):
        self.name = name
        self.file = file
        self.runtime = runtime
        # The command line, with FILE standing for the adapter's path.
        self.argv = argv
        self.install = install
        self.resolves = resolves
        # Components the adapter does not report (keys left out).
        self.omits = set(omits)
        # Components it reports only where the parser's object has them
        # (Perl's URI: a host only in the classes with one).
        self.varies = set(varies)
        # The caller's variables uridiff removes for it (the row's `unset`).
        self.unset = set(unset)
        # A command that exits 0 when its runtime can load its library (a
        # Debian package's, not the cache root's), or None.
        self.probe = probe
        # Environment variables pointing at the cache root's libraries.
        self.env = env or {}
        # (path that must exist in the cache root, what it is) or None.
        self.library = library
        # The exact parser the hello must name, when pinned.
        self.parser = parser
        # What the parser the hello names must start with, when the rest
        # depends on the runtime (fast-uri names Node's URL parser too).
        self.parser_prefix = parser_prefix


# The environment uridiff builds Go programs in (src/oracle/external/shipped.rs,
# go_build): only where Go and its caches are, from the caller's.
GO_KEEP = ("PATH", "HOME", "TMPDIR", "GOROOT", "GOPATH", "GOCACHE", "GOMODCACHE",
           "XDG_CACHE_HOME")
GO_SET = {"GOENV": "off", "GOTOOLCHAIN": "local", "GOWORK": "off", "GO111MODULE": "on",
          "GOPROXY": "off", "CGO_ENABLED": "0"}


def go_env(directory):
    env = {k: os.environ[k] for k in GO_KEEP if k in os.environ}
    env.update(GO_SET)
    if not any(k in os.environ for k in ("GOCACHE", "XDG_CACHE_HOME", "HOME")):
        # go build needs a build cache: a throw-away one without a home.
        env["GOCACHE"] = os.path.join(directory, "scratch-cache")
    return env


def go_program(root):
    """Where uridiff keeps the Go adapter; None without go (the name covers
    the toolchain)."""
    if shutil.which("go") is None:
        return None
    with open(os.path.join(ADAPTERS_DIR, "go-net-url.go"), "rb") as f:
        source = f.read()
    tmp = tempfile.mkdtemp()
    try:
        said = subprocess.run(["go", "env", "GOVERSION", "GOOS", "GOARCH"], cwd=tmp,
                              env=go_env(tmp), stdout=subprocess.PIPE, check=True).stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    key = hashlib.sha256(source + said).hexdigest()[:16]
    return os.path.join(root, "go", "go-net-url-" + key)


SPRING_JARS = ("/usr/share/java/spring3-web.jar", "/usr/share/java/spring3-core.jar",
               "/usr/share/java/commons-logging.jar")
JETTY_JARS = ("/usr/share/java/jetty9-http.jar", "/usr/share/java/jetty9-util.jar")
# As src/oracle/external/shipped.rs removes them (the rows' `unset`).
PERL_UNSET = ("PERL5LIB", "PERLLIB", "PERL5OPT", "PERL_USE_UNSAFE_INC", "PERL_UNICODE", "PERLIO")
RUBY_UNSET = ("RUBYOPT", "RUBYLIB", "RUBYGEMS_GEMDEPS", "GEM_HOME", "GEM_PATH")


def adapters(root):
    go_bin = go_program(root) or "go-net-url (go not found)"
    python_lib = os.path.join(root, "python")
    node_lib = os.path.join(root, "node", "node_modules")
    urllib3_version = pinned("urllib3")

    def python_library(name, file, project, package_dir, resolves, omits=()):
        # A Python adapter with pinned libraries, run as its row in shipped.rs
        # says: -I -S, the pinned directory named by URIDIFF_PYTHON_LIB.
        version = pinned(project)
        return Adapter(name, file, "python3", ["python3", "-I", "-S", "FILE"],
                       apt("python3") + " && " + SETUP, resolves=resolves, omits=omits,
                       env={"URIDIFF_PYTHON_LIB": python_lib},
                       library=(os.path.join(python_lib, package_dir, "__init__.py"),
                                "%s %s in %s" % (project, version, python_lib)),
                       parser="%s %s" % (project, version))
    whatwg_version = pinned_npm("whatwg-url")

    def npm_adapter(name, variable, **kwargs):
        """A Node adapter whose library, pinned in adapters/package.json, is
        loaded by the absolute path in `variable`."""
        version = pinned_npm(name)
        package = os.path.join(node_lib, name)
        return Adapter(name, name + ".cjs", "node", ["node", "FILE"],
                       apt("nodejs npm") + " && " + SETUP, resolves=True, omits={"authority"},
                       env={variable: package},
                       library=(os.path.join(package, "package.json"),
                                "%s %s in %s" % (name, version, node_lib)),
                       **kwargs)

    return [
        Adapter("python-urllib", "python-urllib.py", "python3", ["python3", "-I", "FILE"],
                apt("python3"), resolves=True),
        Adapter("urllib3", "urllib3.py", "python3", ["python3", "-I", "FILE"],
                apt("python3") + " && " + SETUP, resolves=False,
                env={"URIDIFF_PYTHON_LIB": python_lib},
                library=(os.path.join(python_lib, "urllib3", "__init__.py"),
                         "urllib3 %s in %s" % (urllib3_version, python_lib)),
                parser="urllib3 " + urllib3_version),
        Adapter("java-uri", "JavaUri.java", "java",
                ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "FILE"],
                apt("default-jre-headless"), resolves=True),
        Adapter("java-url", "JavaUri.java", "java",
                ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "FILE", "url"],
                apt("default-jdk-headless"), resolves=True),
        # Debian's jars by their fixed paths, as src/oracle/external/shipped.rs
        # names them; setup-oracles.sh installs their packages.
        Adapter("spring-uri", "JavaUri.java", "java",
                ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                 ":".join(SPRING_JARS), "FILE", "spring"],
                apt("default-jdk-headless libspring-web-java"), resolves=False,
                omits={"authority"},
                library=(SPRING_JARS[0], "libspring-web-java (Debian)")),
        Adapter("jetty-httpuri", "JavaUri.java", "java",
                ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                 ":".join(JETTY_JARS), "FILE", "jetty"],
                apt("default-jdk-headless libjetty9-java"), resolves=False,
                omits={"authority"},
                library=(JETTY_JARS[0], "libjetty9-java (Debian)")),
        Adapter("node-url", "node-url.cjs", "node", ["node", "FILE"], apt("nodejs npm"),
                resolves=True, omits={"authority"}),
        Adapter("whatwg-url", "whatwg-url.cjs", "node", ["node", "FILE"],
                apt("nodejs npm") + " && " + SETUP, resolves=True, omits={"authority"},
                env={"URIDIFF_WHATWG_URL": os.path.join(node_lib, "whatwg-url")},
                library=(os.path.join(node_lib, "whatwg-url", "package.json"),
                         "whatwg-url %s in %s" % (whatwg_version, node_lib)),
                parser="whatwg-url " + whatwg_version),
        npm_adapter("fast-uri", "URIDIFF_FAST_URI",
                    parser_prefix="fast-uri %s (" % pinned_npm("fast-uri")),
        npm_adapter("uri-js", "URIDIFF_URI_JS", parser="uri-js " + pinned_npm("uri-js")),
        npm_adapter("url-parse", "URIDIFF_URL_PARSE",
                    parser="url-parse " + pinned_npm("url-parse")),
        Adapter("go-net-url", "go-net-url.go", "go", [go_bin], apt("golang-go"),
                resolves=True),
        Adapter("php-parse-url", "php-parse-url.php", "php", ["php", "FILE"], apt("php-cli"),
                resolves=False, omits={"authority"}),
        # URI::File and URI::MailTo keep no userinfo or port (nor, for
        # `file:/p` and mailto, a host): the adapter leaves those keys out.
        Adapter("ruby-uri", "ruby-uri.rb", "ruby", ["ruby", "FILE"], apt("ruby"),
                resolves=True, omits={"authority"}, varies={"userinfo", "host", "port"}),
        Adapter("ruby-uri-rfc2396", "ruby-uri.rb", "ruby", ["ruby", "FILE", "rfc2396"],
                apt("ruby"), resolves=True, omits={"authority"},
                varies={"userinfo", "host", "port"}),
        python_library("yarl", "yarl.py", "yarl", "yarl", resolves=True),
        python_library("httpx", "httpx.py", "httpx", "httpx", resolves=True,
                       omits={"authority"}),
        python_library("upa-url", "upa-url.py", "upa-url", "upa_url", resolves=True,
                       omits={"authority"}),
        Adapter("perl-uri", "perl-uri.pl", "perl", ["perl", "FILE"], apt("perl liburi-perl"),
                resolves=True, varies={"authority", "userinfo", "host", "port", "query"},
                unset=PERL_UNSET, probe=["perl", "-MURI", "-e", "1"]),
        Adapter("ruby-addressable", "ruby-addressable.rb", "ruby", ["ruby", "FILE"],
                apt("ruby ruby-addressable"), resolves=True, omits={"authority"},
                unset=RUBY_UNSET,
                probe=["ruby", "-e", "Gem.use_paths(Gem.default_dir, Gem.default_path - "
                       "[Gem.user_dir]); require \"addressable/uri\""]),
    ]


# --- What the adapters must do ------------------------------------------------


def host(expected):
    """An expectation: accepted, with this host."""

    def check(answer):
        if answer.get("verdict") != "accept":
            return "expected accept with host %r, got %s" % (expected, brief(answer))
        if answer.get("host") != expected:
            return "expected host %r, got %r" % (expected, answer.get("host"))
        return None

    return check


def component(key, expected):
    """An expectation: accepted, with this component (None: JSON null)."""

    def check(answer):
        if answer.get("verdict") != "accept":
            return "expected accept with %s %r, got %s" % (key, expected, brief(answer))
        if key not in answer:
            return "expected %s %r, but the key is missing" % (key, expected)
        if answer[key] != expected:
            return "expected %s %r, got %r" % (key, expected, answer[key])
        return None

    return check


def verdict(expected):
    """An expectation: this verdict."""

    def check(answer):
        if answer.get("verdict") != expected:
            return "expected %s, got %s" % (expected, brief(answer))
        return None
def host_and_note(expected_host, expected_note):
    """An expectation: accepted, with this host and this note."""

    def check(answer):
        problem = host(expected_host)(answer)
        if problem is None and expected_note not in answer.get("notes", []):
            problem = "expected the note %r, got notes %r" % (expected_note, answer.get("notes"))
        return problem

    return check


def answered(answer):
    """An expectation met by any well-formed answer (checked elsewhere)."""
    return None


def path_in(*allowed):
    def check(answer):
        if answer.get("verdict") != "accept":
            return "expected accept, got %s" % brief(answer)
        if answer.get("path") not in allowed:
            return "expected path in %r, got %r" % (allowed, answer.get("path"))
        return None

    return check


EVERY = object()

LONG_PATH = "/" + "a" * 4096

# (input, base, {adapter name or EVERY: expectation}).
PROTOCOL_CASES = [
    ("a\u0000b", None, {EVERY: answered}),
    ("http://h/a\nb", None, {EVERY: answered}),
    ("http://h/\u00e9\U0001F600", None, {EVERY: answered}),
    ("http://h" + LONG_PATH, None, {EVERY: component("path", LONG_PATH)}),
    ("", None, {EVERY: answered}),
    ("http://h/p", None, {EVERY: component("query", None)}),
    # Spring's UriComponents keeps no empty query or fragment: its getters
    # give null for both. yarl keeps none either (`http://h/p?` serialises
    # as "http://h/p"): none, as they read them.
    ("http://h/p?", None, {EVERY: component("query", ""), "spring-uri": component("query", None),
                           "yarl": component("query", None)}),
    ("http://h/p#", None, {EVERY: component("fragment", ""),
                           "spring-uri": component("fragment", None),
                           "yarl": component("fragment", None)}),
    ("http://h/p?q", None, {EVERY: component("fragment", None)}),
    ("http://h/\u00e9", None, {
        "python-urllib": path_in("/\u00e9"),
        "php-parse-url": path_in("/\u00e9"),
        "urllib3": path_in("/%C3%A9"),
        "node-url": path_in("/\u00e9"),
        "whatwg-url": path_in("/%C3%A9"),
        "go-net-url": path_in("/%C3%A9"),
        "yarl": path_in("/%C3%A9"),
        "httpx": path_in("/%C3%A9"),
        "upa-url": path_in("/%C3%A9"),
        "fast-uri": path_in("/%C3%A9"),
        "uri-js": path_in("/%C3%A9"),
        "url-parse": path_in("/\u00e9"),
        "perl-uri": path_in("/%C3%A9"),
        "ruby-addressable": path_in("/\u00e9"),
    }),
]

# The confusions the adapters exist to show (each one a documented behaviour
# of that parser).
BEHAVIOURS = [
    # urlsplit and PHP split the authority at the last '@' and take '\' as
    # userinfo; urllib3 and Node end the authority at '\' (as WHATWG does).
    # httpx takes the '\\' into the userinfo (percent-encoded) and the host
    # after the '@'; yarl refuses a backslash in the authority; upa-url ends
    # the authority at '\\' (a special URL's '\\' is a '/').
    # fast-uri (CVE-2026-16221) and uri-js read host evil.com too, fast-uri
    # flagging the backslash in `error` only; url-parse reads example.com.
    ("http://example.com\\@evil.com/", None, {
        "java-url": host("evil.com"),
        "spring-uri": host("evil.com"),
        "python-urllib": host("evil.com"),
        "urllib3": host("example.com"),
        "php-parse-url": host("evil.com"),
        "node-url": host("example.com"),
        "httpx": host("evil.com"),
        "yarl": verdict("reject"),
        "upa-url": host("example.com"),
        "fast-uri": host_and_note(
            "evil.com", "error:URI authority must not contain a literal backslash."),
        "uri-js": host("evil.com"),
        "url-parse": host("example.com"),
        "perl-uri": host("evil.com"),
        "ruby-addressable": host("evil.com"),
    }),
    # A '[' in the userinfo: httpx's host is what follows the '@'; yarl
    # reads an unclosed IPv6 literal and refuses it.
    ("https://127.0.0.1[@evil.com", None, {
        "httpx": host("evil.com"),
        "yarl": verdict("reject"),
        "upa-url": host("evil.com"),
    }),
    # U+3002 IDEOGRAPHIC FULL STOP is a label separator to IDNA (UTS #46 and
    # idna's encode alike).
    ("http://evil\u3002com/", None, {
        "upa-url": host("evil.com"),
        "yarl": host("evil.com"),
        "httpx": host("evil.com"),
    }),
    # One address, two spellings: yarl (ipaddress's compressed form) and
    # upa-url (the standard's IPv6 serializer) write the embedded IPv4 in
    # hex; httpx keeps it as written.
    ("http://[::ffff:127.0.0.1]/", None, {
        "yarl": host("[::ffff:7f00:1]"),
        "httpx": host("[::ffff:127.0.0.1]"),
        "upa-url": host("[::ffff:7f00:1]"),
    }),
    # Two '@': fast-uri and uri-js split at the first and percent-encode the
    # second into the host; url-parse splits at the last.
    ("http://a@b@c/", None, {
        "fast-uri": host_and_note("b%40c", "error:URI host is malformed."),
        "uri-js": host("b%40c"),
        "url-parse": host("c"),
    }),
    # U+3002 (ideographic full stop): fast-uri and uri-js map it to '.'
    # (IDNA); url-parse keeps it.
    ("http://evil\u3002com/", None, {
        "fast-uri": host("evil.com"),
        "uri-js": host("evil.com"),
        "url-parse": host("evil\u3002com"),
    }),
    # fast-uri and uri-js give an IPv6 host without its brackets: the adapters
    # put them back; url-parse keeps them.
    ("http://[::1]:8080/", None, {
        "fast-uri": host("[::1]"),
        "uri-js": host("[::1]"),
        "url-parse": host("[::1]"),
    }),
    # U+3002 is no dot to Perl's URI: the host is one label, written as its
    # A-label; Addressable keeps it as written.
    ("http://evil\u3002com/", None, {
        "perl-uri": host("xn--evilcom-9o3f"),
        "ruby-addressable": host("evil\u3002com"),
    }),
    # URI::file's host is its whole authority, brackets and all (Perl URI
    # 5.17, run directly: `URI->new("file://[::1]/x")->host` is "[::1]").
    ("file://[::1]/x", None, {
        "perl-uri": host("[::1]"),
    }),
    # RFC2396_Parser's #split reads no host in `file:///C:/` (nil; the ""
    # URI::File#host holds is set_host's): host null. A base's localhost,
    # which set_host also writes "", stays "".
    ("file:///C:/", None, {
        "ruby-uri-rfc2396": host(None),
        "ruby-uri": host(""),
    }),
    ("/", "file://localhost/", {
        "ruby-uri-rfc2396": host(""),
    }),
    # Addressable splits userinfo at the last '@' and validates the host.
    ("http://a@b@c/", None, {
        "perl-uri": host("c"),
        "ruby-addressable": host("c"),
    }),
    ("https://127.0.0.1[@evil.com", None, {
        "perl-uri": host("evil.com"),
        "ruby-addressable": verdict("reject"),
    }),
    # A bracketed host that is no IP literal: Node drops the brackets; PHP
    # and Go keep it as written.
    ("http://[localhost]/", None, {
        "node-url": host("localhost"),
        "php-parse-url": host("[localhost]"),
        "go-net-url": host("[localhost]"),
    }),
    # Two ports: PHP and Go take the port after the last ':' and keep the
    # rest, ':' included, as the host.
    ("http://127.0.0.1:11211:80/", None, {
        "php-parse-url": host("127.0.0.1:11211"),
        "go-net-url": host("127.0.0.1:11211"),
    }),
    # java.net.URL: an authority with two '@' has an empty host (getHost()).
    ("http://a@b@c/", None, {"java-url": host("")}),
    # Spring 4.3's pattern ends the host at '[' (CVE-2024-22243's shape,
    # fixed upstream in 5.3.32 and 6.x).
    ("https://127.0.0.1[@evil.com", None, {"spring-uri": host("127.0.0.1")}),
    # Jetty 9.4's HttpURI runs the authority past '#' (CVE-2024-6763).
    ("http://username:password#@hostname:80/", None, {"jetty-httpuri": host("hostname")}),
]

PAIR = ("//evil.example/x", "https://good.example/a")


def pair_expectation(adapter):
    if adapter.resolves:
        def check(answer):
            problem = host("evil.example")(answer)
            if problem is None and not isinstance(answer.get("resolved"), str):
                problem = "a resolved pair without a string `resolved`: %s" % brief(answer)
            return problem

        return check

    def check(answer):
        if answer.get("verdict") != "out-of-domain" or not answer.get("message"):
            return "expected out-of-domain with a message (no resolution function), got %s" % brief(answer)
        return None

    return check


# --- Running an adapter -------------------------------------------------------


def brief(value, limit=300):
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[:limit] + "..."


class Running:
    """A started adapter, its output lines read by a thread into a queue."""

    def __init__(self, argv, env):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))
            del self.stderr[:-20]

    def send(self, requests):
        data = "".join(json.dumps(r) + "\n" for r in requests).encode("utf-8")
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read(self, n, deadline):
        """n lines, or fewer when the output ends or the deadline passes."""
        got = []
        while len(got) < n:
            try:
                line = self.lines.get(timeout=deadline)
            except queue.Empty:
                break
            if line is None:
                self.lines.put(None)
                break
            got.append(line)
        return got

    def close(self, deadline):
        """Closes the input; returns (surplus lines, exit status or None)."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            status = self.proc.wait(timeout=deadline)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            status = None
        surplus = []
        while True:
            try:
                line = self.lines.get(timeout=5)
            except queue.Empty:
                break
            if line is None:
                break
            surplus.append(line)
        return surplus, status

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stderr_tail(self):
        return "".join(self.stderr[-5:]).strip()


def build_go(adapter, root):
    """Builds the Go adapter into the cache root, as uridiff does on first use."""
    target = adapter.argv[0]
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = tempfile.mkdtemp(dir=os.path.dirname(target), prefix="build.tmp.")
    try:
        for name in (adapter.file, "go.mod"):
            shutil.copy(os.path.join(ADAPTERS_DIR, name), tmp)
        out = subprocess.run(
            ["go", "build", "-trimpath", "-o", "go-net-url", "."],
            cwd=tmp, env=go_env(tmp), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        if out.returncode != 0:
            return "go build failed: %s" % out.stdout.decode("utf-8", "replace").strip()
        os.replace(os.path.join(tmp, "go-net-url"), target)
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def missing(adapter):
    """What is missing to run the adapter (with the install command), or None."""
    if shutil.which(adapter.runtime) is None:
        return "%s not found: %s" % (adapter.runtime, adapter.install)
    if adapter.library and not os.path.exists(adapter.library[0]):
        return "missing %s: %s" % (adapter.library[1], SETUP)
    if adapter.probe:
        env = {k: v for k, v in os.environ.items() if k not in adapter.unset}
        if subprocess.run(adapter.probe, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 0:
            return "%s cannot load its library: %s (or %s)" % (adapter.runtime, adapter.install, SETUP)
    return None


def check_answer(adapter, request, answer):
    """Protocol-level problems of one answer (a list of strings)."""
    problems = []
    if not isinstance(answer, dict):
        return ["answer to id %d is not a JSON object: %s" % (request["id"], brief(answer))]
    unknown = set(answer) - ANSWER_KEYS
    if unknown:
        problems.append("answer to id %d has unknown keys %s" % (request["id"], sorted(unknown)))
    verdict = answer.get("verdict")
    if verdict not in VERDICTS:
        problems.append("answer to id %d has verdict %r" % (request["id"], verdict))
    message = answer.get("message", "missing")
    if not (message is None or isinstance(message, str)):
        problems.append("answer to id %d has message %r" % (request["id"], message))
    if verdict == "accept":
        for key in COMPONENTS:
            if key in adapter.omits:
                if key in answer:
                    problems.append("answer to id %d reports %s, which the adapter documents as not reported"
                                    % (request["id"], key))
            elif key not in answer and key in adapter.varies:
                pass
            elif key not in answer:
                problems.append("answer to id %d leaves out %s" % (request["id"], key))
            elif not (answer[key] is None or isinstance(answer[key], str)):
                problems.append("answer to id %d has %s %r" % (request["id"], key, answer[key]))
    notes = answer.get("notes", [])
    if not (isinstance(notes, list) and all(isinstance(n, str) for n in notes)):
        problems.append("answer to id %d has notes %r" % (request["id"], notes))
    if "resolved" in answer and (request.get("base") is None or not isinstance(answer["resolved"], str)):
        problems.append("answer to id %d has resolved %r" % (request["id"], answer["resolved"]))
    return problems


def exchange(adapter, running, requests):
    """Sends one batch and reads its answers; returns (answers, problems)."""
    running.send(requests)
    lines = running.read(len(requests), BATCH_DEADLINE)
    problems = []
    answers = []
    for request, line in zip(requests, lines):
        try:
            answer = json.loads(line)
        except ValueError as e:
            problems.append("answer to id %d is not JSON (%s): %s" % (request["id"], e, brief(line)))
            answers.append(None)
            continue
        if not isinstance(answer, dict) or answer.get("id") != request["id"]:
            got = answer.get("id") if isinstance(answer, dict) else None
            problems.append("expected an answer with id %d, got id %r: %s"
                            % (request["id"], got, brief(answer)))
            answers.append(None)
            continue
        problems.extend(check_answer(adapter, request, answer))
        answers.append(answer)
    if len(lines) < len(requests):
        problems.append(
            "%d answers for a batch of %d (no more output within %d s before the input closed; the "
            "first unanswered id is %d)" % (len(lines), len(requests), BATCH_DEADLINE,
                                             requests[len(lines)]["id"]))
    return answers, problems


def expectations_for(adapter, cases):
    out = []
    for text, base, table in cases:
        check = table.get(adapter.name) or table.get(EVERY)
        if check is not None:
            out.append((text, base, check))
    return out


def test(adapter, root):
    """Runs every check on one adapter; returns (hello, problems)."""
    if adapter.name == "go-net-url" and not os.access(adapter.argv[0], os.X_OK):
        problem = build_go(adapter, root)
        if problem:
            return None, [problem]
    workdir = tempfile.mkdtemp(prefix="uridiff-adapter-")
    try:
        path = os.path.join(workdir, adapter.file)
        shutil.copy(os.path.join(ADAPTERS_DIR, adapter.file), path)
        if adapter.runtime == "node":
            # The protocol loop the Node adapters require from their own
            # directory, written beside them as uridiff writes it.
            shutil.copy(os.path.join(ADAPTERS_DIR, "node-protocol.cjs"), workdir)
        argv = [path if a == "FILE" else a for a in adapter.argv]
        env = {k: v for k, v in os.environ.items() if k not in adapter.unset}
        env.update(adapter.env)
        running = Running(argv, env)
        try:
            return run_checks(adapter, running)
        finally:
            running.kill()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_checks(adapter, running):
    problems = []
    first = running.read(1, HELLO_DEADLINE)
    if not first:
        return None, ["no hello within %d s (stderr: %s)" % (HELLO_DEADLINE, running.stderr_tail())]
    try:
        hello = json.loads(first[0])
    except ValueError:
        return None, ["the first line is no JSON hello: %s" % brief(first[0])]
    if not isinstance(hello, dict) or hello.get("uridiff_protocol") != 2:
        return hello, ["the hello does not say uridiff_protocol 2: %s" % brief(hello)]
    for key in ("parser", "standard", "runtime"):
        if not isinstance(hello.get(key), str) or not hello[key].strip():
            problems.append("the hello has no %s: %s" % (key, brief(hello)))
    parser = hello.get("parser") or ""
    if not any(c.isdigit() for c in parser):
        problems.append("the hello's parser names no version: %r" % parser)
    if adapter.parser and parser != adapter.parser:
        problems.append("the hello names parser %r, the pinned one is %r" % (parser, adapter.parser))
    if adapter.parser_prefix and not parser.startswith(adapter.parser_prefix):
        problems.append("the hello names parser %r, the pinned one starts %r"
                        % (parser, adapter.parser_prefix))

    # Ids with gaps, beyond 32 bits, never reset between batches.
    ids = iter([7, 8, 12, 1000] + list(range(2**40, 2**40 + 2000)))
    batch1 = expectations_for(adapter, PROTOCOL_CASES) + expectations_for(adapter, BEHAVIOURS)
    batch2 = [(PAIR[0], PAIR[1], pair_expectation(adapter))] + expectations_for(adapter, PROTOCOL_CASES[5:9])
    # Longer than one of uridiff's batches (512), so answers stream while
    # requests are still being written.
    batch3 = [("http://h/%d" % i, None, component("path", "/%d" % i)) for i in range(600)]
    for batch in (batch1, batch2, batch3):
        requests = [{"id": next(ids), "input": text, "base": base} for text, base, _ in batch]
        answers, batch_problems = exchange(adapter, running, requests)
        problems.extend(batch_problems)
        for (text, base, check), request, answer in zip(batch, requests, answers):
            if answer is None:
                continue
            problem = check(answer)
            if problem:
                what = repr(text) if base is None else "%r against %r" % (text, base)
                problems.append("%s: %s" % (brief(what, 120), problem))
        if len(answers) < len(requests):
            break
    surplus, status = running.close(EXIT_DEADLINE)
    if surplus:
        problems.append("%d line(s) after the last answer: %s" % (len(surplus), brief(surplus[0])))
    if status is None:
        problems.append("did not exit within %d s of its input closing" % EXIT_DEADLINE)
    elif status != 0:
        problems.append("exit status %d when its input closed (stderr: %s)" % (status, running.stderr_tail()))
    return hello, problems


def main():
    root = cache_root()
    table = adapters(root)
    names = [a.name for a in table]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[], metavar="NAME", choices=names,
                    help="test only this adapter (repeatable)")
    ap.add_argument("--allow-missing", action="append", default=[], metavar="NAME", choices=names,
                    help="an adapter whose runtime or library is missing is listed, not failed (repeatable)")
    args = ap.parse_args()
    selected = [a for a in table if not args.only or a.name in args.only]
    failed = 0
    for adapter in selected:
        absent = missing(adapter)
        if absent:
            if adapter.name in args.allow_missing:
                print("missing  %-17s %s (allowed by --allow-missing)" % (adapter.name, absent))
            else:
                print("FAILED   %-17s %s" % (adapter.name, absent))
                failed += 1
            continue
        hello, problems = test(adapter, root)
        parser = hello.get("parser") if isinstance(hello, dict) else None
        if problems:
            failed += 1
            print("FAILED   %-17s %s" % (adapter.name, parser or ""))
            for problem in problems:
                print("         - %s" % problem)
        else:
            print("ok       %-17s %s; %s" % (adapter.name, parser, hello.get("runtime")))
        sys.stdout.flush()
    print("%d adapter(s) tested, %d failed" % (len(selected), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
