/*
 * The one- and two-byte comparison hooks the fuzz targets are linked to
 * (fuzz/build.rs: `--wrap`), in place of libFuzzer's own; src/lib.rs says
 * why. They return at once unless sancov_wide_forward(1) was called, and
 * then hand the operands to libFuzzer's hook (`__real_` is what `--wrap`
 * binds to the original symbol) as their last act, which the compiler
 * makes a jump (a sibling call, at any optimisation level above 0), so that
 * libFuzzer still sees the instrumented comparison as its caller (its
 * value profile is keyed by that address).
 *
 * In C rather than Rust so that none of it is instrumented whatever the
 * build's flags (CFLAGS carry -fsanitize=fuzzer-no-link in a campaign):
 * a hook that traced its own comparison would call itself, and coverage or
 * indirect-call tracing in a hook called on every byte compared would cost
 * more than the hook saves.
 */
#include <stdint.h>

#if defined(__clang__)
#define UNINSTRUMENTED __attribute__((no_sanitize("coverage", "address")))
#elif defined(__GNUC__)
#define UNINSTRUMENTED __attribute__((no_sanitize_coverage, no_sanitize_address))
#else
#define UNINSTRUMENTED
#endif

void __real___sanitizer_cov_trace_cmp1(uint8_t arg1, uint8_t arg2);
void __real___sanitizer_cov_trace_const_cmp1(uint8_t arg1, uint8_t arg2);
void __real___sanitizer_cov_trace_cmp2(uint16_t arg1, uint16_t arg2);
void __real___sanitizer_cov_trace_const_cmp2(uint16_t arg1, uint16_t arg2);

typedef void (*hook8)(uint8_t, uint8_t);
typedef void (*hook16)(uint16_t, uint16_t);

UNINSTRUMENTED static void ignore8(uint8_t arg1, uint8_t arg2) {
    (void)arg1;
    (void)arg2;
}

UNINSTRUMENTED static void ignore16(uint16_t arg1, uint16_t arg2) {
    (void)arg1;
    (void)arg2;
}

/*
 * Where each hook goes: a pointer rather than a flag, so that a hook is one
 * indirect jump (no test, no branch) on every comparison.
 */
static hook8 cmp1 = ignore8;
static hook8 const_cmp1 = ignore8;
static hook16 cmp2 = ignore16;
static hook16 const_cmp2 = ignore16;

UNINSTRUMENTED void sancov_wide_forward(int on) {
    __atomic_store_n(&cmp1, on ? __real___sanitizer_cov_trace_cmp1 : ignore8, __ATOMIC_RELAXED);
    __atomic_store_n(&const_cmp1, on ? __real___sanitizer_cov_trace_const_cmp1 : ignore8,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&cmp2, on ? __real___sanitizer_cov_trace_cmp2 : ignore16, __ATOMIC_RELAXED);
    __atomic_store_n(&const_cmp2, on ? __real___sanitizer_cov_trace_const_cmp2 : ignore16,
                     __ATOMIC_RELAXED);
}

#define HOOK(name, type, target)                                  \
    UNINSTRUMENTED void __wrap_##name(type arg1, type arg2) {     \
        __atomic_load_n(&target, __ATOMIC_RELAXED)(arg1, arg2);   \
    }

HOOK(__sanitizer_cov_trace_cmp1, uint8_t, cmp1)
HOOK(__sanitizer_cov_trace_const_cmp1, uint8_t, const_cmp1)
HOOK(__sanitizer_cov_trace_cmp2, uint16_t, cmp2)
HOOK(__sanitizer_cov_trace_const_cmp2, uint16_t, const_cmp2)
