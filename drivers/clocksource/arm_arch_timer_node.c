/*
 * Reading the generic timer's node: its interrupts, in the binding's
 * order, and a clock-frequency if it has one. No system register here:
 * tests/boards runs it natively.
 */
#include <lib/fdt.h>
#include "arm_arch_timer_node.h"

const char *const arch_timer_compat[] = {"arm,armv8-timer", "arm,armv7-timer",
					 NULL};

void arch_timer_read_node(const struct dt_device *dev,
			  struct arch_timer_node *out)
{
	if (fdt_read_u32(initial_boot_params, dev->node, "clock-frequency",
			 &out->clock_frequency))
		out->clock_frequency = 0;
	out->nr_irq = 0;
	while (out->nr_irq < ARCH_TIMER_NR_IRQS &&
	       !dt_read_irq(dev->node, out->nr_irq, &out->irq[out->nr_irq]))
		out->nr_irq++;
}
