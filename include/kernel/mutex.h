/*
 * Sleeping mutexes. Waiters queue in FIFO order and unlock hands the
 * mutex straight to the first one, so no waiter starves. Not for
 * interrupt context; the holder may sleep.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include <kernel/spinlock.h>
#include <lib/list.h>

struct task_struct;

struct mutex {
	spinlock_t wait_lock; /* guards owner and wait_list */
	struct task_struct *owner;
	struct list_head wait_list;
	struct lockdep_map dep_map; /* empty without lockdep */
};

#define DEFINE_MUTEX(name)                                                 \
	struct mutex name = {.wait_lock =                                  \
				     __SPIN_LOCK_UNLOCKED(name.wait_lock), \
			     .owner = NULL,                                \
			     .wait_list = LIST_HEAD_INIT(name.wait_list),  \
			     .dep_map = LOCKDEP_MAP_INIT(#name)}

void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_is_locked(struct mutex *m);

#endif
