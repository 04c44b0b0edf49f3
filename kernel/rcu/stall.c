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

/*
 * What RCU knows of each stalled CPU (the first few): idle or running by
 * its dynticks count, the GP it last noticed, whether it knows it owes
 * one, and whether its tick still runs. A CPU that is idle and owes a QS
 * should have reported it on its way into idle.
 */
static void stall_print_cpus(const struct cpumask *stalled)
{
	unsigned int cpu, shown = 0;

	for_each_cpu (cpu, stalled) {
		struct rcu_data *rdp = &rcu_data[cpu];

		if (shown++ == STALL_CPUS_SHOWN) {
			pr_err("  ... and %u more\n",
			       cpumask_weight(stalled) - STALL_CPUS_SHOWN);
			break;
		}
		s64 next = tick_next_event(cpu) - arch_counter_get();

		pr_err("  CPU%u: %s (dynticks %lu), gp seen %ld, qs_pending "
		       "%d, "
		       "passed_qs %d, tick %s, %llu ticks, next in %lld us\n",
		       cpu, READ_ONCE(rdp->dynticks) & 1 ? "running" : "idle",
		       READ_ONCE(rdp->dynticks), READ_ONCE(rdp->gp_seq_seen),
		       READ_ONCE(rdp->qs_pending), READ_ONCE(rdp->passed_qs),
		       tick_stopped(cpu) ? "stopped" : "on",
		       (unsigned long long)tick_count_cpu(cpu),
		       (long long)(next * 1000000 /
				   (s64)arch_timer_get_freq()));
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
