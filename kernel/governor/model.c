/*
 * The power model: energy from what the kernel measured. Each core is
 * active (running a thread), idle in one of its idle states (WFI or a
 * deeper PSCI state, each with its own power and an energy per entry),
 * or off (hotplugged out). A cluster of cores shares power (L2, SCU,
 * interconnect) that it drops only while all its cores are off: QEMU's
 * firmware has no cluster-level idle state, so only hotplug reaches it.
 * A hotplug operation costs the kernel's own measured time for it at
 * active power (the median down and up of this boot) plus a firmware
 * constant (cache flush, power gating and restore), unless transition_uj
 * fixes it.
 *
 * energy = sum over cores and states of power x time
 *        + idle entries x entry energy + hotplug operations x transition
 *        + sum over clusters of cluster power x time not all off.
 *
 * Every default is illustrative, of the order of a Cortex-A53 little core
 * at about 1.2 GHz in a 28 nm phone SoC; none is a measurement:
 * - active 150 mW, WFI 30 mW (clock-gated: leakage, retained caches),
 *   off 1 mW (power-gated);
 * - idle state 1 (cpu-retention in qemu.sh's table) 12 mW, state 2
 *   (cpu-sleep, core power-gated with the cluster on) 2 mW; each entry
 *   costs its entry + exit latency at active power (25 and 46 uJ);
 * - cluster 40 mW, clusters of 2 cores (a 2+2 phone layout over -smp 4);
 * - firmware share of a hotplug operation 50 uJ (TF-A's Juno figures: a
 *   CPU_OFF entry of 20-110 us, a power-on exit of 22-28 us, plus caches).
 */
#define pr_fmt(fmt) fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuidle.h>
#include <kernel/mm.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <stdlib.h>
#include <string.h>
#include "power.h"

struct power_model power_model = {
	.active_mw = 150,
	.wfi_mw = 30,
	.off_mw = 1,
	.transition_uj = 0, /* derived from the measured down and up */
	.fw_uj = 50,
	.idle_mw = {[1] = 12, [2] = 2},
	.idle_uj = {[1] = POWER_UJ_DERIVED, [2] = POWER_UJ_DERIVED},
	.cluster_mw = 40,
	.cluster_cpus = 2,
};

/* ---- clusters: time with every core off -------------------------------- */

static DEFINE_SPINLOCK(cluster_lock);
static DEFINE_CPU_ARRAY(bool, cpu_off);
static DEFINE_CPU_ARRAY(u64, cluster_off_since); /* 0: not all off */
static DEFINE_CPU_ARRAY(u64, cluster_off_ns);

static unsigned int nr_clusters(void)
{
	return DIV_ROUND_UP(nr_cpu_ids, power_model.cluster_cpus);
}

static bool cluster_all_off(unsigned int c)
{
	unsigned int n = power_model.cluster_cpus;

	for (unsigned int cpu = c * n; cpu < min((c + 1) * n, nr_cpu_ids);
	     cpu++)
		if (!cpu_off[cpu])
			return false;
	return true;
}

/* After each successful down or up (a hotplug notifier). */
static void power_note_cpu(unsigned int cpu, bool up)
{
	unsigned int c = cpu / power_model.cluster_cpus;
	unsigned long flags;
	u64 now = ktime_get_ns();

	if (!cpu_off || cpu >= nr_cpu_ids)
		return;
	spin_lock_irqsave(&cluster_lock, flags);
	cpu_off[cpu] = !up;
	if (cluster_all_off(c) && !cluster_off_since[c]) {
		cluster_off_since[c] = now;
	} else if (!cluster_all_off(c) && cluster_off_since[c]) {
		cluster_off_ns[c] += now - cluster_off_since[c];
		cluster_off_since[c] = 0;
	}
	spin_unlock_irqrestore(&cluster_lock, flags);
}

CPUHP_NOTIFIER(power_note_cpu);

/* Sum over clusters of the time all their cores were off, until now. */
static u64 clusters_off_ns(void)
{
	u64 sum = 0, now = ktime_get_ns();
	unsigned long flags;

	spin_lock_irqsave(&cluster_lock, flags);
	for (unsigned int c = 0; c < nr_clusters(); c++)
		sum += cluster_off_ns[c] +
		       (cluster_off_since[c] ? now - cluster_off_since[c] : 0);
	spin_unlock_irqrestore(&cluster_lock, flags);
	return sum;
}

/* ---- the meter ---------------------------------------------------------- */

static u64 hotplug_ops(void)
{
	struct cpuhp_stats hs;

	hotplug_get_stats(&hs);
	return hs.ups + hs.downs;
}

int power_meter_start(struct power_meter *m)
{
	struct sched_cpu_stats cs;

	m->cpu = kcalloc(nr_cpu_ids, sizeof(*m->cpu));
	if (!m->cpu)
		return -ENOMEM;
	/* Every CPU ends the idle stay it is in: counted before t0. */
	cpuidle_kick_all_sync();
	m->t0_ns = ktime_get_ns();
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		sched_cpu_stats(cpu, &cs);
		m->cpu[cpu].busy_ns = cs.busy_ns;
		m->cpu[cpu].idle_ns = cs.idle_ns;
		cpuidle_get_usage(cpu, m->cpu[cpu].idle, CPUIDLE_STATE_MAX);
	}
	m->transitions = hotplug_ops();
	m->clusters_off_ns = clusters_off_ns();
	return 0;
}

void power_meter_free(struct power_meter *m)
{
	kfree(m->cpu);
	m->cpu = NULL;
}

/* microjoules for mw milliwatts during ns nanoseconds */
static u64 uj(unsigned int mw, u64 ns)
{
	return mw * (ns / 1000) / 1000; /* mW x us = nJ */
}

/* State i's energy per entry (uJ): as set, or entry + exit at active. */
static u64 entry_uj(int i)
{
	const struct cpuidle_state *s = cpuidle_get_state(i);

	if (power_model.idle_uj[i] != POWER_UJ_DERIVED)
		return power_model.idle_uj[i];
	return s ? (u64)s->exit_latency_us * power_model.active_mw / 1000 : 0;
}

/* A hotplug operation's energy (uJ): as set, or measured + firmware. */
u64 power_transition_uj(void)
{
	struct cpuhp_stats hs;

	if (power_model.transition_uj)
		return power_model.transition_uj;
	hotplug_get_stats(&hs);
	return uj(power_model.active_mw, (hs.down_ns[1] + hs.up_ns[1]) / 2) +
	       power_model.fw_uj;
}

/*
 * Break-even: a down and the up after it cost 2 x power_transition_uj();
 * an off core saves (P(deepest usable idle state) - P(off)) meanwhile.
 * uJ / mW = ms. The cluster's share is left out: an off core saves it
 * only if its whole cluster goes, so this is the cautious figure.
 */
unsigned int power_break_even_ms(void)
{
	int deepest = cpuidle_deepest_usable();
	unsigned int idle_mw = deepest > 0 && deepest < POWER_IDLE_MAX
				       ? power_model.idle_mw[deepest]
				       : power_model.wfi_mw;
	u64 saved_mw =
		idle_mw > power_model.off_mw ? idle_mw - power_model.off_mw : 0;

	if (!saved_mw)
		return 60000; /* off saves nothing: never worth it */
	return (unsigned int)min(2 * power_transition_uj() / saved_mw,
				 (u64)60000);
}

/*
 * A core's time off is what is left of the wall time once its active and
 * idle time are counted: the scheduler's counters stand still while it
 * is off. Its idle time is split by state as cpuidle counted it; idle
 * time outside any counted stay (the idle loop itself) is WFI's.
 */
void power_meter_read(const struct power_meter *m, struct power_result *r)
{
	const struct power_model *pm = &power_model;
	int n = cpuidle_state_count();
	struct sched_cpu_stats cs;
	u64 per_op;

	cpuidle_kick_all_sync(); /* stays still going are counted */
	*r = (struct power_result){.wall_ns = ktime_get_ns() - m->t0_ns};
	if (!m->cpu)
		return; /* never started */
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct cpuidle_state_usage u[CPUIDLE_STATE_MAX];
		u64 busy, idle, counted = 0;

		sched_cpu_stats(cpu, &cs);
		cpuidle_get_usage(cpu, u, n);
		busy = cs.busy_ns - m->cpu[cpu].busy_ns;
		idle = cs.idle_ns - m->cpu[cpu].idle_ns;
		r->active_ns += busy;
		r->idle_ns += idle;
		r->off_ns +=
			r->wall_ns > busy + idle ? r->wall_ns - busy - idle : 0;
		for (int i = 0; i < n; i++) {
			u64 t = u[i].time_ns - m->cpu[cpu].idle[i].time_ns;
			u64 e = u[i].usage - m->cpu[cpu].idle[i].usage;

			t = min(t, idle - min(idle, counted));
			counted += t;
			r->state_ns[i] += t;
			r->state_entries[i] += e;
		}
		r->state_ns[0] += idle - min(idle, counted);
	}
	r->transitions = hotplug_ops() - m->transitions;
	r->clusters_off_ns = clusters_off_ns() - m->clusters_off_ns;
	per_op = r->transition_uj = power_transition_uj();
	r->energy_uj =
		uj(pm->active_mw, r->active_ns) + uj(pm->off_mw, r->off_ns) +
		r->transitions * per_op +
		uj(pm->cluster_mw,
		   r->wall_ns * nr_clusters() -
			   min(r->wall_ns * nr_clusters(), r->clusters_off_ns));
	r->energy_uj += uj(pm->wfi_mw, r->state_ns[0]);
	for (int i = 1; i < n; i++)
		r->energy_uj += uj(pm->idle_mw[i], r->state_ns[i]) +
				r->state_entries[i] * entry_uj(i);
}

/* ---- tunables ------------------------------------------------------------ */

static const struct {
	const char *key;
	unsigned int *val;
	unsigned int min, max;
} keys[] = {
	{"active_mw", &power_model.active_mw, 0, 100000},
	{"wfi_mw", &power_model.wfi_mw, 0, 100000},
	{"off_mw", &power_model.off_mw, 0, 100000},
	{"transition_uj", &power_model.transition_uj, 0, 100000},
	{"fw_uj", &power_model.fw_uj, 0, 100000},
	{"idle1_mw", &power_model.idle_mw[1], 0, 100000},
	{"idle2_mw", &power_model.idle_mw[2], 0, 100000},
	{"idle3_mw", &power_model.idle_mw[3], 0, 100000},
	{"idle1_uj", &power_model.idle_uj[1], 0, 100000},
	{"idle2_uj", &power_model.idle_uj[2], 0, 100000},
	{"idle3_uj", &power_model.idle_uj[3], 0, 100000},
	{"cluster_mw", &power_model.cluster_mw, 0, 100000},
	{"cluster_cpus", &power_model.cluster_cpus, 1, 4096},
};

int power_model_set(const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
	unsigned long v;
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strlen(keys[i].key) != klen ||
		    strncmp(kv, keys[i].key, klen))
			continue;
		v = eq ? strtoul(eq + 1, &end, 10) : 0;
		if (!eq || !eq[1] || *end || v < keys[i].min ||
		    v > keys[i].max) {
			pr_info("error: %s wants a whole number in [%u, %u]\n",
				keys[i].key, keys[i].min, keys[i].max);
			return -EINVAL;
		}
		*keys[i].val = v;
		return 0;
	}
	pr_info("error: unknown power model key '%.*s' (active_mw wfi_mw "
		"off_mw transition_uj fw_uj idleN_mw idleN_uj cluster_mw "
		"cluster_cpus)\n",
		(int)klen, kv);
	return -EINVAL;
}

void power_model_print(void)
{
	const struct power_model *pm = &power_model;
	char idle[128];
	int len = 0;

	for (int i = 1; i < cpuidle_state_count() && i < POWER_IDLE_MAX; i++)
		len += snprintf(idle + len, sizeof(idle) - len,
				" idle%d_mw=%u idle%d_uj=%llu", i,
				pm->idle_mw[i], i,
				(unsigned long long)entry_uj(i));
	idle[len] = '\0';
	pr_info("power: model (illustrative, Cortex-A53-class little core): "
		"active_mw=%u wfi_mw=%u off_mw=%u transition_uj=%llu%s "
		"fw_uj=%u%s cluster_mw=%u cluster_cpus=%u\n",
		pm->active_mw, pm->wfi_mw, pm->off_mw,
		(unsigned long long)power_transition_uj(),
		pm->transition_uj ? "" : " (measured)", pm->fw_uj, idle,
		pm->cluster_mw, pm->cluster_cpus);
}
