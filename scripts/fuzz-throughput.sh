#!/usr/bin/env bash
# Measures fuzz throughput (exec/s) of the parse and differential targets,
# with AddressSanitizer (nightly) and without a sanitizer (stable, -s none),
# and prints BENCHMARKS.md's table.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/fuzz-throughput.sh [SECONDS]

Runs the parse and differential fuzz targets for SECONDS each (default 60),
one process, on a scratch copy of the saved corpus with fuzz/uri.dict, once
built with AddressSanitizer (`cargo +nightly fuzz`, skipped when no nightly
toolchain is installed) and once without a sanitizer (`cargo fuzz -s none`),
and prints a Markdown table of libFuzzer's own average exec/s and total
executions (-print_final_stats=1). The saved corpus is not changed.
Installs cargo-fuzz when missing.
USAGE
}

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
seconds="${1:-60}"
case "$seconds" in ''|*[!0-9]*) echo "scripts/fuzz-throughput.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_cargo_fuzz

builds=("none|cargo fuzz|-s none")
if has_nightly; then
    builds=("address|cargo +nightly fuzz|-s address" "${builds[@]}")
fi

echo "| target | sanitizer | exec/s | executions in ${seconds} s |"
echo "|---|---|---:|---:|"
for build in "${builds[@]}"; do
    IFS='|' read -r san cmd flags <<<"$build"
    read -r -a cmd <<<"$cmd"
    read -r -a flags <<<"$flags"
    for t in parse differential; do
        scratch=$(mktemp -d)
        cp -r "corpus/$t/." "$scratch/"
        log="$scratch.log"
        "${cmd[@]}" run -O "${flags[@]}" "$t" "$scratch" -- \
            -dict=fuzz/uri.dict -max_total_time="$seconds" -max_len=4096 \
            -print_final_stats=1 > "$log" 2>&1 || true
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
        total=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        echo "| \`$t\` | $san | ${rate:-?} | ${total:-?} |"
        rm -rf "$scratch" "$log"
    done
done
