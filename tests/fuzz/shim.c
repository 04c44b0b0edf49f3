/*
 * The few kernel services kernel/devicetree.c and kernel/board.c call,
 * reduced to what a native fuzzer needs. No kernel logic lives here.
 */
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <kernel/devicetree.h>
#include <kernel/printk.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

const unsigned char *fuzz_blob;
size_t fuzz_blob_len;

/*
 * Messages are formatted, so that every argument is read (ASan checks the
 * strings), and dropped.
 */
int vprintk(const char *fmt, va_list ap)
{
	char buf[512];

	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/*
 * The kernel maps [pa, pa + size) read-only and fails past FDT_MAX_SIZE.
 * Here "physical" addresses are host addresses and only the fuzzer's
 * buffer is memory: a window reaching past it is not mapped (NULL), so
 * the kernel cannot read beyond what the fuzzer gave.
 */
void *fixmap_fdt(phys_addr_t pa, u64 size)
{
	uintptr_t start = (uintptr_t)fuzz_blob;

	if (size > FDT_MAX_SIZE || pa < start || pa - start > fuzz_blob_len ||
	    size > fuzz_blob_len - (pa - start))
		return NULL;
	return (void *)(uintptr_t)pa;
}

/*
 * Stand-in drivers, one per class, so dt_probe_class() matches, fills and
 * hands over dt_device records the way it does for the real drivers.
 */
unsigned long fuzz_probed;

static int fuzz_probe(const struct dt_device *dev)
{
	fuzz_probed += strlen(dev->name ? dev->name : "") + (size_t)dev->nr_reg;
	for (int i = 0; i < dev->nr_reg; i++)
		fuzz_probed += dev->reg[i].base ^ dev->reg[i].size;
	return dev->nr_reg ? 0 : -22;
}

static const char *const console_compat[] = {"arm,pl011",
					     "brcm,bcm2835-aux-uart", NULL};
static const char *const firmware_compat[] = {"arm,psci-1.0", "arm,psci-0.2",
					      "arm,psci", NULL};
static const char *const irqchip_compat[] = {"arm,cortex-a15-gic",
					     "arm,gic-400",
					     "arm,gic-v3",
					     "brcm,bcm2836-l1-intc",
					     "brcm,bcm2836-armctrl-ic",
					     NULL};
static const char *const timer_compat[] = {"arm,armv8-timer", "arm,armv7-timer",
					   NULL};
static const char *const power_compat[] = {"gpio-poweroff", "syscon-poweroff",
					   NULL};

const struct dt_driver fuzz_dt_drivers[FUZZ_NR_DRIVERS] = {
	{"fuzz_console", DT_CLASS_CONSOLE, console_compat, fuzz_probe},
	{"fuzz_firmware", DT_CLASS_FIRMWARE, firmware_compat, fuzz_probe},
	{"fuzz_irqchip", DT_CLASS_IRQCHIP, irqchip_compat, fuzz_probe},
	{"fuzz_timer", DT_CLASS_TIMER, timer_compat, fuzz_probe},
	{"fuzz_power", DT_CLASS_POWER, power_compat, fuzz_probe},
};

/*
 * kernel/devicetree.c walks [__dt_drivers_start, __dt_drivers_end), which
 * the kernel's linker script places around the .dt_drivers section; here
 * both name the ends of the array above.
 */
#define STR_(x) #x
#define STR(x) STR_(x)
_Static_assert(sizeof(struct dt_driver) == 32, "the asm assumes 32 bytes");
__asm__(".globl __dt_drivers_start\n"
	".set __dt_drivers_start, fuzz_dt_drivers\n"
	".globl __dt_drivers_end\n"
	".set __dt_drivers_end, fuzz_dt_drivers + " STR(
		FUZZ_NR_DRIVERS) " * 32\n");
