/* System register access and the bit fields this kernel programs. */
#ifndef ASM_SYSREG_H
#define ASM_SYSREG_H

#define ISR_EL1_I (1 << 7) /* an IRQ is signalled to the PE, masked or not */
#define SCTLR_EL1_M (1 << 0)
#define SCTLR_EL1_C (1 << 2)
#define SCTLR_EL1_SA (1 << 3)
#define SCTLR_EL1_I (1 << 12)
#define SCTLR_EL1_WXN (1 << 19)
/* Bits that are RES1 in ARMv8.0 (11, 20, 22, 23, 28, 29). */
#define SCTLR_EL1_RES1 0x30d00800
#define SCTLR_EL1_MMU_OFF SCTLR_EL1_RES1
#define SCTLR_EL1_MMU_ON                                             \
	(SCTLR_EL1_RES1 | SCTLR_EL1_M | SCTLR_EL1_C | SCTLR_EL1_SA | \
	 SCTLR_EL1_I | SCTLR_EL1_WXN)

#define HCR_EL2_RW (1 << 31) /* EL1 is AArch64 */
#define CNTHCTL_EL2_EL1PCTEN (1 << 0)
#define CNTHCTL_EL2_EL1PCEN (1 << 1)
#define CPTR_EL2_RES1 0x33ff
#define ICC_SRE_EL2_SRE (1 << 0)
#define ICC_SRE_EL2_ENABLE (1 << 3)
#define CPACR_EL1_FPEN (3 << 20)
/* SPSR for the drop to EL1h with all of DAIF masked. */
#define SPSR_EL1H_DAIF 0x3c5

/* MAIR_EL1 attribute indexes, see MAIR_EL1_VALUE. */
#define MT_DEVICE_nGnRnE 0
#define MT_DEVICE_nGnRE 1
#define MT_NORMAL_NC 2
#define MT_NORMAL 3
#define MAIR_EL1_VALUE 0xff440400

/*
 * TCR_EL1: 39-bit VA in both halves (T0SZ = T1SZ = 25), 4 KiB granules,
 * walks inner shareable write-back. IPS is filled in from PARange at boot.
 */
#define TCR_T0SZ(x) ((x) << 0)
#define TCR_T1SZ(x) ((x) << 16)
#define TCR_WALK_WBWA_ISH 0x3500UL /* IRGN0 ORGN0 = WBWA, SH0 = inner */
#define TCR_TG1_4K (2UL << 30)
#define TCR_IPS_SHIFT 32
#define TCR_EPD0 (1 << 7) /* no TTBR0 walks: low addresses fault */
#define TCR_EL1_VALUE                                      \
	(TCR_T0SZ(25) | TCR_T1SZ(25) | TCR_WALK_WBWA_ISH | \
	 (TCR_WALK_WBWA_ISH << 16) | TCR_TG1_4K)

#define ESR_EC_SHIFT 26
#define ESR_EC_MASK 0x3f

#ifndef __ASSEMBLER__
#include <lib/types.h>

#define read_sysreg(r)                                           \
	({                                                       \
		u64 __v;                                         \
		__asm__ __volatile__("mrs %0, " #r : "=r"(__v)); \
		__v;                                             \
	})
#define write_sysreg(v, r) \
	__asm__ __volatile__("msr " #r ", %0" ::"r"((u64)(v)))
/* For registers the assembler knows only by encoding (GICv3 ICC_*). */
#define read_sysreg_s(r)                                        \
	({                                                      \
		u64 __v;                                        \
		__asm__ __volatile__("mrs %0, " r : "=r"(__v)); \
		__v;                                            \
	})
#define write_sysreg_s(v, r) \
	__asm__ __volatile__("msr " r ", %0" ::"r"((u64)(v)))

#define isb() __asm__ __volatile__("isb" ::: "memory")

#endif
#endif
