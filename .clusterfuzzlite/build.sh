#!/bin/bash
# Builds uridiff's fuzz targets for ClusterFuzzLite and OSS-Fuzz, and runs the
# same way outside Docker (scripts/oss-fuzz-local.sh does that, and checks the
# result). Rust integration:
# https://google.github.io/clusterfuzzlite/build-integration/rust-lang/
# https://google.github.io/oss-fuzz/getting-started/new-project-guide/rust-lang/
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: build.sh [--help]

Builds every cargo-fuzz target of the checkout at $SRC/uridiff (the list
comes from `cargo fuzz list`) and writes into $OUT, for each TARGET:
  TARGET                   the libFuzzer binary
  TARGET_seed_corpus.zip   the saved corpus corpus/TARGET/ (skipped when empty)
  TARGET.dict              fuzz/uri.dict
  TARGET.options           [libfuzzer] dict, max_len = 4096, timeout = 10, and
                           the target's own settings (scripts/lib.sh,
                           target_libfuzzer_options)
and, where the image has their engines (OSS-Fuzz's compile_python_fuzzer
with atheris, compile_native_go_fuzzer), fuzz_urllib (atheris, fuzz/python)
and go_url_parse (Go, fuzz/go) with the differential seeds: untested here.

Environment:
  SRC, OUT, WORK   required; $SRC/uridiff is the checkout (may be a symlink)
  SANITIZER        set by OSS-Fuzz and ClusterFuzzLite: address, or coverage
                   (the base image's cargo wrapper makes the coverage build);
                   `cargo fuzz build -O --debug-assertions
                   --no-trace-compares` (the instrumentation scripts/fuzz.sh
                   builds with, scripts/lib.sh's FUZZ_INSTRUMENT: comparison
                   tracing only in the parsers, which fuzz/Cargo.toml's
                   per-package rustflags turn back on behind a gate that a
                   run with -use_value_profile=1 opens: crates/sancov-wide)
                   with the image's
                   nightly Rust, RUSTFLAGS, CC, CXX, CFLAGS and CXXFLAGS as the
                   image sets them (for address, CFLAGS and CXXFLAGS also
                   leave fuzz/sancov-ignore.txt's sources without libFuzzer
                   coverage, as scripts/fuzz.sh's build does).
                   Unset (outside Docker): nightly with AddressSanitizer when a
                   nightly toolchain is installed, else stable with `-s none`
                   (scripts/lib.sh); the C/C++ oracles are built by clang with
                   libFuzzer coverage when clang is installed (not installed
                   by this script). CC/CXX/CFLAGS/CXXFLAGS set by the caller
                   are passed through.
Exit status: 0 built, 1 build failed, 2 usage error.
USAGE
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) echo "build.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac

for var in SRC OUT WORK; do
    if [ -z "${!var:-}" ]; then
        echo "build.sh: $var is not set (SRC holds the checkout at \$SRC/uridiff; OUT receives the build; WORK is scratch space)" >&2
        exit 2
    fi
done
project="$SRC/uridiff"
if [ ! -f "$project/fuzz/Cargo.toml" ]; then
    echo "build.sh: no uridiff checkout at $project (missing fuzz/Cargo.toml)" >&2
    exit 2
fi
mkdir -p "$OUT" "$WORK"
cd "$project"
# Functions only (the toolchain choice outside Docker, each target's libFuzzer
# settings for its .options file).
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

target_dir_args=()
if [ -n "${SANITIZER:-}" ]; then
    # Inside OSS-Fuzz's or ClusterFuzzLite's base-builder-rust image. cargo-fuzz
    # defaults to AddressSanitizer; with SANITIZER=coverage the image's `cargo`
    # wrapper replaces `cargo fuzz build` by an instrumented `cargo build` and
    # leaves the binaries at the same place.
    case "$SANITIZER" in
        # The instrumentation scripts/fuzz.sh's build asks for
        # (scripts/lib.sh, FUZZ_INSTRUMENT: comparison tracing only in the
        # parsers). The coverage build's wrapper ignores these arguments.
        address|coverage) build=(cargo fuzz build -O --debug-assertions "${FUZZ_INSTRUMENT[@]}") ;;
        *)
            echo "build.sh: SANITIZER=$SANITIZER is not supported for these Rust targets (address, coverage; see .clusterfuzzlite/project.yaml)" >&2
            exit 1
            ;;
    esac
    # OSS-Fuzz compiles C++ against libc++ (-stdlib=libc++ in CXXFLAGS); the
    # cc crate links the C++ oracle (Ada) against libstdc++ unless CXXSTDLIB
    # says otherwise.
    if [[ "${CXXFLAGS:-}" == *-stdlib=libc++* ]] && [ -z "${CXXSTDLIB:-}" ]; then
        export CXXSTDLIB=c++
    fi
    # The C/C++ sources fuzz/sancov-ignore.txt lists get no libFuzzer
    # coverage, as in scripts/fuzz.sh's build (scripts/lib.sh,
    # setup_c_coverage); the coverage build measures every source.
    if [ "$SANITIZER" = address ]; then
        ignore=$(c_coverage_ignorelist_flag "$(pwd -P)")
        export CFLAGS="${CFLAGS:-} $ignore" CXXFLAGS="${CXXFLAGS:-} $ignore"
    fi
    how="SANITIZER=$SANITIZER, the image's toolchain"
    # The wrapper intercepts every `cargo fuzz ...` in a coverage build, `list`
    # included; cargo-fuzz's own binary answers the same question directly.
    list=(cargo fuzz list)
    if command -v cargo-fuzz >/dev/null 2>&1; then list=(cargo-fuzz list); fi
else
    ensure_cargo_fuzz
    choose_toolchain
    FUZZ_C_INSTALL=0 setup_c_coverage
    build=(env "${FUZZ_C_ENV[@]}" "${FUZZ_CMD[@]}" build -O --debug-assertions "${FUZZ_SAN[@]}" "${FUZZ_TARGET_DIR[@]}")
    target_dir_args=("${FUZZ_TARGET_DIR[@]}")
    how="$FUZZ_DESC; $FUZZ_C_DESC"
    list=(cargo fuzz list)
fi

targets=()
while IFS= read -r t; do
    [ -n "$t" ] && targets+=("$t")
done < <("${list[@]}")
if [ "${#targets[@]}" -eq 0 ]; then
    echo "build.sh: \`${list[*]}\` found no fuzz targets in $project" >&2
    exit 1
fi

echo "== building ${#targets[@]} fuzz targets (${targets[*]}) with $how" >&2
echo "   ${build[*]}" >&2
"${build[@]}"

# Where cargo-fuzz leaves the binaries: <target dir>/<host triple>/release/.
if [ "${#target_dir_args[@]}" -eq 2 ]; then
    target_dir="${target_dir_args[1]}"
elif [ -n "${CARGO_TARGET_DIR:-}" ]; then
    case "$CARGO_TARGET_DIR" in
        /*) target_dir="$CARGO_TARGET_DIR" ;;
        *) target_dir="$project/fuzz/$CARGO_TARGET_DIR" ;;
    esac
else
    target_dir="$project/fuzz/target"
fi
triple=$(rustc -vV | sed -n 's/^host: //p')
bin_dir="$target_dir/$triple/release"

# zip when installed, else Python's zipfile: a flat archive of the corpus files.
zip_corpus() { # zip_corpus ARCHIVE DIR
    rm -f "$1"
    if command -v zip >/dev/null 2>&1; then
        find "$2" -type f -print0 | xargs -0 zip -q -j "$1"
    else
        python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
archive, root = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            z.write(os.path.join(dirpath, name), arcname=name)
PY
    fi
}

for t in "${targets[@]}"; do
    if [ ! -x "$bin_dir/$t" ]; then
        echo "build.sh: $t was not built ($bin_dir/$t missing)" >&2
        exit 1
    fi
    cp "$bin_dir/$t" "$OUT/$t"
    if [ -n "$(find "corpus/$t" -type f -print -quit 2>/dev/null)" ]; then
        zip_corpus "$OUT/${t}_seed_corpus.zip" "corpus/$t"
        seeds="$(find "corpus/$t" -type f | wc -l) seeds"
    else
        rm -f "$OUT/${t}_seed_corpus.zip"
        seeds="no seed corpus (corpus/$t is empty or missing)"
        echo "build.sh: $t: corpus/$t is empty or missing: no ${t}_seed_corpus.zip" >&2
    fi
    cp fuzz/uri.dict "$OUT/$t.dict"
    {
        printf '[libfuzzer]\ndict = %s.dict\nmax_len = 4096\ntimeout = 10\n' "$t"
        target_libfuzzer_options "$t"
    } > "$OUT/$t.options"
    echo "== $OUT/$t: binary, $seeds, $t.dict, $t.options" >&2
done

# The fuzzers in the adapters' own runtimes (fuzz/python, fuzz/go), where the
# image has their engines: OSS-Fuzz's compile_python_fuzzer (atheris and
# PyInstaller, in base-builder-python) and compile_native_go_fuzzer (Go and
# go-118-fuzz-build, in base-builder-go). The Rust base image of
# .clusterfuzzlite/Dockerfile has neither, so there these lines say so and
# build nothing; a project whose image has them (a second ClusterFuzzLite
# project with language python or go, say) builds them from this script.
# UNTESTED: no OSS-Fuzz image can run on the machines this was written on.
# Both read the `differential` corpus as seeds, like the Rust target; what
# they find is judged by replaying it through uridiff (`uridiff report
# --oracle all`, or `uridiff corpus follow`).
runtime_seeds() { # runtime_seeds NAME: the differential seeds as NAME's seed corpus
    if [ -n "$(find corpus/differential -type f -print -quit 2>/dev/null)" ]; then
        zip_corpus "$OUT/${1}_seed_corpus.zip" corpus/differential
    fi
    cp fuzz/uri.dict "$OUT/$1.dict"
    printf '[libfuzzer]\ndict = %s.dict\nmax_len = 4096\ntimeout = 10\n' "$1" > "$OUT/$1.options"
}
if command -v compile_python_fuzzer >/dev/null 2>&1 && python3 -c 'import atheris' 2>/dev/null; then
    # urllib3 and idna at the adapters' pins (fuzz_urllib imports them).
    python3 -m pip install --require-hashes --no-deps -r adapters/requirements.txt
    compile_python_fuzzer fuzz/python/fuzz_urllib.py
    runtime_seeds fuzz_urllib
    echo "== $OUT/fuzz_urllib: atheris over urllib.parse and urllib3" >&2
else
    echo "build.sh: no compile_python_fuzzer with atheris in this image: fuzz/python/fuzz_urllib.py not built" >&2
fi
if command -v compile_native_go_fuzzer >/dev/null 2>&1; then
    (cd fuzz/go && compile_native_go_fuzzer uridifffuzz FuzzParse go_url_parse)
    runtime_seeds go_url_parse
    echo "== $OUT/go_url_parse: go test -fuzz's FuzzParse over net/url, as a libFuzzer binary" >&2
else
    echo "build.sh: no compile_native_go_fuzzer in this image: fuzz/go FuzzParse not built" >&2
fi
