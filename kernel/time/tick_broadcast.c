/*
 * The tick broadcast: waking CPUs whose own timer stops in a deep idle
 * state (the device tree's local-timer-stop). Without a global timer
 * (QEMU virt has none), one CPU hosts the broadcast on its own timer, as
 * Linux's hrtimer broadcast does: a CPU entering such a state publishes
 * the counter value its timer was due at, and the host wakes it then with
 * an IPI. The host itself may not enter such a state (tick_broadcast_enter()
 * says -EBUSY and the idle code picks a state that keeps the timer), so
 * with every CPU idle one stays in a shallower state: the price of having
 * no global timer.
 *
 * No lock: a sleeper writes its own expiry slot and sets its bit; the
 * host scans the bits. A first version took one spinlock on every entry
 * and exit; at 512 CPUs, an IPI to all of them made a thousand CPUs queue
 * on that ticket lock with IRQs off, each hand-off waiting for the host
 * to run the next vCPU, and the broadcast's host stood in that queue in
 * its tick handler for seconds (an RCU stall on it).
 *
 * The host's timer must cover the earliest sleeper. Its periodic tick
 * does (sleepers' events are jiffy boundaries, where the host ticks too);
 * when its tick stops in idle, tick_nohz_idle_enter() asks for the
 * earliest sleeper, and `armed` promises the host's timer is set no
 * later. A sleeper due before `armed` kicks the host round its idle loop.
 * The two sides are Dekker's: the sleeper sets its bit, then (full
 * barrier) reads `armed`; the host publishes `armed`, then (full barrier)
 * scans the bits again. Either the host sees the bit or the sleeper sees
 * the promise it must beat. While the host computes, `armed` is 0, which
 * no sleeper beats: the host's second scan is what catches those.
 *
 * The first CPU to ask becomes the host (a compare-and-swap) and keeps
 * the role until it is asked to go down (cpu_idle_dead(), before it can
 * stall on its way out) or its tick stops: it then gives the role up and
 * wakes every sleeper, which choose again. A sleeper that finds no host
 * after setting its bit takes its bit back and stays awake. A host
 * stalled with interrupts off delays every sleeper's wake-up until the
 * stall ends: the price of having no global timer.
 */
#define pr_fmt(fmt) "tick: " fmt
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/smp.h>
#include <kernel/timer.h>
#include <lib/errno.h>

#define NO_HOST (-1)

static struct cpumask bc_sleepers; /* timer stopped, waiting to be woken */
static int bc_host = NO_HOST;
static u64 bc_armed = ~0ULL; /* the host's stopped tick is set no later */
static DEFINE_CPU_ARRAY(u64, bc_expiry); /* counter value each waits for */
static DEFINE_CPU_ARRAY(u64, bc_wakeups);

static u64 earliest_sleeper(void)
{
	u64 first = ~0ULL;
	unsigned int cpu;

	for_each_cpu (cpu, &bc_sleepers) {
		smp_rmb(); /* the bit before its expiry: see enter */
		first = min(first, READ_ONCE(bc_expiry[cpu]));
	}
	return first;
}

int tick_broadcast_enter(void)
{
	unsigned int cpu = smp_processor_id();
	int host = READ_ONCE(bc_host);
	u64 next = tick_local_next();

	if (host == NO_HOST) {
		/* No sleepers without a host: nothing to cover yet. */
		__atomic_compare_exchange_n(&bc_host, &host, (int)cpu, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		host = READ_ONCE(bc_host);
	}
	if (host == (int)cpu)
		return -EBUSY;
	WRITE_ONCE(bc_expiry[cpu], next);
	smp_wmb(); /* a host that sees the bit sees this sleep's expiry */
	cpumask_set_cpu(cpu, &bc_sleepers);
	smp_mb(); /* the bit before `armed` and the host: see the top */
	host = READ_ONCE(bc_host);
	if (host == NO_HOST || host == (int)cpu) {
		cpumask_clear_cpu(cpu, &bc_sleepers);
		return -EBUSY; /* the host went: stay awake, choose again */
	}
	/* What the hardware does in such a state: this timer raises nothing. */
	tick_local_stop_device();
	if (next < READ_ONCE(bc_armed) && tick_stopped(host))
		smp_send_reschedule(host);
	return 0;
}

void tick_broadcast_exit(void)
{
	cpumask_clear_cpu(smp_processor_id(), &bc_sleepers);
	tick_local_restart_device(); /* an event already past fires at once */
}

/* The host's tick: wake every sleeper whose event has come. */
void tick_broadcast_handle(void)
{
	unsigned int cpu, me = smp_processor_id();
	u64 now;

	if (READ_ONCE(bc_host) != (int)me)
		return;
	now = arch_counter_get();
	for_each_cpu (cpu, &bc_sleepers) {
		smp_rmb(); /* the bit before its expiry: see enter */
		if (READ_ONCE(bc_expiry[cpu]) <= now &&
		    test_and_clear_bit(cpu, cpumask_bits(&bc_sleepers))) {
			bc_wakeups[cpu]++;
			smp_send_reschedule(cpu);
		}
	}
}

u64 tick_broadcast_host_next(unsigned int cpu)
{
	u64 first, again;

	if (READ_ONCE(bc_host) != (int)cpu)
		return ~0ULL;
	WRITE_ONCE(bc_armed, 0); /* computing: sleepers do not rely on it */
	smp_mb();
	first = earliest_sleeper();
	for (;;) {
		WRITE_ONCE(bc_armed, first);
		smp_mb(); /* the promise before the second scan */
		again = earliest_sleeper();
		if (again >= first)
			return first;
		first = again;
	}
}

void tick_broadcast_offline(unsigned int cpu)
{
	int host = (int)cpu;
	unsigned int other;

	if (!__atomic_compare_exchange_n(&bc_host, &host, NO_HOST, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	WRITE_ONCE(bc_armed, ~0ULL);
	smp_mb(); /* no host before the scan: see tick_broadcast_enter() */
	for_each_cpu (other, &bc_sleepers)
		if (test_and_clear_bit(other, cpumask_bits(&bc_sleepers)))
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

bool tick_broadcast_sleeping(unsigned int cpu, u64 *expiry)
{
	if (cpu >= nr_cpu_ids || !cpumask_test_cpu(cpu, &bc_sleepers))
		return false;
	*expiry = READ_ONCE(bc_expiry[cpu]);
	return true;
}

u64 tick_broadcast_armed(void)
{
	return READ_ONCE(bc_armed);
}
