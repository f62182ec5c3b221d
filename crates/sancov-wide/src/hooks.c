/*
 * The comparison hooks the fuzz targets are linked to (fuzz/build.rs:
 * `--wrap`), in place of libFuzzer's own; src/lib.rs says why.
 *
 * The one- and two-byte hooks and the indirect-call hook return at once
 * unless sancov_wide_forward(1) was called. The four- and eight-byte hooks
 * return at once on operands that both fit in one byte and, after
 * sancov_wide_text(1), on operands neither of which could be a word of the
 * target's text input, unless sancov_wide_forward(1) was called. Otherwise
 * each hands its arguments to libFuzzer's hook (`__real_` is what
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

void __real___sanitizer_cov_trace_pc_indir(uintptr_t callee);

typedef void (*hook8)(uint8_t, uint8_t);
typedef void (*hook16)(uint16_t, uint16_t);
typedef void (*hookpc)(uintptr_t);

UNINSTRUMENTED static void ignore8(uint8_t arg1, uint8_t arg2) {
    (void)arg1;
    (void)arg2;
}

UNINSTRUMENTED static void ignore16(uint16_t arg1, uint16_t arg2) {
    (void)arg1;
    (void)arg2;
}

UNINSTRUMENTED static void ignore_pc(uintptr_t callee) {
    (void)callee;
}

/*
 * Where each hook goes: a pointer rather than a flag, so that a hook is one
 * indirect jump (no test, no branch) on every comparison.
 */
static hook8 cmp1 = ignore8;
static hook8 const_cmp1 = ignore8;
static hook16 cmp2 = ignore16;
static hook16 const_cmp2 = ignore16;
/*
 * An indirect call's caller and callee (`-sanitizer-coverage-level=4`, which
 * cargo-fuzz asks for, and clang's `-fsanitize=fuzzer-no-link`) go only into
 * libFuzzer's value profile too (`TracePC::HandleCallerCallee`), by a
 * division modulo a prime on every call through a pointer.
 */
static hookpc pc_indir = ignore_pc;
/* Whether the four- and eight-byte hooks hand libFuzzer every comparison. */
static int forward_all;
/* Whether they pass on only comparisons with an operand that could be text. */
static int text_only;

UNINSTRUMENTED void sancov_wide_forward(int on) {
    __atomic_store_n(&cmp1, on ? __real___sanitizer_cov_trace_cmp1 : ignore8, __ATOMIC_RELAXED);
    __atomic_store_n(&const_cmp1, on ? __real___sanitizer_cov_trace_const_cmp1 : ignore8,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&cmp2, on ? __real___sanitizer_cov_trace_cmp2 : ignore16, __ATOMIC_RELAXED);
    __atomic_store_n(&const_cmp2, on ? __real___sanitizer_cov_trace_const_cmp2 : ignore16,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&pc_indir, on ? __real___sanitizer_cov_trace_pc_indir : ignore_pc,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&forward_all, on ? 1 : 0, __ATOMIC_RELAXED);
}

/*
 * The gates of gated comparison tracing (fuzz/Cargo.toml gives the Rust
 * parsers -sanitizer-coverage-gated-trace-callbacks): the instrumented code
 * calls a comparison hook only while its gate, a word in the section
 * __sancov_gate (one per module, or one for all once the linker has merged
 * them), is not 0, and otherwise pays a load and a branch instead of a
 * call. The linker's bounds of the section are weak: a build with no gated
 * code has none, and the loop below then stores nothing.
 */
extern uint64_t __start___sancov_gate[] __attribute__((weak));
extern uint64_t __stop___sancov_gate[] __attribute__((weak));

UNINSTRUMENTED void sancov_wide_gate(int on) {
    for (uint64_t *gate = __start___sancov_gate; gate && gate < __stop___sancov_gate; gate++)
        __atomic_store_n(gate, on ? 1 : 0, __ATOMIC_RELAXED);
}

UNINSTRUMENTED void sancov_wide_text(int on) {
    __atomic_store_n(&text_only, on ? 1 : 0, __ATOMIC_RELAXED);
}

/*
 * Could `word` (eight bytes; a four-byte operand is passed with its high
 * half filled with 'a') be a run of UTF-8 text in memory? Every byte must be
 * one that UTF-8 uses (not 0xC0, 0xC1 or 0xF5 to 0xFF: RFC 3629 section 4)
 * and not NUL: zero bytes are what the high bytes of an integer are (a
 * length, an index, a widened character). Either byte order gives the same
 * answer, and libFuzzer tries both. Each test covers all eight bytes at
 * once (a byte's top bit is set in the result where the byte is of the
 * kind tested): this runs on most wide comparisons of a text target.
 */
#define ONES UINT64_C(0x0101010101010101)
#define HIGH (ONES * 0x80)
UNINSTRUMENTED static int text_word(uint64_t word) {
    /* A zero byte (exact as to whether there is one): tested first, being
     * what most integers have. */
    if ((word - ONES) & ~word & HIGH)
        return 0;
    /* A byte of 0xF5 or more: its low seven bits plus 0x0B carry into the
     * eighth (never beyond: at most 0x7F + 0x0B), and its top bit is set. */
    uint64_t above = ((word & ~HIGH) + ONES * 0x0b) & word & HIGH;
    /* 0xC0 or 0xC1: a zero byte once the low bit is cleared and 0xC0 taken. */
    uint64_t c0 = (word & (ONES * 0xfe)) ^ (ONES * 0xc0);
    uint64_t overlong = (c0 - ONES) & ~c0 & HIGH;
    return (above | overlong) == 0;
}

/* An operand of a four- or eight-byte hook as text_word reads it. */
#define WORD(type, arg) \
    (sizeof(type) == 4 ? (uint64_t)(arg) | UINT64_C(0x6161616100000000) : (uint64_t)(arg))

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
 *
 * libFuzzer uses such a word only by finding one operand's bytes in the
 * input and writing the other's in their place (`MakeDictionaryEntryFromCMP`).
 * For a target whose input is UTF-8 text (sancov_wide_text), a comparison
 * neither of whose operands could be four or eight bytes of text therefore
 * leads nowhere: a character widened to four bytes (U+0142 is 42 01 00 00
 * in memory and C5 82 in the input), a sentinel (0x110000 for "no more
 * characters", all ones for "no index"), a length. Over real URLs that is
 * all but one of the wide comparisons the rule above leaves (BENCHMARKS.md,
 * "twelfth round").
 */

#define WIDE_HOOK(name, type)                                                   \
    void __real_##name(type arg1, type arg2);                                   \
    UNINSTRUMENTED void __wrap_##name(type arg1, type arg2) {                   \
        if (!__atomic_load_n(&forward_all, __ATOMIC_RELAXED)) {                 \
            if (((arg1 | arg2) >> 8) == 0)                                      \
                return;                                                         \
            if (__atomic_load_n(&text_only, __ATOMIC_RELAXED) &&                \
                !text_word(WORD(type, arg1)) && !text_word(WORD(type, arg2))) \
                return;                                                         \
        }                                                                       \
        __real_##name(arg1, arg2);                                              \
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

UNINSTRUMENTED void __wrap___sanitizer_cov_trace_pc_indir(uintptr_t callee) {
    __atomic_load_n(&pc_indir, __ATOMIC_RELAXED)(callee);
}
