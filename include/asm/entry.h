/*
 * Entry points written in assembly (head.S, switch.S, pen.S) that C code
 * names, and trap_init(), which installs the exception vectors.
 */
#ifndef ASM_ENTRY_H
#define ASM_ENTRY_H

#include <lib/types.h>

extern char vectors[];

void trap_init(void);
/* A secondary CPU's first instruction (PSCI CPU_ON's entry point). */
void secondary_entry(void);
/* Where a CPU started at a dead end waits (fail.cpu=). */
void secondary_lost(void);
/*
 * CPU_ON entry points that stamp the counter and call CPU_OFF at once
 * (psci_floor.S), one per conduit: the firmware's floor.
 */
void psci_floor_entry_hvc(void);
void psci_floor_entry_smc(void);
/* A new thread's first instruction, from cpu_switch_to(). */
void ret_from_fork(void);
/* Who holds head.S's late_stack: LATE_STACK_* in <asm/smp.h>. */
extern u64 late_stack_owner;
/* The pen's loop, MMU on, until *release: never returns. */
void cpu_pen_enter(u32 *parked, u64 *release) __attribute__((noreturn));

#endif
