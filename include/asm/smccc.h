/* SMC Calling Convention entry points (arch/arm64/smccc.S). */
#ifndef ASM_SMCCC_H
#define ASM_SMCCC_H

/* Calls every SMCCC firmware answers (SMCCC 1.1+, or the Standard Service
 * range of any version). */
#define ARM_SMCCC_VERSION_FUNC_ID 0x80000000
#define ARM_SMCCC_STD_SVC_CALL_COUNT 0x8400ff00
#define ARM_SMCCC_STD_SVC_UID 0x8400ff01
#define ARM_SMCCC_STD_SVC_REVISION 0x8400ff03

struct arm_smccc_res {
	unsigned long a0, a1, a2, a3;
};

typedef unsigned long (*smccc_fn)(unsigned long fn, unsigned long a1,
				  unsigned long a2, unsigned long a3);
typedef void (*smccc_res_fn)(unsigned long fn, unsigned long a1,
			     unsigned long a2, unsigned long a3,
			     struct arm_smccc_res *res);

unsigned long arm_smccc_hvc(unsigned long fn, unsigned long a1,
			    unsigned long a2, unsigned long a3);
unsigned long arm_smccc_smc(unsigned long fn, unsigned long a1,
			    unsigned long a2, unsigned long a3);
void arm_smccc_hvc_res(unsigned long fn, unsigned long a1, unsigned long a2,
		       unsigned long a3, struct arm_smccc_res *res);
void arm_smccc_smc_res(unsigned long fn, unsigned long a1, unsigned long a2,
		       unsigned long a3, struct arm_smccc_res *res);

#endif
