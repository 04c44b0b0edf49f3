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

/* PSCI_VERSION's answer; 0.1 (no VERSION call) is PSCI_VERSION(0, 1). */
#define PSCI_VERSION(major, minor) ((u32)(major) << 16 | (minor))
#define PSCI_VERSION_MAJOR(v) ((v) >> 16)
#define PSCI_VERSION_MINOR(v) ((v)&0xffff)

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
const char *psci_error_name(int err);

/* Offline CPUs park in the kernel pen (hotplug.pen), not CPU_OFF. */
bool psci_offline_parks(void);

#endif
