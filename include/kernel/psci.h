/*
 * PSCI, the Arm Power State Coordination Interface: the firmware calls
 * that turn CPUs on and off and the system off. These are the only
 * functions that issue those calls, so a debugger can break on them.
 */
#ifndef KERNEL_PSCI_H
#define KERNEL_PSCI_H

#include <lib/types.h>

#define PSCI_RET_SUCCESS 0
#define PSCI_RET_NOT_SUPPORTED -1
#define PSCI_RET_INVALID_PARAMS -2
#define PSCI_RET_DENIED -3
#define PSCI_RET_ALREADY_ON -4
#define PSCI_RET_ON_PENDING -5
#define PSCI_RET_INTERNAL_FAILURE -6
#define PSCI_RET_NOT_PRESENT -7
#define PSCI_RET_DISABLED -8
#define PSCI_RET_INVALID_ADDRESS -9

/*
 * Function IDs of PSCI 0.2 and later (0.1 has none of its own: its IDs
 * come from the /psci node). The 64-bit forms where an argument is an
 * MPIDR or an address.
 */
#define PSCI_0_2_FN_VERSION 0x84000000
#define PSCI_0_2_FN64_CPU_SUSPEND 0xc4000001
#define PSCI_0_2_FN_CPU_OFF 0x84000002
#define PSCI_0_2_FN64_CPU_ON 0xc4000003
#define PSCI_0_2_FN64_AFFINITY_INFO 0xc4000004
#define PSCI_0_2_FN_MIGRATE_INFO_TYPE 0x84000006
#define PSCI_0_2_FN64_MIGRATE_INFO_UP_CPU 0xc4000007
#define PSCI_0_2_FN_SYSTEM_OFF 0x84000008
#define PSCI_1_0_FN_PSCI_FEATURES 0x8400000a

/* MIGRATE_INFO_TYPE: a Trusted OS lives on one CPU (0: may migrate,
 * 1: may not); 2 means no Trusted OS needs any CPU. */
#define PSCI_TOS_UP_MIGRATE 0
#define PSCI_TOS_UP_NO_MIGRATE 1
#define PSCI_TOS_NOT_PRESENT_MP 2

/* PSCI_VERSION's answer; 0.1 (no VERSION call) is PSCI_VERSION(0, 1). */
#define PSCI_VERSION(major, minor) ((u32)(major) << 16 | (minor))
#define PSCI_VERSION_MAJOR(v) ((v) >> 16)
#define PSCI_VERSION_MINOR(v) ((v)&0xffff)

/*
 * CPU_SUSPEND's power_state, in its two formats (PSCI 1.0 section 5.4.2):
 * original, [15:0] StateID, [16] StateType, [25:24] PowerLevel; extended
 * (PSCI_FEATURES(CPU_SUSPEND) bit 1), [27:0] StateID, [30] StateType.
 * StateType 1 asks for a power-down: the CPU may lose its context.
 */
#define PSCI_0_2_POWER_STATE_TYPE (1U << 16)
#define PSCI_1_0_EXT_POWER_STATE_TYPE (1U << 30)
#define PSCI_1_0_FEATURES_CPU_SUSPEND_PF_EXT (1U << 1)

#define PSCI_AFFINITY_ON 0
#define PSCI_AFFINITY_OFF 1
#define PSCI_AFFINITY_ON_PENDING 2

/* The driver is bound: the firmware answers PSCI calls. */
bool psci_available(void);
/* The firmware's PSCI version, PSCI_VERSION(); 0 without PSCI. */
u32 psci_version(void);
/* The boot banner's line: version, conduit, SMCCC version and who
 * answers (the Standard Service UID), or "not present". */
void psci_print_info(void);
/* The firmware the Standard Service UID names ("Trusted Firmware-A"), or
 * NULL when it has none or one this kernel does not know. */
const char *psci_firmware_name(void);
/* PSCI_FEATURES(fn): >= 0 if implemented; NOT_SUPPORTED before PSCI 1.0. */
int psci_features(u32 fn);
int psci_cpu_on(u64 mpidr, phys_addr_t entry, u64 context);
/* Powers the calling CPU off; returns only if the firmware refused. */
int psci_cpu_off(void);
int psci_affinity_info(u64 mpidr);

/* The firmware offers CPU_SUSPEND: PSCI 0.2, 1.0+ if PSCI_FEATURES says
 * so (Trusted Firmware-A's rpi3 does not), or a 0.1 node's ID. */
bool psci_has_cpu_suspend(void);
/* Does power_state ask for a power-down, in the format the firmware uses
 * (PSCI_FEATURES(CPU_SUSPEND), read at probe)? */
bool psci_power_state_is_powerdown(u32 state);
/*
 * CPU_SUSPEND on the calling CPU, IRQs masked: the PSCI code. SUCCESS
 * when it returns from a standby, or from a power-down request for which
 * the firmware chose a shallower state. A power-down that happens does
 * not return: the CPU restarts at entry (physical, MMU off) with x0 =
 * context_id, its EL1 state lost; cpu_suspend() (<asm/suspend.h>) is the
 * way to ask for one. fail.cpu_suspend=lose_context emulates that.
 */
int psci_cpu_suspend(u32 power_state, phys_addr_t entry, u64 context_id);
/*
 * cpu_suspend()'s finisher for a power-down state: CPU_SUSPEND(state)
 * with entry cpu_resume and this CPU's suspend context as context_id.
 */
int psci_suspend_finisher(unsigned long state);

/* The specification's name of an error, here so that the trace's dump
 * and the tests print it without calling into the driver. */
static inline const char *psci_error_name(int err)
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

/*
 * Call function fn over the conduit and return the firmware's x0 as is:
 * no fault injection, and fn need not be a call the kernel makes. For the
 * conformance suite (kernel/tests/psci_test.c), which asks what the
 * kernel never does (an unassigned ID, AFFINITY_INFO above level 0).
 * NOT_SUPPORTED when no PSCI driver is bound.
 */
unsigned long psci_invoke(u32 fn, unsigned long a1, unsigned long a2,
			  unsigned long a3);

/* Offline CPUs park in the kernel pen (hotplug.pen), not CPU_OFF. */
bool psci_offline_parks(void);
bool psci_conduit_is_smc(void);

/*
 * One bare firmware cycle of an OFF CPU (drivers/firmware/psci_floor.c):
 * CPU_ON to the entry's first instruction, CPU_OFF to the first OFF
 * answer, and CPU_ON to that answer, in ns; and how many OFF answers
 * came before the CPU had run (early_off).
 */
struct psci_floor {
	u64 on_ns, off_ns, cycle_ns;
	unsigned int early_off;
};
int psci_floor_cycle(u64 mpidr, struct psci_floor *f);

#endif
