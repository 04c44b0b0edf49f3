/*
 * Between the idle-state core (cpuidle.c) and the driver that reads the
 * states and enters them (cpuidle-psci.c).
 */
#ifndef DRIVERS_CPUIDLE_DRIVER_H
#define DRIVERS_CPUIDLE_DRIVER_H

#include <kernel/cpuidle.h>

/* A power-down request the firmware served from a shallower state. */
#define CPUIDLE_DEMOTED 1

/* Enter state idx (>= 1): 0, CPUIDLE_DEMOTED, or a PSCI error (< 0). */
typedef int (*cpuidle_enter_fn)(int idx, const struct cpuidle_state *st);

/* The states after WFI, shallowest first; at boot, once. */
void cpuidle_register_states(const struct cpuidle_state *s, int count,
			     cpuidle_enter_fn enter);

/*
 * The tree's clusters: cluster_of[cpu] < nr for each of nr_cpu_ids CPUs.
 * Before cpuidle_register_states(), at boot, once.
 */
void cpuidle_register_clusters(const unsigned int *cluster_of, unsigned int nr);

/* Wait each state's exit latency after it (a firmware that does not). */
void cpuidle_set_exit_emulation(bool on);

#endif
