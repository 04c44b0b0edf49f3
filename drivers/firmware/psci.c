/*
 * PSCI firmware driver: finds the conduit (hvc or smc) and function IDs
 * from the /psci node, reads the version, and offers CPU_ON, CPU_OFF,
 * AFFINITY_INFO and SYSTEM_OFF. PSCI 0.1 (compatible "arm,psci" only)
 * has no fixed IDs and no SYSTEM_OFF: its IDs come from the node.
 *
 * PSCI 0.1 has no AFFINITY_INFO either, so nothing can confirm that a
 * CPU which called CPU_OFF is off; a down frees the CPU's stack and
 * per-CPU area only once it is confirmed, so on 0.1 downs are refused.
 */
#define pr_fmt(fmt) "psci: " fmt
#include <asm/smccc.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/cpu_pen.h>
#include <kernel/params.h>
#include <kernel/devicetree.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/psci.h>
#include <libfdt.h>
#include <lib/errno.h>
#include <lib/fdt.h>
#include <string.h>

#define PSCI_0_2_FN_VERSION 0x84000000
#define PSCI_0_2_FN_CPU_OFF 0x84000002
#define PSCI_0_2_FN64_CPU_ON 0xc4000003
#define PSCI_0_2_FN64_AFFINITY_INFO 0xc4000004
#define PSCI_0_2_FN_MIGRATE_INFO_TYPE 0x84000006
#define PSCI_0_2_FN64_MIGRATE_INFO_UP_CPU 0xc4000007
#define PSCI_0_2_FN_SYSTEM_OFF 0x84000008

/* MIGRATE_INFO_TYPE: a Trusted OS lives on one CPU (0: may migrate,
 * 1: may not); 2 means no Trusted OS needs any CPU. */
#define PSCI_TOS_UP_MIGRATE 0
#define PSCI_TOS_UP_NO_MIGRATE 1

#define CPU_KILL_SPIN_US 2000
#define CPU_KILL_POLL_MS 10
#define CPU_KILL_TIMEOUT_MS 1000

static struct {
	smccc_fn invoke;
	u32 cpu_on, cpu_off, affinity_info, system_off; /* 0: absent */
	u32 migrate_info_type, migrate_info_up_cpu;
} psci;

/*
 * hotplug_pen: offline CPUs park in the kernel's pen instead of CPU_OFF,
 * as on spin-table boards, so QEMU virt can exercise the pen.
 */
static bool use_pen;

bool psci_available(void)
{
	return psci.invoke != NULL;
}

const char *psci_error_name(int err)
{
	static const char *const names[] = {
		"SUCCESS",	    "NOT_SUPPORTED", "INVALID_PARAMS",
		"DENIED",	    "ALREADY_ON",    "ON_PENDING",
		"INTERNAL_FAILURE", "NOT_PRESENT",   "DISABLED",
		"INVALID_ADDRESS",
	};

	if (err > 0 || -err >= (int)ARRAY_SIZE(names))
		return "UNKNOWN";
	return names[-err];
}

static int psci_call(u32 fn, u64 a1, u64 a2, u64 a3)
{
	if (!psci.invoke || !fn)
		return PSCI_RET_NOT_SUPPORTED;
	return (int)psci.invoke(fn, a1, a2, a3);
}

/* Fault injection: CPU_ON answers this instead of calling the firmware
 * (for the CPU with this MPIDR only, unless it is ~0). */
int psci_inject_cpu_on_error;
u64 psci_inject_cpu_on_mpidr = ~0ULL;

int psci_cpu_on(u64 mpidr, phys_addr_t entry, u64 context)
{
	int injected = READ_ONCE(psci_inject_cpu_on_error);
	u64 target = READ_ONCE(psci_inject_cpu_on_mpidr);

	if (injected && (target == ~0ULL || target == mpidr))
		return injected;
	return psci_call(psci.cpu_on, mpidr, entry, context);
}

int psci_cpu_off(void)
{
	return psci_call(psci.cpu_off, 0, 0, 0);
}

int psci_inject_affinity_on;

int psci_affinity_info(u64 mpidr)
{
	int n = READ_ONCE(psci_inject_affinity_on);

	if (n) {
		if (n > 0)
			WRITE_ONCE(psci_inject_affinity_on, n - 1);
		return PSCI_AFFINITY_ON;
	}
	return psci_call(psci.affinity_info, mpidr, 0, 0);
}

static void psci_system_off(void)
{
	int err = psci_call(psci.system_off, 0, 0, 0);

	pr_emerg("SYSTEM_OFF returned %d (%s)\n", err, psci_error_name(err));
}

/* PSCI 0.1: each function's ID is a property of the node. */
static void read_v01_ids(int node)
{
	const void *fdt = initial_boot_params;

	fdt_read_u32(fdt, node, "cpu_on", &psci.cpu_on);
	fdt_read_u32(fdt, node, "cpu_off", &psci.cpu_off);
}

static int psci_probe(const struct dt_device *dev)
{
	const char *method =
		fdt_read_string(initial_boot_params, dev->node, "method");
	u32 ver;

	if (method && !strcmp(method, "hvc")) {
		psci.invoke = arm_smccc_hvc;
	} else if (method && !strcmp(method, "smc")) {
		psci.invoke = arm_smccc_smc;
	} else {
		pr_err("unknown conduit method '%s'\n", method ? method : "");
		return -EINVAL;
	}
	if (fdt_node_check_compatible(initial_boot_params, dev->node,
				      "arm,psci-0.2") &&
	    fdt_node_check_compatible(initial_boot_params, dev->node,
				      "arm,psci-1.0")) {
		read_v01_ids(dev->node);
		board.psci.version = 1; /* 0.1 */
		pr_warn("PSCI 0.1: no AFFINITY_INFO to confirm a CPU off: CPU "
			"downs refused\n");
		return 0;
	}
	use_pen = param_has("hotplug_pen");
	ver = psci_call(PSCI_0_2_FN_VERSION, 0, 0, 0);
	board.psci.version = ver;
	psci.cpu_on = PSCI_0_2_FN64_CPU_ON;
	psci.cpu_off = PSCI_0_2_FN_CPU_OFF;
	psci.affinity_info = PSCI_0_2_FN64_AFFINITY_INFO;
	psci.system_off = PSCI_0_2_FN_SYSTEM_OFF;
	psci.migrate_info_type = PSCI_0_2_FN_MIGRATE_INFO_TYPE;
	psci.migrate_info_up_cpu = PSCI_0_2_FN64_MIGRATE_INFO_UP_CPU;
	pm_power_off = psci_system_off;
	return 0;
}

static int psci_boot_cpu(unsigned int cpu, phys_addr_t entry)
{
	int err;

	if (cpu_pen_holds(cpu)) {
		cpu_pen_release(cpu);
		return 0;
	}
	err = psci_cpu_on(cpu_logical_map(cpu), entry, cpu);
	if (err)
		pr_err("CPU%u: CPU_ON failed: %s (%d)\n", cpu,
		       psci_error_name(err), err);
	return err ? -EIO : 0;
}

KERNEL_PARAM(hotplug_pen, "offline CPUs park in the kernel pen, not CPU_OFF "
			  "(tests the spin-table path)");

bool psci_offline_parks(void)
{
	return use_pen;
}

static void psci_die_cpu(unsigned int cpu)
{
	int err;

	if (use_pen)
		cpu_pen_park(cpu);
	err = psci_cpu_off();

	pr_crit("CPU%u: CPU_OFF failed: %s (%d)\n", cpu, psci_error_name(err),
		err);
}

/* Poll AFFINITY_INFO until the firmware says cpu is off. */
static int psci_kill_cpu(unsigned int cpu)
{
	u64 mpidr = cpu_logical_map(cpu);
	int state = -1;

	if (use_pen)
		return cpu_pen_wait(cpu);
	if (!psci.affinity_info) { /* PSCI 0.1: cannot confirm, keep all */
		pr_err("CPU%u: no AFFINITY_INFO (PSCI 0.1): cannot confirm it "
		       "off\n",
		       cpu);
		return -EOPNOTSUPP;
	}
	/* CPU_OFF usually lands within microseconds: poll fast at first. */
	for (int us = 0; us < CPU_KILL_SPIN_US; us += 10) {
		state = psci_affinity_info(mpidr);
		if (state == PSCI_AFFINITY_OFF)
			return 0;
		udelay(10);
	}
	/* Then by the clock: a sleep may last longer than asked. */
	for (u64 end = ktime_get_ns() + CPU_KILL_TIMEOUT_MS * 1000000ULL;;) {
		state = psci_affinity_info(mpidr);
		if (state == PSCI_AFFINITY_OFF)
			return 0;
		if (state < 0 || ktime_get_ns() > end)
			break;
		msleep(CPU_KILL_POLL_MS);
	}
	if (state < 0)
		pr_err("CPU%u: AFFINITY_INFO failed: %s\n", cpu,
		       psci_error_name(state));
	else
		pr_err("CPU%u: AFFINITY_INFO still says %s after %d ms\n", cpu,
		       state == PSCI_AFFINITY_ON ? "ON" : "ON_PENDING",
		       CPU_KILL_TIMEOUT_MS);
	return -ETIMEDOUT;
}

/*
 * Fault injection: when >= 0, MIGRATE_INFO_TYPE answers this and
 * MIGRATE_INFO_UP_CPU answers psci_inject_tos_mpidr, without asking the
 * firmware. QEMU's firmware has no Trusted OS, so only this reaches the
 * refusal below.
 */
int psci_inject_tos_type = -1;
u64 psci_inject_tos_mpidr;

/*
 * Not the CPU a uniprocessor Trusted OS lives on: it cannot migrate
 * (type 1), or could but the kernel never asks it to (type 0: no
 * MIGRATE call here, as in Linux). Type 2 or NOT_SUPPORTED: none.
 */
static bool psci_cpu_can_disable(unsigned int cpu)
{
	int injected = READ_ONCE(psci_inject_tos_type);
	int type;
	u64 tos_cpu;

	if (!psci.affinity_info && !use_pen)
		return false; /* PSCI 0.1: a down could never be confirmed */
	type = injected >= 0 ? injected
			     : psci_call(psci.migrate_info_type, 0, 0, 0);
	if (type != PSCI_TOS_UP_MIGRATE && type != PSCI_TOS_UP_NO_MIGRATE)
		return true;
	if (injected >= 0)
		tos_cpu = READ_ONCE(psci_inject_tos_mpidr);
	else
		tos_cpu = (u64)psci.invoke(psci.migrate_info_up_cpu, 0, 0, 0);
	return (tos_cpu & MPIDR_HWID_MASK) != cpu_logical_map(cpu);
}

static const struct cpu_operations psci_cpu_ops = {
	.name = "psci",
	.cpu_boot = psci_boot_cpu,
	.cpu_die = psci_die_cpu,
	.cpu_kill = psci_kill_cpu,
	.cpu_can_disable = psci_cpu_can_disable,
};
CPU_OPS_DECLARE(psci, psci_cpu_ops);

static const char *const psci_compat[] = {"arm,psci-1.0", "arm,psci-0.2",
					  "arm,psci", NULL};
DT_DRIVER(psci, DT_CLASS_FIRMWARE, psci_compat, psci_probe);
