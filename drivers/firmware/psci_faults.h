/*
 * PSCI's fault points (psci_faults.c), as psci.c asks them: each true
 * when the call is to answer as the fault says, and then what it answers.
 * Without fault injection (TESTS=0) each is false and compiles to nothing.
 */
#ifndef DRIVERS_FIRMWARE_PSCI_FAULTS_H
#define DRIVERS_FIRMWARE_PSCI_FAULTS_H

#include <lib/types.h>

#ifdef CONFIG_FAULT_INJECTION
/* fail.cpu_on: CPU_ON of mpidr answers *ret, without the firmware. */
bool psci_fault_cpu_on(u64 mpidr, int *ret);
/* fail.cpu_off: AFFINITY_INFO answers ON. */
bool psci_fault_affinity_on(void);
/* fail.cpu_suspend: a power-down that returned loses the context. */
bool psci_fault_lose_context(void);
/* fail.tos: a Trusted OS of MIGRATE_INFO_TYPE *type on *tos_mpidr. */
bool psci_fault_tos(int *type, u64 *tos_mpidr);
#else
static inline bool psci_fault_cpu_on(u64 mpidr, int *ret)
{
	return false;
}

static inline bool psci_fault_affinity_on(void)
{
	return false;
}

static inline bool psci_fault_lose_context(void)
{
	return false;
}

static inline bool psci_fault_tos(int *type, u64 *tos_mpidr)
{
	return false;
}
#endif

#endif
