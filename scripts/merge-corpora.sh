#!/usr/bin/env bash
# Merges corpora from several machines into the saved corpus by coverage.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/merge-corpora.sh TARGET DIR...

Merges the corpora in DIR... (say, fuzz/new/TARGET/ copied from each machine
of a campaign) into the saved corpus corpus/TARGET/ by coverage: libFuzzer's
-merge=1 with -use_counters=0 adds an input only when it covers an edge that
corpus/TARGET/ and the inputs added before it do not. The DIRs are only read.
TARGET is any fuzz target `uridiff targets` lists (read from the debug build
through `cargo run`, built first when needed).

Then re-bless the expectations and review what changed:
  cargo run -- corpus bless
  git diff corpus/expectations.txt

Uses nightly with AddressSanitizer when a nightly toolchain is installed, else
stable with `-s none`, and clang for the C/C++ oracles' coverage, as
scripts/fuzz.sh does (same build, no rebuild). Installs cargo-fuzz when
missing. Environment: FUZZ_SANITIZER, FUZZ_C_COVERAGE, FUZZ_C_INSTALL as for
scripts/fuzz.sh.
Exit status: 0 merged, 1 the merge failed, 2 usage error (unknown target,
missing directory, or the target list could not be read).
USAGE
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") echo "usage: scripts/merge-corpora.sh TARGET DIR... (--help for details)" >&2; exit 2 ;;
esac
target="$1"
shift
if [ "$#" -eq 0 ]; then
    echo "scripts/merge-corpora.sh: no corpus directories to merge into corpus/$target" >&2
    echo "usage: scripts/merge-corpora.sh TARGET DIR... (--help for details)" >&2
    exit 2
fi

# The directories are resolved before leaving the caller's directory.
dirs=()
for d in "$@"; do
    if [ ! -d "$d" ]; then
        echo "scripts/merge-corpora.sh: '$d' is not a directory" >&2
        exit 2
    fi
    dirs+=("$(cd "$d" && pwd -P)")
done

cd "$(dirname "$0")/.."
. scripts/lib.sh
load_targets || exit 2
if ! is_target "$target"; then
    echo "scripts/merge-corpora.sh: unknown target '$target' (${FUZZ_TARGETS[*]})" >&2
    exit 2
fi
saved="$(pwd -P)/corpus/$target"
for d in "${dirs[@]}"; do
    if [ "$d" = "$saved" ]; then
        echo "scripts/merge-corpora.sh: corpus/$target is where the merge goes; list only the other directories" >&2
        exit 2
    fi
done

ensure_cargo_fuzz
choose_toolchain
setup_c_coverage
mkdir -p "corpus/$target" "fuzz/artifacts/$target"
before=$(find "corpus/$target" -type f | wc -l)
offered=$(find "${dirs[@]}" -type f | wc -l)
echo "== merging ${#dirs[@]} corpora ($offered inputs) into corpus/$target ($before inputs) by edge coverage ($FUZZ_DESC; $FUZZ_C_DESC)" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The first directory receives what adds coverage; the others are only read.
if ! env "${FUZZ_C_ENV[@]}" "${FUZZ_CMD[@]}" run "${FUZZ_TARGET_DIR[@]}" "${FUZZ_SAN[@]}" "${FUZZ_FEATURES[@]}" "$target" \
    "corpus/$target" "${dirs[@]}" -- -merge=1 -use_counters=0 -max_len=4096 -timeout=10 > "$log" 2>&1; then
    tail -30 "$log" >&2
    echo "scripts/merge-corpora.sh: the merge failed (log above)" >&2
    exit 1
fi
grep -E '^MERGE-OUTER' "$log" | tail -3 >&2 || true
after=$(find "corpus/$target" -type f | wc -l)
echo "== corpus/$target: $before -> $after inputs ($((after - before)) added from $offered offered)" >&2
cat <<EOF
corpus/$target now holds $after inputs ($((after - before)) new). Record their outcomes and review them:
  cargo run -- corpus bless
  git diff corpus/expectations.txt
EOF
