/*
 * Stand-ins for libFuzzer's comparison hooks, for this crate's own tests
 * (build.rs links them, and src/hooks.c with them, into every build but a
 * fuzz build, where `--wrap` binds the `__real_` names to libFuzzer's
 * hooks). Each counts the calls src/hooks.c passes on to it, so that a test
 * can tell which comparisons reach libFuzzer.
 */
#include <stdint.h>

static unsigned long passed_on[9];

#define STUB(index, name, type)                                        \
    void __real_##name(type arg1, type arg2) {                         \
        (void)arg1;                                                    \
        (void)arg2;                                                    \
        __atomic_fetch_add(&passed_on[index], 1, __ATOMIC_RELAXED);    \
    }

STUB(0, __sanitizer_cov_trace_cmp1, uint8_t)
STUB(1, __sanitizer_cov_trace_const_cmp1, uint8_t)
STUB(2, __sanitizer_cov_trace_cmp2, uint16_t)
STUB(3, __sanitizer_cov_trace_const_cmp2, uint16_t)
STUB(4, __sanitizer_cov_trace_cmp4, uint32_t)
STUB(5, __sanitizer_cov_trace_const_cmp4, uint32_t)
STUB(6, __sanitizer_cov_trace_cmp8, uint64_t)
STUB(7, __sanitizer_cov_trace_const_cmp8, uint64_t)

void __real___sanitizer_cov_trace_pc_indir(uintptr_t callee) {
    (void)callee;
    __atomic_fetch_add(&passed_on[8], 1, __ATOMIC_RELAXED);
}

/* How many calls hook `index` (0 to 8, in the order above) passed on. */
unsigned long sancov_wide_test_passed_on(int index) {
    return index >= 0 && index < 9 ? __atomic_load_n(&passed_on[index], __ATOMIC_RELAXED) : 0;
}

/*
 * A stand-in for the gate that gated comparison tracing puts in each
 * instrumented module (section __sancov_gate), so that a test can see
 * sancov_wide_gate reach it.
 */
__attribute__((section("__sancov_gate"), used)) static uint64_t test_gate;

uint64_t sancov_wide_test_gate(void) {
    return __atomic_load_n(&test_gate, __ATOMIC_RELAXED);
}
