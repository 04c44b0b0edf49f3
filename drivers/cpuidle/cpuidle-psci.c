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
 * Standby states return from CPU_SUSPEND with everything kept. Power-down
 * states may lose the core's context: cpu_suspend() saves it and the
 * firmware resumes at cpu_resume; a firmware that serves the request from
 * a shallower state (QEMU: a WFI) just returns SUCCESS, counted as
 * demoted.
 */
#define pr_fmt(fmt) "cpuidle: " fmt
#include <kernel/board.h>
#include <kernel/cpuidle.h>
#include <kernel/devicetree.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <libfdt.h>
#include <lib/fdt.h>
#include <string.h>

#include "cpuidle_driver.h"
#include "dt_idle_states.h"

#define PSCI_0_2_FN64_CPU_SUSPEND 0xc4000001

static int psci_enter(int idx, const struct cpuidle_state *st)
{
	int ret = (int)psci_invoke(PSCI_0_2_FN64_CPU_SUSPEND, st->psci_param, 0,
				   0);

	if (!ret && st->flags & CPUIDLE_FLAG_POWERDOWN)
		return CPUIDLE_DEMOTED;
	return ret;
}

void cpuidle_init(void)
{
	struct dt_idle_state dt[CPUIDLE_STATE_MAX - 1];
	struct cpuidle_state good[CPUIDLE_STATE_MAX - 1];
	int n, other, count = 0;

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
	if (!psci_available() || psci_version() < PSCI_VERSION(0, 2)) {
		pr_warn("the tree has %d idle state(s) but no PSCI 0.2+ "
			"CPU_SUSPEND: WFI only\n",
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
		/* PSCI's original power_state format: StateType is bit 16. */
		if (st->psci_param & (1U << 16))
			st->flags |= CPUIDLE_FLAG_POWERDOWN;
		good[count++] = *st;
	}
	cpuidle_register_states(good, count, psci_enter);
}
