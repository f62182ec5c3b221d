#!/usr/bin/env python3
"""Build a corpus of real-world URLs for benchmarks and differential testing.

Why: synthetic URLs only exercise what their author thought of.  Text that
other people wrote -- Debian changelogs, copyright files, licenses, READMEs,
the Python standard library's source and tests -- contains the URLs people
actually type: mixed-case schemes and hosts, userinfo, ports, IPv6 literals,
percent-escapes (valid and broken), `{`, `|`, `^`, backslashes, non-ASCII,
template placeholders such as `%s`, and so on.  This script harvests those
strings *raw* so a URL parser can be benchmarked on, and compared against
other implementations on, what real text contains.

What it does:

1. Walks every root in sorted order.  The primary roots are /usr/share/doc
   (changelog.Debian.gz, NEWS.gz, copyright, READMEs, ...),
   /usr/share/common-licenses and the Python standard library's source
   (sysconfig.get_paths()["stdlib"]: *.py, *.txt, *.rst).  Because those
   alone give too few distinct hosts, further third-party text is scanned by
   default: the running Python's site-packages and Debian's dist-packages
   (source and package docs), npm's bundled modules, Perl modules, info
   manuals, C headers, Vim runtime files, the public suffix list's comments,
   Maven POMs and a few others -- see DEFAULT_ROOTS or --help.  A root is
   PATH or PATH=GLOB,GLOB (only files whose name, minus a compression
   suffix, matches one of the globs).  Files ending in .gz, .bz2 or .xz are
   decompressed with the standard library.  Files containing NUL bytes
   (binary) and roff man-page sources (URLs there are wrapped in \\-, \\&,
   \\fR markup) are skipped.  Text is decoded line by line as strict UTF-8;
   lines that are not valid UTF-8 are skipped.
2. Extracts candidates with
       \\b[a-zA-Z][a-zA-Z0-9+.-]{1,15}://[^\\s<>"'`]+    and    mailto:[^\\s<>"']+
   then trims trailing sentence punctuation (. , ; : ! ? ) ] } > ' ") -- but
   a closing ), ] or } is kept when it balances an opening one inside the URL
   (Wikipedia-style links, IPv6 literals).  Nothing else is changed: no
   normalisation, decoding or case folding.  Candidates longer than 2000
   UTF-8 bytes, containing C0 control characters or DEL, or with nothing
   after the scheme separator are dropped.
3. Deduplicates by exact string equality and sorts, so the result does not
   depend on file-system order.
4. Shuffles with random.Random(2396) and caps every host (text between "://"
   and the next "/", "?" or "#", lower-cased, without userinfo and port; for
   mailto: the domain after "@") at one third of the final set, keeping the
   first URLs of that host in shuffled order.  If more than --max URLs
   remain, the first --max (in shuffled order, subject to the same cap) are
   kept.
5. Writes one URL per line (UTF-8, "\\n" line endings) to --out and prints a
   summary to stderr.  Exits 1 if fewer than --min URLs result.

The output is byte-for-byte reproducible for a given set of input files.
"""

from __future__ import annotations

import argparse
import bz2
import collections
import fnmatch
import glob
import gzip
import lzma
import os
import random
import re
import sys
import sysconfig

SEED = 2396
MAX_URL_BYTES = 2000

URL_RE = re.compile(
    r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,15}://[^\s<>\"'`]+" r"|mailto:[^\s<>\"']+"
)
TRAILING = set(".,;:!?)]}>'\"")
CLOSERS = {")": "(", "]": "[", "}": "{"}
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
# RFC 2396 characters: unreserved, reserved, "%" (escapes) and "#" (fragment).
RFC2396 = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "-_.!~*'()" ";/?:@&=+$," "%#"
)

STDLIB = sysconfig.get_paths()["stdlib"]
PURELIB = sysconfig.get_paths()["purelib"]
PY_TEXT = "*.py,*.pyi,*.txt,*.rst,*.md"
DOC_TEXT = (
    "METADATA,PKG-INFO,LICENSE*,LICENCE*,COPYING*,NOTICE*,AUTHORS*,README*,"
    "CHANGES*,CHANGELOG*,HISTORY*"
)
# The first three are the primary sources.  The rest are other third-party
# text (documentation, source, licenses, changelogs) found on a Debian
# machine, needed because the primary sources alone give too few distinct
# hosts: most of /usr/share/doc's URLs are github.com links in Node.js's
# changelogs.  Roots that do not exist are skipped with a warning; shell-style
# wildcards in a root path are expanded (sorted).
DEFAULT_ROOTS = [
    "/usr/share/doc",
    "/usr/share/common-licenses",
    STDLIB + "=*.py,*.txt,*.rst",
    PURELIB + "=" + PY_TEXT + "," + DOC_TEXT,
    "/usr/lib/python3/dist-packages=" + PY_TEXT + "," + DOC_TEXT,
    "/usr/lib/node_modules=*.js,*.mjs,*.cjs,*.ts,*.md,*.txt," + DOC_TEXT,
    "/usr/share/perl=*.pm,*.pod,*.pl," + DOC_TEXT,
    "/usr/share/perl5=*.pm,*.pod,*.pl," + DOC_TEXT,
    "/usr/lib/*/perl*=*.pm,*.pod,*.pl," + DOC_TEXT,
    "/usr/share/info=*.info,*.info-[0-9]*",
    "/usr/include=*.h,*.hpp,*.hh,*.hxx,*.inc,*.def,*.tcc",
    "/usr/share/vim",
    "/usr/share/javascript=*.js,*.md,*.txt," + DOC_TEXT,
    "/usr/share/publicsuffix=*.dat",
    "/usr/share/maven-repo=*.pom",
    "/usr/share/gitweb",
    "/usr/share/google-cloud-sdk",
]
# Directory names never descended into.  site-packages is excluded so that
# the stdlib walk does not pick it up with the stdlib's globs; it is scanned
# as a root of its own (a root itself is never excluded).
DEFAULT_EXCLUDE_DIRS = ["__pycache__", "site-packages", ".git"]


def parse_root(spec: str) -> tuple[str, list[str]]:
    """'PATH' or 'PATH=GLOB,GLOB' -> (path, globs); no globs means all files."""
    if "=" in spec:
        path, globs = spec.split("=", 1)
        return path, [g for g in globs.split(",") if g]
    return spec, []


def iter_files(root: str, globs: list[str], exclude_dirs: set[str]):
    """Yield regular files under root (or root itself) in sorted order."""
    if os.path.isfile(root):
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in exclude_dirs)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            if globs:
                base = name
                for ext in (".gz", ".bz2", ".xz"):
                    if base.endswith(ext):
                        base = base[: -len(ext)]
                        break
                if not any(fnmatch.fnmatchcase(base, g) for g in globs):
                    continue
            yield path


def read_bytes(path: str) -> bytes | None:
    try:
        if path.endswith(".gz"):
            with gzip.open(path, "rb") as f:
                return f.read()
        if path.endswith(".bz2"):
            with bz2.open(path, "rb") as f:
                return f.read()
        if path.endswith(".xz"):
            with lzma.open(path, "rb") as f:
                return f.read()
        with open(path, "rb") as f:
            return f.read()
    except (OSError, EOFError, lzma.LZMAError, ValueError):
        return None


ROFF_START = (b'.\\"', b"'\\\"", b".TH ", b".Dd ", b".so ")


def looks_like_roff(data: bytes) -> bool:
    """Man-page source: its URLs are full of \\-, \\&, \\fR markup."""
    return data.lstrip().startswith(ROFF_START)


def trim(url: str) -> str:
    while url and url[-1] in TRAILING:
        ch = url[-1]
        opener = CLOSERS.get(ch)
        if opener is not None and url.count(opener) >= url.count(ch):
            break  # this closer balances an opener inside the URL
        url = url[:-1]
    return url


def extract(line: str):
    for m in URL_RE.finditer(line):
        url = trim(m.group(0))
        rest = url[7:] if url.startswith("mailto:") else url.partition("://")[2]
        if not rest:
            continue
        if CONTROL_RE.search(url):
            continue
        if len(url.encode("utf-8")) > MAX_URL_BYTES:
            continue
        yield url


def host_of(url: str) -> str:
    if "://" in url:
        auth = re.split(r"[/?#]", url.split("://", 1)[1], maxsplit=1)[0]
    else:  # mailto:
        auth = re.split(r"[?#]", url.split(":", 1)[1], maxsplit=1)[0]
        auth = auth.split(",")[0]
    auth = auth.rpartition("@")[2].lower()
    if auth.startswith("["):
        end = auth.find("]")
        return auth[: end + 1] if end >= 0 else auth
    return auth.partition(":")[0]


def choose_cap(counts: list[int], limit: int) -> int:
    """Largest c with 3*c <= min(sum(min(n, c)), limit).

    g(c) = sum(min(n, c)) - 3c is concave with g(0) = 0, so the set of valid
    c is an interval starting at 0 and binary search finds its end.
    """
    lo, hi = 0, max(counts, default=0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        total = sum(min(n, mid) for n in counts)
        if 3 * mid <= min(total, limit):
            lo = mid
        else:
            hi = mid - 1
    return lo


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="default roots:\n" + "".join(f"  {r}\n" for r in DEFAULT_ROOTS),
    )
    ap.add_argument(
        "roots",
        nargs="*",
        default=DEFAULT_ROOTS,
        help="directories or files to scan, as PATH or PATH=GLOB,GLOB (default: see below)",
    )
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "benches", "data", "urls.txt"
        ),
        help="output file (default: benches/data/urls.txt in this repository)",
    )
    ap.add_argument("--min", type=int, default=30000, help="fail if fewer URLs result (default: %(default)s)")
    ap.add_argument("--max", type=int, default=60000, help="keep at most this many URLs (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=SEED, help="shuffle seed (default: %(default)s)")
    ap.add_argument(
        "--exclude-dir",
        action="append",
        default=None,
        help="directory name to skip, repeatable (default: %s)" % DEFAULT_EXCLUDE_DIRS,
    )
    args = ap.parse_args()
    exclude = set(args.exclude_dir if args.exclude_dir is not None else DEFAULT_EXCLUDE_DIRS)

    files_read = files_skipped = roff_skipped = lines_skipped = found = 0
    distinct: set[str] = set()
    seen_files: set[str] = set()
    for spec in args.roots:
        pattern, globs = parse_root(spec)
        roots = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else [pattern]
        roots = [r for r in roots if os.path.exists(r)]
        if not roots:
            print(f"warning: root {pattern!r} does not exist, skipped", file=sys.stderr)
            continue
        for path in (p for r in roots for p in iter_files(r, globs, exclude)):
            real = os.path.realpath(path)
            if real in seen_files:
                continue
            seen_files.add(real)
            data = read_bytes(path)
            if data is None or b"\0" in data:
                files_skipped += 1
                continue
            if looks_like_roff(data):
                roff_skipped += 1
                continue
            files_read += 1
            for raw in data.split(b"\n"):
                if b"://" not in raw and b"mailto:" not in raw:
                    continue
                try:
                    line = raw.decode("utf-8", errors="strict")
                except UnicodeDecodeError:
                    lines_skipped += 1
                    continue
                for url in extract(line):
                    found += 1
                    distinct.add(url)

    ordered = sorted(distinct)
    random.Random(args.seed).shuffle(ordered)

    by_host = collections.Counter(host_of(u) for u in ordered)
    cap = choose_cap(list(by_host.values()), args.max)
    after_cap = sum(min(n, cap) for n in by_host.values())
    target = min(after_cap, args.max)
    kept: list[str] = []
    per_host: collections.Counter[str] = collections.Counter()
    for url in ordered:
        if len(kept) >= target:
            break
        h = host_of(url)
        if per_host[h] < cap:
            per_host[h] += 1
            kept.append(url)

    non_ascii = sum(1 for u in kept if not u.isascii())
    non_2396 = sum(1 for u in kept if any(c not in RFC2396 for c in u))
    err = sys.stderr
    print(f"files read:            {files_read}", file=err)
    print(f"files skipped:         {files_skipped} (binary or unreadable)", file=err)
    print(f"roff skipped:          {roff_skipped} (man-page source)", file=err)
    print(f"lines skipped:         {lines_skipped} (not UTF-8)", file=err)
    print(f"URLs found:            {found}", file=err)
    print(f"distinct:              {len(distinct)} ({len(by_host)} hosts)", file=err)
    print(f"after host cap:        {after_cap} (cap {cap} per host)", file=err)
    print(f"written (--max {args.max}): {len(kept)}", file=err)
    print(f"non-ASCII:             {non_ascii}", file=err)
    print(f"outside RFC 2396 set:  {non_2396}", file=err)
    print("top hosts:", file=err)
    for h, n in sorted(per_host.items(), key=lambda kv: (-kv[1], kv[0]))[:10]:
        print(f"  {n:7d}  {h or '(empty)'}", file=err)

    if len(kept) < args.min:
        print(
            f"error: only {len(kept)} URLs, fewer than --min {args.min}; "
            "add more roots (see --help)",
            file=err,
        )
        return 1

    out = os.path.normpath(args.out)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for url in kept:
            f.write(url + "\n")
    print(f"wrote {out}: {os.path.getsize(out)} bytes", file=err)
    return 0


if __name__ == "__main__":
    sys.exit(main())
