/*
 * CPU arrays: one entry per possible CPU, allocated at boot once the
 * device tree has said how many CPUs there are (nr_cpu_ids), instead of
 * NR_CPUS entries in the image. A build for 4096 CPUs then costs a board
 * with 4 CPUs 4 entries, not 4096 (docs/scale.md).
 *
 *	static DEFINE_CPU_ARRAY(struct tick_cpu, tick_cpus);
 *	...
 *	tick_cpus[cpu].count++;
 *
 * The array is a pointer, so x[cpu] costs one load more than a static
 * array. cpu_arrays_init() allocates every array, zeroed, right after
 * smp_setup_cpu_maps(): code that runs before it (board and memory setup)
 * must not touch one, and the pointer is NULL until then. Valid indices
 * are 0 .. nr_cpu_ids - 1: a bounds check against NR_CPUS is not enough.
 * The arrays live as long as the kernel: CPUs going down keep their entry.
 */
#ifndef KERNEL_CPU_ARRAY_H
#define KERNEL_CPU_ARRAY_H

#include <lib/kernel.h>

struct cpu_array {
	void **base; /* the array's pointer */
	size_t size; /* of one entry */
	size_t align; /* of one entry: checked against the allocation */
	const char *name;
};

/* `type *name`, allocated with nr_cpu_ids entries; may be preceded by static. */
#define DEFINE_CPU_ARRAY(type, name)                                         \
	type *name;                                                          \
	static const struct cpu_array __cpu_array_##name __used __section(   \
		".cpu_arrays") __aligned(8) = {(void **)&name, sizeof(type), \
					       __alignof__(type), #name}

/* Allocate every CPU array: after nr_cpu_ids is known, before any use. */
void cpu_arrays_init(void);
/* Bytes the CPU arrays hold (all of them, nr_cpu_ids entries each). */
size_t cpu_arrays_bytes(void);

#endif
