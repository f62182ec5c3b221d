#!/usr/bin/env bash
# Minimises a fuzzing finding and adds it to the saved corpus with its
# recorded expectation.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/promote.sh ARTIFACT [TARGET]

Minimises ARTIFACT (a crash or unexplained-disagreement input saved by
libFuzzer under fuzz/artifacts/TARGET/) with `cargo fuzz tmin`, copies the
result into the saved corpus corpus/TARGET/ under its SHA-1 name, shows the
case side by side (uridiff check), rewrites corpus/expectations.txt
(uridiff corpus bless) and prints the expectations diff to review.
TARGET defaults to the artifact's directory name.

After fixing the parser or adding a triage class (with a test), commit the
corpus file and the expectations together. For a case worth a comment,
paste the entry the fuzz target printed into corpus/curated.txt.
USAGE
}

case "${1:-}" in -h|--help|"") usage; [ -n "${1:-}" ]; exit $? ;; esac
artifact="$1"
[ -f "$artifact" ] || { echo "scripts/promote.sh: no such file: $artifact" >&2; exit 2; }
artifact="$(cd "$(dirname "$artifact")" && pwd)/$(basename "$artifact")"
target="${2:-$(basename "$(dirname "$artifact")")}"
cd "$(dirname "$0")/.."
. scripts/lib.sh
is_target "$target" || { echo "scripts/promote.sh: unknown target '$target' (give it as the second argument)" >&2; exit 2; }

ensure_cargo_fuzz
choose_toolchain
cargo build --release --locked --quiet

# tmin writes minimized-from-<hash> beside the artifact and prints its name.
minimized="$artifact"
if out=$("${FUZZ_CMD[@]}" tmin "${FUZZ_SAN[@]}" "$target" "$artifact" -- -runs=2000 2>&1); then :; fi
candidate=$(printf '%s\n' "$out" | sed -n 's/.*\(minimized-from-[0-9a-f]*\).*/\1/p' | tail -1)
if [ -n "$candidate" ] && [ -f "fuzz/artifacts/$target/$candidate" ]; then
    minimized="fuzz/artifacts/$target/$candidate"
fi
name=$(sha1sum "$minimized" | cut -d' ' -f1)
mkdir -p "corpus/$target"
cp "$minimized" "corpus/$target/$name"
echo "added corpus/$target/$name ($(wc -c < "$minimized") bytes, minimised from $(wc -c < "$artifact"))"

case "$target" in
    parse|differential)
        ./target/release/uridiff check -- "$(cat "corpus/$target/$name")" || true ;;
    structured)
        ./target/release/uridiff report --structured "corpus/$target/$name" | sed -n '/## Shortest/,$p' || true ;;
esac
./target/release/uridiff corpus bless
git --no-pager diff --stat -- corpus/expectations.txt || true
