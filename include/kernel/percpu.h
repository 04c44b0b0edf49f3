/*
 * Per-CPU variables. DEFINE_PER_CPU puts a variable in .data..percpu, the
 * template; each online CPU gets its own copy of the template (its per-CPU
 * area) at __per_cpu_offset[cpu] from it, and TPIDR_EL1 holds this CPU's
 * offset. Until the boot CPU's area is set up its offset is 0: it uses
 * the template itself. Areas are allocated and freed with CPU hotplug:
 * another CPU's area may only be used inside rcu_read_lock() after seeing
 * its online bit set (see include/kernel/cpu.h).
 *
 * this_cpu_*() and smp_processor_id() need preemption off (or IRQs off, or
 * a thread bound to its CPU): a thread that moves between reading TPIDR_EL1
 * and loading through it, while its old CPU goes down and the area is
 * freed, loads from freed memory. With the debug_preempt word each use
 * checks that (kernel/debug/smp_processor_id.c). raw_*() skip the check, for
 * values that are only a hint (statistics, messages).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <asm/percpu.h>
#include <kernel/current.h>
#include <kernel/lockdep.h>
#include <lib/cpumask.h>
#include <lib/kernel.h>

#define DEFINE_PER_CPU(type, name) \
	__section(".data..percpu") __typeof__(type) name
#define DECLARE_PER_CPU(type, name) \
	extern __section(".data..percpu") __typeof__(type) name

extern unsigned long *__per_cpu_offset; /* nr_cpu_ids entries */

#define SHIFT_PERCPU_PTR(ptr, off) \
	((__typeof__(ptr))((unsigned long)(ptr) + (off)))
/* With lockdep, each use is held to include/kernel/cpu.h's rule. */
#define per_cpu_ptr(ptr, cpu)                                              \
	({                                                                 \
		unsigned int __cpu = (cpu);                                \
		lockdep_percpu_ptr_check(__cpu);                           \
		SHIFT_PERCPU_PTR(ptr, READ_ONCE(__per_cpu_offset[__cpu])); \
	})
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))

/* The debug_preempt word: check each this_cpu_*()/smp_processor_id(). */
extern bool debug_preempt;
extern unsigned long debug_preempt_reports; /* reports so far (tests) */
void check_preemption_disabled(const char *what);
bool preemption_check_passes(void); /* may the caller use them now? */

static __always_inline void debug_preempt_check(const char *what)
{
	if (unlikely(debug_preempt))
		check_preemption_disabled(what);
}

#define raw_cpu_ptr(ptr) SHIFT_PERCPU_PTR(ptr, __my_cpu_offset())
#define raw_cpu_read(var) READ_ONCE(*raw_cpu_ptr(&(var)))
#define this_cpu_ptr(ptr)                            \
	({                                           \
		debug_preempt_check("this_cpu_ptr"); \
		raw_cpu_ptr(ptr);                    \
	})
#define this_cpu_read(var)                            \
	({                                            \
		debug_preempt_check("this_cpu_read"); \
		raw_cpu_read(var);                    \
	})
#define this_cpu_write(var, v)                         \
	do {                                           \
		debug_preempt_check("this_cpu_write"); \
		WRITE_ONCE(*raw_cpu_ptr(&(var)), v);   \
	} while (0)

/* The CPU number in the per-CPU area (for the exception entry's use). */
DECLARE_PER_CPU(unsigned int, cpu_number);

/* Per-CPU areas come and go with their CPU (kernel/mm/percpu.c). */
/* Boot: the boot CPU's area, before anything reads per-CPU data. */
void setup_per_cpu_areas(void);
int percpu_area_alloc(unsigned int cpu);
void percpu_area_free(unsigned int cpu);
void *percpu_area(unsigned int cpu);

/*
 * Which allocation an area is: its CPU in the top 16 bits, below them a
 * generation that no other allocation has had (0 in the template, which
 * no CPU's area is once it is set up). A freed area reads 0x6b6b...,
 * whose CPU field (0x6b6b) is above NR_CPUS.
 */
DECLARE_PER_CPU(u64, percpu_tag);
#define PERCPU_TAG_CPU_SHIFT 48
#define PERCPU_TAG(cpu, gen) ((u64)(cpu) << PERCPU_TAG_CPU_SHIFT | (gen))

/*
 * A reader's claim on cpu's area, taken with its pointers into it: where
 * the tag is and what it read there. Still valid while the area is the
 * one the claim was taken on: a freed area fails it, and so does a new
 * area in the same memory, which holds the same template values (a magic
 * number would pass) but another generation.
 */
struct percpu_claim {
	const u64 *where;
	u64 tag;
};

static inline struct percpu_claim percpu_claim(unsigned int cpu)
{
	const u64 *where = per_cpu_ptr(&percpu_tag, cpu);

	return (struct percpu_claim){where, READ_ONCE(*where)};
}

/* Was the claim taken on cpu's own area, and is that area still there? */
static inline bool percpu_claim_valid(const struct percpu_claim *c,
				      unsigned int cpu)
{
	u64 low = ((u64)1 << PERCPU_TAG_CPU_SHIFT) - 1;

	return c->tag >> PERCPU_TAG_CPU_SHIFT == cpu && (c->tag & low) &&
	       READ_ONCE(*c->where) == c->tag;
}

/*
 * The running thread's CPU, from its task_struct (as arm64 Linux does): one
 * load through SP_EL0, never through a per-CPU area that may be gone.
 * The scheduler sets current->cpu before switching to a thread, and only
 * changes it while the thread is not running.
 */
#define raw_smp_processor_id() ((unsigned int)READ_ONCE(current->cpu))
#define smp_processor_id()                               \
	({                                               \
		debug_preempt_check("smp_processor_id"); \
		raw_smp_processor_id();                  \
	})

#endif
