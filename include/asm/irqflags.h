/* Masking IRQs on this CPU (PSTATE.I); FIQ stays masked in this kernel. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <lib/types.h>

#define DAIF_I (1UL << 7)

static inline unsigned long local_irq_save_flags(void)
{
	unsigned long flags;

	__asm__ __volatile__("mrs %0, daif\n\tmsr daifset, #2"
			     : "=r"(flags)::"memory");
	return flags;
}

static inline void local_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("msr daif, %0" ::"r"(flags) : "memory");
}

static inline void local_irq_enable(void)
{
	__asm__ __volatile__("msr daifclr, #2" ::: "memory");
}

static inline void local_irq_disable(void)
{
	__asm__ __volatile__("msr daifset, #2" ::: "memory");
}

static inline bool irqs_disabled(void)
{
	unsigned long flags;

	__asm__ __volatile__("mrs %0, daif" : "=r"(flags));
	return flags & DAIF_I;
}

#define local_irq_save(flags) ((flags) = local_irq_save_flags())

#endif
