/*
 * PSCI's fault points, injected on purpose (include/kernel/fault.h): what
 * real firmware can answer and QEMU's never does. CPU_ON refused
 * (fail.cpu_on), a CPU never or slowly confirmed off (fail.cpu_off), a
 * power-down that loses the CPU's context (fail.cpu_suspend), a resident
 * Trusted OS (fail.tos). Built with TESTS=1 only; psci.c asks each in one
 * line (psci_faults.h).
 */
#define pr_fmt(fmt) "psci: " fmt
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <lib/cmdline.h>
#include <string.h>

#include "psci_faults.h"

/* A PSCI error by name or number (-1 to -9), as a positive value for
 * the fault grammar; -1 if it is neither. */
static long psci_error_value(const char *s)
{
	unsigned long n;

	if (s[0] == '-' && !cmdline_parse_ulong(s + 1, &n) && n >= 1 &&
	    n <= -PSCI_RET_INVALID_ADDRESS)
		return (long)n;
	for (int err = PSCI_RET_NOT_SUPPORTED; err >= PSCI_RET_INVALID_ADDRESS;
	     err--)
		if (!strcmp(s, psci_error_name(err)))
			return -err;
	return -1;
}

/*
 * fail.cpu_on=CPU:ERROR[:MS]: CPU_ON for CPU answers ERROR, after MS ms
 * if given, as from firmware slow to answer a retry.
 */
static const struct fault_field cpu_on_fields[] = {
	FAULT_FIELD_CPU,
	{"ERROR", FAULT_WORD, .lookup = psci_error_value},
	{"MS", FAULT_NUM, .min = 1, .max = 60000, .optional = true},
	{}};

static int cpu_on_armed(struct fault_point *fp)
{
	int err = -(int)fault_arg(fp, 1);

	pr_warn("CPU_ON for CPU%ld will answer %s (%d)%s\n", fault_arg(fp, 0),
		psci_error_name(err), err, fault_arg(fp, 2) ? ", slowly" : "");
	return 0;
}
DEFINE_FAULT(cpu_on, cpu_on_fields, 1, FAULT_FOREVER, cpu_on_armed,
	     "CPU_ON for that CPU answers the PSCI error (DENIED, ALREADY_ON, "
	     "... or -1 to -9) without calling the firmware, after MS ms "
	     "(1-60000) if given");

bool psci_fault_cpu_on(u64 mpidr, int *ret)
{
	if (!fault_armed(&fault_cpu_on) ||
	    cpu_logical_map(fault_arg(&fault_cpu_on, 0)) != mpidr ||
	    !should_fail(&fault_cpu_on))
		return false;
	if (fault_arg(&fault_cpu_on, 2)) /* from cpu_up(): may sleep */
		msleep(fault_arg(&fault_cpu_on, 2));
	*ret = -(int)fault_arg(&fault_cpu_on, 1);
	return true;
}

/* fail.cpu_off=N|forever: AFFINITY_INFO says ON, as a CPU slow to go
 * off or one that never does. */
static const struct fault_field cpu_off_fields[] = {
	{"N", FAULT_TIMES, .min = 1, .max = 1000000, .forever = true}, {}};

static int cpu_off_armed(struct fault_point *fp)
{
	if (fault_arg(fp, 0) == FAULT_FOREVER)
		pr_warn("AFFINITY_INFO will say ON for ever: the next CPU "
			"down is never confirmed off\n");
	else
		pr_warn("AFFINITY_INFO will say ON %ld more times\n",
			fault_arg(fp, 0));
	return 0;
}
DEFINE_FAULT(cpu_off, cpu_off_fields, 1, 1, cpu_off_armed,
	     "AFFINITY_INFO answers ON the next N (1-1000000) times, or for "
	     "ever");

bool psci_fault_affinity_on(void)
{
	return should_fail(&fault_cpu_off);
}

/*
 * fail.cpu_suspend=lose_context[:N]: a power-down CPU_SUSPEND that the
 * firmware answered SUCCESS (QEMU's always does: a WFI) is turned into
 * the power-down real firmware performs, emulated by
 * cpu_suspend_emulate_powerdown() (arch/arm64/suspend.c says what it
 * does and does not reproduce). N times, or for ever.
 */
static const char *const lose_context_word[] = {"lose_context", NULL};
static const struct fault_field cpu_suspend_fields[] = {
	{"lose_context", FAULT_WORD, .words = lose_context_word},
	{"N", FAULT_TIMES, .min = 1, .max = 1000000, .optional = true,
	 .def = FAULT_FOREVER},
	{}};

static int cpu_suspend_armed(struct fault_point *fp)
{
	pr_warn("CPU_SUSPEND power-downs will lose the CPU's context "
		"(emulated)\n");
	return 0;
}
DEFINE_FAULT(cpu_suspend, cpu_suspend_fields, 1, FAULT_FOREVER,
	     cpu_suspend_armed,
	     "a power-down CPU_SUSPEND the firmware answered SUCCESS resumes "
	     "at its entry point with the CPU's context lost, as on real "
	     "firmware (N times, 1-1000000, or for ever)");

bool psci_fault_lose_context(void)
{
	return should_fail(&fault_cpu_suspend);
}

/*
 * fail.tos=TYPE:CPU: MIGRATE_INFO_TYPE answers TYPE and MIGRATE_INFO_UP_CPU
 * that CPU's MPIDR, without asking the firmware, as firmware with a
 * resident Trusted OS would. QEMU's has none, so only this reaches the
 * refusal below.
 */
static const struct fault_field tos_fields[] = {
	{"TYPE", FAULT_NUM, .min = 0, .max = 2}, FAULT_FIELD_CPU, {}};
DEFINE_FAULT(tos, tos_fields, 1, FAULT_FOREVER, NULL,
	     "the firmware reports a Trusted OS of MIGRATE_INFO_TYPE TYPE (0: "
	     "may migrate, 1: may not, 2: none) on that CPU");

bool psci_fault_tos(int *type, u64 *tos_mpidr)
{
	if (!should_fail(&fault_tos))
		return false;
	*type = (int)fault_arg(&fault_tos, 0);
	*tos_mpidr = cpu_logical_map(fault_arg(&fault_tos, 1));
	return true;
}
