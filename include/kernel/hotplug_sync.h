/*
 * The online mask's reader designs, from the 2013 CPU-hotplug locking
 * thread. The mechanism knows one: per-bit RCU (Linus Torvalds's
 * proposal), whose readers take rcu_read_lock() and whose writer clears
 * the bit and waits a grace period. The benchmark builds the other three
 * beside it (kernel/bench/designs/, BENCH=1) and switches between them in
 * one boot:
 *
 *   rwlock        a global reader-writer lock, as get_online_cpus() was
 *   percpu_rwsem  per-CPU reader counts with an RCU-switched writer (the
 *                 design Peter Zijlstra's series led to; Linux since 4.13)
 *   stop_machine  readers only disable preemption; the mask changes under
 *                 stop_machine() (Ingo Molnar's direction)
 *   rcu           per-bit RCU, the default
 *
 * The kernel's own readers always follow the per-bit RCU rules, which
 * every design keeps: cpu_down() waits a grace period in each. The
 * readers below are for code that names a design, as the benchmark's do.
 */
#ifndef KERNEL_HOTPLUG_SYNC_H
#define KERNEL_HOTPLUG_SYNC_H

#include <lib/kernel.h>

/*
 * One design, as the hotplug writer (kernel/hotplug/core.c) and the
 * readers (kernel/bench/designs/) call it. Any hook may be NULL: no lock,
 * set_cpu_online() itself, always idle, nothing to drain.
 */
struct hotplug_sync_ops {
	const char *name;
	/* Reader, preemption off: a cookie 0-255, or -EBUSY: call
	 * wait_busy() with preemption on, then try again. */
	int (*read_trylock)(void);
	void (*read_unlock)(int cookie);
	void (*wait_busy)(void);
	/* Around each cpu_up()/cpu_down(), under the hotplug lock. */
	void (*write_lock)(void);
	void (*write_unlock)(void);
	/* The cpu:online step: change cpu's online bit. */
	int (*set_online)(unsigned int cpu, bool online);
	/* No writer holds the design's lock and no reader is inside it. */
	bool (*idle)(void);
	/* After a switch away from it: until its last reader has left. */
	void (*drain)(void);
};

/* The design cpu_up()/cpu_down() use; set it with the hotplug lock held
 * (cpu_maps_update_begin()). */
const struct hotplug_sync_ops *hotplug_sync_ops_get(void);
void hotplug_sync_ops_set(const struct hotplug_sync_ops *ops);

#ifdef CONFIG_BENCH
enum hotplug_sync {
	HOTPLUG_SYNC_RWLOCK,
	HOTPLUG_SYNC_PERCPU_RWSEM,
	HOTPLUG_SYNC_STOP_MACHINE,
	HOTPLUG_SYNC_RCU,
	HOTPLUG_SYNC_NR,
};

/*
 * A reader: for every CPU whose online bit it sees set between these two
 * calls, that CPU's per-CPU data stays valid until cpus_read_unlock().
 * The cookie says which design the lock was taken under.
 */
int cpus_read_lock(void);
void cpus_read_unlock(int cookie);

/* The design now in force, its name, and the name's design (or -EINVAL). */
enum hotplug_sync hotplug_sync_current(void);
const char *hotplug_sync_name(enum hotplug_sync sync);
int hotplug_sync_parse(const char *name);

/* Switch designs: waits for readers of the old one (may sleep). */
int cpu_hotplug_set_sync(enum hotplug_sync sync);
/* Twice the switches ended, plus one while one runs (a seqcount). */
unsigned long hotplug_sync_switches(void);
/* Boot: the design hotplug.sync= names. */
void hotplug_designs_init(void);
#else
static inline void hotplug_designs_init(void)
{
}
#endif

#endif
