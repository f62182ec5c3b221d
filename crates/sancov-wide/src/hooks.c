/*
 * The comparison hooks the fuzz targets are linked to (fuzz/build.rs:
 * `--wrap`), in place of libFuzzer's own; src/lib.rs says why.
 *
 * The one- and two-byte hooks return at once unless sancov_wide_forward(1)
 * was called. The four- and eight-byte hooks return at once on operands
 * that both fit in one byte, unless sancov_wide_forward(1) was called.
 * Otherwise each hands the operands to libFuzzer's hook (`__real_` is what
 * `--wrap` binds to the original symbol) as its last act, which the
 * compiler makes a jump (a sibling call, at any optimisation level above
 * 0), so that libFuzzer still sees the instrumented comparison as its
 * caller (its value profile is keyed by that address).
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
/* Whether the four- and eight-byte hooks hand libFuzzer every comparison. */
static int forward_all;

UNINSTRUMENTED void sancov_wide_forward(int on) {
    __atomic_store_n(&cmp1, on ? __real___sanitizer_cov_trace_cmp1 : ignore8, __ATOMIC_RELAXED);
    __atomic_store_n(&const_cmp1, on ? __real___sanitizer_cov_trace_const_cmp1 : ignore8,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&cmp2, on ? __real___sanitizer_cov_trace_cmp2 : ignore16, __ATOMIC_RELAXED);
    __atomic_store_n(&const_cmp2, on ? __real___sanitizer_cov_trace_const_cmp2 : ignore16,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&forward_all, on ? 1 : 0, __ATOMIC_RELAXED);
}

/*
 * The four- and eight-byte hooks: libFuzzer records their operands in its
 * tables of recent comparisons, from which the mutator takes words to put
 * into an input (`Mutate_AddWordFromTORC`), and it records a one-byte
 * comparison in none (`TracePC::HandleCmp`). Operands that both fit in one
 * byte (a byte or a character widened to compare, an index or a length
 * against a small bound: most of what parsers compare) make words that are
 * that byte and zeros, and they take the slots, 32 per table chosen by the
 * operands' XOR, of the comparisons whose words carry text (four bytes of
 * the input against `http`). Those go to libFuzzer, and all of them do when
 * its value profile is on.
 */

#define WIDE_HOOK(name, type)                                                 \
    void __real_##name(type arg1, type arg2);                                 \
    UNINSTRUMENTED void __wrap_##name(type arg1, type arg2) {                 \
        if (((arg1 | arg2) >> 8) == 0 && !__atomic_load_n(&forward_all, __ATOMIC_RELAXED)) \
            return;                                                           \
        __real_##name(arg1, arg2);                                            \
    }

WIDE_HOOK(__sanitizer_cov_trace_cmp4, uint32_t)
WIDE_HOOK(__sanitizer_cov_trace_const_cmp4, uint32_t)
WIDE_HOOK(__sanitizer_cov_trace_cmp8, uint64_t)
WIDE_HOOK(__sanitizer_cov_trace_const_cmp8, uint64_t)

#define HOOK(name, type, target)                                  \
    UNINSTRUMENTED void __wrap_##name(type arg1, type arg2) {     \
        __atomic_load_n(&target, __ATOMIC_RELAXED)(arg1, arg2);   \
    }

HOOK(__sanitizer_cov_trace_cmp1, uint8_t, cmp1)
HOOK(__sanitizer_cov_trace_const_cmp1, uint8_t, const_cmp1)
HOOK(__sanitizer_cov_trace_cmp2, uint16_t, cmp2)
HOOK(__sanitizer_cov_trace_const_cmp2, uint16_t, const_cmp2)
