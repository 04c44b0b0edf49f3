/*
 * Power-off on Raspberry Pi 1-3 ("brcm,bcm2835-pm-wdt"), which have no
 * PSCI: the power manager's watchdog resets the board, after marking the
 * reset as a halt for the firmware (boot partition 63: the firmware stops
 * instead of booting again). QEMU run with -no-reboot exits on the reset.
 */
#define pr_fmt(fmt) "bcm2835-wdt: " fmt
#include <asm/io.h>
#include <asm/pgtable.h>
#include <kernel/devicetree.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>
#include <kernel/time.h>
#include <libfdt.h>
#include <lib/errno.h>

#define PM_RSTC 0x1c
#define PM_RSTS 0x20
#define PM_WDOG 0x24
/* Every write must carry it, or the block ignores the write. */
#define PM_PASSWORD 0x5a000000
#define PM_RSTC_WRCFG_MASK 0x30
#define PM_RSTC_WRCFG_FULL_RESET 0x20
#define PM_RSTS_PARTITION_HALT 0x555 /* partition 63, in the even bits */
#define PM_WDOG_TICKS 10 /* 16 us each: fire at once */
/*
 * How long to wait for the reset before machine_power_off() says it
 * failed. A board resets 160 us after the writes; QEMU acts on them in
 * its main-loop thread, which a busy host may not run for a while, so
 * the wait is long enough for a loaded host (it ends only a boot whose
 * reset failed).
 */
#define PM_RESET_WAIT_US 2000000

static void *pm_base;

static void bcm2835_power_off(void)
{
	u32 rsts = readl_relaxed(pm_base + PM_RSTS) & 0x00ffffff;
	u32 rstc = readl_relaxed(pm_base + PM_RSTC) & 0x00ffffff;

	pr_emerg("watchdog reset (power off: firmware halts, QEMU "
		 "-no-reboot exits)\n");
	writel(PM_PASSWORD | rsts | PM_RSTS_PARTITION_HALT, pm_base + PM_RSTS);
	writel(PM_PASSWORD | PM_WDOG_TICKS, pm_base + PM_WDOG);
	writel(PM_PASSWORD | (rstc & ~PM_RSTC_WRCFG_MASK) |
		       PM_RSTC_WRCFG_FULL_RESET,
	       pm_base + PM_RSTC);
	udelay(PM_RESET_WAIT_US); /* machine_power_off() reports a return */
}

static int bcm2835_wdt_probe(const struct dt_device *dev)
{
	/* Only the power controller the tree names may power off. */
	if (!fdt_getprop(initial_boot_params, dev->node,
			 "system-power-controller", NULL))
		return 0;
	if (dev->nr_reg < 1) {
		pr_err("%s: no reg\n", dev->name);
		return -EINVAL;
	}
	if (pm_power_off) {
		pr_warn("%s: power-off already provided, not replaced\n",
			dev->name);
		return 0;
	}
	pm_base = ioremap(dev->reg[0].base, dev->reg[0].size);
	if (!pm_base)
		return -ENOMEM;
	pm_power_off = bcm2835_power_off;
	pr_info("power off through the watchdog at %#llx\n",
		(unsigned long long)dev->reg[0].base);
	return 0;
}

static const char *const bcm2835_wdt_compat[] = {"brcm,bcm2835-pm-wdt",
						 "brcm,bcm2835-pm", NULL};
DT_DRIVER(bcm2835_wdt, DT_CLASS_POWER, bcm2835_wdt_compat, bcm2835_wdt_probe,
	  NULL);
