/*
 * What head.S and arch/arm64/smp.c agree on for starting a secondary CPU:
 * the layout of struct secondary_data and why a CPU parked itself. Both
 * include this; smp.c checks the offsets with BUILD_BUG_ON.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

#define SECONDARY_DATA_MPIDR 24 /* offsetof(struct secondary_data, mpidr) */
/* offsetof(struct secondary_data, entry_ticks) */
#define SECONDARY_DATA_ENTRY_TICKS 32
/* MPIDR_HWID_MASK (asm/cputype.h), in a form the assembler takes. */
#define SECONDARY_MPIDR_MASK 0xff00ffffff

/* Why a CPU did not take the start slot (secondary_too_late()). */
#define SECONDARY_LATE_NO_SLOT 1 /* empty: __cpu_up() gave up */
#define SECONDARY_LATE_NOT_MINE 2 /* it names another CPU's MPIDR */

/*
 * late_stack_owner (head.S), the word a straggler claims the borrowed
 * stack with: bit 63 set while a CPU holds it, bits 0-39 that CPU's
 * MPIDR, bits 40-62 a generation that each claim increments, so that a
 * release meant for one holding never frees the next one (ABA).
 */
#define LATE_STACK_BUSY_BIT 63
#define LATE_STACK_GEN_SHIFT 40
#define LATE_STACK_GEN_MASK 0x7fffff0000000000

#ifndef __ASSEMBLER__
#include <lib/types.h>

/* The firmware's share of each attempt (arch/arm64/fw_share.c). */
void fw_share_up_begin(unsigned int cpu);
void fw_share_up_done(unsigned int cpu, u64 entry_ticks);
void fw_share_down_begin(unsigned int cpu);
void fw_share_down_done(unsigned int cpu);

/* The injected faults of a bring-up and a down (arch/arm64/smp_faults.c):
 * is cpu to start at a dead end; the dying CPU's stall, if due. */
bool smp_fault_lost(unsigned int cpu);
void smp_fault_die_delay(unsigned int cpu, bool claimed);
#endif

#endif
