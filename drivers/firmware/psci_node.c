/*
 * Reading the /psci node: the conduit, whether the node promises PSCI 0.2
 * or later (fixed function IDs) or only 0.1 (IDs given by the node), and
 * 0.1's IDs. No firmware call here: tests/boards runs it natively.
 */
#include <libfdt.h>
#include <lib/fdt.h>
#include <string.h>

#include "psci_node.h"

const char *const psci_compat[] = {"arm,psci-1.0", "arm,psci-0.2", "arm,psci",
				   NULL};

void psci_read_node(const struct dt_device *dev, struct psci_node *out)
{
	const void *fdt = initial_boot_params;
	const char *method = fdt_read_string(fdt, dev->node, "method");

	strlcpy(out->method, method ? method : "", sizeof(out->method));
	out->v0_1 = fdt_node_check_compatible(fdt, dev->node, "arm,psci-0.2") &&
		    fdt_node_check_compatible(fdt, dev->node, "arm,psci-1.0");
	out->cpu_on = out->cpu_off = out->cpu_suspend = 0;
	if (out->v0_1) {
		fdt_read_u32(fdt, dev->node, "cpu_on", &out->cpu_on);
		fdt_read_u32(fdt, dev->node, "cpu_off", &out->cpu_off);
		fdt_read_u32(fdt, dev->node, "cpu_suspend", &out->cpu_suspend);
	}
}
