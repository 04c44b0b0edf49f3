/*
 * The PSCI driver's device-tree node as it reads it: apart from the
 * firmware calls so that tests/boards builds it natively and holds it
 * against real boards' trees.
 */
#ifndef DRIVERS_FIRMWARE_PSCI_NODE_H
#define DRIVERS_FIRMWARE_PSCI_NODE_H

#include <kernel/devicetree.h>

struct psci_node {
	char method[8]; /* the conduit: "hvc" or "smc" ("": none given) */
	bool v0_1; /* "arm,psci" only: function IDs from the node */
	u32 cpu_on, cpu_off, cpu_suspend; /* PSCI 0.1's IDs (0: absent) */
};

/* The compatible strings the driver binds to, newest first. */
extern const char *const psci_compat[];

/* Read dev's node into out (at boot: libfdt). */
void psci_read_node(const struct dt_device *dev, struct psci_node *out);

#endif
