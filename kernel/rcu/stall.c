/*
 * The RCU stall detector: a grace period older than rcu_stall_timeout_ms
 * is reported from the tick of whichever CPU notices first, naming the
 * CPUs that still owe a quiescent state and asking each for its
 * backtrace by IPI, like Linux's "rcu: INFO: rcu detected stalls". It
 * reports again every timeout while the stall lasts.
 */
#define pr_fmt(fmt) "rcu: " fmt
#include <asm/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <lib/printf.h>
#include "rcu.h"

#define RCU_STALL_TIMEOUT_DEFAULT_MS 5000

unsigned long rcu_stall_timeout_ms = RCU_STALL_TIMEOUT_DEFAULT_MS;
unsigned long rcu_stall_reports;

static unsigned long stall_timeout_s = RCU_STALL_TIMEOUT_DEFAULT_MS / 1000;
param_ulong("rcu.stall_timeout", stall_timeout_s, 1, 3600,
	    "S: RCU stall warning after S seconds (default 5)");

void rcu_stall_init(void)
{
	rcu_stall_timeout_ms = stall_timeout_s * 1000;
}

#define STALL_CPUS_SHOWN 8

/* Microseconds from now to a counter value (negative: past). */
static long long us_from_now(u64 when, u64 now)
{
	return (long long)((s64)(when - now) * 1000000 /
			   (s64)arch_timer_get_freq());
}

/* "in N us" for a counter value, or none for ~0 (never). */
static const char *when_str(char *buf, size_t len, u64 when, u64 now,
			    const char *none)
{
	if (when == ~0ULL)
		return none;
	snprintf(buf, len, "in %lld us", us_from_now(when, now));
	return buf;
}

/*
 * What RCU knows of each stalled CPU (the first few): idle or running by
 * its dynticks count and since when, whether the GP's start saw it idle,
 * the GP it last noticed, whether it knows it owes one, and its tick:
 * when it is due and what the timer is really set for, and whether it
 * sleeps on the tick broadcast. A CPU that is idle and owes a QS should
 * have reported it on its way into idle; one whose tick is long overdue
 * took no timer interrupt. Then the broadcast's host, which wakes the
 * CPUs whose timer stopped.
 */
static void stall_print_cpus(const struct cpumask *stalled)
{
	u64 now = arch_counter_get(), expiry;
	unsigned int cpu, shown = 0;
	int host = tick_broadcast_host();

	for_each_cpu (cpu, stalled) {
		struct rcu_data *rdp = &rcu_data[cpu];
		struct rcu_node *n = &rcu_state.nodes[cpu / RCU_FANOUT_LEAF];
		bool start_idle = READ_ONCE(n->start_idle) &
				  (1UL << (cpu % RCU_FANOUT_LEAF));
		char bc[48] = "", dev[32];

		if (shown++ == STALL_CPUS_SHOWN) {
			pr_err("  ... and %u more\n",
			       cpumask_weight(stalled) - STALL_CPUS_SHOWN);
			break;
		}
		if (tick_broadcast_sleeping(cpu, &expiry))
			snprintf(bc, sizeof(bc),
				 ", broadcast sleeper due %lld us",
				 us_from_now(expiry, now));
		pr_err("  CPU%u: %s for %lld us (dynticks %lu, %s at GP "
		       "start), "
		       "gp seen %ld, qs_pending %d, passed_qs %d, tick %s, "
		       "%llu "
		       "ticks, next in %lld us, timer %s%s\n",
		       cpu, READ_ONCE(rdp->dynticks) & 1 ? "running" : "idle",
		       -us_from_now(READ_ONCE(rdp->idle_stamp), now),
		       READ_ONCE(rdp->dynticks),
		       start_idle ? "idle" : "running",
		       READ_ONCE(rdp->gp_seq_seen), READ_ONCE(rdp->qs_pending),
		       READ_ONCE(rdp->passed_qs),
		       tick_stopped(cpu) ? "stopped" : "on",
		       (unsigned long long)tick_count_cpu(cpu),
		       us_from_now(tick_next_event(cpu), now),
		       when_str(dev, sizeof(dev), tick_device_next(cpu), now,
				"off"),
		       bc);
	}
	if (host >= 0) {
		char dev[32], armed[32];

		pr_err("  broadcast host CPU%d: tick %s, timer %s, armed %s\n",
		       host, tick_stopped(host) ? "stopped" : "on",
		       when_str(dev, sizeof(dev), tick_device_next(host), now,
				"off"),
		       when_str(armed, sizeof(armed), tick_broadcast_armed(),
				now, "never"));
	}
}

/* From the tick, IRQs off. */
void rcu_check_stall(void)
{
	struct cpumask stalled;
	char list[128];
	u64 now = ktime_get_ns(), age;
	long gp;

	if (READ_ONCE(rcu_state.gp_seq) == READ_ONCE(rcu_state.gp_completed) ||
	    now < READ_ONCE(rcu_state.stall_next_ns))
		return;
	/*
	 * Try, never wait: once a stall is due every CPU's tick comes here,
	 * and at 512 vCPUs they queued on the lock (ticket 16523, next
	 * 17035, in GDB) ahead of the very report that ends the grace
	 * period. A CPU that finds it taken leaves the check to its holder.
	 */
	if (!spin_trylock(&rcu_state.lock))
		return;
	gp = rcu_state.gp_seq;
	if (gp == rcu_state.gp_completed || now < rcu_state.stall_next_ns) {
		spin_unlock(&rcu_state.lock);
		return;
	}
	rcu_state.stall_next_ns = now + rcu_stall_timeout_ms * 1000000ULL;
	rcu_qsmask_get(&stalled);
	age = now - rcu_state.gp_start_ns;
	rcu_stall_reports++;
	spin_unlock(&rcu_state.lock);

	cpumap_print_list(list, sizeof(list), &stalled);
	pr_err("INFO: rcu detected stalls on CPUs: { %s } (gp %ld, %llu ms)\n",
	       list, gp, (unsigned long long)(age / 1000000));
	stall_print_cpus(&stalled);
	smp_send_backtrace(&stalled);
}
