/*
 * Per-CPU areas that come and go with their CPU.
 *
 * Each online CPU has its own copy of the .data..percpu template; TPIDR_EL1
 * and __per_cpu_offset[cpu] hold the distance from the template to it.
 * The area is allocated before the CPU is started (where sleeping is
 * allowed) and its offset published before the CPU's online bit is set;
 * it is poisoned and freed only after the CPU's online bit was cleared
 * and a grace period has passed. So a reader that saw the bit set inside
 * rcu_read_lock() may use per_cpu_ptr(var, cpu) until rcu_read_unlock().
 *
 * Each allocation carries a tag, percpu_tag in the area: its CPU and a
 * generation no other allocation has. A reader that keeps the tag it saw
 * with its pointers learns that the area went, even when the same memory
 * came back as a new area, a copy of the same template (struct
 * percpu_claim in <kernel/percpu.h>).
 *
 * Bookkeeping that must outlive a CPU (run queues, RCU callbacks, timer
 * lists) lives in CPU arrays (<kernel/cpu_array.h>) instead.
 */
#define pr_fmt(fmt) "percpu: " fmt
#include <asm/barrier.h>
#include <asm/percpu.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <lib/errno.h>
#include <string.h>

extern char __per_cpu_start[], __per_cpu_end[];

DEFINE_PER_CPU(unsigned int, cpu_number);
DEFINE_PER_CPU(u64, percpu_tag);
static u64 percpu_generation; /* of the last area allocated */
_Static_assert(NR_CPUS < 0x6b6b, "a freed area's tag could name a CPU");
DEFINE_CPU_ARRAY(unsigned long, __per_cpu_offset);

#define POISON_FREE 0x6b /* freed per-CPU memory reads as 0x6b6b... */
/* Any use of a gone CPU's offset lands in unmapped, non-canonical space. */
#define POISON_OFFSET (0xdead000000000000UL - (unsigned long)__per_cpu_start)

static size_t area_size(void)
{
	return __per_cpu_end - __per_cpu_start;
}

void *percpu_area(unsigned int cpu)
{
	unsigned long off = READ_ONCE(__per_cpu_offset[cpu]);

	return off == POISON_OFFSET ? NULL : __per_cpu_start + off;
}

/* Before cpu starts: a fresh copy of the template, published. */
int percpu_area_alloc(unsigned int cpu)
{
	char *area = kmalloc(area_size());

	if (!area)
		return -ENOMEM;
	memcpy(area, __per_cpu_start, area_size());
	*(unsigned int *)(area + ((char *)&cpu_number - __per_cpu_start)) = cpu;
	*(u64 *)(area + ((char *)&percpu_tag - __per_cpu_start)) =
		PERCPU_TAG(cpu, __atomic_add_fetch(&percpu_generation, 1,
						   __ATOMIC_RELAXED));
	/* The area's contents before its offset: paired with the address
	 * dependency of per_cpu_ptr() readers (and the acquire of the
	 * online bit they tested). */
	smp_store_release(&__per_cpu_offset[cpu],
			  (unsigned long)(area - __per_cpu_start));
	return 0;
}

/* After cpu is off and a grace period has passed since its bit cleared. */
void percpu_area_free(unsigned int cpu)
{
	char *area = percpu_area(cpu);

	if (!area)
		return;
	WRITE_ONCE(__per_cpu_offset[cpu], POISON_OFFSET);
	memset(area, POISON_FREE, area_size());
	kfree(area);
}

void setup_per_cpu_areas(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		__per_cpu_offset[cpu] = POISON_OFFSET;
	if (percpu_area_alloc(0))
		panic("no memory for the boot CPU's per-CPU area");
	set_my_cpu_offset(__per_cpu_offset[0]);
	pr_info("%zu bytes per CPU, allocated as each CPU comes up\n",
		area_size());
}
