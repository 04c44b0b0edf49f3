/*
 * Per-CPU variables. DEFINE_PER_CPU puts a variable in .data..percpu, the
 * template; each online CPU gets its own copy of the template (its per-CPU
 * area) at __per_cpu_offset[cpu] from it, and TPIDR_EL1 holds this CPU's
 * offset. Until the boot CPU's area is set up its offset is 0: it uses
 * the template itself. Areas are allocated and freed with CPU hotplug:
 * another CPU's area may only be used inside rcu_read_lock() after seeing
 * its online bit set (see include/kernel/cpu.h).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <asm/sysreg.h>
#include <lib/cpumask.h>
#include <lib/kernel.h>

#define DEFINE_PER_CPU(type, name) \
	__section(".data..percpu") __typeof__(type) name
#define DECLARE_PER_CPU(type, name) \
	extern __section(".data..percpu") __typeof__(type) name

extern unsigned long __per_cpu_offset[NR_CPUS];

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

#define SHIFT_PERCPU_PTR(ptr, off) \
	((__typeof__(ptr))((unsigned long)(ptr) + (off)))
#define per_cpu_ptr(ptr, cpu) \
	SHIFT_PERCPU_PTR(ptr, READ_ONCE(__per_cpu_offset[cpu]))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))
#define this_cpu_ptr(ptr) SHIFT_PERCPU_PTR(ptr, __my_cpu_offset())
#define this_cpu_read(var) READ_ONCE(*this_cpu_ptr(&(var)))
#define this_cpu_write(var, v) WRITE_ONCE(*this_cpu_ptr(&(var)), v)

DECLARE_PER_CPU(unsigned int, cpu_number);

/* Per-CPU areas come and go with their CPU (kernel/percpu.c). */
int percpu_area_alloc(unsigned int cpu);
void percpu_area_free(unsigned int cpu);
void *percpu_area(unsigned int cpu);
#define smp_processor_id() this_cpu_read(cpu_number)

#endif
