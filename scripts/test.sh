#!/usr/bin/env bash
# Runs every test of uridiff: README's test command; .ci/run calls it too.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/test.sh [--help]

Runs all of uridiff's tests from the repository root:
  cargo test --locked           unit, integration, property and doc tests,
                                including the saved-corpus replay against
                                corpus/expectations.txt
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
cargo test --locked
bash scripts/fuzz-replay.sh
