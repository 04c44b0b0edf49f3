/*
 * The figures of CPU hotplug, for the shell's `hotplug`, the benchmarks
 * and the tests: how many downs and ups, their latency, each step's share,
 * and the firmware's share of the operations whose enable method called
 * firmware. Recorded by the step table (core.c) with the hotplug lock
 * held; read under the same lock.
 */
#include <kernel/cpu.h>
#include <kernel/cpuhp.h>
#include <kernel/lockdep.h>
#include <lib/kernel.h>
#include <lib/stats.h>
#include "hotplug.h"

#define HP_SAMPLES 64 /* latencies kept for the figures */

static struct {
	u64 ups, downs, up_failed, down_failed;
	u64 up_ns[HP_SAMPLES], down_ns[HP_SAMPLES];
	u64 total_ns[2]; /* every operation's time, [0] downs, [1] ups */
	/* Each step's time in the last operations, [0] down, [1] up. */
	u64 step_ns[CPUHP_MAX_STEPS][2][HP_SAMPLES];
	/* Operations with a firmware figure: its share and the rest. */
	u64 fw_ops[2];
	u64 fw_ns[2][HP_SAMPLES], kernel_ns[2][HP_SAMPLES];
	struct cpuhp_op last[2];
} hp_stats;

static void record(u64 *ring, u64 count, u64 ns)
{
	ring[count % HP_SAMPLES] = ns;
}

/*
 * In the slot of the operation in progress (its count not yet moved).
 * Steps on the CPU itself record here too: the lock is held by the
 * thread that drives the operation, not by that CPU's thread.
 */
void cpuhp_stats_step(unsigned int step, bool up, u64 ns)
{
	if (step < CPUHP_MAX_STEPS)
		record(hp_stats.step_ns[step][up],
		       up ? hp_stats.ups : hp_stats.downs, ns);
}

/* Its total, and split into the firmware's share and the kernel's when
 * the firmware was timed. */
void cpuhp_stats_op(unsigned int cpu, bool up, u64 ns)
{
	u64 *count = up ? &hp_stats.ups : &hp_stats.downs;
	u64 fw = up ? arch_cpu_fw_up_ns(cpu) : arch_cpu_fw_down_ns(cpu);

	lockdep_assert_cpus_held();
	record(up ? hp_stats.up_ns : hp_stats.down_ns, (*count)++, ns);
	hp_stats.total_ns[up] += ns;
	hp_stats.last[up] = (struct cpuhp_op){
		.seq = *count, .cpu = cpu, .ns = ns, .fw_ns = fw};
	if (!fw)
		return;
	record(hp_stats.fw_ns[up], hp_stats.fw_ops[up], fw);
	record(hp_stats.kernel_ns[up], hp_stats.fw_ops[up]++, ns - fw);
}

void cpuhp_stats_failed(bool up)
{
	lockdep_assert_cpus_held();
	if (up)
		hp_stats.up_failed++;
	else
		hp_stats.down_failed++;
}

void hotplug_get_stats(struct cpuhp_stats *st)
{
	cpu_maps_update_begin();
	st->ups = hp_stats.ups;
	st->downs = hp_stats.downs;
	st->down_total_ns = hp_stats.total_ns[0];
	st->up_total_ns = hp_stats.total_ns[1];
	st->up_failed = hp_stats.up_failed;
	st->down_failed = hp_stats.down_failed;
	ring_summary(hp_stats.up_ns, HP_SAMPLES, hp_stats.ups, st->up_ns);
	ring_summary(hp_stats.down_ns, HP_SAMPLES, hp_stats.downs, st->down_ns);
	st->nr_steps = cpuhp_nr_steps();
	for (int i = 0; i < st->nr_steps; i++) {
		u64 down[3], up[3];

		ring_summary(hp_stats.step_ns[i][0], HP_SAMPLES, hp_stats.downs,
			     down);
		ring_summary(hp_stats.step_ns[i][1], HP_SAMPLES, hp_stats.ups,
			     up);
		st->step_name[i] = cpuhp_step_name(i);
		st->step_down_ns[i] = down[1];
		st->step_up_ns[i] = up[1];
	}
	st->fw_downs = hp_stats.fw_ops[0];
	st->fw_ups = hp_stats.fw_ops[1];
	ring_summary(hp_stats.fw_ns[0], HP_SAMPLES, st->fw_downs,
		     st->fw_down_ns);
	ring_summary(hp_stats.fw_ns[1], HP_SAMPLES, st->fw_ups, st->fw_up_ns);
	ring_summary(hp_stats.kernel_ns[0], HP_SAMPLES, st->fw_downs,
		     st->kernel_down_ns);
	ring_summary(hp_stats.kernel_ns[1], HP_SAMPLES, st->fw_ups,
		     st->kernel_up_ns);
	cpu_maps_update_done();
}

void hotplug_last_ops(struct cpuhp_op *down, struct cpuhp_op *up)
{
	cpu_maps_update_begin();
	*down = hp_stats.last[0];
	*up = hp_stats.last[1];
	cpu_maps_update_done();
}
