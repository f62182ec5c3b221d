# Shared by the fuzzing scripts: sourced, not run.
# Chooses the toolchain and sanitizer, and installs cargo-fuzz when missing.

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

# Sets FUZZ_CMD (an array: the cargo fuzz command) and FUZZ_SAN (the sanitizer
# flags): nightly with AddressSanitizer when a nightly toolchain is installed,
# else stable with `-s none`. FUZZ_SANITIZER=none forces no sanitizer.
choose_toolchain() {
    if [ "${FUZZ_SANITIZER:-}" != "none" ] && has_nightly; then
        FUZZ_CMD=(cargo +nightly fuzz)
        FUZZ_SAN=(-s address)
        FUZZ_DESC="nightly, AddressSanitizer"
    else
        FUZZ_CMD=(cargo fuzz)
        FUZZ_SAN=(-s none)
        FUZZ_DESC="stable, no sanitizer"
    fi
}

FUZZ_TARGETS=(parse resolve differential structured)

is_target() {
    local t
    for t in "${FUZZ_TARGETS[@]}"; do [ "$t" = "$1" ] && return 0; done
    return 1
}
