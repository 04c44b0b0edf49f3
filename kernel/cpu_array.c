/*
 * CPU arrays (include/kernel/cpu_array.h): the .cpu_arrays section lists
 * them; cpu_arrays_init() gives each nr_cpu_ids zeroed entries.
 */
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>

extern const struct cpu_array __cpu_arrays_start[], __cpu_arrays_end[];

static size_t total_bytes;

/* Called once by the boot CPU, alone, after smp_setup_cpu_maps(). */
void cpu_arrays_init(void)
{
	const struct cpu_array *a;
	void *p;

	for (a = __cpu_arrays_start; a < __cpu_arrays_end; a++) {
		p = kcalloc(nr_cpu_ids, a->size);
		if (!p)
			panic("no memory for %s[%u]", a->name, nr_cpu_ids);
		/* kmalloc's classes are powers of two, naturally aligned. */
		BUG_ON((unsigned long)p % a->align);
		*a->base = p;
		total_bytes += nr_cpu_ids * a->size;
	}
}

size_t cpu_arrays_bytes(void)
{
	return total_bytes;
}
