/*
 * Arm SMC Calling Convention: a function ID and up to three arguments in
 * x0-x3, the result in x0. The conduit (HVC to a hypervisor, SMC to
 * secure firmware) is the device tree's choice, so both are here.
 */
#include <asm/asm.h>

	.text
/* unsigned long arm_smccc_hvc(fn, a1, a2, a3) */
ENTRY(arm_smccc_hvc)
	hvc	#0
	ret
END(arm_smccc_hvc)

/* unsigned long arm_smccc_smc(fn, a1, a2, a3) */
ENTRY(arm_smccc_smc)
	smc	#0
	ret
END(arm_smccc_smc)
