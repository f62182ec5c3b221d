#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh the way OSS-Fuzz and ClusterFuzzLite do, but
# outside Docker, then checks what it produced and runs every binary briefly.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/oss-fuzz-local.sh [--keep] [--help]

Tests the ClusterFuzzLite / OSS-Fuzz build script outside Docker:
  1. runs .clusterfuzzlite/build.sh with SRC, OUT and WORK set to fresh
     temporary directories, SRC holding `uridiff`, a link to this checkout
     (so the fuzz build reuses fuzz/target/);
  2. checks that $OUT has, for every target `cargo fuzz list` names, the
     binary, TARGET.dict, TARGET.options and TARGET_seed_corpus.zip (the zip
     only when corpus/TARGET/ has inputs);
  3. unzips each seed corpus and runs the binary over it once (-runs=0), then
     fuzzes from it for 5 seconds (-max_total_time=5), with the options file's
     settings; any crash, sanitizer report or finding fails.
The saved corpus is never written to. Prints how long each step took.

Options:
  --keep   keep the temporary directory (printed at the end); it is kept
           anyway when something fails

The build uses nightly with AddressSanitizer when a nightly toolchain is
installed, else stable with `-s none`; clang for the C/C++ oracles when
installed (see build.sh --help). Installs cargo-fuzz when missing.
Exit status: 0 all good, 1 something missing or crashed, 2 usage error.
USAGE
}

keep=0
for arg in "$@"; do
    case "$arg" in
        -h|--help) usage; exit 0 ;;
        --keep) keep=1 ;;
        *) echo "scripts/oss-fuzz-local.sh: unknown argument '$arg'" >&2; usage >&2; exit 2 ;;
    esac
done

cd "$(dirname "$0")/.."
root=$(pwd -P)
. scripts/lib.sh
ensure_cargo_fuzz

tmp=$(mktemp -d "${TMPDIR:-/tmp}/oss-fuzz-local.XXXXXX")
cleanup() {
    if [ "$keep" = 1 ]; then
        echo "oss-fuzz-local: kept $tmp" >&2
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
mkdir -p "$tmp/src" "$tmp/out" "$tmp/work"
ln -s "$root" "$tmp/src/uridiff"
out="$tmp/out"

# Unzips ARCHIVE into DIR with unzip, or Python's zipfile without it.
unzip_to() { # unzip_to ARCHIVE DIR
    mkdir -p "$2"
    if command -v unzip >/dev/null 2>&1; then
        unzip -q -o "$1" -d "$2"
    else
        python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"
    fi
}

start=$SECONDS
echo "== oss-fuzz-local: .clusterfuzzlite/build.sh with SRC=$tmp/src OUT=$out WORK=$tmp/work" >&2
if ! env -u SANITIZER SRC="$tmp/src" OUT="$out" WORK="$tmp/work" \
    bash .clusterfuzzlite/build.sh > "$tmp/build.log" 2>&1; then
    tail -40 "$tmp/build.log" >&2
    echo "oss-fuzz-local: FAILED: build.sh failed (log above)" >&2
    exit 1
fi
grep '^== ' "$tmp/build.log" >&2 || true
build_seconds=$((SECONDS - start))
echo "== build.sh took ${build_seconds}s" >&2

targets=()
while IFS= read -r t; do
    [ -n "$t" ] && targets+=("$t")
done < <(cargo fuzz list)
if [ "${#targets[@]}" -eq 0 ]; then
    echo "oss-fuzz-local: FAILED: cargo fuzz list names no targets" >&2
    exit 1
fi

failed=0
fail() {
    echo "oss-fuzz-local: FAILED: $*" >&2
    failed=$((failed + 1))
    keep=1  # keep the logs, artifacts and binaries to look at
}
# Prints what went wrong from a libFuzzer log: the panic message or the
# sanitizer's report headline, and the crashing input.
explain() { # explain LOG
    grep -m1 -A6 -E "panicked at|ERROR: [A-Za-z]+Sanitizer|ALARM: working on the last Unit|out-of-memory|deadly signal" "$1" >&2 \
        || tail -20 "$1" >&2
    grep -E "^(SUMMARY|artifact_prefix=)" "$1" | tail -2 >&2 || true
}

for t in "${targets[@]}"; do
    missing=()
    [ -x "$out/$t" ] || missing+=("$t (binary)")
    [ -f "$out/$t.dict" ] || missing+=("$t.dict")
    [ -f "$out/$t.options" ] || missing+=("$t.options")
    has_seeds=0
    if [ -n "$(find "corpus/$t" -type f -print -quit 2>/dev/null)" ]; then
        has_seeds=1
        [ -f "$out/${t}_seed_corpus.zip" ] || missing+=("${t}_seed_corpus.zip")
    fi
    if [ "${#missing[@]}" -gt 0 ]; then
        fail "$t: missing in \$OUT: ${missing[*]}"
        continue
    fi
    if ! grep -qx "dict = $t.dict" "$out/$t.options" || ! grep -qx '\[libfuzzer\]' "$out/$t.options"; then
        fail "$t: $t.options does not name [libfuzzer] dict = $t.dict"
        continue
    fi

    seeds="$tmp/seeds/$t"
    mkdir -p "$seeds" "$tmp/artifacts/$t"
    if [ "$has_seeds" = 1 ]; then
        unzip_to "$out/${t}_seed_corpus.zip" "$seeds"
    fi
    n=$(find "$seeds" -type f | wc -l)
    expected=0
    if [ -d "corpus/$t" ]; then expected=$(find "corpus/$t" -type f | wc -l); fi
    if [ "$n" -ne "$expected" ]; then
        fail "$t: the seed zip holds $n inputs, corpus/$t has $expected"
        continue
    fi
    # The settings of $t.options, as ClusterFuzz passes them.
    flags=(-dict="$out/$t.dict" -artifact_prefix="$tmp/artifacts/$t/")
    while IFS=' =' read -r key value; do
        case "$key" in ''|'['*|dict) ;; *) flags+=("-$key=$value") ;; esac
    done < "$out/$t.options"
    log="$tmp/$t.log"
    if ! (cd "$out" && timeout 600 "./$t" "${flags[@]}" -runs=0 "$seeds") > "$log" 2>&1; then
        explain "$log"
        fail "$t: crashed replaying its $n seeds (-runs=0): the build or the saved corpus is broken (log: $log)"
        continue
    fi
    if ! (cd "$out" && timeout 120 "./$t" "${flags[@]}" -max_total_time=5 -print_final_stats=1 "$seeds") > "$log" 2>&1; then
        explain "$log"
        artifact=$(find "$tmp/artifacts/$t" -type f -print -quit)
        fail "$t: crashed within 5 s of fuzzing from its seeds; a target that crashes this soon cannot be fuzzed (OSS-Fuzz's bad-build check rejects it). Replay: $out/$t ${artifact:-(no artifact written)} (log: $log)"
        continue
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "oss-fuzz-local $t: ok ($n seeds replayed, ${runs:-?} executions in 5 s)" >&2
done

echo "== oss-fuzz-local took $((SECONDS - start))s (build.sh ${build_seconds}s)" >&2
if [ "$failed" -gt 0 ]; then
    echo "oss-fuzz-local: $((${#targets[@]} - failed)) passed, $failed failed"
    exit 1
fi
echo "oss-fuzz-local: ${#targets[@]} passed, 0 failed"
