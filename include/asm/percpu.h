/*
 * Where this CPU's per-CPU area is: TPIDR_EL1 holds its offset from the
 * template (kernel/mm/percpu.c), set by each CPU as it comes up.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#include <asm/sysreg.h>

static inline void set_my_cpu_offset(unsigned long off)
{
	write_sysreg(off, tpidr_el1);
}

static inline unsigned long __my_cpu_offset(void)
{
	unsigned long off;

	/*
	 * Not volatile, so the compiler may reuse the value; the fake read
	 * of the stack makes any compiler barrier (preempt_enable(),
	 * cpu_relax(), a lock) force a fresh read, as in Linux: the offset
	 * changes when the thread migrates.
	 */
	__asm__("mrs %0, tpidr_el1"
		: "=r"(off)
		: "Q"(*(const unsigned long *)__builtin_frame_address(0)));
	return off;
}

#endif
