#!/usr/bin/env bash
# Replays the saved corpus through every fuzz target binary once
# (libFuzzer -runs=0): deterministic, no exploration. Part of scripts/test.sh.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/fuzz-replay.sh [TARGET...]

Builds the fuzz targets and runs each over its saved corpus in corpus/TARGET/
with -runs=0, so any crash or unexplained disagreement in the saved corpus
fails. TARGETs are names `uridiff targets` lists (read from the debug build
through `cargo run`, built first when needed); without one, every target.
Installs cargo-fuzz when missing; uses nightly with AddressSanitizer when a
nightly toolchain is installed, else `-s none` on stable.
Exit status: 0 every replay passed, 1 one failed, 2 usage error (unknown
target, or the target list could not be read).
USAGE
}
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
cd "$(dirname "$0")/.."
. scripts/lib.sh
load_targets || exit 2
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${FUZZ_TARGETS[@]}"); fi
for t in "${targets[@]}"; do
    is_target "$t" || { echo "scripts/fuzz-replay.sh: unknown target '$t' (${FUZZ_TARGETS[*]})" >&2; exit 2; }
done

ensure_cargo_fuzz
choose_toolchain
echo "fuzz replay ($FUZZ_DESC)" >&2
passed=0
failed=0
for t in "${targets[@]}"; do
    # A copy, so that replay never adds to the saved corpus.
    scratch=$(mktemp -d)
    cp -r "corpus/$t/." "$scratch/"
    if "${FUZZ_CMD[@]}" run "${FUZZ_SAN[@]}" "${FUZZ_FEATURES[@]}" "$t" "$scratch" -- -runs=0 > "$scratch.log" 2>&1; then
        echo "fuzz replay $t: $(ls "$scratch" | wc -l) inputs ok" >&2
        passed=$((passed + 1))
    else
        echo "fuzz replay $t: FAILED" >&2
        tail -40 "$scratch.log" >&2
        failed=$((failed + 1))
    fi
    rm -rf "$scratch" "$scratch.log"
done
echo "fuzz replay: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
