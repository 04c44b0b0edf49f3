/*
 * The CPU masks, defined once (as in Linux's cpumask.h):
 *
 *   possible  CPUs the device tree describes (logical ids 0..nr_cpu_ids-1)
 *   present   possible CPUs that may be brought up
 *   online    CPUs running the kernel, taking interrupts and threads.
 *             Readers take no lock: inside rcu_read_lock() a set bit
 *             means that CPU's per-CPU data stays valid until
 *             rcu_read_unlock() (the rules: cpu_online_next() below). Outside
 *             such a section a read is only a momentary snapshot.
 *   active    online CPUs the scheduler may place threads on (cleared
 *             first on the way down, set last on the way up)
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <asm/cputype.h>
#include <lib/cpumask.h>
#include <lib/kernel.h>

extern struct cpumask __cpu_possible_mask, __cpu_present_mask,
	__cpu_online_mask, __cpu_active_mask;
extern unsigned int nr_cpu_ids;

#define cpu_possible_mask ((const struct cpumask *)&__cpu_possible_mask)
#define cpu_present_mask ((const struct cpumask *)&__cpu_present_mask)
#define cpu_online_mask ((const struct cpumask *)&__cpu_online_mask)
#define cpu_active_mask ((const struct cpumask *)&__cpu_active_mask)

#define for_each_possible_cpu(cpu) for_each_cpu (cpu, cpu_possible_mask)
#define for_each_present_cpu(cpu) for_each_cpu (cpu, cpu_present_mask)

/*
 * The next online CPU after n, reading the mask with load-acquire: a
 * reader that sees a bit set then sees that CPU's per-CPU area (published
 * before the bit was set). This is the only ordering readers need.
 */
static inline unsigned int cpu_online_next(int n)
{
	const unsigned long *bits = cpumask_bits(&__cpu_online_mask);

	for (unsigned int cpu = n + 1; cpu < nr_cpu_ids;) {
		unsigned long w = __atomic_load_n(&bits[cpu / BITS_PER_LONG],
						  __ATOMIC_ACQUIRE) >>
				  (cpu % BITS_PER_LONG);

		if (w)
			return min(cpu + (unsigned int)__builtin_ctzl(w),
				   nr_cpu_ids);
		cpu = ALIGN(cpu + 1, BITS_PER_LONG);
	}
	return nr_cpu_ids;
}

/*
 * Inside rcu_read_lock(): for every CPU whose bit this walk sees set,
 * per_cpu_ptr(var, cpu) stays valid until rcu_read_unlock(). No lock, no
 * atomic read-modify-write. Outside a read-side section, a snapshot only.
 */
#define for_each_online_cpu(cpu)                                            \
	for ((cpu) = cpu_online_next(-1); (unsigned int)(cpu) < nr_cpu_ids; \
	     (cpu) = cpu_online_next(cpu))

/*
 * The long walk, for many CPUs or much work per CPU: fn(cpu, arg) runs
 * for each online CPU inside a read-side section of its own, so
 * preemption is held off for one CPU at a time. Between two calls CPUs
 * may come and go: a CPU already visited may go offline and its per-CPU
 * data be freed; one not yet reached is visited only if its bit is set
 * when the walk gets there; one that comes online behind the walk is
 * missed. Within fn, cpu's per-CPU data is valid. fn returns false to
 * stop the walk.
 */
void online_cpus_walk(bool (*fn)(unsigned int cpu, void *arg), void *arg);

/*
 * A per-CPU snapshot: one record per online CPU, each filled from that
 * CPU's per-CPU data while its area is sure to be there, for a table that
 * is printed or compared after every read-side section has ended.
 *
 * It is the allocation idiom of the 2013 thread (Linus to Peter Zijlstra):
 * a read-side section may not sleep, so memory for the records is taken
 * before the walk, for num_online_cpus() + PERCPU_SNAPSHOT_SLACK CPUs. The
 * walk holds preemption off for one CPU at a time, as online_cpus_walk()
 * does, not around the whole walk. If it meets an online CPU it has no
 * room for (more CPUs came up since it counted), it leaves the section,
 * grows the array, re-enters, and asks again whether that CPU's bit is
 * set: in the window the CPU may have gone down and its area been freed
 * (it is then left out and counted in ->vanished), and CPUs numbered after
 * it may have come up (the walk, going on from there, finds them).
 *
 * This kernel's kmalloc() never sleeps (spinlocks with interrupts off),
 * so a small record could be allocated inside the section. The idiom is
 * what an allocator that sleeps needs (Linux's
 * GFP_KERNEL, a mutex, reclaim), and it keeps a big allocation's page
 * allocator work out of the preemption-off stretch; growing is rare, as
 * it needs CPUs to come up between the count and the walk.
 *
 *	struct percpu_snapshot snap = {
 *		.rec_size = sizeof(struct my_rec),
 *		.fill = my_fill,  (reads per_cpu_ptr(&my_var, cpu))
 *	};
 *	if (percpu_snapshot_take(&snap))
 *		return -ENOMEM;
 *	for (unsigned int i = 0; i < snap.nr; i++)
 *		print(snap.cpus[i], percpu_snapshot_rec(&snap, i));
 *	percpu_snapshot_release(&snap);
 *
 * A CPU is in the snapshot if its bit was set when the walk read it; one
 * that comes up behind the walk is missed, one that goes down after it
 * was read stays in (its record is a copy, not a pointer into the area).
 */
#define PERCPU_SNAPSHOT_SLACK 2 /* records beyond num_online_cpus() */

struct percpu_snapshot {
	/* Set by the caller. */
	size_t rec_size; /* bytes of one CPU's record */
	/*
	 * Fill rec (zeroed) from cpu's per-CPU data. Runs inside
	 * rcu_read_lock() with cpu's online bit seen set, so
	 * per_cpu_ptr(var, cpu) is valid; preemption is off: must not
	 * sleep. Keep no pointer into the area once it returns.
	 */
	void (*fill)(unsigned int cpu, void *rec, void *arg);
	void *arg;
	unsigned int room; /* records to take first; 0: online + slack */
	/*
	 * For tests only (NULL otherwise): runs in the window, after the
	 * walk left its section for cpu and grew, before it re-enters and
	 * checks cpu's bit again. It may sleep (cpu_down(), cpu_up()).
	 */
	void (*window)(unsigned int cpu, void *arg);

	/* Filled by percpu_snapshot_take(). */
	unsigned int nr; /* CPUs in the snapshot */
	unsigned int *cpus; /* cpus[i]: whose record i is, ascending */
	void *recs; /* nr records of rec_size bytes */
	unsigned int grows; /* times the walk left its section to grow */
	unsigned int vanished; /* CPUs seen online, gone after a window */
	unsigned int capacity; /* records the memory holds now */
};

/*
 * Take the snapshot s describes: 0, -EINVAL (no rec_size or fill) or
 * -ENOMEM (nothing kept). May sleep; not inside a read-side section.
 * Release it with percpu_snapshot_release() once done (also after an
 * error: it is then a no-op).
 */
int percpu_snapshot_take(struct percpu_snapshot *s);
void percpu_snapshot_release(struct percpu_snapshot *s);

static inline void *percpu_snapshot_rec(const struct percpu_snapshot *s,
					unsigned int i)
{
	return (char *)s->recs + i * s->rec_size;
}

static inline bool cpu_online(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_online_mask);
}

/*
 * One CPU's online bit, read with load-acquire as cpu_online_next() does:
 * inside rcu_read_lock(), true means per_cpu_ptr(var, cpu) stays valid
 * until rcu_read_unlock(). (cpu_online() is a plain read: a snapshot.)
 */
static inline bool cpu_online_rcu(unsigned int cpu)
{
	const unsigned long *word;
	unsigned long bits;

	if (cpu >= nr_cpu_ids)
		return false;
	word = &cpumask_bits(&__cpu_online_mask)[cpu / BITS_PER_LONG];
	bits = __atomic_load_n(word, __ATOMIC_ACQUIRE);
	return (bits >> (cpu % BITS_PER_LONG)) & 1;
}

static inline bool cpu_active(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_active_mask);
}

static inline unsigned int num_online_cpus(void)
{
	return cpumask_weight(cpu_online_mask);
}

void set_cpu_online(unsigned int cpu, bool online);
void set_cpu_active(unsigned int cpu, bool active);

/* CPU hotplug (kernel/hotplug/core.c): 0, or <0 with the reason printed. */
int cpu_up(unsigned int cpu);
int cpu_down(unsigned int cpu);
/*
 * Bring every present CPU that is offline up, in CPU order (a test's or a
 * workload's clean-up; pins of the governor are not consulted): 0 when
 * each up worked, else the first error, the other CPUs tried still.
 */
int cpu_up_all(void);
/* No cpu_up()/cpu_down() in progress and no design's lock held or read
 * (a snapshot: for checks, as the fault sweep's). */
bool cpu_hotplug_idle(void);
/* Exclude both while held (a mutex: may sleep; not from a hotplug step). */
void cpu_maps_update_begin(void);
void cpu_maps_update_done(void);

/*
 * Told after each cpu_up() and cpu_down() that leaves the CPU running the
 * kernel (up) or out of it (down): every successful one, a down the
 * firmware never confirmed, an up stopped between steps with the CPU
 * running. Right after it, under the hotplug lock (so in the order they
 * happened); the same answer may come twice, so a notifier ignores a
 * repeat. Code that keeps figures by CPU state declares one where it
 * lives (cpuidle's cluster counts), and hotplug calls it without knowing
 * whose it is. It may not fail, sleep, nor take a CPU up or down.
 */
struct cpuhp_notifier {
	void (*fn)(unsigned int cpu, bool up);
};
#define CPUHP_NOTIFIER(_fn)                                              \
	static const struct cpuhp_notifier __cpuhp_notifier_##_fn __used \
		__section(".cpuhp_notifiers") = {_fn}

enum cpuhp_phase {
	CPUHP_PHASE_OFF,
	CPUHP_PHASE_COMING_UP,
	CPUHP_PHASE_ONLINE,
	CPUHP_PHASE_GOING_DOWN,
	/* Went down but the firmware never confirmed it off: its stack and
	 * per-CPU area are kept, and cpu_up() asks again before reuse. */
	CPUHP_PHASE_UNCONFIRMED,
	/* A step failed, and so did the way back, several times: the CPU
	 * is between steps, not online; cpu_up() resumes from there. */
	CPUHP_PHASE_STOPPED,
};
enum cpuhp_phase cpuhp_phase(unsigned int cpu);

#define CPUHP_MAX_STEPS 24
struct cpuhp_stats {
	u64 ups, downs, up_failed, down_failed;
	u64 up_ns[3], down_ns[3]; /* min, median, max of the last 64 */
	u64 up_total_ns, down_total_ns; /* of every one since boot */
	/* Where the time goes: each step's median over the last 64, run on
	 * a surviving CPU (those on the CPU itself count in cpu:teardown). */
	const char *step_name[CPUHP_MAX_STEPS];
	u64 step_down_ns[CPUHP_MAX_STEPS], step_up_ns[CPUHP_MAX_STEPS];
	int nr_steps;
	/*
	 * The firmware's share of the operations whose enable method called
	 * firmware (PSCI: CPU_ON to the CPU's first instruction, CPU_OFF to
	 * the first AFFINITY_INFO answer OFF), and the kernel's, the rest of
	 * the same operations: how many, min, median, max of the last 64.
	 */
	u64 fw_downs, fw_ups;
	u64 fw_down_ns[3], fw_up_ns[3], kernel_down_ns[3], kernel_up_ns[3];
};
void hotplug_get_stats(struct cpuhp_stats *st);

/* One successful down or up: which CPU, its total and firmware time. */
struct cpuhp_op {
	u64 seq; /* the downs (ups) count once it was done: 1 for the first */
	unsigned int cpu;
	u64 ns, fw_ns; /* fw_ns 0: no firmware figure (spin-table, pen) */
};
/* The last down and up, so a caller can pair each figure with its own. */
void hotplug_last_ops(struct cpuhp_op *down, struct cpuhp_op *up);
/*
 * When smp_init() started bringing the other CPUs up, and when it had
 * brought every CPU up (ns since the counter's 0): what the boot did
 * before the first CPU_ON, and the bring-up itself.
 */
extern u64 smp_boot_start_ns, smp_boot_done_ns;

/* Logical CPU number <-> MPIDR affinity (from the device tree "reg"). */
u64 cpu_logical_map(unsigned int cpu);
int get_logical_index(u64 mpidr);
/* Boot: read the CPUs from the device tree, the boot CPU made CPU 0, and
 * fill the possible and present masks (kernel/cpu.c). */
void smp_setup_cpu_maps(void);

#endif
