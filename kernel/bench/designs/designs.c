/*
 * The four reader designs side by side (include/kernel/hotplug_sync.h):
 * which one is in force, the switch between them at run time, and the
 * reader calls that name a design.
 *
 * A reader reads the design and takes its lock in one preempt-disabled
 * (so classic-RCU) section: hotplug_sync_switch() stores the new design
 * and then waits a grace period, after which every reader that read the
 * old one holds its lock, where the old design's drain finds it. A reader
 * that read the design and took its lock later, with preemption on, would
 * be missed: the new design's writer would free what it was reading.
 */
#define pr_fmt(fmt) "hotplug_sync: " fmt
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/lockdep.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <string.h>

#include "designs.h"

static const struct hotplug_sync_ops *const designs[HOTPLUG_SYNC_NR] = {
	[HOTPLUG_SYNC_RWLOCK] = &rwlock_design,
	[HOTPLUG_SYNC_PERCPU_RWSEM] = &percpu_rwsem_design,
	[HOTPLUG_SYNC_STOP_MACHINE] = &stop_machine_design,
	[HOTPLUG_SYNC_RCU] = &rcu_design,
};

static int rcu_read_trylock(void)
{
	rcu_read_lock();
	return 0;
}

static void rcu_read_unlock_cookie(int cookie)
{
	rcu_read_unlock();
}

/* Per-bit RCU as a reader names it: the writer's side is the default's. */
const struct hotplug_sync_ops rcu_design = {
	.name = "rcu",
	.read_trylock = rcu_read_trylock,
	.read_unlock = rcu_read_unlock_cookie,
};

static const char *const design_names[] = {
	[HOTPLUG_SYNC_RWLOCK] = "rwlock",
	[HOTPLUG_SYNC_PERCPU_RWSEM] = "percpu_rwsem",
	[HOTPLUG_SYNC_STOP_MACHINE] = "stop_machine",
	[HOTPLUG_SYNC_RCU] = "rcu",
	NULL,
};

static enum hotplug_sync design = HOTPLUG_SYNC_RCU;
param_enum("hotplug.sync", design, design_names,
	   "the online mask's reader design (default rcu)");
/* Switches begun and ended: odd while hotplug_sync_switch() runs. */
static unsigned long switch_seq;

/*
 * fail.sync_read=CPU:MS: the next cpus_read_lock() on CPU waits, between
 * reading the design and taking its lock, until a design switch begun
 * since has ended, or MS ms after the switch began (MS at most if none
 * begins). A switch that leaves a reader in that window behind ends
 * first, and the reader then takes the old design's lock.
 */
static const struct fault_field sync_read_fields[] = {
	FAULT_FIELD_CPU, {"MS", FAULT_NUM, .min = 1, .max = 10000}, {}};
DEFINE_FAULT(sync_read, sync_read_fields, 1, 1, NULL,
	     "the next cpus_read_lock() on CPU waits between reading the "
	     "design and taking its lock until a design switch has come and "
	     "gone, or MS ms after one began");

static void sync_read_window(void)
{
	unsigned long seq = __atomic_load_n(&switch_seq, __ATOMIC_ACQUIRE), s;
	u64 end;

	if (likely(!fault_armed(&fault_sync_read)) ||
	    fault_arg(&fault_sync_read, 0) != (long)raw_smp_processor_id() ||
	    !should_fail(&fault_sync_read))
		return;
	end = ktime_get_ns() + fault_arg(&fault_sync_read, 1) * 1000000ULL;
	for (;;) {
		s = __atomic_load_n(&switch_seq, __ATOMIC_ACQUIRE);
		if (s != seq && !(s & 1))
			break; /* a switch came and went */
		if (s != seq && !(seq & 1)) { /* one began: MS from now */
			seq = s;
			end = ktime_get_ns() +
			      fault_arg(&fault_sync_read, 1) * 1000000ULL;
		}
		if (ktime_get_ns() > end)
			break;
		cpu_relax();
	}
}

/* The cookie: the design in its high bits, the design's own below. */
#define COOKIE_SHIFT 8

int cpus_read_lock(void)
{
	lock_acquire(&cpu_hotplug_lock_map, 0, false, _RET_IP_);
	for (;;) {
		enum hotplug_sync d;
		int cookie;

		preempt_disable();
		d = READ_ONCE(design);
		sync_read_window();
		cookie = designs[d]->read_trylock();
		preempt_enable();
		if (cookie >= 0)
			return d << COOKIE_SHIFT | cookie;
		designs[d]->wait_busy(); /* a writer holds it: until it left */
	}
}

void cpus_read_unlock(int cookie)
{
	lock_release(&cpu_hotplug_lock_map, _RET_IP_);
	designs[cookie >> COOKIE_SHIFT]->read_unlock(cookie &
						     ((1 << COOKIE_SHIFT) - 1));
}

enum hotplug_sync hotplug_sync_current(void)
{
	return READ_ONCE(design);
}

const char *hotplug_sync_name(enum hotplug_sync sync)
{
	return sync < HOTPLUG_SYNC_NR ? designs[sync]->name : "?";
}

int hotplug_sync_parse(const char *name)
{
	for (int i = 0; i < HOTPLUG_SYNC_NR; i++)
		if (!strcmp(name, designs[i]->name))
			return i;
	return -EINVAL;
}

/*
 * With the hotplug lock held (no writer): new readers take the new
 * design's lock; wait until every reader of the old one has left, so no
 * writer of the new design runs beside a reader of the old one. Only the
 * old design's readers are waited for: the new one's may come and go
 * meanwhile (a busy percpu_rwsem reader count is seldom zero), and its
 * writer waits for them.
 */
static void hotplug_sync_switch(enum hotplug_sync sync)
{
	enum hotplug_sync old = design;

	lockdep_assert_cpus_held();
	__atomic_fetch_add(&switch_seq, 1, __ATOMIC_SEQ_CST);
	WRITE_ONCE(design, sync);
	hotplug_sync_ops_set(designs[sync]);
	/* Paired with cpus_read_lock()'s preempt-disabled read of design. */
	synchronize_rcu(); /* rcu and stop_machine readers; every lock taken */
	if (sync != old && designs[old]->drain)
		designs[old]->drain();
	pr_info("online-mask readers now use %s\n", designs[sync]->name);
	/* Paired with the acquire in sync_read_window() and switches(). */
	__atomic_fetch_add(&switch_seq, 1, __ATOMIC_RELEASE);
}

int cpu_hotplug_set_sync(enum hotplug_sync sync)
{
	if (sync >= HOTPLUG_SYNC_NR)
		return -EINVAL;
	cpu_maps_update_begin();
	hotplug_sync_switch(sync);
	cpu_maps_update_done();
	return 0;
}

unsigned long hotplug_sync_switches(void)
{
	return __atomic_load_n(&switch_seq, __ATOMIC_ACQUIRE);
}

/* At boot, before any CPU but this one is up: hotplug.sync= in force. */
void hotplug_designs_init(void)
{
	if (design == HOTPLUG_SYNC_RCU)
		return;
	cpu_maps_update_begin();
	hotplug_sync_ops_set(designs[design]);
	cpu_maps_update_done();
	pr_info("online-mask readers use %s\n", designs[design]->name);
}
