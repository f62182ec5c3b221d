"""Coverage-guided fuzzing (atheris) of the Python parsers uridiff's adapters
run: urllib.parse.urlsplit and urljoin (adapters/python-urllib.py) and
urllib3.util.parse_url (adapters/urllib3.py).

Run it like any libFuzzer binary, from the repository root:

    PYTHONPATH=<cache root>/fuzz-python:<cache root>/python \
        python3 fuzz/python/fuzz_urllib.py fuzz/new/differential corpus/differential \
        -dict=fuzz/uri.dict -max_len=4096 -max_total_time=60

It reads its seeds from the corpus directories and writes the inputs that
reach new Python lines or branches into the first one, one input per file,
named by SHA-1: the `differential` target's format, so the Rust campaign,
`uridiff corpus follow` and `uridiff report` read them as they are. This
fuzzer only drives the parsers into new code; uridiff judges what they
answer (the follower checks each new input with every adapter). It fails
by itself only on an exception the parsers do not document (anything but
ValueError, of which urllib3's LocationParseError is one), which atheris
saves as crash-<sha1> under -artifact_prefix.
"""

import sys
import types

import atheris


def instrument_module(module: types.ModuleType) -> None:
    """Adds atheris' coverage to every function and method defined in
    `module`. urllib.parse is imported before any user code runs (site and
    atheris import it), so `atheris.instrument_imports()` would not see it;
    instrumenting the functions themselves works whenever they were loaded.
    """
    for value in list(vars(module).values()):
        if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            atheris.instrument_func(value)
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for member in list(vars(value).values()):
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                elif isinstance(member, property):
                    member = member.fget
                if isinstance(member, types.FunctionType):
                    atheris.instrument_func(member)


import ipaddress  # noqa: E402  (urlsplit checks bracketed hosts with it)
import urllib.parse  # noqa: E402

import idna.core  # noqa: E402  (urllib3 encodes a non-ASCII host with it)
import urllib3.util.url  # noqa: E402

for _module in (urllib.parse, ipaddress, urllib3.util.url, idna.core):
    instrument_module(_module)

# The base of RFC 3986 section 5.4's examples: a reference resolves against
# a base with every component, as the resolution tables use.
BASE = "http://a/b/c/d;p?q"


def test_one_input(data: bytes) -> None:
    """One input through each parser; only an undocumented exception fails."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # The differential target and the adapters take UTF-8 text only.
        return
    try:
        parts = urllib.parse.urlsplit(text)
        # The adapter reads the port, which urlsplit checks only then.
        _ = parts.port
        _ = parts.hostname
    except ValueError:
        pass
    try:
        urllib.parse.urljoin(BASE, text)
    except ValueError:
        pass
    try:
        url = urllib3.util.url.parse_url(text)
        _ = url.url
    except ValueError:
        pass


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
