/*
 * The power model: energy from what the kernel measured. Each core is
 * active (running a thread at the operating point in use), idle in one
 * of its idle states (WFI or a deeper PSCI state, each with its own
 * power and an energy per entry), or off (hotplugged out). Each cluster
 * of cores (L2, SCU, interconnect) costs its active power while any core
 * of it runs, its idle power while all are idle or off, and its
 * powered-down power while all are in a cluster idle state or off
 * (cpuidle.c counts these times as the firmware would): whichever
 * strategy gets a cluster down, idle states or hotplug, is credited.
 * A hotplug operation costs the kernel's own measured time for it at
 * active power (the mean of the run's own downs and ups; the boot's
 * median down and up before any) plus a firmware constant (cache flush,
 * power gating and restore), unless transition_uj fixes it. Under
 * hotplug.sync=stop_machine the other CPUs spin stopped meanwhile: that
 * stall, summed over CPUs, costs active power over the WFI its time was
 * counted as.
 *
 * energy = sum over cores and states of power x time
 *        + idle entries x entry energy + hotplug operations x transition
 *        + stop_machine's stall x (active - WFI)
 *        + sum over clusters of power x time busy, idle and down
 *        + cluster power-downs x the cluster's entry energy.
 *
 * Two sets of figures (the key model=): "juno-a53", the default, ARM's
 * published energy model of the Cortex-A53 cluster of the Juno r0/r2
 * board (its source named beside each figure, power_models[] below),
 * and "invented", illustrative figures kept as the alternative that
 * shows what the choice of figures does.
 */
#define pr_fmt(fmt) fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuidle.h>
#include <kernel/mm.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/stop_machine.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/power.h>

/*
 * ARM's energy model for Juno r0/r2's Cortex-A53 cluster, as ARM's LISA
 * tool publishes it (ARM-software/lisa, libs/utils/platforms/
 * juno_energy.py; the same figures as the EAS patches' "arm64, topology:
 * Define JUNO energy" for Linux, 2015). The EAS patches call the units
 * normalised; LISA compares them with Juno's energy meters, and this
 * model reads them as mW. Per OPP (kHz): CPU capacity and power, the
 * cluster's power while a CPU of it runs:
 *   450 MHz  cap 235  cpu 33  cluster 26
 *   575 MHz  cap 302  cpu 46  cluster 30
 *   700 MHz  cap 368  cpu 61  cluster 39
 *   775 MHz  cap 406  cpu 76  cluster 47
 *   850 MHz  cap 447  cpu 93  cluster 57
 * Idle, per state (WFI, cpu-sleep-0, cluster-sleep-0): CPU 6, 0, 0;
 * cluster 56, 56, 17. The model has no figure for a retention state
 * (Juno has none): cpu-retention is charged WFI's 6, the cautious choice.
 * An off core is power-gated as in cpu-sleep: 0. A cluster all off is
 * down as in cluster-sleep: 17.
 */
static const struct power_model power_models[] = {
	{
		.name = "juno-a53",
		.nr_opps = 5,
		.opp = {{450000, 235, 33, 26},
			{575000, 302, 46, 30},
			{700000, 368, 61, 39},
			{775000, 406, 76, 47},
			{850000, 447, 93, 57}},
		.wfi_mw = 6,
		.idle_mw = {[1] = 6, [2] = 0, [3] = 0},
		.off_mw = 0,
		.cluster_idle_mw = 56,
		.cluster_down_mw = 17,
		/* TF-A on Juno: a CPU_OFF entry of 20-110 us, a power-on
		 * exit of 22-28 us, plus cache maintenance. */
		.fw_uj = 50,
	},
	/*
	 * Illustrative only, of the order of a Cortex-A53 little core at
	 * about 1.2 GHz in a 28 nm phone SoC: active 150, WFI 30 (clock-
	 * gated), cpu-retention 12, cpu-sleep and a cluster state's core 2,
	 * off 1; a cluster of 2 cores 40 mW awake, 0 down. One OPP.
	 */
	{
		.name = "invented",
		.nr_opps = 1,
		.opp = {{1200000, 1024, 150, 40}},
		.wfi_mw = 30,
		.idle_mw = {[1] = 12, [2] = 2, [3] = 2},
		.off_mw = 1,
		.cluster_idle_mw = 40,
		.cluster_down_mw = 0,
		.fw_uj = 50,
	},
};

struct power_model power_model;

/* The model's OPP capacities, for the scheduler's choice. */
static const unsigned int *caps(void)
{
	static unsigned int c[POWER_OPP_MAX];

	for (unsigned int k = 0; k < power_model.nr_opps; k++)
		c[k] = power_model.opp[k].capacity;
	return c;
}

/* Load model name's figures at its top OPP; -EINVAL if it is unknown. */
int power_model_load(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(power_models); i++) {
		if (strcmp(power_models[i].name, name))
			continue;
		power_model = power_models[i];
		power_model.cur_opp = power_model.nr_opps - 1;
		power_model.transition_uj = 0; /* measured */
		for (int j = 0; j < POWER_IDLE_MAX; j++)
			power_model.idle_uj[j] = POWER_UJ_DERIVED;
		power_model.cluster_uj = POWER_UJ_DERIVED;
		sched_cpufreq_set_opps(caps(), power_model.nr_opps);
		return 0;
	}
	pr_info("error: unknown power model '%s' (juno-a53 invented)\n", name);
	return -EINVAL;
}

/* At first use: the default, juno-a53 (power.model=model=NAME changes it). */
static void model_ready(void)
{
	if (!power_model.name)
		power_model_load(power_models[0].name);
}

static unsigned int active_mw(void)
{
	model_ready();
	return power_model.opp[power_model.cur_opp].cpu_mw;
}

/* ---- the meter ---------------------------------------------------------- */

static u64 hotplug_ops(void)
{
	struct cpuhp_stats hs;

	hotplug_get_stats(&hs);
	return hs.ups + hs.downs;
}

/* Every down's and up's time since boot, summed. */
static u64 hotplug_op_ns(void)
{
	struct cpuhp_stats hs;

	hotplug_get_stats(&hs);
	return hs.down_total_ns + hs.up_total_ns;
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
		memcpy(m->cpu[cpu].opp_busy_ns, cs.opp_busy_ns,
		       sizeof(cs.opp_busy_ns));
		m->cpu[cpu].idle_ns = cs.idle_ns;
		cpuidle_get_usage(cpu, m->cpu[cpu].idle, CPUIDLE_STATE_MAX);
	}
	m->transitions = hotplug_ops();
	m->op_ns = hotplug_op_ns();
	m->stall_ns = stop_machine_total_stop_ns();
	cpuidle_clusters_sum(&m->clusters);
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

/*
 * State i's energy per CPU entry (uJ): as set, or its wake-up latency at
 * active power. A cluster state's CPU entry is the CPU state's below it;
 * the cluster's own part is paid per power-down (cluster_entry_uj()).
 */
static u64 entry_uj(int i)
{
	const struct cpuidle_state *s = cpuidle_get_state(i);

	if (i < POWER_IDLE_MAX && power_model.idle_uj[i] != POWER_UJ_DERIVED)
		return power_model.idle_uj[i];
	if (s && s->flags & CPUIDLE_FLAG_CLUSTER)
		s = cpuidle_get_state(i - 1);
	return s ? (u64)s->exit_latency_us * active_mw() / 1000 : 0;
}

/* A cluster power-down's own energy: its part of the cluster state's. */
static u64 cluster_entry_uj(void)
{
	int n = cpuidle_state_count();
	const struct cpuidle_state *cl = cpuidle_get_state(n - 1);

	model_ready();
	if (power_model.cluster_uj != POWER_UJ_DERIVED)
		return power_model.cluster_uj;
	if (!cl || !(cl->flags & CPUIDLE_FLAG_CLUSTER))
		return 0; /* hotplug's downs are priced as transitions */
	return (u64)(cl->exit_latency_us -
		     cpuidle_get_state(n - 2)->exit_latency_us) *
	       active_mw() / 1000;
}

/* A hotplug operation's energy (uJ): as set, or measured + firmware. */
u64 power_transition_uj(void)
{
	struct cpuhp_stats hs;

	if (power_model.transition_uj)
		return power_model.transition_uj;
	hotplug_get_stats(&hs);
	return uj(active_mw(), (hs.down_ns[1] + hs.up_ns[1]) / 2) +
	       power_model.fw_uj;
}

/*
 * Break-even: a down and the up after it cost 2 x the transition energy;
 * meanwhile the off core saves
 *   P(the state it would idle in) - P(off)
 * + its wake-ups' entry energy (rate x entry: an off core is not woken)
 * + for its cluster's last online core, when the cluster could not go
 *   down from idle (no usable cluster state, or wake-ups more often than
 *   the cluster state's residency): P(cluster idle) - P(cluster down).
 * uJ / mW = ms; powers in uW here so a few wake-ups a second count.
 */
unsigned int power_break_even_calc(const struct power_break_even *be)
{
	u64 saved_uw = (be->state_mw > be->off_mw
				? (u64)(be->state_mw - be->off_mw) * 1000
				: 0) +
		       (u64)be->rate_hz * be->entry_uj;

	if (be->cluster_term && be->cluster_idle_mw > be->cluster_down_mw)
		saved_uw +=
			(u64)(be->cluster_idle_mw - be->cluster_down_mw) * 1000;
	if (!saved_uw)
		return 60000; /* off saves nothing: never worth it */
	return (unsigned int)min(2 * be->transition_uj * 1000 / saved_uw,
				 (u64)60000);
}

/* Each CPU's idle entries a second, over at least the last 50 ms. */
struct wake_rate {
	u64 t_ns, entries;
	unsigned int hz;
};
static DEFINE_CPU_ARRAY(struct wake_rate, wake_rates);

static unsigned int wake_rate_hz(unsigned int cpu)
{
	struct cpuidle_state_usage u[CPUIDLE_STATE_MAX];
	struct wake_rate *w = &wake_rates[cpu];
	u64 now = ktime_get_ns(), entries = 0;
	int n = cpuidle_state_count();

	cpuidle_get_usage(cpu, u, n);
	for (int i = 0; i < n; i++)
		entries += u[i].usage;
	if (w->t_ns && now - w->t_ns >= 50000000ULL)
		w->hz = (entries - w->entries) * 1000000000ULL /
			(now - w->t_ns);
	if (!w->t_ns || now - w->t_ns >= 50000000ULL) {
		w->t_ns = now;
		w->entries = entries;
	}
	return w->hz;
}

/* Is cpu the only online CPU of its cluster? */
static bool last_of_cluster(unsigned int cpu)
{
	for (unsigned int o = cpuidle_cluster_next(cpu); o != cpu;
	     o = cpuidle_cluster_next(o))
		if (cpu_online(o))
			return false;
	return true;
}

void power_break_even_for(unsigned int cpu, struct power_break_even *be)
{
	int deepest = cpuidle_deepest_usable(), idx = deepest;
	const struct cpuidle_state *cl = cpuidle_get_state(deepest);
	unsigned int hz = wake_rate_hz(cpu);
	u64 interval_us = hz ? 1000000 / hz : U64_MAX;

	model_ready();
	/* The state its idle periods would reach: residency within 1/rate. */
	while (idx > 0 &&
	       cpuidle_get_state(idx)->target_residency_us > interval_us)
		idx--;
	*be = (struct power_break_even){
		.transition_uj = power_transition_uj(),
		.state = idx,
		.state_mw =
			idx ? power_model.idle_mw[min(idx, POWER_IDLE_MAX - 1)]
			    : power_model.wfi_mw,
		.off_mw = power_model.off_mw,
		.rate_hz = hz,
		.entry_uj = entry_uj(idx),
		.cluster_term = last_of_cluster(cpu) &&
				!(cl && cl->flags & CPUIDLE_FLAG_CLUSTER &&
				  cl->target_residency_us <= interval_us),
		.cluster_idle_mw = power_model.cluster_idle_mw,
		.cluster_down_mw = power_model.cluster_down_mw,
	};
	be->ms = power_break_even_calc(be);
}

/* The governor's next down: the highest-numbered online CPU. */
unsigned int power_break_even_ms(void)
{
	struct power_break_even be;
	int cpu = nr_cpu_ids - 1;

	while (cpu > 0 && !cpu_online(cpu))
		cpu--;
	power_break_even_for(cpu, &be);
	return be.ms;
}

/*
 * Busy time at each OPP, for the cores and their clusters. QEMU ran the
 * work at one speed, the top OPP's: at OPP k the same work takes
 * cap_top / cap_k as long, at that OPP's power, and the extra time
 * displaces idle time (priced at WFI's and the cluster's idle power, the
 * shallowest). A cluster's busy time (some core of it running) is split
 * over the OPPs as its cores' busy time is. Signed: with Juno's figures a
 * stretched low-OPP cluster can cost less than the idle it displaces.
 */
static u64 opp_energy_uj(const struct power_result *r, u64 cluster_busy_ns)
{
	const struct power_model *pm = &power_model;
	unsigned int top = pm->opp[pm->nr_opps - 1].capacity;
	s64 e = 0;

	for (unsigned int k = 0; k < pm->nr_opps; k++) {
		const struct power_opp *o = &pm->opp[k];
		u64 t_us = r->opp_busy_ns[k] / 1000, c_us;

		c_us = r->active_ns ? cluster_busy_ns / 1000 *
					      r->opp_busy_ns[k] / r->active_ns
				    : 0;
		e += (s64)t_us *
		     ((s64)o->cpu_mw * top -
		      (s64)pm->wfi_mw * (top - o->capacity)) /
		     o->capacity;
		e += (s64)c_us *
		     ((s64)o->cluster_mw * top -
		      (s64)pm->cluster_idle_mw * (top - o->capacity)) /
		     o->capacity;
	}
	e /= 1000; /* mW x us = nJ */
	return e > 0 ? (u64)e : 0;
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
	struct cpuidle_cluster_stats cl;
	struct sched_cpu_stats cs;
	u64 per_op, cluster_wall;

	model_ready();
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
		for (int k = 0; k < POWER_OPP_MAX; k++)
			r->opp_busy_ns[k] +=
				cs.opp_busy_ns[k] - m->cpu[cpu].opp_busy_ns[k];
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
	cpuidle_clusters_sum(&cl);
	r->clusters_down_ns = cl.down_ns - m->clusters.down_ns;
	r->clusters_idle_ns = cl.idle_ns - m->clusters.idle_ns;
	r->cluster_downs = cl.downs - m->clusters.downs;
	r->nr_clusters = cpuidle_nr_clusters();
	cluster_wall = r->wall_ns * r->nr_clusters;
	r->clusters_idle_ns = min(r->clusters_idle_ns, cluster_wall);
	r->clusters_down_ns = min(r->clusters_down_ns, r->clusters_idle_ns);
	/* This run's own operations, priced at their mean time. */
	r->stall_ns = stop_machine_total_stop_ns() - m->stall_ns;
	if (r->transitions && !power_model.transition_uj)
		per_op = uj(active_mw(),
			    (hotplug_op_ns() - m->op_ns) / r->transitions) +
			 power_model.fw_uj;
	else
		per_op = power_transition_uj();
	r->transition_uj = per_op;
	r->cluster_uj = cluster_entry_uj();
	r->energy_uj =
		opp_energy_uj(r, cluster_wall - r->clusters_idle_ns) +
		uj(pm->off_mw, r->off_ns) + r->transitions * per_op +
		uj(active_mw() - min(active_mw(), pm->wfi_mw), r->stall_ns);
	r->energy_uj += uj(pm->cluster_idle_mw,
			   r->clusters_idle_ns - r->clusters_down_ns) +
			uj(pm->cluster_down_mw, r->clusters_down_ns) +
			r->cluster_downs * r->cluster_uj;
	r->energy_uj += uj(pm->wfi_mw, r->state_ns[0]);
	for (int i = 1; i < n && i < POWER_IDLE_MAX; i++)
		r->energy_uj += uj(pm->idle_mw[i], r->state_ns[i]) +
				r->state_entries[i] * entry_uj(i);
}

/* ---- tunables ------------------------------------------------------------ */

/*
 * Keys with a NULL val are the top OPP's figures (active_mw, cluster_mw:
 * what fixed costs are priced at) or act on something else
 * (cluster_cpus): key_set().
 */
static const struct {
	const char *key;
	unsigned int *val;
	unsigned int min, max;
} keys[] = {
	{"active_mw", NULL, 0, 100000},
	{"cluster_mw", NULL, 0, 100000},
	{"cluster_cpus", NULL, 1, 4096},
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
	{"cluster_idle_mw", &power_model.cluster_idle_mw, 0, 100000},
	{"cluster_down_mw", &power_model.cluster_down_mw, 0, 100000},
	{"cluster_uj", &power_model.cluster_uj, 0, 100000},
};

/* Key i to v (in its range): 0, or -EINVAL with a message. */
static int key_set(size_t i, unsigned int v)
{
	struct power_opp *opp = &power_model.opp[power_model.cur_opp];
	int err;

	if (keys[i].val) {
		*keys[i].val = v;
		return 0;
	}
	if (!strcmp(keys[i].key, "active_mw")) {
		opp->cpu_mw = v;
	} else if (!strcmp(keys[i].key, "cluster_mw")) {
		opp->cluster_mw = v;
	} else {
		err = cpuidle_set_cluster_cpus(v);
		if (err)
			pr_info("error: cluster_cpus=%u: %s\n", v,
				err == -EBUSY
					? "the device tree groups the CPUs"
					: "more than the CPUs there are");
		return err;
	}
	return 0;
}

int power_model_set(const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
	unsigned long v;
	char *end;

	model_ready();
	if (klen == 5 && !strncmp(kv, "model", 5)) {
		if (!eq || !eq[1]) {
			pr_info("error: model wants a name (juno-a53 "
				"invented)\n");
			return -EINVAL;
		}
		return power_model_load(eq + 1);
	}
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
		return key_set(i, v);
	}
	pr_info("error: unknown power model key '%.*s' (model active_mw "
		"cluster_mw wfi_mw off_mw transition_uj fw_uj idleN_mw "
		"idleN_uj cluster_idle_mw cluster_down_mw cluster_uj "
		"cluster_cpus)\n",
		(int)klen, kv);
	return -EINVAL;
}

/* "a/b/c": field f of every OPP, for the host tool. */
static void opp_list(char *buf, size_t size, int f)
{
	int len = 0;

	buf[0] = '\0';
	for (unsigned int k = 0; k < power_model.nr_opps; k++) {
		const struct power_opp *o = &power_model.opp[k];
		unsigned int v = f == 0	  ? o->khz
				 : f == 1 ? o->capacity
				 : f == 2 ? o->cpu_mw
					  : o->cluster_mw;

		len += snprintf(buf + len, size - len, "%s%u", k ? "/" : "", v);
	}
}

void power_model_print(void)
{
	const struct power_model *pm = &power_model;
	char idle[160], khz[64], cap[48], cpu[48], cl[48];
	int len = 0;

	model_ready();
	for (int i = 1; i < cpuidle_state_count() && i < POWER_IDLE_MAX; i++)
		len += snprintf(idle + len, sizeof(idle) - len,
				" idle%d_mw=%u idle%d_uj=%llu", i,
				pm->idle_mw[i], i,
				(unsigned long long)entry_uj(i));
	idle[len] = '\0';
	opp_list(khz, sizeof(khz), 0);
	opp_list(cap, sizeof(cap), 1);
	opp_list(cpu, sizeof(cpu), 2);
	opp_list(cl, sizeof(cl), 3);
	pr_info("power: model %s (%s): opp_khz=%s opp_capacity=%s "
		"opp_cpu_mw=%s opp_cluster_mw=%s cpufreq=%s active_mw=%u "
		"wfi_mw=%u off_mw=%u transition_uj=%llu%s fw_uj=%u%s "
		"cluster_mw=%u cluster_idle_mw=%u cluster_down_mw=%u "
		"cluster_uj=%llu clusters=%u\n",
		pm->name,
		strcmp(pm->name, "invented") ? "published" : "illustrative",
		khz, cap, cpu, cl,
		sched_cpufreq_performance() ? "performance" : "schedutil",
		active_mw(), pm->wfi_mw, pm->off_mw,
		(unsigned long long)power_transition_uj(),
		pm->transition_uj ? "" : " (measured)", pm->fw_uj, idle,
		pm->opp[pm->cur_opp].cluster_mw, pm->cluster_idle_mw,
		pm->cluster_down_mw, (unsigned long long)cluster_entry_uj(),
		cpuidle_nr_clusters());
}
