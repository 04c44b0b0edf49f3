/*
 * The power model: each core is active (running a thread), idle in WFI
 * (the idle thread), or off (hotplugged out); each hotplug operation
 * costs a fixed energy. energy = sum over cores and states of
 * power(state) x time + transitions x energy per transition.
 *
 * The defaults are illustrative, of the order of a Cortex-A53-class
 * little core at about 1.2 GHz in a 28 nm phone SoC: ~150 mW running,
 * ~30 mW clock-gated in WFI (leakage and the retained caches), ~1 mW
 * power-gated off, and ~2 mJ per hotplug operation (a few ms of a core
 * at full power flushing caches and running firmware, as Linux's hotplug
 * took on such phones). They are not measurements of anything.
 */
#define pr_fmt(fmt) fmt
#include <kernel/cpu.h>
#include <kernel/mm.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <stdlib.h>
#include <string.h>
#include "power.h"

struct power_model power_model = {
	.active_mw = 150,
	.wfi_mw = 30,
	.off_mw = 1,
	.transition_uj = 2000,
};

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
	m->t0_ns = ktime_get_ns();
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		sched_cpu_stats(cpu, &cs);
		m->cpu[cpu].busy_ns = cs.busy_ns;
		m->cpu[cpu].idle_ns = cs.idle_ns;
	}
	m->transitions = hotplug_ops();
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
 * A core's time off is what is left of the wall time once its active and
 * WFI time are counted: the scheduler's counters stand still while it
 * is off.
 */
void power_meter_read(const struct power_meter *m, struct power_result *r)
{
	const struct power_model *pm = &power_model;
	struct sched_cpu_stats cs;

	*r = (struct power_result){.wall_ns = ktime_get_ns() - m->t0_ns};
	if (!m->cpu)
		return; /* never started */
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		u64 busy, idle;

		sched_cpu_stats(cpu, &cs);
		busy = cs.busy_ns - m->cpu[cpu].busy_ns;
		idle = cs.idle_ns - m->cpu[cpu].idle_ns;
		r->active_ns += busy;
		r->wfi_ns += idle;
		r->off_ns +=
			r->wall_ns > busy + idle ? r->wall_ns - busy - idle : 0;
	}
	r->transitions = hotplug_ops() - m->transitions;
	r->energy_uj = uj(pm->active_mw, r->active_ns) +
		       uj(pm->wfi_mw, r->wfi_ns) + uj(pm->off_mw, r->off_ns) +
		       r->transitions * pm->transition_uj;
}

static const struct {
	const char *key;
	unsigned int *val;
} keys[] = {
	{"active_mw", &power_model.active_mw},
	{"wfi_mw", &power_model.wfi_mw},
	{"off_mw", &power_model.off_mw},
	{"transition_uj", &power_model.transition_uj},
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
		if (!eq || !eq[1] || *end || v > 100000) {
			pr_info("error: %s wants a whole number in [0, "
				"100000]\n",
				keys[i].key);
			return -EINVAL;
		}
		*keys[i].val = v;
		return 0;
	}
	pr_info("error: unknown power model key '%.*s' (active_mw wfi_mw "
		"off_mw transition_uj)\n",
		(int)klen, kv);
	return -EINVAL;
}

void power_model_print(void)
{
	const struct power_model *pm = &power_model;

	pr_info("power: model (illustrative, Cortex-A53-class little core): "
		"active_mw=%u wfi_mw=%u off_mw=%u transition_uj=%u\n",
		pm->active_mw, pm->wfi_mw, pm->off_mw, pm->transition_uj);
}
