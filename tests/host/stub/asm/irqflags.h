/*
 * Host stand-in for include/asm/irqflags.h: a host thread has no
 * interrupts to mask, so saving and restoring them does nothing.
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#define local_irq_save(flags) ((flags) = 0)

static inline void local_irq_restore(unsigned long flags)
{
	(void)flags;
}

#endif
