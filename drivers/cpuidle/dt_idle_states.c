/*
 * Reading a CPU's idle states from the device tree (the binding of
 * Linux's Documentation/devicetree/bindings/cpu/idle-states.yaml): the
 * CPU node's cpu-idle-states phandles, each an "arm,idle-state" node with
 * entry-latency-us, exit-latency-us, min-residency-us, optionally
 * wakeup-latency-us and local-timer-stop, and for PSCI the
 * arm,psci-suspend-param to pass to CPU_SUSPEND. A state the tree gets
 * wrong is kept in the list with the reason, so the boot can say which
 * one and why, and never used. Also whether every CPU node lists the
 * same states (cpuidle-psci.c wants one table).
 *
 * A cluster's state comes from the PSCI power-domain hierarchy (the
 * binding of Linux's Documentation/devicetree/bindings/arm/psci.yaml and
 * power/domain-idle-state.yaml): the CPU node's power-domains names its
 * CPU domain under /psci, whose power-domains names the cluster's domain,
 * whose domain-idle-states lists "domain-idle-state" nodes with the same
 * latencies and a suspend parameter for the cluster's part of the
 * composite power_state. CPUs whose domains share a parent are a cluster.
 * No firmware call, no allocation: tests/boards and tests/fuzz build it
 * natively.
 */
#include <libfdt.h>
#include <lib/fdt.h>
#include <lib/kernel.h>
#include <string.h>

#include "dt_idle_states.h"

static const char *read_state(const void *fdt, int node, const char *compat,
			      struct cpuidle_state *st)
{
	const char *name;
	u32 wakeup;

	/* First: a state left out is named in the message. */
	name = fdt_read_string(fdt, node, "idle-state-name");
	if (!name)
		name = fdt_get_name(fdt, node, NULL);
	strlcpy(st->name, name ? name : "?", sizeof(st->name));
	if (fdt_node_check_compatible(fdt, node, compat))
		return strcmp(compat, "arm,idle-state")
			       ? "not compatible with domain-idle-state"
			       : "not compatible with arm,idle-state";
	if (!fdt_node_available(fdt, node))
		return "status is not okay";
	if (fdt_read_u32(fdt, node, "entry-latency-us", &st->entry_latency_us))
		return "no entry-latency-us";
	if (fdt_read_u32(fdt, node, "exit-latency-us", &st->exit_latency_us))
		return "no exit-latency-us";
	if (fdt_read_u32(fdt, node, "min-residency-us",
			 &st->target_residency_us))
		return "no min-residency-us";
	if (fdt_read_u32(fdt, node, "arm,psci-suspend-param", &st->psci_param))
		return "no arm,psci-suspend-param";
	/*
	 * The binding: wakeup-latency-us, else entry + exit, which must not
	 * wrap into a short latency that makes a deep state look cheap.
	 */
	if (fdt_read_u32(fdt, node, "wakeup-latency-us", &wakeup)) {
		wakeup = st->entry_latency_us + st->exit_latency_us;
		if (wakeup < st->entry_latency_us)
			wakeup = U32_MAX;
	}
	st->exit_latency_us = wakeup;
	if (fdt_getprop(fdt, node, "local-timer-stop", NULL))
		st->flags |= CPUIDLE_FLAG_TIMER_STOP;
	return NULL;
}

int dt_idle_states_read(const void *fdt, int cpu_node,
			struct dt_idle_state *out, int max)
{
	const struct dt_idle_state *prev = NULL;
	int len, n = 0;
	const fdt32_t *list =
		fdt_getprop(fdt, cpu_node, "cpu-idle-states", &len);

	if (!list || len <= 0 || max <= 0)
		return 0;
	/* A list with a partial cell is not a phandle list: use none of it. */
	if (len % sizeof(fdt32_t)) {
		out[0] = (struct dt_idle_state){
			.bad = "cpu-idle-states is not a whole number of "
			       "cells"};
		return 1;
	}
	for (int i = 0; i < len / 4 && n < max; i++) {
		struct dt_idle_state *d = &out[n++];
		int node;

		*d = (struct dt_idle_state){.phandle = fdt32_to_cpu(list[i])};
		for (int j = 0; j < n - 1 && !d->bad; j++)
			if (out[j].phandle == d->phandle)
				d->bad = "listed twice";
		if (d->bad)
			continue;
		node = fdt_node_offset_by_phandle(fdt, d->phandle);
		if (node < 0) {
			d->bad = "no node has this phandle";
			continue;
		}
		d->bad = read_state(fdt, node, "arm,idle-state", &d->state);
		if (d->bad)
			continue;
		/* Shallowest first: the governor walks them in depth order. */
		if (prev && d->state.target_residency_us <
				    prev->state.target_residency_us) {
			d->bad = "min-residency-us below the state before it";
			continue;
		}
		prev = d;
	}
	return n;
}

/*
 * Whether cpu_node's cpu-idle-states names the states of first (n entries
 * as dt_idle_states_read() gave them for at most max): the list's cells
 * against their phandles, as Linux's dt_init_idle_driver() holds each
 * CPU's state nodes against the first CPU's. No node is looked up: a
 * lookup by phandle walks the whole tree, so reading every CPU's states
 * costs CPUs x states walks of a tree that grows with the CPUs (3.5 s of
 * a 512-CPU boot under TCG).
 */
static bool lists_same_states(const void *fdt, int cpu_node,
			      const struct dt_idle_state *first, int n, int max)
{
	int len, m;
	const fdt32_t *list =
		fdt_getprop(fdt, cpu_node, "cpu-idle-states", &len);

	if (!list || len <= 0 || max <= 0)
		return n == 0;
	/* dt_idle_states_read() gives a partial cell one entry, phandle 0. */
	if (len % sizeof(fdt32_t))
		return n == 1 && first[0].phandle == 0;
	m = min(len / (int)sizeof(fdt32_t), max);
	if (m != n)
		return false;
	for (int i = 0; i < n; i++)
		if (fdt32_to_cpu(list[i]) != first[i].phandle)
			return false;
	return true;
}

int dt_idle_states_common(const void *fdt, struct dt_idle_state *out, int max,
			  int *other)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), node, n = -1;

	*other = -1;
	if (cpus < 0)
		return 0;
	max = min(max, CPUIDLE_STATE_MAX);
	fdt_for_each_subnode (node, fdt, cpus) {
		const char *type = fdt_read_string(fdt, node, "device_type");

		if (!type || strcmp(type, "cpu"))
			continue;
		if (n < 0) {
			n = dt_idle_states_read(fdt, node, out, max);
			continue;
		}
		if (!lists_same_states(fdt, node, out, n, max)) {
			*other = node;
			return -1;
		}
	}
	return max(n, 0);
}

/* The node a one-phandle property of node points at, or a negative error. */
static int follow(const void *fdt, const struct fdt_phandles *ph, int node,
		  const char *prop)
{
	u32 phandle;

	if (fdt_read_cell(fdt, node, prop, 0, &phandle))
		return -FDT_ERR_NOTFOUND;
	return fdt_phandle_node(fdt, ph, phandle);
}

int dt_cluster_state_read(const void *fdt, const struct fdt_phandles *ph,
			  int cpu_node, struct dt_idle_state *out, u32 *cluster)
{
	int cpu_pd = follow(fdt, ph, cpu_node, "power-domains"), cluster_pd,
	    node;

	*cluster = 0;
	*out = (struct dt_idle_state){0};
	if (cpu_pd < 0)
		return 0;
	cluster_pd = follow(fdt, ph, cpu_pd, "power-domains");
	if (cluster_pd < 0)
		return 0;
	*cluster = fdt_get_phandle(fdt, cluster_pd);
	if (fdt_read_cell(fdt, cluster_pd, "domain-idle-states", 0,
			  &out->phandle))
		return 0;
	node = fdt_phandle_node(fdt, ph, out->phandle);
	if (node < 0) {
		out->bad = "no node has this phandle";
		return 1;
	}
	out->bad = read_state(fdt, node, "domain-idle-state", &out->state);
	return 1;
}
