/*
 * The device tree's idle states as the kernel reads them: apart from the
 * firmware calls, so that tests/boards builds it natively and holds it
 * against real boards' trees.
 */
#ifndef DRIVERS_CPUIDLE_DT_IDLE_STATES_H
#define DRIVERS_CPUIDLE_DT_IDLE_STATES_H

#include <kernel/cpuidle.h>

struct fdt_phandles;

struct dt_idle_state {
	struct cpuidle_state state;
	u32 phandle;
	const char *bad; /* why it cannot be used; NULL if it can */
};

/*
 * The states cpu_node's cpu-idle-states lists, in its order (shallowest
 * first), at most max: returns how many entries were written, each good
 * or with `bad` saying why not. 0 if the node lists none.
 */
int dt_idle_states_read(const void *fdt, int cpu_node,
			struct dt_idle_state *out, int max);

/*
 * The table every CPU would use (cpuidle-psci.c): the states of the first
 * CPU node under /cpus, at most max, if every CPU node lists the same
 * phandles (0 if they list none); -1 if one does not, *other then being
 * the first such node's offset (else -1).
 */
int dt_idle_states_common(const void *fdt, struct dt_idle_state *out, int max,
			  int *other);

/*
 * The first state of the cluster domain above cpu_node's PSCI domain
 * (cpu_node -> power-domains -> power-domains -> domain-idle-states):
 * 1 if there is one (written to *out, good or with `bad`), else 0. The
 * cluster domain's phandle goes to *cluster (0 if cpu_node has none):
 * CPUs with the same one share the cluster. Further states of the domain
 * are not read: one cluster state is what the kernel uses. Phandles are
 * looked up through ph (fdt_phandle_map(); NULL: libfdt's walk each).
 */
int dt_cluster_state_read(const void *fdt, const struct fdt_phandles *ph,
			  int cpu_node, struct dt_idle_state *out,
			  u32 *cluster);

#endif
