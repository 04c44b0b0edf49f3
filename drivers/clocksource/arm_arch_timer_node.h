/*
 * The Arm generic timer driver's device-tree node as it reads it: apart
 * from the system registers so that tests/boards builds it natively and
 * holds it against real boards' trees.
 */
#ifndef DRIVERS_CLOCKSOURCE_ARM_ARCH_TIMER_NODE_H
#define DRIVERS_CLOCKSOURCE_ARM_ARCH_TIMER_NODE_H

#include <kernel/arch_timer.h>
#include <kernel/devicetree.h>

struct arch_timer_node {
	struct dt_irq irq[ARCH_TIMER_NR_IRQS]; /* enum arch_timer_irq order */
	int nr_irq; /* the first nr_irq were readable */
	u32 clock_frequency; /* the node's override of CNTFRQ, or 0 */
};

/* The compatible strings the driver binds to. */
extern const char *const arch_timer_compat[];

/* Read dev's node into out (at boot: libfdt). */
void arch_timer_read_node(const struct dt_device *dev,
			  struct arch_timer_node *out);

#endif
