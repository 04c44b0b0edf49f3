/* The interrupt entry hook an interrupt controller driver installs. */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

struct pt_regs;

extern void (*handle_arch_irq)(struct pt_regs *regs);

#endif
