/*
 * CPU masks: one bit per logical CPU number, in a struct so that masks are
 * passed by pointer and copied whole (lib/cpumask.c holds the text forms).
 *
 * cpumask_set_cpu and cpumask_clear_cpu are atomic and relaxed: CPUs may
 * update their own bits of a shared mask at the same time, and whoever needs
 * ordering adds the barrier. Everything else is plain loads and stores, and a
 * read of a mask that others are changing is only a momentary snapshot.
 *
 * Callers pass cpu < NR_CPUS; nothing here checks it, as in Linux.
 */
#ifndef LIB_CPUMASK_H
#define LIB_CPUMASK_H

#include <lib/bitmap.h>
#include <lib/kernel.h>
#include <lib/types.h>

/* The most CPUs the kernel can run on; -DNR_CPUS=N to change it. */
#ifndef NR_CPUS
#define NR_CPUS 512
#endif
BUILD_BUG_ON(NR_CPUS < 1);

struct cpumask {
	DECLARE_BITMAP(bits, NR_CPUS);
};

#define cpumask_bits(maskp) ((maskp)->bits)

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *dst)
{
	set_bit(cpu, cpumask_bits(dst));
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *dst)
{
	clear_bit(cpu, cpumask_bits(dst));
}

static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *dst)
{
	__set_bit(cpu, cpumask_bits(dst));
}

static inline void __cpumask_clear_cpu(unsigned int cpu, struct cpumask *dst)
{
	__clear_bit(cpu, cpumask_bits(dst));
}

static inline bool cpumask_test_cpu(unsigned int cpu,
				    const struct cpumask *mask)
{
	return test_bit(cpu, cpumask_bits(mask));
}

static inline void cpumask_clear(struct cpumask *dst)
{
	bitmap_zero(cpumask_bits(dst), NR_CPUS);
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	bitmap_copy(cpumask_bits(dst), cpumask_bits(src), NR_CPUS);
}

static inline unsigned int cpumask_weight(const struct cpumask *mask)
{
	return bitmap_weight(cpumask_bits(mask), NR_CPUS);
}

static inline bool cpumask_empty(const struct cpumask *mask)
{
	return bitmap_empty(cpumask_bits(mask), NR_CPUS);
}

static inline bool cpumask_equal(const struct cpumask *a,
				 const struct cpumask *b)
{
	return bitmap_equal(cpumask_bits(a), cpumask_bits(b), NR_CPUS);
}

/* dst = a & b; returns whether dst has any CPU. */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	return bitmap_and(cpumask_bits(dst), cpumask_bits(a), cpumask_bits(b),
			  NR_CPUS);
}

static inline void cpumask_or(struct cpumask *dst, const struct cpumask *a,
			      const struct cpumask *b)
{
	bitmap_or(cpumask_bits(dst), cpumask_bits(a), cpumask_bits(b), NR_CPUS);
}

/* dst = a & ~b; returns whether dst has any CPU. */
static inline bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a,
				  const struct cpumask *b)
{
	return bitmap_andnot(cpumask_bits(dst), cpumask_bits(a),
			     cpumask_bits(b), NR_CPUS);
}

/* Whether a and b have a CPU in common. */
static inline bool cpumask_intersects(const struct cpumask *a,
				      const struct cpumask *b)
{
	return bitmap_intersects(cpumask_bits(a), cpumask_bits(b), NR_CPUS);
}

/* The lowest CPU in mask, or NR_CPUS if it is empty. */
static inline unsigned int cpumask_first(const struct cpumask *mask)
{
	return find_first_bit(cpumask_bits(mask), NR_CPUS);
}

/* The lowest CPU in mask above n (n = -1 for the first), or NR_CPUS. */
static inline unsigned int cpumask_next(int n, const struct cpumask *mask)
{
	return find_next_bit(cpumask_bits(mask), NR_CPUS, n + 1);
}

#define for_each_cpu(cpu, mask)                            \
	for ((cpu) = cpumask_first(mask); (cpu) < NR_CPUS; \
	     (cpu) = cpumask_next((cpu), (mask)))

/*
 * Print mask as a Linux cpulist ("0-3,5,7-8"; "" when empty), cut to fit
 * size. Returns the characters written, NUL excluded, like scnprintf.
 */
int cpumap_print_list(char *buf, size_t size, const struct cpumask *mask);

/*
 * Parse a cpulist ("0-3,5,7-8"; "" is the empty mask) into mask. Returns 0,
 * or -EINVAL, with mask left empty, for anything malformed or for a CPU
 * number of NR_CPUS or more.
 */
int cpulist_parse(const char *s, struct cpumask *mask);

#endif
