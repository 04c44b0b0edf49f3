/* Memory barriers for AArch64 (the Linux names, the Arm ARM meanings). */
#ifndef ASM_BARRIER_H
#define ASM_BARRIER_H

#define dsb(opt) __asm__ __volatile__("dsb " #opt ::: "memory")
#define dmb(opt) __asm__ __volatile__("dmb " #opt ::: "memory")

#define mb() dsb(sy)
#define rmb() dsb(ld)
#define wmb() dsb(st)
#define smp_mb() dmb(ish)
#define smp_rmb() dmb(ishld)
#define smp_wmb() dmb(ishst)

#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

#define wfi() __asm__ __volatile__("wfi" ::: "memory")
#define wfe() __asm__ __volatile__("wfe" ::: "memory")
#define sev() __asm__ __volatile__("sev" ::: "memory")
#define cpu_relax() __asm__ __volatile__("yield" ::: "memory")

#endif
