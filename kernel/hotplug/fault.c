/*
 * Hotplug faults chosen on the command line, so a user can watch the
 * kernel meet each one (the KTAP tests drive the same hooks directly):
 *
 *   fail_cpu_on=CPU:ERROR   CPU_ON for CPU answers the PSCI ERROR (a name
 *                           such as DENIED or ALREADY_ON, or its number)
 *   fail_cpu_off=N|forever  AFFINITY_INFO answers ON N more times (a CPU
 *                           slow to go off) or for ever (never confirmed)
 *   fail_alloc_up=N         the Nth allocation of the next cpu_up() fails
 *   fail_up_step=NAME       step NAME of the next cpu_up() fails (-EIO),
 *                           e.g. sched:active, after the CPU runs
 *   fail_cpu=CPU            that CPU is started at a dead end (smp.c)
 *   fail_cpu_late=CPU:MS    that CPU claims its start slot MS ms late
 *                           (smp.c; :claimed, slow after claiming it)
 *
 * Set before the secondary CPUs come up, so the boot meets them first;
 * fail_cpu_off and fail_alloc_up wait for the first down or up that uses
 * them (at the shell: `off N`, `on N`). A reader held past the stall
 * threshold is fault=stall (kernel/debug/lkdtm.c).
 */
#define pr_fmt(fmt) "fault: " fmt
#include <kernel/cpu.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <lib/errno.h>
#include <stdlib.h>
#include <string.h>
#include "fault.h"

KERNEL_PARAM(fail_cpu_on, "fault injection: CPU:ERROR, CPU_ON answers the "
			  "PSCI error (DENIED, ALREADY_ON, ... or a number)");
KERNEL_PARAM(fail_cpu_off, "fault injection: AFFINITY_INFO says ON N more "
			   "times, or 'forever'");
KERNEL_PARAM(fail_alloc_up,
	     "fault injection: the Nth allocation of the next cpu_up() fails");
KERNEL_PARAM(fail_up_step,
	     "fault injection: step NAME of the next cpu_up() fails (-EIO)");

static unsigned int fail_alloc_up_nth;
static char fail_up_step[24]; /* a step name, "" for none */

/* A PSCI error by name or number; 0 if it is neither. */
static int parse_psci_error(const char *s)
{
	const char *digits = s[0] == '-' ? s + 1 : s;
	char *end;
	unsigned long n = strtoul(digits, &end, 0);

	if (!*end && end != digits) /* a number: -1 to -9 */
		return s[0] == '-' && n >= 1 && n <= -PSCI_RET_INVALID_ADDRESS
			       ? -(int)n
			       : 0;
	for (int err = PSCI_RET_NOT_SUPPORTED; err >= PSCI_RET_INVALID_ADDRESS;
	     err--)
		if (!strcmp(s, psci_error_name(err)))
			return err;
	return 0;
}

static void parse_cpu_on(const char *val)
{
	char *end;
	unsigned long cpu = strtoul(val, &end, 0);
	int err = *end == ':' ? parse_psci_error(end + 1) : 0;

	if (end == val || cpu >= nr_cpu_ids || !err) {
		pr_err("fail_cpu_on=%s: want CPU:ERROR, CPU below %u, ERROR a "
		       "PSCI error (DENIED, ALREADY_ON, ... or -3): ignored\n",
		       val, nr_cpu_ids);
		return;
	}
	psci_inject_cpu_on_mpidr = cpu_logical_map(cpu);
	psci_inject_cpu_on_error = err;
	pr_warn("CPU_ON for CPU%lu will answer %s (%d)\n", cpu,
		psci_error_name(err), err);
}

static void parse_cpu_off(const char *val)
{
	char *end;
	unsigned long n = strtoul(val, &end, 0);

	if (!strcmp(val, "forever")) {
		psci_inject_affinity_on = -1;
		pr_warn("AFFINITY_INFO will say ON for ever: the next CPU "
			"down is never confirmed off\n");
	} else if (*end || end == val || !n || n > 1000000) {
		pr_err("fail_cpu_off=%s: want a count (1-1000000) or "
		       "'forever': ignored\n",
		       val);
	} else {
		psci_inject_affinity_on = (int)n;
		pr_warn("AFFINITY_INFO will say ON %lu more times\n", n);
	}
}

void hotplug_faults_init(void)
{
	char val[32];
	unsigned long n;

	if (param_get("fail_cpu_on", val, sizeof(val)))
		parse_cpu_on(val);
	if (param_get("fail_cpu_off", val, sizeof(val)))
		parse_cpu_off(val);
	if (param_get("fail_up_step", val, sizeof(val))) {
		hotplug_inject_step_failure(val);
		pr_warn("step %s of the next CPU up will fail\n", val);
	}
	if (param_get("fail_alloc_up", val, sizeof(val))) {
		if (param_get_ulong("fail_alloc_up", &n) || !n || n > 1000) {
			pr_err("fail_alloc_up=%s: want 1-1000: ignored\n", val);
		} else {
			fail_alloc_up_nth = n;
			pr_warn("allocation %lu of the next CPU up will fail\n",
				n);
		}
	}
}

/* The next cpu_up()'s step name fails once (NULL: none). */
void hotplug_inject_step_failure(const char *name)
{
	strlcpy(fail_up_step, name ? name : "", sizeof(fail_up_step));
}

/* For the step table going up: does step name fail now (once)? */
bool hotplug_fault_fail_step(const char *name)
{
	if (!fail_up_step[0] || strcmp(fail_up_step, name))
		return false;
	fail_up_step[0] = '\0';
	return true;
}

/* For cpu_up(): the allocation to fail in this up, once (0: none). */
unsigned int hotplug_fault_take_alloc(void)
{
	unsigned int n = fail_alloc_up_nth;

	fail_alloc_up_nth = 0;
	return n;
}
