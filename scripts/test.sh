#!/usr/bin/env bash
# Runs every test of uridiff: README's test command; .ci/run calls it too.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/test.sh [--help]

Runs all of uridiff's tests from the repository root:
  cargo test --locked --workspace --features uriparser
                                unit, integration, property and doc tests of
                                every oracle (ada and libcurl are built by
                                the C and C++ compilers; uriparser is the
                                system's library, which setup-oracles.sh
                                installs), including the saved-corpus replay
                                against corpus/expectations.txt, and the
                                curl-url and uriparser-ffi FFI crates' own
                                tests
  cargo test --locked --no-default-features --features cli
                                the pure-Rust build (no ada, no libcurl)
The HTML report's test needs Chromium or Google Chrome (Debian's chromium is
installed with apt-get when neither is found and apt-get may run as root: as
root, or through sudo without a password); the external-oracle tests need
python3 and java.
  scripts/setup-oracles.sh      the shipped external oracles' runtimes and
                                pinned libraries, installed when missing
  adapters/tests/test_adapters.py
                                each shipped adapter over the pipe protocol
                                (cargo test then replays the regression set
                                through every adapter against
                                testdata/adapter-outcomes/, per adapter version)
  scripts/fuzz-replay.sh        the saved corpus through each fuzz target
                                binary once (-runs=0); installs cargo-fuzz
                                when missing
Exit status is non-zero when any test fails.
USAGE
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) echo "scripts/test.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
. scripts/lib.sh
# The HTML report's test drives a headless browser, the first of these names
# on PATH (tests/it/html_report.rs); Debian's chromium is installed here when
# none is and we may; otherwise that test fails with an install hint.
has_browser() {
    local b
    for b in chromium chromium-browser google-chrome; do
        command -v "$b" >/dev/null 2>&1 && return 0
    done
    return 1
}
if ! has_browser && can_apt_install; then
    echo "no Chromium: installing Debian's chromium for the HTML report's test" >&2
    apt_install chromium >/dev/null || echo "warning: apt-get install chromium failed" >&2
fi
# The shipped external oracles' runtimes and pinned libraries (Go, PHP, Ruby,
# Node's whatwg-url, urllib3), then each adapter against its own test.
bash scripts/setup-oracles.sh
python3 adapters/tests/test_adapters.py
cargo test --locked --workspace --features uriparser
cargo test --locked --no-default-features --features cli
bash scripts/fuzz-replay.sh
