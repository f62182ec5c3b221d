#!/usr/bin/env bash
# Runs every test of uridiff: the library, binary and integration tests
# (conformance tables, Appendix C, properties, saved-corpus replay, CLI).
# README's test command; .ci/run calls it too.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/test.sh [--help]

Runs all of uridiff's tests from the repository root:
  cargo test --locked        unit, integration, property and doc tests
Exit status is non-zero when any test fails.
USAGE
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) echo "scripts/test.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
cargo test --locked
