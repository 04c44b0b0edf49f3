/*
 * Reading the generic timer's node: its interrupts, in the binding's
 * order. No system register here: tests/boards runs it natively.
 */
#include "arm_arch_timer_node.h"

const char *const arch_timer_compat[] = {"arm,armv8-timer", "arm,armv7-timer",
					 NULL};

void arch_timer_read_node(const struct dt_device *dev,
			  struct arch_timer_node *out)
{
	out->nr_irq = 0;
	while (out->nr_irq < ARCH_TIMER_NR_IRQS &&
	       !dt_read_irq(dev->node, out->nr_irq, &out->irq[out->nr_irq]))
		out->nr_irq++;
}
