/* Crashes on purpose, for tests (kernel/tests/lkdtm.c). */
#ifndef KERNEL_LKDTM_H
#define KERNEL_LKDTM_H

/*
 * lkdtm=WHAT: run the crash WHAT (rodata, text, exec, null, undef, stack,
 * overflow, rcu_yield, panic, hang, stall, percpu_preemptible). Returns
 * only if the guard that should have stopped it did not, saying so. Or
 * trip a detector (ubsan_shift, kasan_uaf, kasan_oob, kasan_percpu_uaf,
 * kasan_stack_uaf; lockdep's ab_ba, irq_inversion, wait_under_lock,
 * sleep_in_atomic, rcu_deref, percpu_remote; KCSAN's data_race): it
 * returns, saying what its detector reported, if it is built.
 */
void lkdtm_run(const char *what);
/* At boot: lkdtm=, if given. A build without tests (TESTS=0) has none. */
#ifdef CONFIG_TESTS
void lkdtm_boot(void);
#else
static inline void lkdtm_boot(void)
{
}
#endif

#endif
