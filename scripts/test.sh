#!/usr/bin/env bash
# Runs every test of uridiff: README's test command; .ci/run calls it too.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/test.sh [--help]

Runs all of uridiff's tests from the repository root:
  cargo test --locked --workspace
                                unit, integration, property and doc tests of
                                every oracle (ada and libcurl are built by
                                the C and C++ compilers), including the
                                saved-corpus replay against
                                corpus/expectations.txt, and the curl-url
                                FFI crate's own tests
  cargo test --locked --no-default-features --features cli
                                the pure-Rust build (no ada, no libcurl)
The HTML report's test needs Chromium (installed with apt-get when missing
and run as root); the external-oracle tests need python3 and java.
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
# The HTML report's test drives a headless browser: Debian's chromium,
# installed here when missing and we may (root, apt-get); otherwise that test
# fails with an install hint.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium is missing: installing Debian's chromium for the HTML report's test" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null \
        || echo "warning: apt-get install chromium failed" >&2
fi
cargo test --locked --workspace
cargo test --locked --no-default-features --features cli
bash scripts/fuzz-replay.sh
