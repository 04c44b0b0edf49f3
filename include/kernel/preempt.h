/*
 * preempt_count: how deep the running code is in sections that must not
 * be preempted (preempt_disable(), spinlocks, RCU readers) and in
 * interrupt handlers. As on Linux arm64 it lives in the running thread's
 * struct task_struct, found through SP_EL0, so a read-modify-write of it
 * can never land on another CPU's count after a migration; in effect it
 * is per CPU, because only the running thread's count is ever changed.
 *
 *   bits  0-7   preemption disable depth
 *   bits  8-15  softirq (unused, kept for Linux's layout)
 *   bits 16-19  hardirq nesting
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

#include <kernel/current.h>

#define PREEMPT_OFFSET (1U << 0)
#define SOFTIRQ_OFFSET (1U << 8)
#define HARDIRQ_OFFSET (1U << 16)
#define PREEMPT_MASK 0x000000ffU
#define HARDIRQ_MASK 0x000f0000U

static inline unsigned int preempt_count(void)
{
	return READ_ONCE(current->preempt_count);
}

/* The compiler barriers keep protected accesses inside the section. */
static inline void preempt_count_add(unsigned int n)
{
	current->preempt_count += n;
	barrier();
}

static inline void preempt_count_sub(unsigned int n)
{
	barrier();
	current->preempt_count -= n;
}

#define in_irq() (preempt_count() & HARDIRQ_MASK)
#define in_interrupt() (preempt_count() & (HARDIRQ_MASK | 0xff00U))
#define preemptible() (preempt_count() == 0 && !irqs_disabled())

void preempt_schedule(void);
/* From the IRQ return path (entry.S), IRQs off, count zero. */
void preempt_schedule_irq(void);

/*
 * preempt_count_sub() that returns the new count from the register it
 * was computed in, instead of loading it back: the same read-modify-write,
 * and the value stored is the value in memory afterwards, because an
 * interrupt between the load and the store leaves the count as it found
 * it, and nothing preempts this thread while its count is not zero. The
 * store is WRITE_ONCE() so that it stays ahead of the need-resched load.
 */
static inline unsigned int preempt_count_sub_return(unsigned int n)
{
	unsigned int pc;

	barrier();
	pc = current->preempt_count - n;
	WRITE_ONCE(current->preempt_count, pc);
	return pc;
}

#define preempt_disable() preempt_count_add(PREEMPT_OFFSET)
#define preempt_enable_no_resched() preempt_count_sub(PREEMPT_OFFSET)
#define preempt_enable()                                                      \
	do {                                                                  \
		if (unlikely(preempt_count_sub_return(PREEMPT_OFFSET) == 0 && \
			     test_thread_flag(TIF_NEED_RESCHED)))             \
			preempt_schedule();                                   \
	} while (0)

/* Interrupt handlers run between these (called by the irqchip driver). */
#define irq_enter() preempt_count_add(HARDIRQ_OFFSET)
#define irq_exit() preempt_count_sub(HARDIRQ_OFFSET)

#endif
