#!/usr/bin/env bash
# Measures the build scripts/fuzz.sh fuzzes with: exec/s of the parse and
# differential targets, and the differential fuzz binary's cost per input
# against the release check(); prints BENCHMARKS.md's tables.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/fuzz-throughput.sh [SECONDS]

Builds the fuzz targets as scripts/fuzz.sh does (nightly with
AddressSanitizer when a nightly toolchain is installed, else -s none; the C
and C++ oracles built by clang with coverage; the optional oracles
pkg-config finds), then, one process at a time:

  1. runs parse and differential for SECONDS each (default 60), from a
     scratch copy of the saved corpus and from an empty corpus, with
     fuzz/uri.dict and -max_len=4096, with libFuzzer's defaults and with the
     target's own settings (scripts/lib.sh, target_libfuzzer_options; what
     scripts/fuzz.sh and ClusterFuzzLite use), plus FUZZ_FLAGS (libFuzzer
     flags to compare), and prints libFuzzer's own average exec/s,
     executions and edges covered (skipped when SECONDS is 0);
     A run stops at a finding, which is saved under fuzz/artifacts/TARGET/
     as scripts/fuzz.sh saves it;
  2. times the differential binary over the saved corpus and over 2000 real
     URLs of benches/data/urls.txt (libFuzzer's mode that runs the files it
     is given once each: the target with all its instrumentation, no search),
     against the release build's check() and campaign_check() over the same
     files (examples/check_cost.rs), and prints the cost per input and the
     ratios; and libFuzzer's own cost per file in that mode (reading and
     copying it, its bookkeeping around a run), timed on 2000 files that
     are not UTF-8, which the target returns on at once: the ratios are
     printed with that cost and without it;
  3. the same in the steady state a campaign runs in: the extra cost per
     input of one process running the files STEADY_HI (80) times over
     against one running them STEADY_LO (40) times over, once
     AddressSanitizer's quarantine has filled and its heap pages are reused
     (a replay of a few thousand inputs pays a page fault for fresh memory
     where a campaign of millions does not); STEADY_ROUNDS rounds (3), each
     with the release build timed right after the fuzz build, and the
     median of each column.

Nothing else should run on the machine meanwhile; as root, each run gets a
real-time priority (chrt -f 10) so that other work cannot take its core. The saved corpus is not
changed. Installs cargo-fuzz when missing.
USAGE
}

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
seconds="${1:-60}"
case "$seconds" in ''|*[!0-9]*) echo "scripts/fuzz-throughput.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_cargo_fuzz
choose_toolchain
setup_c_coverage
read -r -a extra <<<"${FUZZ_FLAGS:-}"

for t in parse differential; do
    env "${FUZZ_C_ENV[@]}" "${FUZZ_CMD[@]}" build "${FUZZ_TARGET_DIR[@]}" "${FUZZ_SAN[@]}" "${FUZZ_FEATURES[@]}" "$t" >&2
done
bin_dir=$(fuzz_bin_dir)
root=$(pwd -P)
for t in parse differential; do
    [ -x "$bin_dir/$t" ] || { echo "scripts/fuzz-throughput.sh: no fuzz binary at $bin_dir/$t" >&2; exit 2; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One process alone on the machine is what BENCHMARKS.md's targets ask; as
# root, each run is given a real-time priority (chrt -f 10) so that other
# work on a shared machine does not take its core.
prio=()
if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null 2>&1; then prio=(chrt -f 10); fi

echo "Build: ${FUZZ_CMD[*]} ${FUZZ_SAN[*]} ${FUZZ_FEATURES[*]}; $FUZZ_C_DESC; libFuzzer flags: -dict=fuzz/uri.dict -max_len=4096 ${extra[*]}; ${prio[*]:-normal priority}"
echo
[ "$seconds" -gt 0 ] && echo "| target | start | libFuzzer settings | exec/s | executions in ${seconds} s | edges (cov) |"
[ "$seconds" -gt 0 ] && echo "|---|---|---|---:|---:|---:|"
for t in parse differential; do
    [ "$seconds" -gt 0 ] || break
    read -r -a own <<<"$(target_libfuzzer_flags "$t")"
    settings=("defaults")
    [ "${#own[@]}" -gt 0 ] && settings+=("${own[*]}")
    for start in saved empty; do
        for setting in "${settings[@]}"; do
            flags=()
            [ "$setting" != defaults ] && read -r -a flags <<<"$setting"
            rm -rf "$scratch/corpus"
            mkdir -p "$scratch/corpus" "fuzz/artifacts/$t"
            [ "$start" = saved ] && cp -r "corpus/$t/." "$scratch/corpus/"
            log="$scratch/run.log"
            (cd "$scratch" && "${prio[@]}" "$bin_dir/$t" corpus -dict="$root/fuzz/uri.dict" \
                -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
                -artifact_prefix="$root/fuzz/artifacts/$t/" "${flags[@]}" "${extra[@]}") > "$log" 2>&1 || true
            rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
            total=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
            cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
            note=""
            if grep -q 'deadly signal' "$log"; then
                note=" (stopped at a finding)"
                echo "$t: a finding, saved under fuzz/artifacts/$t/ (scripts/promote.sh ARTIFACT)" >&2
            fi
            echo "| \`$t\` | $start corpus | $setting | ${rate:-?}$note | ${total:-?} | ${cov:-?} |"
        done
    done
done

# The same inputs as files for both builds: the saved corpus, and real URLs.
mkdir -p "$scratch/urls"
head -n 2000 benches/data/urls.txt | awk -v d="$scratch/urls" '{ f = sprintf("%s/%05d", d, NR); printf "%s", $0 > f; close(f) }'
cargo build --release --locked --quiet "${FUZZ_FEATURES[@]}" --example check_cost

# Nanoseconds per input of the fuzz binary over the files of $1: five passes
# over them in one process, less one process given a single file (start-up).
fuzz_ns() {
    local files=() n
    mapfile -t files < <(find "$1" -type f | sort)
    n=${#files[@]}
    local all=("${files[@]}" "${files[@]}" "${files[@]}" "${files[@]}" "${files[@]}")
    local t0 t1 t2
    t0=$(date +%s%N)
    "${prio[@]}" "$bin_dir/differential" "${files[0]}" > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    "${prio[@]}" "$bin_dir/differential" "${all[@]}" > /dev/null 2>&1 || true
    t2=$(date +%s%N)
    echo $(( ((t2 - t1) - (t1 - t0)) / (5 * n) ))
}

# The same cost in the steady state a campaign runs in. AddressSanitizer
# hands out fresh heap pages (each one a page fault) until its quarantine of
# freed memory (256 MiB by default) has filled and cycles: a replay of a few
# thousand inputs never gets there, a campaign of millions of executions does
# within seconds. Here: the extra time of a process that runs the files of $1
# STEADY_HI times over against one that runs them STEADY_LO times over, per
# extra input. Over 2000 real URLs the cost per input stops falling after
# 20-40 passes (BENCHMARKS.md, 2026-11-27), hence 40 and 80. The command
# lines are long (every file STEADY_HI times): the stack limit, which bounds
# them, is raised for these processes.
STEADY_LO=${STEADY_LO:-40}
STEADY_HI=${STEADY_HI:-80}
steady_ns() {
    local files=() n t0 t1 t2
    mapfile -t files < <(cd "$1" && find . -type f | sort)
    n=${#files[@]}
    local lo=() hi=() i
    for ((i = 0; i < STEADY_LO; i++)); do lo+=("${files[@]}"); done
    for ((i = 0; i < STEADY_HI; i++)); do hi+=("${files[@]}"); done
    local rc=0
    t0=$(date +%s%N)
    (cd "$1" && { ulimit -s 65536 2>/dev/null || true; } && "${prio[@]}" "$bin_dir/differential" "${lo[@]}" > /dev/null 2>&1) || rc=$?
    t1=$(date +%s%N)
    (cd "$1" && { ulimit -s 65536 2>/dev/null || true; } && "${prio[@]}" "$bin_dir/differential" "${hi[@]}" > /dev/null 2>&1) || rc=$?
    t2=$(date +%s%N)
    # 126: the process could not start (a command line longer than the
    # system allows); any other failure still ran the files (a finding).
    if [ "$rc" = 126 ]; then
        echo "scripts/fuzz-throughput.sh: the differential binary did not start with $STEADY_HI passes over $1 (command line too long: lower STEADY_HI)" >&2
        exit 1
    fi
    echo $(( ((t2 - t1) - (t1 - t0)) / ((STEADY_HI - STEADY_LO) * n) ))
}

# libFuzzer's own cost per file in this mode, whatever the target does: the
# same number of files, each one byte that is not UTF-8 (the target returns
# at once on it).
mkdir -p "$scratch/not-utf8"
for i in $(seq -w 1 2000); do printf '\377' > "$scratch/not-utf8/$i"; done
per_file=$(fuzz_ns "$scratch/not-utf8")

echo
echo "libFuzzer's own cost per file (2000 files the target returns on at once): $per_file ns"
echo
echo "| inputs | fuzz build ns/input | release check() ns/input | ratio | less libFuzzer's per-file cost | release campaign_check() ns/input | ratio | less per-file cost |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for set in "saved differential corpus|corpus/differential" "2000 real URLs|$scratch/urls"; do
    IFS='|' read -r name dir <<<"$set"
    fuzz=$(fuzz_ns "$dir")
    read -r _ n _ check _ campaign < <("${prio[@]}" ./target/release/examples/check_cost "$dir")
    awk -v name="$name ($n)" -v f="$fuzz" -v p="$per_file" -v c="$check" -v q="$campaign" \
        'BEGIN { printf "| %s | %d | %d | %.1fx | %.1fx | %d | %.1fx | %.1fx |\n", name, f, c, f / c, (f - p) / c, q, f / q, (f - p) / q }'
done

# The steady state: the saved corpus under short names (a process's command
# line holds every file STEADY_HI times).
mkdir -p "$scratch/corpus-files"
i=0
while IFS= read -r f; do
    i=$((i + 1))
    cp "$f" "$scratch/corpus-files/$(printf %05d "$i")"
done < <(find corpus/differential -type f | sort)
# The steady state is measured STEADY_ROUNDS times (3 by default), each round
# timing libFuzzer's own cost per file, then the fuzz binary and the release
# build over each set of inputs back to back, so that a ratio compares runs
# made minutes apart at most; the median of the rounds is printed last. On a
# shared machine the fuzz build's time per input moves by 10-20 % between
# runs (BENCHMARKS.md, tenth round), more than the release build's does.
STEADY_ROUNDS=${STEADY_ROUNDS:-3}
case "$STEADY_ROUNDS" in ''|*[!0-9]*|0) echo "scripts/fuzz-throughput.sh: STEADY_ROUNDS must be a whole number above 0, not '$STEADY_ROUNDS'" >&2; exit 2 ;; esac
echo
echo "Steady state (the extra cost per input of ${STEADY_HI} passes over the files against ${STEADY_LO}, one process each; AddressSanitizer's quarantine has cycled), $STEADY_ROUNDS rounds, then the median of each column:"
echo
echo "| inputs | round | libFuzzer's own cost per file | fuzz build ns/input, steady | release check() ns/input | ratio | less libFuzzer's per-file cost | release campaign_check() ns/input | ratio | less per-file cost |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
rows="$scratch/steady-rows"
: > "$rows"
for ((round = 1; round <= STEADY_ROUNDS; round++)); do
    steady_file=$(steady_ns "$scratch/not-utf8")
    for set in "saved differential corpus|$scratch/corpus-files" "2000 real URLs|$scratch/urls"; do
        IFS='|' read -r name dir <<<"$set"
        fuzz=$(steady_ns "$dir")
        read -r _ n _ check _ campaign < <("${prio[@]}" ./target/release/examples/check_cost "$dir")
        awk -v name="$name ($n)" -v r="$round" -v f="$fuzz" -v p="$steady_file" -v c="$check" -v q="$campaign" \
            'BEGIN { printf "| %s | %d | %d | %d | %d | %.1fx | %.1fx | %d | %.1fx | %.1fx |\n", name, r, p, f, c, f / c, (f - p) / c, q, f / q, (f - p) / q }' \
            | tee -a "$rows"
    done
done
# The median of each column over the rounds, per set of inputs.
for name in "saved differential corpus" "2000 real URLs"; do
    grep -F "| $name (" "$rows" | awk -F'|' -v rounds="$STEADY_ROUNDS" '
        function median(col,   i, j, t, v, k) {
            k = 0
            for (i = 1; i <= NR; i++) { v[++k] = vals[i, col] + 0 }
            for (i = 2; i <= k; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
            return (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
        }
        { label = $2; for (c = 4; c <= 11; c++) { x = $c; gsub(/[ x]/, "", x); vals[NR, c] = x } }
        END {
            printf "|%s| median of %d | %d | %d | %d | %.1fx | %.1fx | %d | %.1fx | %.1fx |\n", label, rounds,
                median(4), median(5), median(6), median(7), median(8), median(9), median(10), median(11)
        }'
done
