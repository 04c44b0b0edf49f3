/*
 * Halting and powering off: the handler a driver registers (PSCI
 * SYSTEM_OFF, the BCM2835 watchdog's reset), and the poweroff word. The
 * end of a run, whether it ended well (main.c, the shell's poweroff) or
 * in a panic.
 */
#define pr_fmt(fmt) fmt
#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>

void (*pm_power_off)(void);

bool poweroff_when_done;
param_flag("poweroff", poweroff_when_done,
	   "power off when the kernel is done (or panics)");

void machine_halt(void)
{
	local_irq_disable();
	pr_emerg("System halted.\n");
	for (;;)
		wfi();
}

void machine_power_off(void)
{
	local_irq_disable();
	if (pm_power_off) {
		pr_info("Power down\n");
		pm_power_off();
		pr_emerg("power off failed\n");
	} else {
		pr_emerg("no way to power off this machine\n");
	}
	machine_halt();
}
