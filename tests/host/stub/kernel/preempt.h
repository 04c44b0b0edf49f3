/*
 * Host stand-in for include/kernel/preempt.h: a host thread is never
 * preempted by the code under test, so the count is kept only to check
 * that every disable is matched by an enable (per thread).
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

static __thread int preempt_depth;

static inline void preempt_disable(void)
{
	preempt_depth++;
}

static inline void preempt_enable(void)
{
	preempt_depth--;
}

#endif
