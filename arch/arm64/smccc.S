/*
 * Arm SMC Calling Convention: a function ID and up to three arguments in
 * x0-x3, the result in x0 (or, for the _res calls, x0-x3 into a struct
 * arm_smccc_res). The conduit (HVC to a hypervisor, SMC to secure
 * firmware) is the device tree's choice, so both are here.
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

/*
 * void arm_smccc_{hvc,smc}_res(fn, a1, a2, a3, struct arm_smccc_res *res)
 * SMCCC 1.0 firmware may clobber x4-x17: the result pointer waits on the
 * stack.
 */
.macro smccc_res insn
	str	x4, [sp, #-16]!
	\insn	#0
	ldr	x4, [sp], #16
	stp	x0, x1, [x4]
	stp	x2, x3, [x4, #16]
	ret
.endm

ENTRY(arm_smccc_hvc_res)
	smccc_res hvc
END(arm_smccc_hvc_res)

ENTRY(arm_smccc_smc_res)
	smccc_res smc
END(arm_smccc_smc_res)
