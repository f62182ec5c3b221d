#!/usr/bin/env bash
# README's main job: a short fuzzing campaign on the saved corpus that ends
# in a disagreement report.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/fuzz.sh [--oracle NAME]... [TARGET] [SECONDS]

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
nightly toolchain is installed, else `-s none` on stable. Runs one libFuzzer
process per core (FUZZ_JOBS), sharing fuzz/new/TARGET/; a process that stops
at a finding starts again for the time that is left. Builds the C and C++ oracles with clang
and libFuzzer's coverage instrumentation (and AddressSanitizer with it), in
fuzz/target/clang/; installs Debian's clang with apt-get when missing (as
root, or through sudo without a password), else warns and goes on without
C/C++ coverage.

Other runtimes in the loop (FUZZING.md, "Other runtimes in the loop"):
with --oracle all (or --oracle NAME, repeatable; or URIDIFF_FUZZ_ORACLES=all,
or a comma-separated list of names), `uridiff corpus follow` runs beside the
campaign: every input the campaign adds to fuzz/new/TARGET/ is checked by
those shipped adapters as it arrives, and a new signature that involves one
is saved as fuzz/artifacts/TARGET/external-HASH (with external-HASH.json,
its `check --json`). For the differential target, the fuzzers of the
adapters' runtimes join the campaign when their runtime is here, sharing
fuzz/new/differential/ (seeds: corpus/differential/ and that directory):
  python  atheris over urllib.parse and urllib3 (fuzz/python/; atheris is
          installed with pip from fuzz/python/requirements.txt into the cache
          root), one process
  go      go test -fuzz over net/url (fuzz/go/; Go 1.18 or later), one
          worker; its inputs are converted from Go's corpus format every 5 s
The follower also sends each input through the HTTP clients (`uridiff
fetch`'s; as root in a network namespace whose only interface is lo, else
only the clients with an in-client guard), and saves an input on which a
client goes elsewhere than its own parser reads as
fuzz/artifacts/TARGET/client-HASH (with client-HASH.json; FUZZ_CLIENTS).
The script says which ran and which did not (and why). The report then
checks with the same adapters. Logs: REPORT_DIR/follow-TARGET.log,
atheris-TARGET.log, go-fuzz-TARGET.log.

Environment:
  FUZZ_JOBS        parallel fuzzing processes (default: every core, `nproc`)
  FUZZ_SEEDS       set to "none" to start libFuzzer from fuzz/new/TARGET/ alone,
                   without the saved corpus (a campaign from an empty corpus,
                   as FUZZING.md records one; empty fuzz/new/TARGET/ first)
  URIDIFF_FUZZ_ORACLES  as --oracle: all, or adapter names separated by commas
  FUZZ_RUNTIMES    the runtimes' fuzzers to run with --oracle: python,go (the
                   default), either one, or none
  FUZZ_CLIENTS     the HTTP clients the follower sends inputs through with
                   --oracle: all (the default), none, or client names
                   separated by commas (`uridiff fetch --help` lists them)
  FUZZ_SANITIZER   set to "none" to skip AddressSanitizer even on nightly
  SANCOV_WIDE_TRACE_COMPARES  set to 1 to have the Rust parsers trace their
                   comparisons for libFuzzer's mutator (off unless value
                   profile is on: FUZZING.md, "Gated comparison tracing")
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

positional=()
oracles=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --oracle)
            [ "$#" -ge 2 ] || { echo "scripts/fuzz.sh: --oracle needs a NAME (all, or a shipped adapter's name)" >&2; exit 2; }
            oracles+=("$2")
            shift 2
            ;;
        --oracle=*) oracles+=("${1#--oracle=}"); shift ;;
        -*) echo "scripts/fuzz.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
        *) positional+=("$1"); shift ;;
    esac
done
[ "${#positional[@]}" -le 2 ] || { echo "scripts/fuzz.sh: too many arguments: ${positional[*]}" >&2; usage >&2; exit 2; }
if [ "${#oracles[@]}" -eq 0 ] && [ -n "${URIDIFF_FUZZ_ORACLES:-}" ]; then
    IFS=, read -ra oracles <<<"$URIDIFF_FUZZ_ORACLES"
fi
oracle_args=()
for o in "${oracles[@]}"; do
    [ -n "$o" ] && oracle_args+=(--oracle "$o")
done
# The follower's HTTP clients (--clients, or --client NAME for each name).
client_args=()
case "${FUZZ_CLIENTS:-all}" in
    none) ;;
    all) client_args=(--clients) ;;
    *) IFS=, read -ra client_names <<<"$FUZZ_CLIENTS"
       for c in "${client_names[@]}"; do [ -n "$c" ] && client_args+=(--client "$c"); done ;;
esac
runtimes="${FUZZ_RUNTIMES:-python,go}"
target="${positional[0]:-differential}"
seconds="${positional[1]:-60}"
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
read -r -a features <<< "$(optional_features)"
cargo build --release --locked --quiet "${features[@]}" || exit 2
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

# The findings of target $1 (inputs only: a follower's external-HASH.json
# is the report of the input beside it), one per line.
findings() {
    find "fuzz/artifacts/$1" -type f ! -name '*.json' 2>/dev/null
}

# libFuzzer on target $t: $jobs plain processes side by side, not -fork:
# with the same build, one plain process ran 1.6x the executions of one fork
# job and covered more edges (BENCHMARKS.md, "Fuzz throughput"). They share
# fuzz/new/$t/ (each reloads what the others add, libFuzzer's -reload), and
# a process that stops at a finding (a panic, saved under fuzz/artifacts/$t/
# by cargo-fuzz) is started again on what is left of the time, which is what
# -fork's -ignore_crashes gave, so one run can still collect several. The
# target's own settings (use_counters for the differential targets) come from
# scripts/lib.sh's target_libfuzzer_flags, as ClusterFuzzLite's .options do.
# FUZZ_C_ENV (scripts/lib.sh) is the C/C++ compiler and flags for this build
# only: the CLI above is built without them.
run_libfuzzer() {
    local end j flags=() bin
    read -r -a flags <<< "$(target_libfuzzer_flags "$t")"
    # FUZZ_SEEDS=none: from an empty corpus (a measured campaign), not the
    # saved one.
    local seeds=("corpus/$t")
    if [ "${FUZZ_SEEDS:-saved}" = none ]; then seeds=(); fi
    # Built once, then run directly, as OSS-Fuzz runs a target: after a
    # finding `cargo fuzz run` rebuilds the target in another profile to
    # print the input's Debug form, minutes on a loaded machine, which our
    # panic message (the saved-corpus entry) already gives.
    : > "$report_dir/fuzz-$t.log"
    if ! env "${FUZZ_C_ENV[@]}" "${FUZZ_CMD[@]}" build "${FUZZ_TARGET_DIR[@]}" "${FUZZ_SAN[@]}" "${FUZZ_FEATURES[@]}" "$t" \
        >> "$report_dir/fuzz-$t.log" 2>&1; then
        echo "== $t: cargo fuzz build failed (log: $report_dir/fuzz-$t.log)" >&2
        return 0
    fi
    bin="$(fuzz_bin_dir)/$t"
    end=$(( $(date +%s) + seconds ))
    local started=()
    for j in $(seq 1 "$jobs"); do
        (
            starts=0
            while [ "$starts" -lt 100 ]; do
                left=$(( end - $(date +%s) ))
                [ "$left" -gt 0 ] || break
                starts=$(( starts + 1 ))
                found=$(libfuzzer_artifacts "$t")
                if "$bin" -artifact_prefix="fuzz/artifacts/$t/" -dict=fuzz/uri.dict \
                    -max_total_time="$left" -max_len=4096 -timeout=10 \
                    "${flags[@]}" -print_final_stats=1 "fuzz/new/$t" "${seeds[@]}" \
                    >> "$report_dir/fuzz-$t.$j.log" 2>&1; then
                    break
                fi
                # Stopped without saving a crash, timeout or out-of-memory
                # input: a start-up failure, which a restart would repeat.
                [ "$(libfuzzer_artifacts "$t")" -gt "$found" ] || break
            done
        ) &
        started+=("$!")
    done
    # The INT and TERM traps stop these too (and what they started): the
    # `wait` builtin lets a trap run at once, which would otherwise leave
    # them fuzzing after this script ends.
    background+=("${started[@]}")
    wait "${started[@]}" || true
    background=("${background[@]:0:${#background[@]}-${#started[@]}}")
    cat "$report_dir/fuzz-$t".*.log >> "$report_dir/fuzz-$t.log" 2>/dev/null || true
    rm -f "$report_dir/fuzz-$t".*.log
}

# How many inputs libFuzzer saved for target $1 (crash-, timeout-, oom-,
# leak-): a follower's external-* findings are not libFuzzer's.
libfuzzer_artifacts() {
    find "fuzz/artifacts/$1" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) 2>/dev/null | wc -l
}

# atheris on target $t's corpus: new inputs into fuzz/new/$t/, an exception
# the parsers do not document into fuzz/artifacts/$t/atheris-crash-<sha1>.
run_atheris() {
    PYTHONPATH="$ATHERIS_PYTHONPATH" python3 fuzz/python/fuzz_urllib.py "fuzz/new/$t" "corpus/$t" \
        -dict=fuzz/uri.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/atheris-" \
        > "$report_dir/atheris-$t.log" 2>&1 || true
}

# go test -fuzz on target $t's corpus; what it finds is converted into
# fuzz/new/$t/ every 5 seconds and at the end, a failing input (a panic)
# into fuzz/artifacts/$t/.
run_go_fuzz() {
    local log="$report_dir/go-fuzz-$t.log" root gopid
    root=$(pwd -P)
    (cd fuzz/go && URIDIFF_FUZZ_SEEDS="$root/corpus/$t:$root/fuzz/new/$t" \
        go_fuzz_env test -run '^$' -fuzz '^FuzzParse$' -fuzztime "${seconds}s" -parallel 1) > "$log" 2>&1 &
    gopid=$!
    while kill -0 "$gopid" 2>/dev/null; do
        "$GO_EXPORT" "$GO_FUZZ_CACHE" "fuzz/new/$t" >/dev/null 2>&1 || true
        sleep 5
    done
    wait "$gopid" || true
    "$GO_EXPORT" "$GO_FUZZ_CACHE" "fuzz/new/$t" >> "$log" 2>&1 || true
    "$GO_EXPORT" fuzz/go/testdata/fuzz/FuzzParse "fuzz/artifacts/$t" >> "$log" 2>&1 || true
}

# The runtimes' fuzzers that will join the differential campaign, and a line
# for each that will not.
ran_atheris=0
ran_go=0
if [ "${#oracle_args[@]}" -gt 0 ] && { [ "$target" = differential ] || [ "$target" = all ]; }; then
    case ",$runtimes," in
        *,python,*)
            if setup_atheris; then ran_atheris=1; else echo "== atheris (Python) will not run: $RUNTIME_WHY" >&2; fi ;;
        *) echo "== atheris (Python) will not run: not in FUZZ_RUNTIMES=$runtimes" >&2 ;;
    esac
    case ",$runtimes," in
        *,go,*)
            if setup_go_fuzz; then ran_go=1; else echo "== go test -fuzz will not run: $RUNTIME_WHY" >&2; fi ;;
        *) echo "== go test -fuzz will not run: not in FUZZ_RUNTIMES=$runtimes" >&2 ;;
    esac
    echo "== Jazzer.js (Node) does not run: FUZZING.md, \"Other runtimes in the loop\", says why" >&2
fi

# On SIGINT or SIGTERM, the background processes end too (a terminal's
# Ctrl-C reaches them itself; a TERM sent to this script alone does not).
background=()
# shellcheck disable=SC2317  # run by the traps
stop_background() {
    local p
    for p in "${background[@]}"; do stop_tree "$p"; done
}
trap 'stop_background; exit 130' INT
trap 'stop_background; exit 143' TERM

if [ "$target" = all ]; then targets=("${FUZZ_TARGETS[@]}"); else targets=("$target"); fi
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "fuzz/artifacts/$t" "fuzz/new/$t"
    before=$(findings "$t" | wc -l)
    echo "== fuzzing $t for ${seconds}s with $jobs job(s) on $cores core(s) ($FUZZ_DESC; $FUZZ_C_DESC)" >&2
    if [ "${#oracle_args[@]}" -eq 0 ]; then
        run_libfuzzer
    else
        # The follower starts first (its adapters take a few seconds) and
        # the campaign once it follows, so that no input the campaign adds
        # is taken for one that was there before; it ends with the campaign.
        follow_log="$report_dir/follow-$t.log"
        : > "$follow_log"
        (
            for _ in $(seq 1 600); do
                grep -q '^following ' "$follow_log" 2>/dev/null && break
                grep -q '^uridiff: ' "$follow_log" 2>/dev/null && break
                sleep 0.2
            done
            jobs_here=()
            run_libfuzzer & jobs_here+=("$!")
            if [ "$t" = differential ] && [ "$ran_atheris" = 1 ]; then run_atheris & jobs_here+=("$!"); fi
            if [ "$t" = differential ] && [ "$ran_go" = 1 ]; then run_go_fuzz & jobs_here+=("$!"); fi
            wait "${jobs_here[@]}"
        ) &
        campaign=$!
        "$uridiff" corpus follow --target "$t" --pid "$campaign" "${oracle_args[@]}" "${client_args[@]}" "fuzz/new/$t" > "$follow_log" 2>&1 &
        follower=$!
        background=("$campaign" "$follower")
        wait "$campaign" || true
        follow_status=0
        wait "$follower" || follow_status=$?
        background=()
        echo "== follower ($follow_log):" >&2
        grep -E '^(with [0-9]+ HTTP clients|clients: |follow ended|uridiff: )' "$follow_log" | sed 's/^/   /' >&2 || true
        [ "$follow_status" -ge 2 ] && status=2
        if [ "$t" = differential ] && [ "$ran_atheris" = 1 ]; then
            echo "== atheris ($report_dir/atheris-$t.log):" >&2
            grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|^==[0-9]+== ERROR|Uncaught Python exception' \
                "$report_dir/atheris-$t.log" | sed 's/^/   /' >&2 || true
        fi
        if [ "$t" = differential ] && [ "$ran_go" = 1 ]; then
            echo "== go test -fuzz ($report_dir/go-fuzz-$t.log):" >&2
            grep -E '^fuzz: elapsed' "$report_dir/go-fuzz-$t.log" | tail -1 | sed 's/^/   /' >&2 || true
            grep -E '^(export:|--- FAIL|FAIL|ok|PASS)' "$report_dir/go-fuzz-$t.log" | sed 's/^/   /' >&2 || true
        fi
        echo "== libFuzzer ($report_dir/fuzz-$t.log):" >&2
    fi
    grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|cov:' "$report_dir/fuzz-$t.log" | tail -3 >&2 || true
    after=$(findings "$t" | wc -l)
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
# The directories (and finding files) that hold target $1's inputs, one per
# line: the findings are listed one by one, since the follower's
# external-HASH.json reports beside them are no inputs.
input_dirs() {
    [ -d "corpus/$1" ] && echo "corpus/$1"
    [ -n "$(ls -A "fuzz/new/$1" 2>/dev/null)" ] && echo "fuzz/new/$1"
    findings "$1" | sort
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
    # The Bypasses section's cells: as root (CI), every candidate observed through the
    # real clients in a network namespace (--observe); otherwise confirmed by the guarded
    # clients on loopback traps (--confirm), and the report says its cells are not observed.
    # With --oracle, the shipped adapters the follower ran check them too.
    if [ "$(id -u)" = 0 ]; then bypass_cells=--observe; else
        bypass_cells=--confirm
        echo "fuzz.sh: not root: the report's Bypasses section is confirmed (--confirm), not observed (--observe needs a network namespace)" >&2
    fi
    "$uridiff" report "$bypass_cells" "${oracle_args[@]}" --format md --out "$report" "${file_inputs[@]}"
    report_status=$?
    echo "== report: $report" >&2
fi
for t in "${own_format[@]}"; do
    mapfile -t dirs < <(input_dirs "$t")
    "$uridiff" report --target "$t" "${oracle_args[@]}" --format md --out "$report_dir/report-$t.md" "${dirs[@]}"
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
# The HTTP clients that went elsewhere than their own parser says (the
# follower's client-HASH.json records, this run's and earlier ones'): the
# report replays their inputs through the parsers, this says what the
# clients did with them.
for t in "${targets[@]}"; do
    mapfile -t departures < <(find "fuzz/artifacts/$t" -maxdepth 1 -type f -name 'client-*.json' 2>/dev/null | sort)
    [ "${#departures[@]}" -gt 0 ] || continue
    echo "== clients that went elsewhere than their parser says ($t; each record in fuzz/artifacts/$t/client-HASH.json):" >&2
    python3 - "${departures[@]}" <<'PY' | sort -u >&2
import json, sys
for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        d = json.loads(line)
        print("   %s: %s reads %s; the client: %s (input %s)" % (d["signature"], d["parser"], json.dumps(d["predicted"]), d["observed"], json.dumps(d["input"])))
PY
done
[ "$report_status" -gt "$status" ] && status=$report_status
exit "$status"
