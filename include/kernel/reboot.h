/* Halting and powering off (kernel/reboot.c). */
#ifndef KERNEL_REBOOT_H
#define KERNEL_REBOOT_H

#include <lib/kernel.h>

/* Stop this CPU for good ("System halted" when it is the last word). */
__noreturn void machine_halt(void);
/* Power off through the registered handler (PSCI), else halt. */
__noreturn void machine_power_off(void);
/* The poweroff word: power off when done, also after a panic. */
extern bool poweroff_when_done;
/* Set by the driver that can power the machine off. */
extern void (*pm_power_off)(void);

#endif
