/*
 * Per-CPU areas: one copy of the .data..percpu template for every
 * possible CPU, made once the page allocator is up. __per_cpu_offset[cpu]
 * is the distance from the template to cpu's copy; each CPU loads its own
 * into TPIDR_EL1 before it touches per-CPU data.
 */
#define pr_fmt(fmt) "percpu: " fmt
#include <asm/sysreg.h>
#include <kernel/cpu.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <string.h>

extern char __per_cpu_start[], __per_cpu_end[];

DEFINE_PER_CPU(unsigned int, cpu_number);
unsigned long __per_cpu_offset[NR_CPUS];

void setup_per_cpu_areas(void)
{
	size_t size = __per_cpu_end - __per_cpu_start;
	unsigned int cpu;

	for_each_possible_cpu (cpu) {
		char *area = kmalloc(size);

		if (!area)
			panic("no memory for CPU%u's per-CPU area", cpu);
		memcpy(area, __per_cpu_start, size);
		__per_cpu_offset[cpu] = area - __per_cpu_start;
		per_cpu(cpu_number, cpu) = cpu;
	}
	write_sysreg(__per_cpu_offset[smp_processor_id()], tpidr_el1);
	pr_info("%zu bytes per CPU for %u CPUs\n", size, nr_cpu_ids);
}
