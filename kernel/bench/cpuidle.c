/*
 * bench=idle: what the idle path costs per entry, against a bare WFI.
 * The CPU's timer is set in the past with IRQs masked, so its interrupt
 * stays pending and every WFI returns at once: what is left is the cost
 * of entering and leaving. Three ways, side by side in one boot:
 *   wfi       dsb + wfi, as the idle loop did before idle states;
 *   governor  cpuidle_idle_call() with a latency limit of 0: the
 *             governor's choice (WFI), the counts and its history;
 *   psci      cpuidle_idle_call() forced into state 1: the same plus a
 *             CPU_SUSPEND call to the firmware (QEMU's is a WFI).
 * Medians of BATCHES batches of BATCH entries each, ns per entry.
 */
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <kernel/bench.h>
#include <kernel/cpuidle.h>
#include <kernel/irq.h>
#include <kernel/preempt.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <lib/stats.h>

#define BATCH 200
#define BATCHES 15

enum how { HOW_WFI, HOW_GOVERNOR, HOW_PSCI };

static u64 batch_ns(enum how how)
{
	unsigned long flags;
	u64 t0, t1;

	local_irq_save(flags);
	tick_local_set_device(1); /* long past: the interrupt pends */
	t0 = arch_counter_get();
	for (int i = 0; i < BATCH; i++) {
		if (how == HOW_WFI) {
			dsb(sy);
			wfi();
		} else {
			cpuidle_idle_call();
		}
	}
	t1 = arch_counter_get();
	tick_local_restart_device();
	local_irq_restore(flags);
	return cycles_to_ns(t1 - t0, arch_timer_get_freq()) / BATCH;
}

static u64 median_of(enum how how)
{
	u64 v[BATCHES];

	for (int i = 0; i < BATCHES; i++)
		v[i] = batch_ns(how);
	sort_u64(v, BATCHES);
	return v[BATCHES / 2];
}

static void idle_bench(void)
{
	static struct cpu_latency_req req;
	u64 wfi_ns, gov_ns, psci_ns = 0;

	preempt_disable();
	wfi_ns = median_of(HOW_WFI);
	cpu_latency_qos_add_request(&req, 0);
	gov_ns = median_of(HOW_GOVERNOR);
	cpu_latency_qos_remove_request(&req);
	if (cpuidle_state_count() > 1 && !cpuidle_get_state(1)->disabled &&
	    !cpuidle_force_state_nosync(1)) {
		psci_ns = median_of(HOW_PSCI);
		cpuidle_force_state_nosync(-1);
	}
	preempt_enable();
	bench_report("idle", "wfi_entry_ns", "%llu",
		     (unsigned long long)wfi_ns);
	bench_report("idle", "governor_entry_ns", "%llu",
		     (unsigned long long)gov_ns);
	bench_report(
		"idle", "governor_ratio", "%llu.%02llu",
		(unsigned long long)(gov_ns / max(wfi_ns, 1ULL)),
		(unsigned long long)(gov_ns * 100 / max(wfi_ns, 1ULL) % 100));
	if (psci_ns) {
		bench_report("idle", "psci_standby_entry_ns", "%llu",
			     (unsigned long long)psci_ns);
		bench_report("idle", "psci_ratio", "%llu.%02llu",
			     (unsigned long long)(psci_ns / max(wfi_ns, 1ULL)),
			     (unsigned long long)(psci_ns * 100 /
						  max(wfi_ns, 1ULL) % 100));
	}
}
BENCH(idle, "idle path cost per entry: WFI, governor, PSCI standby",
      idle_bench);
