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
#include <asm/suspend.h>
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
	cpuidle_register_states(good, count, psci_enter);
}
