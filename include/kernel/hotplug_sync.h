/*
 * The four ways to keep the online mask still for a reader, from the 2013
 * CPU-hotplug locking thread, built side by side so the benchmark can
 * compare them in one boot (kernel/hotplug/sync.c has the details):
 *
 *   rwlock        a global reader-writer lock, as get_online_cpus() was
 *   percpu_rwsem  per-CPU reader counts with an RCU-switched writer (the
 *                 design Peter Zijlstra's series led to; Linux since 4.13)
 *   stop_machine  readers only disable preemption; the mask changes under
 *                 stop_machine() (Ingo Molnar's direction)
 *   rcu           per-bit RCU: readers take rcu_read_lock(); the writer
 *                 clears the bit and waits a grace period (Linus
 *                 Torvalds's proposal, and this kernel's default)
 *
 * The kernel's own readers always follow the per-bit RCU rules (which
 * every design keeps: see hotplug_sync_wait_readers()); these calls are
 * for readers that name a design, as the benchmark's do. Choose one with
 * hotplug.sync= on the command line, or cpu_hotplug_set_sync().
 */
#ifndef KERNEL_HOTPLUG_SYNC_H
#define KERNEL_HOTPLUG_SYNC_H

#include <lib/kernel.h>

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

/* For kernel/hotplug/core.c, which holds its lock around each of these. */
void hotplug_sync_init(void);
void hotplug_sync_switch(enum hotplug_sync sync);
void cpus_write_lock(void);
void cpus_write_unlock(void);
int hotplug_sync_set_online(unsigned int cpu, bool online);
/* No writer holds a design's lock and no reader is inside one. */
bool hotplug_sync_idle(void);
/* After the bit cleared: wait until no reader can still see it set. */
void hotplug_sync_wait_readers(bool expedite);

#endif
