#!/usr/bin/env bash
# Minimises a fuzzing finding and adds it to the saved corpus, then
# re-blesses the signature set and the regression set.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/promote.sh ARTIFACT [TARGET]

Minimises ARTIFACT (an input libFuzzer saved under fuzz/artifacts/TARGET/: a
crash, an unexplained disagreement or a new defect signature) and adds it to
the saved corpus corpus/TARGET/ under its SHA-1 name, byte for byte:

  targets whose files hold one URI reference (format `reference` in
  `uridiff targets --format tsv`)
                        `uridiff minimize --file`: delta debugging down to a
                        shorter input with the same set of finding
                        signatures (NULs and trailing newlines are kept)
  other targets         `cargo fuzz tmin` (their inputs are encoded pairs,
                        structured models or libcurl's text)

then shows the case (side by side with `uridiff check --file` for a
reference, or the report's findings for a structured model), runs `uridiff
corpus bless` (a new signature gets one minimal input in
corpus/signatures.txt) and prints the diff to review. TARGET defaults to the
artifact's directory name.

After fixing the parser or adding a triage class (with a test), commit the
corpus file, corpus/signatures.txt and corpus/expectations.txt together. For a
case worth a comment, paste the entry the fuzz target printed into
corpus/curated.txt.
USAGE
}

case "${1:-}" in -h|--help|"") usage; [ -n "${1:-}" ]; exit $? ;; esac
artifact="$1"
[ -f "$artifact" ] || { echo "scripts/promote.sh: no such file: $artifact" >&2; exit 2; }
artifact="$(cd "$(dirname "$artifact")" && pwd)/$(basename "$artifact")"
target="${2:-$(basename "$(dirname "$artifact")")}"
cd "$(dirname "$0")/.."
. scripts/lib.sh

read -r -a features <<< "$(optional_features)"
cargo build --release --locked --quiet "${features[@]}" || exit 2
uridiff=./target/release/uridiff
load_targets "$uridiff" || exit 2
is_target "$target" || { echo "scripts/promote.sh: unknown target '$target' (${FUZZ_TARGETS[*]}; give it as the second argument)" >&2; exit 2; }
format=$(target_field "$target" format)
report_mode=$(target_field "$target" report)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

minimized="$scratch/minimized"
case "$format" in
    reference)
        if ! "$uridiff" minimize --file "$artifact" --out "$minimized" >/dev/null; then
            # Not UTF-8 (a crash input, say): keep it as it is.
            cp "$artifact" "$minimized"
        fi
        ;;
    *)
        ensure_cargo_fuzz
        choose_toolchain
        cp "$artifact" "$minimized"
        # tmin writes minimized-from-<hash> beside the artifact and prints its name.
        if out=$("${FUZZ_CMD[@]}" tmin "${FUZZ_SAN[@]}" "${FUZZ_FEATURES[@]}" "$target" "$artifact" -- -runs=2000 2>&1); then :; fi
        candidate=$(printf '%s\n' "$out" | sed -n 's/.*\(minimized-from-[0-9a-f]*\).*/\1/p' | tail -1)
        if [ -n "$candidate" ] && [ -f "fuzz/artifacts/$target/$candidate" ]; then
            cp "fuzz/artifacts/$target/$candidate" "$minimized"
        fi
        ;;
esac
name=$(sha1sum "$minimized" | cut -d' ' -f1)
mkdir -p "corpus/$target"
cp "$minimized" "corpus/$target/$name"
echo "added corpus/$target/$name ($(wc -c < "$minimized") bytes, minimised from $(wc -c < "$artifact"))"

if [ "$format" = reference ]; then
    "$uridiff" check --file "corpus/$target/$name" || true
elif [ "$report_mode" = structured ]; then
    "$uridiff" report --model --structured "corpus/$target/$name" | sed -n '/## Suspected/,$p' || true
fi
"$uridiff" corpus bless
git --no-pager diff --stat -- corpus/signatures.txt corpus/expectations.txt || true
git --no-pager diff -- corpus/signatures.txt || true
