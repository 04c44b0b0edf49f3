/*
 * The kernel services kernel/devicetree.c and kernel/board.c call, reduced
 * to what a native fuzzer needs, besides tests/common/dt_shim.c: a vprintk
 * that formats and drops, and stand-in drivers. No kernel logic lives here.
 */
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <kernel/devicetree.h>
#include <kernel/printk.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../drivers/clocksource/arm_arch_timer_node.h"
#include "../../drivers/firmware/psci_node.h"
#include "../common/dt_shim.h"
#include "fuzz.h"

/*
 * Messages are formatted, so that every argument is read (ASan checks the
 * strings), and dropped.
 */
int vprintk(const char *fmt, va_list ap)
{
	char buf[512];

	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

/*
 * Stand-in drivers, one per class, so dt_probe_class() matches, fills and
 * hands over dt_device records the way it does for the real drivers, and
 * dt_describe_devices() hands the bound ones back; the PSCI and timer
 * ones bind by the real drivers' lists and run their node readers.
 */
unsigned long fuzz_probed;

static int fuzz_probe(const struct dt_device *dev)
{
	fuzz_probed += strlen(dev->name ? dev->name : "") + (size_t)dev->nr_reg;
	for (int i = 0; i < dev->nr_reg; i++)
		fuzz_probed += dev->reg[i].base ^ dev->reg[i].size;
	return dev->nr_reg ? 0 : -22;
}

/* The PSCI and generic timer drivers' own node readers. */
static int fuzz_psci_probe(const struct dt_device *dev)
{
	struct psci_node node;

	psci_read_node(dev, &node);
	fuzz_probed += strlen(node.method) + node.cpu_on + node.cpu_off;
	return fuzz_probe(dev);
}

static int fuzz_timer_probe(const struct dt_device *dev)
{
	struct arch_timer_node node;

	arch_timer_read_node(dev, &node);
	for (int i = 0; i < node.nr_irq; i++)
		for (int c = 0; c < node.irq[i].nr_cells; c++)
			fuzz_probed += node.irq[i].cells[c];
	return fuzz_probe(dev);
}

/* What a driver's `dt` line reads of the device it was bound to. */
static void fuzz_describe(const struct dt_device *dev)
{
	printk("%s: %s at %s", dev->name ? dev->name : "", dev->compatible,
	       dev->path);
	for (int i = 0; i < dev->nr_reg; i++)
		printk(" %#llx", (unsigned long long)dev->reg[i].base);
}

static const char *const console_compat[] = {"arm,pl011",
					     "brcm,bcm2835-aux-uart", NULL};
static const char *const irqchip_compat[] = {"arm,cortex-a15-gic",
					     "arm,gic-400",
					     "arm,gic-v3",
					     "brcm,bcm2836-l1-intc",
					     "brcm,bcm2836-armctrl-ic",
					     NULL};
static const char *const power_compat[] = {"gpio-poweroff", "syscon-poweroff",
					   NULL};

const struct dt_driver fuzz_dt_drivers[FUZZ_NR_DRIVERS] = {
	{"fuzz_console", DT_CLASS_CONSOLE, console_compat, fuzz_probe,
	 fuzz_describe},
	{"fuzz_firmware", DT_CLASS_FIRMWARE, psci_compat, fuzz_psci_probe,
	 fuzz_describe},
	{"fuzz_irqchip", DT_CLASS_IRQCHIP, irqchip_compat, fuzz_probe,
	 fuzz_describe},
	{"fuzz_timer", DT_CLASS_TIMER, arch_timer_compat, fuzz_timer_probe,
	 fuzz_describe},
	{"fuzz_power", DT_CLASS_POWER, power_compat, fuzz_probe, fuzz_describe},
};

DT_SHIM_DRIVER_TABLE(fuzz_dt_drivers, FUZZ_NR_DRIVERS);
