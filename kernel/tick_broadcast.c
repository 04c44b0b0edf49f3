/*
 * The tick broadcast: waking CPUs whose own timer stops in a deep idle
 * state (the device tree's local-timer-stop). Without a global timer
 * (QEMU virt has none), one CPU hosts the broadcast on its own timer, as
 * Linux's hrtimer broadcast does: a CPU entering such a state records the
 * counter value its timer was due at, and the host wakes it then with an
 * IPI. The host itself may not enter such a state (tick_broadcast_enter()
 * says -EBUSY and the idle code picks a state that keeps the timer), so
 * with every CPU idle one stays in a shallower state: the price of having
 * no global timer.
 *
 * The first CPU to ask becomes the host and keeps the role until its
 * tick stops for good (hotplug), when every sleeper is woken to elect the
 * next. Invariant: sleepers exist only while there is a host.
 *
 * The host's timer covers the earliest sleeper: its periodic tick does
 * (sleepers' events are jiffy boundaries, where the host ticks too), and
 * when its tick stops in idle, tick_nohz_idle_enter() asks for the
 * earliest sleeper and sets its timer no later (`armed`). A sleeper due
 * before `armed` while the host's tick is stopped kicks the host, which
 * goes round its idle loop and sets its timer again.
 */
#define pr_fmt(fmt) "tick: " fmt
#include <asm/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/timer.h>
#include <lib/errno.h>

static DEFINE_SPINLOCK(bc_lock);
static struct cpumask bc_sleepers; /* timer stopped, waiting to be woken */
static int bc_host = -1;
static u64 bc_armed = ~0ULL; /* the host's stopped tick is set no later */
static DEFINE_CPU_ARRAY(u64, bc_expiry); /* counter value each waits for */
static DEFINE_CPU_ARRAY(u64, bc_wakeups);

/* Under bc_lock. */
static u64 earliest_sleeper(void)
{
	u64 first = ~0ULL;
	unsigned int cpu;

	for_each_cpu (cpu, &bc_sleepers)
		first = min(first, bc_expiry[cpu]);
	return first;
}

int tick_broadcast_enter(void)
{
	unsigned int cpu = smp_processor_id();
	u64 next = tick_local_next();
	unsigned long flags;
	bool kick;
	int host;

	spin_lock_irqsave(&bc_lock, flags);
	if (bc_host < 0)
		bc_host = cpu; /* no sleepers yet: nothing to arm */
	if (bc_host == (int)cpu) {
		spin_unlock_irqrestore(&bc_lock, flags);
		return -EBUSY;
	}
	cpumask_set_cpu(cpu, &bc_sleepers);
	bc_expiry[cpu] = next;
	host = bc_host;
	kick = next < bc_armed && tick_stopped(host);
	if (kick)
		bc_armed =
			next; /* the host will set it; others need not kick */
	spin_unlock_irqrestore(&bc_lock, flags);
	/* What the hardware does in such a state: this timer raises nothing. */
	tick_local_stop_device();
	if (kick)
		smp_send_reschedule(host);
	return 0;
}

void tick_broadcast_exit(void)
{
	unsigned int cpu = smp_processor_id();
	unsigned long flags;

	spin_lock_irqsave(&bc_lock, flags);
	cpumask_clear_cpu(cpu, &bc_sleepers);
	spin_unlock_irqrestore(&bc_lock, flags);
	tick_local_restart_device(); /* an event already past fires at once */
}

/* The host's tick: wake every sleeper whose event has come. */
void tick_broadcast_handle(void)
{
	unsigned int cpu, me = smp_processor_id();
	struct cpumask wake;
	u64 now;

	if (READ_ONCE(bc_host) != (int)me)
		return;
	cpumask_clear(&wake);
	spin_lock(&bc_lock);
	now = arch_counter_get();
	for_each_cpu (cpu, &bc_sleepers)
		if (bc_expiry[cpu] <= now) {
			cpumask_clear_cpu(cpu, &bc_sleepers);
			cpumask_set_cpu(cpu, &wake);
			bc_wakeups[cpu]++;
		}
	spin_unlock(&bc_lock);
	for_each_cpu (cpu, &wake)
		smp_send_reschedule(cpu);
}

u64 tick_broadcast_host_next(unsigned int cpu)
{
	unsigned long flags;
	u64 first = ~0ULL;

	if (READ_ONCE(bc_host) != (int)cpu)
		return first;
	spin_lock_irqsave(&bc_lock, flags);
	if (bc_host == (int)cpu)
		first = bc_armed = earliest_sleeper();
	spin_unlock_irqrestore(&bc_lock, flags);
	return first;
}

void tick_broadcast_offline(unsigned int cpu)
{
	struct cpumask wake;
	unsigned long flags;
	unsigned int other;

	cpumask_clear(&wake);
	spin_lock_irqsave(&bc_lock, flags);
	if (bc_host == (int)cpu) {
		cpumask_copy(&wake, &bc_sleepers);
		cpumask_clear(&bc_sleepers);
		bc_host = -1;
		bc_armed = ~0ULL;
	}
	spin_unlock_irqrestore(&bc_lock, flags);
	for_each_cpu (other, &wake)
		smp_send_reschedule(other);
}

u64 tick_broadcast_wakeups(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? READ_ONCE(bc_wakeups[cpu]) : 0;
}

int tick_broadcast_host(void)
{
	return READ_ONCE(bc_host);
}
