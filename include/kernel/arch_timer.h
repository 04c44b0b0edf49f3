/*
 * The Arm generic timer driver's interface beyond its clock event device:
 * the interrupts its device-tree node gives, for code that uses the
 * timers the driver leaves alone (the irq tests' physical timer).
 */
#ifndef KERNEL_ARCH_TIMER_H
#define KERNEL_ARCH_TIMER_H

#include <kernel/devicetree.h>
#include <lib/types.h>

/* The timer node's interrupts, in the binding's order. */
enum arch_timer_irq {
	ARCH_TIMER_PHYS_SECURE_IRQ,
	ARCH_TIMER_PHYS_NONSECURE_IRQ,
	ARCH_TIMER_VIRT_IRQ, /* the tick's */
	ARCH_TIMER_HYP_IRQ,
	ARCH_TIMER_NR_IRQS,
};

/* Its specifier as the node gives it, or NULL (no timer bound, or the
 * node lists fewer interrupts). */
const struct dt_irq *arch_timer_dt_irq(enum arch_timer_irq which);

/*
 * Wait us microseconds in WFI with IRQs masked, though an interrupt is
 * already pending (which ends a plain WFI at once): the emulated exit of
 * an idle state on QEMU, slept rather than spun on a host core. Returns
 * how many WFIs it took (a few: each ends only on the timer), or -ENODEV
 * where this cannot be done (no physical timer interrupt in the tree, an
 * interrupt controller without wake_only): the caller spins instead.
 */
int arch_timer_wait_masked(u32 us);

#endif
