/*
 * `current`, the running thread: SP_EL0 holds its task_struct pointer
 * (EL0 is never used, so its stack pointer register is free, as on Linux
 * arm64). One mrs, no memory access, and always right after a migration.
 */
#ifndef KERNEL_CURRENT_H
#define KERNEL_CURRENT_H

#include <asm/irqflags.h>
#include <lib/kernel.h>

struct task_struct;

static __always_inline struct task_struct *get_current(void)
{
	unsigned long sp_el0;

	__asm__("mrs %0, sp_el0" : "=r"(sp_el0));
	return (struct task_struct *)sp_el0;
}
#define current get_current()

/* Thread flags (task_struct.flags), set from other CPUs atomically. */
#define TIF_NEED_RESCHED 0

#include <kernel/task.h>

static inline bool test_thread_flag(int flag)
{
	return READ_ONCE(current->flags) & (1UL << flag);
}

/* p schedules at its next preempt_enable() or IRQ return at count zero. */
static inline void set_tsk_need_resched(struct task_struct *p)
{
	__atomic_fetch_or(&p->flags, 1UL << TIF_NEED_RESCHED, __ATOMIC_RELAXED);
}

#endif
