/* The register frame saved on exception entry (arch/arm64/entry.S). */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#define S_X29 (29 * 8)
#define S_X30 (30 * 8)
#define S_SP (31 * 8)
#define S_PC (32 * 8)
#define S_PSTATE (33 * 8)
#define S_ESR (34 * 8)
#define S_FAR (35 * 8)
#define PT_REGS_SIZE (36 * 8)

#ifndef __ASSEMBLER__
#include <lib/kernel.h>

struct pt_regs {
	u64 regs[31];
	u64 sp;
	u64 pc;
	u64 pstate;
	u64 esr;
	u64 far;
};

BUILD_BUG_ON(offsetof(struct pt_regs, sp) != S_SP);
BUILD_BUG_ON(offsetof(struct pt_regs, far) != S_FAR);
BUILD_BUG_ON(sizeof(struct pt_regs) != PT_REGS_SIZE);
BUILD_BUG_ON(PT_REGS_SIZE % 16);

#endif
#endif
