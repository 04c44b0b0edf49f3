/*
 * PSCI firmware driver: finds the conduit (hvc or smc) and function IDs
 * from the /psci node (psci_node.c), reads the version, and offers
 * CPU_ON, CPU_OFF, CPU_SUSPEND, AFFINITY_INFO and SYSTEM_OFF, plus psci_invoke(), the
 * raw call the conformance suite asks the firmware with. PSCI 0.1
 * (compatible "arm,psci" only) has no fixed IDs and no SYSTEM_OFF: its
 * IDs come from the node.
 *
 * PSCI 0.1 has no AFFINITY_INFO either, so nothing can confirm that a
 * CPU which called CPU_OFF is off; a down frees the CPU's stack and
 * per-CPU area only once it is confirmed, so on 0.1 downs are refused.
 */
#define pr_fmt(fmt) "psci: " fmt
#include <asm/cputype.h>
#include <asm/irqflags.h>
#include <asm/smccc.h>
#include <asm/suspend.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/devicetree.h>
#include <kernel/params.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/trace.h>
#include <kernel/psci.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <stdlib.h>
#include <string.h>

#include "psci_faults.h"
#include "psci_node.h"

/*
 * Waiting for a CPU to be off. CPU_OFF usually lands within microseconds
 * and its first OFF answer ends the firmware's share of the down, so the
 * first CPU_KILL_SPIN_POLLS polls spin, poll i waiting i/10 us after its
 * call: back to back at first, an OFF at t us after the first poll is
 * seen within sqrt(t/5) us plus one call (4.5 us at 100 us), and the spin
 * ends after about 2 ms. Then a poll every CPU_KILL_POLL_MS, sleeping.
 */
#define CPU_KILL_SPIN_POLLS 200
#define CPU_KILL_POLL_MS 10
#define CPU_KILL_TIMEOUT_MS 1000

static struct {
	struct psci_node node;
	u32 version; /* PSCI_VERSION(major, minor); 0 until probed */
	smccc_fn invoke;
	smccc_res_fn invoke_res;
	u32 smccc_version; /* SMCCC_VERSION's answer; 0x10000 (1.0) if none */
	u32 uid[4]; /* Standard Service UID; uid[0] = ~0U: none */
	u32 cpu_on, cpu_off, affinity_info, system_off; /* 0: absent */
	u32 cpu_suspend; /* 0: absent */
	bool ext_power_state; /* CPU_SUSPEND takes the extended format */
	u32 migrate_info_type, migrate_info_up_cpu;
} psci;

/*
 * hotplug.pen: offline CPUs park in the kernel's pen instead of CPU_OFF,
 * as on spin-table boards, so QEMU virt can exercise the pen.
 */
static bool use_pen;
param_flag("hotplug.pen", use_pen,
	   "offline CPUs park in the kernel's pen, not CPU_OFF (the "
	   "spin-table path, on PSCI 0.2+ firmware)");

bool psci_available(void)
{
	return psci.invoke != NULL;
}

u32 psci_version(void)
{
	return psci.version;
}

/*
 * Who answers: the Standard Service UID names the implementation of the
 * Arm standard calls (PSCI among them). TF-A answers with its own; QEMU's
 * built-in PSCI does not implement the call.
 */
static const struct {
	u32 uid[4];
	const char *name;
} psci_firmwares[] = {
	{{0x108d905b, 0x47e8f863, 0xfbc02dae, 0xe2f64156},
	 "Trusted Firmware-A"},
};

const char *psci_firmware_name(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(psci_firmwares); i++)
		if (!memcmp(psci.uid, psci_firmwares[i].uid, sizeof(psci.uid)))
			return psci_firmwares[i].name;
	return NULL;
}

void psci_print_info(void)
{
	const char *name = psci_firmware_name();
	const u8 *b = (const u8 *)psci.uid; /* UID bytes 0..15 (SMCCC) */
	const u32 *w = psci.uid;

	if (!psci_available()) {
		printk(KERN_INFO "PSCI: not present\n");
		return;
	}
	printk(KERN_INFO "PSCI: version %u.%u, conduit %s, SMCCC %u.%u",
	       PSCI_VERSION_MAJOR(psci.version),
	       PSCI_VERSION_MINOR(psci.version), psci.node.method,
	       psci.smccc_version >> 16, psci.smccc_version & 0xffff);
	if (psci.uid[0] == ~0U) {
		pr_cont(", firmware unnamed (no Standard Service UID)\n");
		return;
	}
	/* The UUID's text form: its first three fields are numbers. */
	pr_cont(", firmware %s (Standard Service UID "
		"%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x)\n",
		name ? name : "unknown", w[0], w[1] & 0xffff, w[1] >> 16, b[8],
		b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static int psci_call(u32 fn, u64 a1, u64 a2, u64 a3)
{
	if (!psci.invoke || !fn)
		return PSCI_RET_NOT_SUPPORTED;
	return (int)psci.invoke(fn, a1, a2, a3);
}

unsigned long psci_invoke(u32 fn, unsigned long a1, unsigned long a2,
			  unsigned long a3)
{
	if (!psci.invoke)
		return (unsigned long)PSCI_RET_NOT_SUPPORTED;
	return psci.invoke(fn, a1, a2, a3);
}

int psci_cpu_on(u64 mpidr, phys_addr_t entry, u64 context)
{
	int ret;

	trace_psci_call(TRACE_PSCI_CPU_ON, mpidr);
	if (!psci_fault_cpu_on(mpidr, &ret))
		ret = psci_call(psci.cpu_on, mpidr, entry, context);
	trace_psci_ret(TRACE_PSCI_CPU_ON, mpidr, ret);
	return ret;
}

/* Traced before the call: it returns only if it failed. */
int psci_cpu_off(void)
{
	u64 self = read_cpuid_mpidr() & MPIDR_HWID_MASK;
	int ret;

	trace_psci_call(TRACE_PSCI_CPU_OFF, self);
	ret = psci_call(psci.cpu_off, 0, 0, 0);
	trace_psci_ret(TRACE_PSCI_CPU_OFF, self, ret);
	return ret;
}

bool psci_has_cpu_suspend(void)
{
	return psci.invoke && psci.cpu_suspend;
}

bool psci_power_state_is_powerdown(u32 state)
{
	return state & (psci.ext_power_state ? PSCI_1_0_EXT_POWER_STATE_TYPE
					     : PSCI_0_2_POWER_STATE_TYPE);
}

/* Traced before the call: a power-down that happens does not return. */
int psci_cpu_suspend(u32 power_state, phys_addr_t entry, u64 context_id)
{
	u64 self = read_cpuid_mpidr() & MPIDR_HWID_MASK;
	int ret;

	trace_psci_call(TRACE_PSCI_CPU_SUSPEND, self);
	ret = psci_call(psci.cpu_suspend, power_state, entry, context_id);
	if (ret == PSCI_RET_SUCCESS &&
	    psci_power_state_is_powerdown(power_state) &&
	    psci_fault_lose_context())
		cpu_suspend_emulate_powerdown(entry, context_id);
	trace_psci_ret(TRACE_PSCI_CPU_SUSPEND, self, ret);
	return ret;
}

int psci_suspend_finisher(unsigned long state)
{
	return psci_cpu_suspend((u32)state, cpu_resume_entry(),
				cpu_suspend_context_id());
}

bool psci_conduit_is_smc(void)
{
	return psci.invoke == arm_smccc_smc;
}

int psci_affinity_info(u64 mpidr)
{
	int state = psci_fault_affinity_on()
			    ? PSCI_AFFINITY_ON
			    : psci_call(psci.affinity_info, mpidr, 0, 0);

	trace_psci_ret(TRACE_PSCI_AFFINITY_INFO, mpidr, state);
	return state;
}

static void psci_system_off(void)
{
	int err = psci_call(psci.system_off, 0, 0, 0);

	pr_emerg("SYSTEM_OFF returned %d (%s)\n", err, psci_error_name(err));
}

/* PSCI 1.0's PSCI_FEATURES: 0 (or flags >= 0) if fn is implemented. */
int psci_features(u32 fn)
{
	if (psci.version < PSCI_VERSION(1, 0))
		return PSCI_RET_NOT_SUPPORTED;
	return psci_call(PSCI_1_0_FN_PSCI_FEATURES, fn, 0, 0);
}

/* The SMCCC version and the Standard Service UID, for the banner. */
static void psci_identify(void)
{
	struct arm_smccc_res res;

	psci.smccc_version = 0x10000;
	if (psci_features(ARM_SMCCC_VERSION_FUNC_ID) >= 0)
		psci.smccc_version =
			(u32)psci_call(ARM_SMCCC_VERSION_FUNC_ID, 0, 0, 0);
	psci.invoke_res(ARM_SMCCC_STD_SVC_UID, 0, 0, 0, &res);
	psci.uid[0] = (u32)res.a0;
	psci.uid[1] = (u32)res.a1;
	psci.uid[2] = (u32)res.a2;
	psci.uid[3] = (u32)res.a3;
}

static int psci_probe(const struct dt_device *dev)
{
	int features;

	psci_read_node(dev, &psci.node);
	if (!strcmp(psci.node.method, "hvc")) {
		psci.invoke = arm_smccc_hvc;
		psci.invoke_res = arm_smccc_hvc_res;
	} else if (!strcmp(psci.node.method, "smc")) {
		psci.invoke = arm_smccc_smc;
		psci.invoke_res = arm_smccc_smc_res;
	} else {
		pr_err("unknown conduit method '%s'\n", psci.node.method);
		return -EINVAL;
	}
	if (psci.node.v0_1) {
		psci.cpu_on = psci.node.cpu_on;
		psci.cpu_off = psci.node.cpu_off;
		psci.cpu_suspend = psci.node.cpu_suspend;
		psci.version = PSCI_VERSION(0, 1);
		if (use_pen)
			pr_info("PSCI 0.1: offline CPUs park in the kernel's "
				"pen (hotplug.pen)\n");
		else
			pr_warn("PSCI 0.1: no AFFINITY_INFO to confirm a CPU "
				"off: CPU downs refused\n");
		return 0;
	}
	psci.version = (u32)psci_call(PSCI_0_2_FN_VERSION, 0, 0, 0);
	psci_identify();
	psci.cpu_on = PSCI_0_2_FN64_CPU_ON;
	psci.cpu_off = PSCI_0_2_FN_CPU_OFF;
	psci.affinity_info = PSCI_0_2_FN64_AFFINITY_INFO;
	/* PSCI 1.0+ says whether it has CPU_SUSPEND (TF-A's rpi3 has not)
	 * and in which format; 0.2 must have it, in the original format. */
	features = psci_features(PSCI_0_2_FN64_CPU_SUSPEND);
	if (psci.version < PSCI_VERSION(1, 0) || features >= 0)
		psci.cpu_suspend = PSCI_0_2_FN64_CPU_SUSPEND;
	psci.ext_power_state =
		features >= 0 &&
		(features & PSCI_1_0_FEATURES_CPU_SUSPEND_PF_EXT);
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
	cpu_fw_on_calling(cpu);
	err = psci_cpu_on(cpu_logical_map(cpu), entry, cpu);
	if (err)
		pr_err("CPU%u: CPU_ON failed: %s (%d)\n", cpu,
		       psci_error_name(err), err);
	/* Still on, or still starting: a straggler that has not left yet. */
	if (err == PSCI_RET_ALREADY_ON || err == PSCI_RET_ON_PENDING)
		return -EBUSY;
	return err ? -EIO : 0;
}

/*
 * Without waiting: OFF by AFFINITY_INFO, or in the pen. The firmware's
 * own answer, not fail.cpu_off's: that point stands for a down's
 * confirmation, and this runs from a timer beside it.
 */
static int psci_cpu_is_off(unsigned int cpu)
{
	if (use_pen)
		return cpu_pen_holds(cpu);
	if (!psci.affinity_info)
		return -EOPNOTSUPP;
	return psci_call(psci.affinity_info, cpu_logical_map(cpu), 0, 0) ==
	       PSCI_AFFINITY_OFF;
}

bool psci_offline_parks(void)
{
	return use_pen;
}

static void psci_die_cpu(unsigned int cpu)
{
	int err;

	if (use_pen)
		cpu_pen_park(cpu);
	cpu_fw_off_calling(cpu);
	err = psci_cpu_off();

	pr_crit("CPU%u: CPU_OFF failed: %s (%d)\n", cpu, psci_error_name(err),
		err);
}

/* Is cpu off? The first OFF is stamped right after the answer. */
static bool affinity_off(unsigned int cpu, u64 mpidr, int *state)
{
	*state = psci_affinity_info(mpidr);
	if (*state != PSCI_AFFINITY_OFF)
		return false;
	cpu_fw_off_seen(cpu);
	return true;
}

/* Poll AFFINITY_INFO until the firmware says cpu is off. */
static int psci_kill_cpu(unsigned int cpu)
{
	u64 mpidr = cpu_logical_map(cpu), end;
	int state = -1;

	if (use_pen)
		return cpu_pen_wait(cpu);
	if (!psci.affinity_info) { /* PSCI 0.1: cannot confirm, keep all */
		pr_err("CPU%u: no AFFINITY_INFO (PSCI 0.1): cannot confirm it "
		       "off\n",
		       cpu);
		return -EOPNOTSUPP;
	}
	for (int i = 0; i < CPU_KILL_SPIN_POLLS; i++) {
		if (affinity_off(cpu, mpidr, &state))
			return 0;
		udelay(i / 10);
	}
	/* Then by the clock: a sleep may last longer than asked. */
	end = ktime_get_ns() + CPU_KILL_TIMEOUT_MS * 1000000ULL;
	for (;;) {
		if (affinity_off(cpu, mpidr, &state))
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
 * Not the CPU a uniprocessor Trusted OS lives on: it cannot migrate
 * (type 1), or could but the kernel never asks it to (type 0: no
 * MIGRATE call here, as in Linux). Type 2 or NOT_SUPPORTED: none.
 */
/* Why the firmware keeps cpu from going down, or NULL if it does not. */
static const char *psci_cpu_refuses_disable(unsigned int cpu)
{
	int type;
	u64 tos_cpu;
	bool injected = psci_fault_tos(&type, &tos_cpu);

	/* PSCI 0.1, no pen: a down could never be confirmed. */
	if (!psci.affinity_info && !use_pen)
		return "the firmware cannot confirm a CPU off (PSCI 0.1 has "
		       "no AFFINITY_INFO)";
	if (!injected)
		type = psci_call(psci.migrate_info_type, 0, 0, 0);
	if (type != PSCI_TOS_UP_MIGRATE && type != PSCI_TOS_UP_NO_MIGRATE)
		return NULL;
	if (!injected)
		tos_cpu = (u64)psci.invoke(psci.migrate_info_up_cpu, 0, 0, 0);
	if ((tos_cpu & MPIDR_HWID_MASK) != cpu_logical_map(cpu))
		return NULL;
	return "the firmware does not allow it (PSCI MIGRATE_INFO_TYPE)";
}

/*
 * CPU_ON said yes but the CPU never reached the kernel's entry: is the
 * firmware still starting it (ON_PENDING: its own hold pen or reset path
 * is stuck, as TF-A's rpi3 CPU_OFF on QEMU without the RMR_EL3
 * workaround), or does it think the CPU is running (ON)?
 */
static void psci_report_missing(unsigned int cpu)
{
	int state;

	if (!psci.affinity_info)
		return;
	state = psci_affinity_info(cpu_logical_map(cpu));
	pr_crit("CPU%u: CPU_ON returned SUCCESS, the CPU never reached the "
		"kernel's entry; AFFINITY_INFO says %s\n",
		cpu,
		state == PSCI_AFFINITY_ON_PENDING ? "ON_PENDING (the firmware "
						    "is still starting it)"
		: state == PSCI_AFFINITY_ON	  ? "ON (running, not here)"
		: state == PSCI_AFFINITY_OFF	  ? "OFF"
						  : psci_error_name(state));
}

static const struct cpu_operations psci_cpu_ops = {
	.name = "psci",
	.cpu_boot = psci_boot_cpu,
	.cpu_die = psci_die_cpu,
	.cpu_kill = psci_kill_cpu,
	.cpu_is_off = psci_cpu_is_off,
	.cpu_refuses_disable = psci_cpu_refuses_disable,
	.cpu_report_missing = psci_report_missing,
};
CPU_OPS_DECLARE(psci, psci_cpu_ops);

/* The `dt` line: the node, not the firmware's answers (the banner's). */
static void psci_describe(const struct dt_device *dev)
{
	pr_info("%s, method %s\n", dev->compatible, psci.node.method);
}

DT_DRIVER(psci, DT_CLASS_FIRMWARE, psci_compat, psci_probe, psci_describe);
