#!/usr/bin/env bash
# README's main job: a short fuzzing campaign on the saved corpus that ends
# in a disagreement report.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/fuzz.sh [TARGET] [SECONDS]

Fuzzes TARGET (a fuzz target `uridiff targets` lists, or all; default
differential) for SECONDS per target (default 60), starting from the saved
corpus in corpus/TARGET/, with the dictionary fuzz/uri.dict. The run's
corpus (what libFuzzer keeps and finds) goes to fuzz/new/TARGET/, not to the
saved corpus, so `cargo test` stays green until you decide to keep it. Then
writes the disagreement report over the saved corpus, the run's corpus and
the findings of every target whose files `uridiff report` reads (`uridiff
targets --format tsv`, column report): REPORT_DIR/report.md for those with
one input per file, REPORT_DIR/report-TARGET.md for each other target (read
with --target TARGET).

To keep this run's new inputs in the saved corpus (then review and bless):
  bash scripts/merge-corpora.sh TARGET fuzz/new/TARGET
  cargo run -- corpus bless

Installs cargo-fuzz when missing. Uses nightly with AddressSanitizer when a
nightly toolchain is installed, else `-s none` on stable. Runs libFuzzer's
fork mode with one process per core. Builds the C and C++ oracles with clang
and libFuzzer's coverage instrumentation (and AddressSanitizer with it), in
fuzz/target/clang/; installs Debian's clang with apt-get when missing (as
root, or through sudo without a password), else warns and goes on without
C/C++ coverage.

Environment:
  FUZZ_JOBS        parallel fuzzing processes (default: every core, `nproc`)
  FUZZ_SANITIZER   set to "none" to skip AddressSanitizer even on nightly
  FUZZ_C_COVERAGE  set to 0 to build the C/C++ oracles without coverage
  FUZZ_C_INSTALL   set to 0 never to install clang
  CC, CXX, CFLAGS, CXXFLAGS  when any is set, used as they are for the C/C++ code
  REPORT_DIR       where reports go (default: reports/)

Findings (panics: crashes or unexplained disagreements) are saved under
fuzz/artifacts/TARGET/; promote one with scripts/promote.sh ARTIFACT.
Exit status: 0 no findings and nothing unexplained, 1 findings, 2 usage error
(or the uridiff binary could not be built).
USAGE
}

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
target="${1:-differential}"
seconds="${2:-60}"
cd "$(dirname "$0")/.."
. scripts/lib.sh

case "$seconds" in ''|*[!0-9]*) echo "scripts/fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;; esac
cores=$(nproc 2>/dev/null || echo 1)
jobs="${FUZZ_JOBS:-$cores}"
case "$jobs" in ''|*[!0-9]*|0) echo "scripts/fuzz.sh: FUZZ_JOBS must be a whole number of processes, at least 1, not '$jobs'" >&2; exit 2 ;; esac

# The report's references: whatwg-url (a Node process) decides which WHATWG
# parser departs where they disagree (GUIDE.md, "The oracles"); setup-oracles.sh
# installs it and the other shipped adapters' runtimes (idempotent, fast once
# done). Without them the campaign still runs and the report names the
# reference it lacks.
bash "$(dirname "$0")/setup-oracles.sh" >&2 \
    || echo "scripts/fuzz.sh: setup-oracles.sh failed: the report will list the references it lacks" >&2

# The report needs the release build; it also lists the targets.
cargo build --release --locked --quiet || exit 2
uridiff=./target/release/uridiff
load_targets "$uridiff" || exit 2
if [ "$target" != all ] && ! is_target "$target"; then
    echo "scripts/fuzz.sh: unknown target '$target' (${FUZZ_TARGETS[*]}, all)" >&2
    exit 2
fi
report_dir="${REPORT_DIR:-reports}"
mkdir -p "$report_dir"

ensure_cargo_fuzz
choose_toolchain
setup_c_coverage

if [ "$target" = all ]; then targets=("${FUZZ_TARGETS[@]}"); else targets=("$target"); fi
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "fuzz/artifacts/$t" "fuzz/new/$t"
    before=$(find "fuzz/artifacts/$t" -type f | wc -l)
    echo "== fuzzing $t for ${seconds}s with $jobs job(s) on $cores core(s) ($FUZZ_DESC; $FUZZ_C_DESC)" >&2
    # libFuzzer writes new inputs to the first directory and only reads the
    # others. -fork with -ignore_crashes keeps going after a finding, so one
    # run can collect several; each is saved under fuzz/artifacts/$t/.
    # FUZZ_C_ENV (scripts/lib.sh) is the C/C++ compiler and flags for this
    # build only: the CLI above is built without them.
    env "${FUZZ_C_ENV[@]}" "${FUZZ_CMD[@]}" run "${FUZZ_TARGET_DIR[@]}" "${FUZZ_SAN[@]}" "$t" "fuzz/new/$t" "corpus/$t" -- \
        -dict=fuzz/uri.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 \
        -fork="$jobs" -ignore_crashes=1 -print_final_stats=1 2> "$report_dir/fuzz-$t.log" || true
    grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|cov:' "$report_dir/fuzz-$t.log" | tail -3 >&2 || true
    after=$(find "fuzz/artifacts/$t" -type f | wc -l)
    if [ "$after" -gt "$before" ]; then
        echo "== $t: $((after - before)) new finding(s) in fuzz/artifacts/$t/ (log: $report_dir/fuzz-$t.log)" >&2
        status=1
    fi
done

# The report replays, for every target, the saved corpus, the new inputs of
# this and earlier runs, and every artifact found so far (crashes and
# unexplained disagreements): one report for the targets with one input per
# file, and one per other target read in its own format (--target).
report="$report_dir/report.md"
# The directories that hold target $1's inputs, one per line.
input_dirs() {
    [ -d "corpus/$1" ] && echo "corpus/$1"
    for d in "fuzz/new/$1" "fuzz/artifacts/$1"; do
        [ -n "$(ls -A "$d" 2>/dev/null)" ] && echo "$d"
    done
    return 0
}
file_inputs=()
own_format=()
for t in "${FUZZ_TARGETS[@]}"; do
    mapfile -t dirs < <(input_dirs "$t")
    [ "${#dirs[@]}" -gt 0 ] || continue
    case "$(target_field "$t" report)" in
        file) file_inputs+=("${dirs[@]}") ;;
        target) [ -n "$(find "${dirs[@]}" -type f | head -1)" ] && own_format+=("$t") ;;
    esac
done
report_status=0
set +e
if [ "${#file_inputs[@]}" -gt 0 ]; then
    # --confirm: the Bypasses section's cells sent by real clients to loopback traps.
    "$uridiff" report --confirm --format md --out "$report" "${file_inputs[@]}"
    report_status=$?
    echo "== report: $report" >&2
fi
for t in "${own_format[@]}"; do
    mapfile -t dirs < <(input_dirs "$t")
    "$uridiff" report --target "$t" --format md --out "$report_dir/report-$t.md" "${dirs[@]}"
    s=$?
    [ "$s" -gt "$report_status" ] && report_status=$s
    echo "== report: $report_dir/report-$t.md" >&2
done
set -e
# The report ends with the root causes per parser, new ones first: what a
# campaign found, on the terminal too.
if [ -f "$report" ]; then
    echo "== root causes per parser (the end of $report):" >&2
    sed -n '/^## Root causes per parser/,$p' "$report" >&2
fi
[ "$report_status" -gt "$status" ] && status=$report_status
exit "$status"
