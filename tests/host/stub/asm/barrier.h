/*
 * Host stand-in for include/asm/barrier.h, for host tests of kernel
 * headers: the same C11 atomics where the kernel uses them (so
 * ThreadSanitizer sees each acquire and release), a pause for cpu_relax().
 */
#ifndef ASM_BARRIER_H
#define ASM_BARRIER_H

#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

#define cpu_relax() __builtin_ia32_pause()

#endif
