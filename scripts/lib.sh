# Shared by the scripts: sourced, not run.
# shellcheck shell=bash disable=SC2034  # the variables set here are read by the scripts
# Installs Debian packages as root (or through sudo), lists the fuzz targets
# (from the uridiff binary), chooses the toolchain and sanitizer, installs
# cargo-fuzz when missing, and sets up the C/C++ compiler of campaigns (clang
# with coverage instrumentation).

# Runs a command as root: as it is when running as root, else through sudo
# when sudo needs no password (as on GitHub's hosted runners); fails otherwise.
as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo "$@"
    else
        return 1
    fi
}

# Can Debian packages be installed here: apt-get, and root or sudo?
can_apt_install() {
    command -v apt-get >/dev/null 2>&1 || return 1
    [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
}

# Installs Debian packages with apt-get, as root (see as_root), quietly.
apt_install() { # apt_install PACKAGE...
    as_root apt-get update -qq \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# Installs cargo-fuzz when it is not on PATH.
ensure_cargo_fuzz() {
    if ! cargo fuzz --version >/dev/null 2>&1; then
        echo "cargo-fuzz is missing: installing it (cargo install cargo-fuzz --locked)" >&2
        cargo install cargo-fuzz --locked >&2
    fi
}

# Is a nightly toolchain installed (for AddressSanitizer builds)?
has_nightly() {
    rustup toolchain list 2>/dev/null | grep -q '^nightly'
}

# The cargo features of the optional oracles this machine can build, as words
# for cargo: `--features uriparser` when pkg-config finds the system's
# liburiparser (scripts/setup-oracles.sh installs it; crates/uriparser-ffi
# links it), nothing otherwise. fuzz/Cargo.toml forwards the feature to
# uridiff.
optional_features() {
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists liburiparser; then
        echo "--features uriparser"
    fi
}

# libFuzzer settings of fuzz target $1 beyond the common ones (dict,
# max_len, timeout), one `key = value` line each, as ClusterFuzzLite's and
# OSS-Fuzz's TARGET.options take them (.clusterfuzzlite/build.sh writes them
# there; scripts/fuzz.sh passes them as flags). The targets that run check()
# on every input count an edge once, not by how often it ran
# (use_counters = 0): the harness's own loops (triage over every parser's
# answer) run as often as an input is long, so hit counts made nearly every
# input "new" to libFuzzer; with edges only, one process ran 1.5x the
# executions from an empty corpus and covered more edges (BENCHMARKS.md,
# "Fuzz throughput").
target_libfuzzer_options() {
    case "$1" in
        differential|structured|resolve-differential) echo "use_counters = 0" ;;
    esac
}

# target_libfuzzer_options as libFuzzer flags (`-use_counters=0`), on one line.
target_libfuzzer_flags() {
    target_libfuzzer_options "$1" | sed 's/^\([a-z_]*\) = \(.*\)$/-\1=\2/' | tr '\n' ' '
}

# The instrumentation every build of the fuzz targets asks cargo-fuzz for,
# beyond the sanitizer: comparison tracing only in the parsers
# (--no-trace-compares here; fuzz/Cargo.toml's per-package rustflags, a
# nightly cargo feature, turn it back on for them). scripts/fuzz.sh's build
# and .clusterfuzzlite/build.sh's (ClusterFuzzLite, OSS-Fuzz) both take it
# from here, so that a campaign anywhere fuzzes the same build.
FUZZ_INSTRUMENT=(--no-trace-compares)

# Sets FUZZ_CMD (an array: the cargo fuzz command) and FUZZ_SAN (the sanitizer
# flags, FUZZ_INSTRUMENT included): nightly with AddressSanitizer when a
# nightly toolchain is installed, else stable with `-s none` (and
# RUSTC_BOOTSTRAP=1, so that cargo reads fuzz/Cargo.toml's per-package
# rustflags). FUZZ_SANITIZER=none forces no sanitizer. Sets FUZZ_FEATURES too
# (an array, possibly empty: optional_features).
choose_toolchain() {
    read -r -a FUZZ_FEATURES <<< "$(optional_features)"
    if [ "${FUZZ_SANITIZER:-}" != "none" ] && has_nightly; then
        FUZZ_CMD=(cargo +nightly fuzz)
        FUZZ_SAN=(-s address "${FUZZ_INSTRUMENT[@]}")
        FUZZ_DESC="nightly, AddressSanitizer"
    else
        FUZZ_CMD=(env RUSTC_BOOTSTRAP=1 cargo fuzz)
        FUZZ_SAN=(-s none "${FUZZ_INSTRUMENT[@]}")
        FUZZ_DESC="stable, no sanitizer"
    fi
}

# Where `cargo fuzz build` (release, the default) leaves the fuzz binaries:
# FUZZ_TARGET_DIR's directory (setup_c_coverage) or fuzz/target, then the
# host triple. Call after setup_c_coverage, from the repository root.
fuzz_bin_dir() {
    local dir
    dir="$(pwd -P)/fuzz/target"
    if [ "${#FUZZ_TARGET_DIR[@]}" -eq 2 ]; then dir="${FUZZ_TARGET_DIR[1]}"; fi
    echo "$dir/$(rustc -vV | sed -n 's/^host: //p')/release"
}

# Is clang (C and C++) on PATH?
has_clang() {
    command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1
}

# C and C++ coverage, for campaigns (scripts/fuzz.sh, scripts/merge-corpora.sh,
# .clusterfuzzlite/build.sh outside Docker), never for the test replay. The C
# and C++ oracles (libcurl, Ada) are compiled by the cc crate with $CC/$CXX and
# $CFLAGS/$CXXFLAGS. Built by clang with -fsanitize=fuzzer-no-link their
# branches feed libFuzzer's coverage like the Rust code's (and with
# -fsanitize=address when the Rust side uses AddressSanitizer, their memory
# errors are caught too); built by gcc they run, but libFuzzer is blind inside
# them. Call after choose_toolchain, from the repository root. Sets:
#   FUZZ_C_ENV       VAR=VALUE words to run cargo fuzz under `env` (empty when
#                    the compiler is left as it is). Nothing is exported: the
#                    CLI's own `cargo build` must not see these flags.
#   FUZZ_TARGET_DIR  cargo-fuzz --target-dir arguments: the instrumented build
#                    lives in fuzz/target/clang/, so that it and the plain build
#                    of scripts/fuzz-replay.sh do not rebuild each other.
#   FUZZ_C_DESC      what was chosen, for messages.
# Installs Debian's clang with apt-get when it is missing and apt-get may run
# as root (as root, or through sudo without a password), unless
# FUZZ_C_INSTALL=0; otherwise warns and goes on with the default compiler. CC,
# CXX, CFLAGS or CXXFLAGS set by the caller are passed through untouched.
# FUZZ_C_COVERAGE=0 turns all of this off.
setup_c_coverage() {
    FUZZ_C_ENV=()
    FUZZ_TARGET_DIR=()
    if [ "${FUZZ_C_COVERAGE:-1}" = 0 ]; then
        FUZZ_C_DESC="C/C++ oracles not instrumented (FUZZ_C_COVERAGE=0)"
        return 0
    fi
    if [ -n "${CC:-}${CXX:-}${CFLAGS:-}${CXXFLAGS:-}" ]; then
        FUZZ_C_DESC="C/C++ compiler and flags from the environment"
        return 0
    fi
    if ! has_clang && [ "${FUZZ_C_INSTALL:-1}" != 0 ] && can_apt_install; then
        echo "clang is missing: installing Debian's clang (apt-get install clang) for C/C++ coverage" >&2
        apt_install clang >&2 || echo "warning: apt-get install clang failed" >&2
    fi
    if ! has_clang; then
        echo "warning: clang not found: the C/C++ oracles are built by the default compiler without" \
            "coverage instrumentation, so libFuzzer sees only the Rust code's coverage" \
            "(install clang for C/C++ coverage, or set FUZZ_C_COVERAGE=0 to silence this)" >&2
        FUZZ_C_DESC="default C compiler, no C/C++ coverage"
        return 0
    fi
    local root libfuzzer flags
    root=$(pwd -P)
    # libfuzzer-sys compiles libFuzzer itself with $CXX and $CXXFLAGS too, and
    # libFuzzer must not be instrumented (its own loops would count as the
    # target's coverage). So it is built once, plain, from libfuzzer-sys's own
    # sources, and handed over through CUSTOM_LIBFUZZER_PATH, as OSS-Fuzz does.
    if ! libfuzzer=$(build_plain_libfuzzer "$root/fuzz/target/clang/libfuzzer"); then
        echo "warning: could not build libFuzzer with clang: the C/C++ oracles are built without coverage" >&2
        FUZZ_C_DESC="default C compiler, no C/C++ coverage (libFuzzer build failed)"
        return 0
    fi
    flags="-fsanitize=fuzzer-no-link"
    FUZZ_C_DESC="clang, C/C++ coverage"
    # Leaves the sources fuzz/sancov-ignore.txt lists without coverage.
    flags="$flags $(c_coverage_ignorelist_flag "$root")"
    if [[ " ${FUZZ_SAN[*]:-} " == *" -s address "* ]]; then
        flags="$flags -fsanitize=address"
        FUZZ_C_DESC="clang, C/C++ coverage and AddressSanitizer"
    fi
    FUZZ_C_ENV=(CC=clang CXX=clang++ "CFLAGS=$flags" "CXXFLAGS=$flags"
        "CUSTOM_LIBFUZZER_PATH=$libfuzzer")
    FUZZ_TARGET_DIR=(--target-dir "$root/fuzz/target/clang")
}

# The clang flag that keeps libFuzzer's coverage instrumentation out of the
# C/C++ sources fuzz/sancov-ignore.txt lists (code whose branches follow
# libcurl's own output, not the input: its printf, its growing buffer), with
# the absolute path of checkout ROOT. setup_c_coverage and, inside OSS-Fuzz's
# and ClusterFuzzLite's image, .clusterfuzzlite/build.sh add it to CFLAGS.
c_coverage_ignorelist_flag() { # c_coverage_ignorelist_flag ROOT
    # CFLAGS is split on whitespace by the build scripts that read it (the
    # cc crate), so a path with a space in it cannot be passed: then the
    # listed sources keep their coverage, and the build says so.
    case "$1" in
        *[[:space:]]*)
            echo "warning: the checkout's path has a space: fuzz/sancov-ignore.txt is not applied (its sources keep libFuzzer coverage)" >&2
            return 0
            ;;
    esac
    echo "-fsanitize-coverage-ignorelist=$1/fuzz/sancov-ignore.txt"
}

# Compiles the libFuzzer sources that libfuzzer-sys (the version in
# fuzz/Cargo.lock) bundles with clang++, without instrumentation, into
# DIR/<libfuzzer-sys-version>/libfuzzer.a (once), and prints that path.
build_plain_libfuzzer() { # build_plain_libfuzzer DIR
    local src out tmp
    # RUSTC_BOOTSTRAP=1: fuzz/Cargo.toml uses a nightly cargo feature.
    src=$(cd fuzz && RUSTC_BOOTSTRAP=1 cargo metadata --format-version 1 2>/dev/null \
        | grep -o '"manifest_path":"[^"]*/libfuzzer-sys-[^"/]*/Cargo.toml"' \
        | sed -n '1{s/^"manifest_path":"//; s|/Cargo.toml"$||; p;}') || return 1
    [ -n "$src" ] && [ -d "$src/libfuzzer" ] || return 1
    out="$1/$(basename "$src")"
    if [ ! -f "$out/libfuzzer.a" ]; then
        echo "building libFuzzer from $src with clang++ (uninstrumented, once)" >&2
        mkdir -p "$out"
        tmp=$(mktemp -d "$out/objects.XXXXXX")
        # shellcheck disable=SC2016  # $1 and $2 belong to the inner sh
        if ! find "$src/libfuzzer" -maxdepth 1 -name '*.cpp' -print0 \
            | xargs -0 -P "$(nproc 2>/dev/null || echo 1)" -I{} sh -c \
                'clang++ -std=c++17 -O2 -g -fPIC -fno-omit-frame-pointer -w -c "$1" -o "$2/$(basename "$1" .cpp).o"' \
                sh {} "$tmp" >&2 \
            || ! ar rcs "$tmp/libfuzzer.a" "$tmp"/*.o; then
            rm -rf "$tmp"
            return 1
        fi
        mv "$tmp/libfuzzer.a" "$out/libfuzzer.a"
        rm -rf "$tmp"
    fi
    echo "$out/libfuzzer.a"
}

# The fuzz targets come from the uridiff binary, `uridiff targets --format
# tsv` (the one list, uridiff::fuzzing::FuzzTarget), never from a list kept
# here. load_targets [BINARY] runs BINARY, or the debug build through `cargo
# run` (built first when needed), and sets:
#   FUZZ_TARGETS  every target's name, in the binary's order
#   TARGETS_TSV   the table itself, header included, for target_field
# Fails with a message when the binary cannot be built or run.
load_targets() {
    local bin="${1:-}"
    if [ -n "$bin" ]; then
        TARGETS_TSV=$("$bin" targets --format tsv) || {
            echo "cannot list the fuzz targets: '$bin targets --format tsv' failed" >&2
            return 1
        }
    else
        TARGETS_TSV=$(cargo run --quiet --locked --bin uridiff -- targets --format tsv) || {
            echo "cannot list the fuzz targets: 'cargo run -- targets --format tsv' failed" >&2
            return 1
        }
    fi
    FUZZ_TARGETS=()
    local name
    while IFS=$'\t' read -r name _; do
        FUZZ_TARGETS+=("$name")
    done < <(printf '%s\n' "$TARGETS_TSV" | tail -n +2)
    [ "${#FUZZ_TARGETS[@]}" -gt 0 ] || { echo "cannot list the fuzz targets: the list is empty" >&2; return 1; }
}

# Prints column COLUMN (a header name: format, report) of TARGET's row, after
# load_targets; fails when TARGET or COLUMN is unknown.
target_field() { # target_field TARGET COLUMN
    printf '%s\n' "$TARGETS_TSV" | awk -F '\t' -v target="$1" -v column="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == column) c = i; next }
        c && $1 == target { print $c; found = 1 }
        END { exit !found }'
}

# Is $1 a fuzz target (after load_targets)?
is_target() {
    local t
    for t in "${FUZZ_TARGETS[@]}"; do [ "$t" = "$1" ] && return 0; done
    return 1
}

# --- Fuzzers in the adapters' own runtimes (scripts/fuzz.sh --oracle) -------
# Each setup_* function makes one ready and returns 0, or returns 1 with
# RUNTIME_WHY saying what is missing (scripts/fuzz.sh prints it: a runtime
# that did not run is named, never skipped in silence). Call from the
# repository root.

# The cache root, as uridiff and scripts/setup-oracles.sh find it:
# $URIDIFF_CACHE, else $XDG_CACHE_HOME/uridiff, else $HOME/.cache/uridiff.
cache_root() {
    if [ -n "${URIDIFF_CACHE:-}" ]; then
        echo "$URIDIFF_CACHE"
    elif [ -n "${XDG_CACHE_HOME:-}" ]; then
        echo "$XDG_CACHE_HOME/uridiff"
    elif [ -n "${HOME:-}" ]; then
        echo "$HOME/.cache/uridiff"
    else
        return 1
    fi
}

# atheris (fuzz/python/requirements.txt, pinned wheels) in <cache
# root>/fuzz-python, installed with pip when missing or when the pins
# changed; urllib3 comes from the adapters' <cache root>/python
# (scripts/setup-oracles.sh). Sets ATHERIS_PYTHONPATH.
setup_atheris() {
    local root req sum stamp tmp
    RUNTIME_WHY=""
    command -v python3 >/dev/null 2>&1 || { RUNTIME_WHY="python3 not found (apt-get install python3 python3-pip)"; return 1; }
    root=$(cache_root) || { RUNTIME_WHY="no cache root (none of URIDIFF_CACHE, XDG_CACHE_HOME, HOME is set)"; return 1; }
    req=fuzz/python/requirements.txt
    sum=$(sha256sum "$req" | cut -c1-64)
    stamp="$root/fuzz-python/.uridiff-requirements.sha256"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
        echo "installing atheris into $root/fuzz-python (pip, pinned hashes: $req)" >&2
        mkdir -p "$root"
        tmp=$(mktemp -d "$root/fuzz-python.tmp.XXXXXX")
        if PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-input \
                --target "$tmp" --require-hashes --no-deps -r "$req" >&2; then
            echo "$sum" >"$tmp/.uridiff-requirements.sha256"
            rm -rf "$root/fuzz-python"
            mv "$tmp" "$root/fuzz-python"
        else
            rm -rf "$tmp"
            RUNTIME_WHY="pip install -r $req failed (atheris 3.0.0 is pinned as wheels for CPython 3.11-3.13 on x86_64 Linux; elsewhere it builds from source, which needs clang)"
            return 1
        fi
    fi
    ATHERIS_PYTHONPATH="$root/fuzz-python:$root/python"
    if ! PYTHONPATH="$ATHERIS_PYTHONPATH" python3 -c 'import atheris, urllib3' 2>/dev/null; then
        RUNTIME_WHY="atheris or urllib3 does not import with PYTHONPATH=$ATHERIS_PYTHONPATH (urllib3: bash scripts/setup-oracles.sh)"
        return 1
    fi
}

# go, as the fuzzer runs it: no GOFLAGS, go.work or proxy of the caller's
# (fuzz/go has no dependency to download).
go_fuzz_env() {
    env GOFLAGS= GOWORK=off GOPROXY=off GOTOOLCHAIN=local GO111MODULE=on go "$@"
}

# Go 1.18 or later (`go test -fuzz`), and fuzz/go/export built into
# fuzz/target/go-export. Sets GO_EXPORT (the converter) and GO_FUZZ_CACHE
# (where `go test -fuzz` keeps the inputs it finds).
setup_go_fuzz() {
    local version minor
    RUNTIME_WHY=""
    command -v go >/dev/null 2>&1 || { RUNTIME_WHY="go not found (apt-get install golang-go)"; return 1; }
    version=$(cd fuzz/go && go_fuzz_env env GOVERSION 2>/dev/null) || version=""
    minor=$(printf '%s' "$version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
    if [ -z "$minor" ] || [ "$minor" -lt 18 ]; then
        RUNTIME_WHY="go ${version:-of unknown version} has no native fuzzing (go test -fuzz needs Go 1.18 or later)"
        return 1
    fi
    GO_EXPORT="$(pwd -P)/fuzz/target/go-export"
    mkdir -p fuzz/target
    if ! (cd fuzz/go && go_fuzz_env build -o "$GO_EXPORT" ./export) >&2; then
        RUNTIME_WHY="go build of fuzz/go/export failed"
        return 1
    fi
    GO_FUZZ_CACHE="$(cd fuzz/go && go_fuzz_env env GOCACHE)/fuzz/uridifffuzz/FuzzParse"
}

# Stops process $1 and every process below it (children first, so none is
# left to its parent's end).
stop_tree() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        stop_tree "$child"
    done
    kill "$1" 2>/dev/null || true
}
