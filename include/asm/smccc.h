/* SMC Calling Convention entry points (arch/arm64/smccc.S). */
#ifndef ASM_SMCCC_H
#define ASM_SMCCC_H

typedef unsigned long (*smccc_fn)(unsigned long fn, unsigned long a1,
				  unsigned long a2, unsigned long a3);

unsigned long arm_smccc_hvc(unsigned long fn, unsigned long a1,
			    unsigned long a2, unsigned long a3);
unsigned long arm_smccc_smc(unsigned long fn, unsigned long a1,
			    unsigned long a2, unsigned long a3);

#endif
