/*
 * PSCI idle states: the device tree's arm,idle-state nodes entered with
 * CPU_SUSPEND. Read once at boot (libfdt), checked, and handed to the
 * core (cpuidle.c) as one table for every CPU.
 *
 * Every CPU must list the same states: boards with per-cluster tables
 * exist (Linux builds a driver per CPU for them), but one table keeps the
 * governor and the power model simple, so a tree whose CPUs disagree gets
 * WFI only, and the boot says so. A state the tree gets wrong is left
 * out with its reason; one the firmware refuses at its first use is
 * disabled then (cpuidle.c).
 *
 * A cluster state (the PSCI power-domain hierarchy, dt_idle_states.c)
 * becomes one more state after the deepest CPU state: its power_state is
 * the composite of both (ORed, as the hierarchical binding builds it),
 * its latencies and residency the CPU state's plus the cluster's, the
 * cluster's own minimum residency if longer. Platform-coordinated mode:
 * every CPU asks for it by its own prediction and the firmware powers the
 * cluster when the last one asks (cpuidle.c counts that). OS-initiated
 * mode, where the kernel itself would pick the last CPU, needs PSCI 1.0's
 * SET_SUSPEND_MODE, which QEMU's firmware lacks.
 *
 * Standby states return from CPU_SUSPEND with everything kept. Power-down
 * states may lose the core's context: cpu_suspend() saves it and the
 * firmware resumes at cpu_resume; a firmware that serves the request from
 * a shallower state (QEMU: a WFI) just returns SUCCESS, counted as
 * demoted.
 */
#define pr_fmt(fmt) "cpuidle: " fmt
#include <asm/suspend.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpuidle.h>
#include <kernel/devicetree.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <libfdt.h>
#include <lib/fdt.h>
#include <string.h>

#include "cpuidle_driver.h"
#include "dt_idle_states.h"

/*
 * IRQs are masked (the idle loop). A power-down state goes through
 * cpu_suspend(): back through cpu_resume with the context restored (0),
 * served from a shallower state (demoted), or refused (the PSCI error).
 */
static int psci_enter(int idx, const struct cpuidle_state *st)
{
	int ret;

	if (!(st->flags & CPUIDLE_FLAG_POWERDOWN))
		return psci_cpu_suspend(st->psci_param, 0, 0);
	ret = cpu_suspend(st->psci_param, psci_suspend_finisher);
	return ret == CPU_SUSPEND_NO_POWERDOWN ? CPUIDLE_DEMOTED : ret;
}

/* The logical CPU a cpu node describes, or -1. */
static int node_cpu(const void *fdt, int node)
{
	u64 mpidr;

	/* A CPU's reg is its MPIDR, 1 or 2 cells, not an address. */
	if (fdt_read_u64(fdt, node, "reg", &mpidr))
		return -1;
	return get_logical_index(mpidr);
}

/*
 * The tree's clusters: CPUs whose PSCI domains share a parent. All or
 * nothing: a CPU without one leaves the default grouping in place.
 * Returns the cluster state every CPU's cluster offers (the first CPU's;
 * each must name the same node), or 0 if any does not.
 */
static int read_clusters(const void *fdt, struct dt_idle_state *cl)
{
	unsigned int *of = kcalloc(nr_cpu_ids, sizeof(*of)), nr = 0;
	u32 *ids = kcalloc(nr_cpu_ids, sizeof(*ids)), id;
	int cpus = fdt_path_offset(fdt, "/cpus"), node, seen = 0, ok = 1;
	/* Three lookups per CPU: one walk of the tree for them all. */
	struct fdt_phandles ph = {.nr = fdt_phandle_map(fdt, NULL, 0) + 1};
	int *map = kcalloc(ph.nr, sizeof(*map));
	struct dt_idle_state mine;

	if (!of || !ids || cpus < 0)
		goto out;
	if (map) {
		fdt_phandle_map(fdt, map, ph.nr);
		ph.node = map;
	} else {
		ph.nr = 0; /* libfdt's lookups: slower, not wrong */
	}
	fdt_for_each_subnode (node, fdt, cpus) {
		const char *type = fdt_read_string(fdt, node, "device_type");
		int cpu = node_cpu(fdt, node), has;
		unsigned int c;

		if (!type || strcmp(type, "cpu") || cpu < 0)
			continue;
		has = dt_cluster_state_read(fdt, &ph, node, seen ? &mine : cl,
					    &id);
		if (!id || !has || (seen && mine.phandle != cl->phandle)) {
			ok = 0;
			break;
		}
		for (c = 0; c < nr && ids[c] != id; c++)
			;
		if (c == nr)
			ids[nr++] = id;
		of[cpu] = c;
		seen++;
	}
	if (ok && seen == (int)nr_cpu_ids)
		cpuidle_register_clusters(of, nr);
	else
		ok = 0;
out:
	kfree(map);
	kfree(of);
	kfree(ids);
	return ok && seen;
}

/* The cluster state on top of the deepest CPU state cpu (composite). */
static void add_cluster_state(struct cpuidle_state *out,
			      const struct cpuidle_state *cpu,
			      const struct cpuidle_state *cl)
{
	*out = *cl;
	out->entry_latency_us = cpu->entry_latency_us + cl->entry_latency_us;
	out->exit_latency_us = cpu->exit_latency_us + cl->exit_latency_us;
	out->cluster_exit_us = cl->exit_latency_us;
	out->target_residency_us =
		max(cl->target_residency_us, cpu->target_residency_us);
	out->psci_param = cpu->psci_param | cl->psci_param;
	out->flags = cpu->flags | cl->flags | CPUIDLE_FLAG_CLUSTER;
	if (psci_power_state_is_powerdown(out->psci_param))
		out->flags |= CPUIDLE_FLAG_POWERDOWN;
}

void cpuidle_init(void)
{
	struct dt_idle_state cl;
	struct dt_idle_state dt[CPUIDLE_STATE_MAX - 1];
	struct cpuidle_state good[CPUIDLE_STATE_MAX - 1];
	int n, other, count = 0;

	cpuidle_clusters_init();
	if (!initial_boot_params)
		return;
	n = dt_idle_states_common(initial_boot_params, dt, ARRAY_SIZE(dt),
				  &other);
	if (n < 0)
		pr_warn("%s lists other idle states than the first CPU: WFI "
			"only\n",
			fdt_get_name(initial_boot_params, other, NULL));
	if (n <= 0)
		return;
	if (!psci_available() || !psci_has_cpu_suspend()) {
		pr_warn("the tree has %d idle state(s) but the firmware has no "
			"PSCI CPU_SUSPEND: WFI only\n",
			n);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct cpuidle_state *st = &dt[i].state;

		if (dt[i].bad) {
			pr_warn("idle state %d (%s, phandle %#x) left out: "
				"%s\n",
				i + 1, st->name[0] ? st->name : "?",
				dt[i].phandle, dt[i].bad);
			continue;
		}
		/* StateType: bit 16, or 30 in the extended format. */
		if (psci_power_state_is_powerdown(st->psci_param))
			st->flags |= CPUIDLE_FLAG_POWERDOWN;
		good[count++] = *st;
	}
	if (read_clusters(initial_boot_params, &cl)) {
		if (cl.bad)
			pr_warn("cluster state %s (phandle %#x) left out: %s\n",
				cl.state.name[0] ? cl.state.name : "?",
				cl.phandle, cl.bad);
		else if (!count)
			pr_warn("cluster state %s left out: no CPU state to "
				"build on\n",
				cl.state.name);
		else if (count < (int)ARRAY_SIZE(good)) {
			add_cluster_state(&good[count], &good[count - 1],
					  &cl.state);
			count++;
		}
	}
	cpuidle_register_states(good, count, psci_enter);
	/*
	 * QEMU's CPU_SUSPEND returns at once: a wake-up from a deep state
	 * would cost nothing. On QEMU's virt machine the core waits each
	 * state's exit latency instead (cpuidle.no_exit_emulation: not).
	 */
	if (!fdt_node_check_compatible(initial_boot_params, 0,
				       "linux,dummy-virt"))
		cpuidle_set_exit_emulation(true);
}
