/*
 * The stop_machine design (Ingo Molnar's direction): readers only
 * disable preemption; the online bit clears inside stop_machine(), which
 * also waits out every preempt-disabled section, so no grace period is
 * needed for them. cpu_down() still waits one, for the scheduler's
 * readers of the active bit, which clears after the stop (in 2013,
 * Linux's cpu_down() too paid a grace period, synchronize_sched() after
 * clearing the active bit, and a stop_machine() besides its reader lock).
 */
#include <kernel/cpu.h>
#include <kernel/preempt.h>
#include <kernel/stop_machine.h>

#include "designs.h"

static int stop_read_trylock(void)
{
	preempt_disable();
	return 0;
}

static void stop_read_unlock(int cookie)
{
	preempt_enable();
}

struct online_change {
	unsigned int cpu;
	bool online;
};

static int change_online(void *arg)
{
	struct online_change *c = arg;

	set_cpu_online(c->cpu, c->online);
	return 0;
}

/*
 * Only a removal needs the stop: a reader that sees a new bit finds the
 * CPU's per-CPU area already published (set_cpu_online() releases), as
 * in Linux, where only take_cpu_down() ran under stop_machine().
 */
static int stop_set_online(unsigned int cpu, bool online)
{
	struct online_change c = {cpu, online};
	int ret;

	if (online)
		return change_online(&c);
	return stop_machine(change_online, &c, &ret) ?: ret;
}

/* Its readers are preempt-disabled sections: the switch's grace period
 * has waited for them. */
const struct hotplug_sync_ops stop_machine_design = {
	.name = "stop_machine",
	.read_trylock = stop_read_trylock,
	.read_unlock = stop_read_unlock,
	.set_online = stop_set_online,
};
