/* Sleeping mutexes with FIFO hand-off (see include/kernel/mutex.h). */
#include <kernel/mutex.h>
#include <kernel/panic.h>
#include "sched.h"

struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

void mutex_lock(struct mutex *m)
{
	struct mutex_waiter w = {.task = current};
	unsigned long flags;

	BUG_ON_MSG(in_interrupt(), "mutex_lock in interrupt context");
	might_sleep();
	lock_acquire(&m->dep_map, 0, false, _RET_IP_);
	spin_lock_irqsave(&m->wait_lock, flags);
	BUG_ON_MSG(m->owner == current, "mutex deadlock: %s locks twice",
		   current->comm);
	if (!m->owner) {
		m->owner = current;
		spin_unlock_irqrestore(&m->wait_lock, flags);
		return;
	}
	list_add_tail(&w.list, &m->wait_list);
	/* Sleep until mutex_unlock() makes us the owner. */
	while (READ_ONCE(m->owner) != current) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		spin_unlock_irqrestore(&m->wait_lock, flags);
		schedule();
		spin_lock_irqsave(&m->wait_lock, flags);
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock_irqrestore(&m->wait_lock, flags);
}

void mutex_unlock(struct mutex *m)
{
	struct mutex_waiter *w = NULL;
	unsigned long flags;

	lock_release(&m->dep_map, _RET_IP_);
	spin_lock_irqsave(&m->wait_lock, flags);
	BUG_ON_MSG(m->owner != current, "mutex_unlock by %s, not the owner",
		   current->comm);
	if (!list_empty(&m->wait_list)) {
		w = list_first_entry(&m->wait_list, struct mutex_waiter, list);
		list_del(&w->list);
	}
	m->owner = w ? w->task : NULL;
	if (w)
		wake_up_process(w->task);
	spin_unlock_irqrestore(&m->wait_lock, flags);
}

bool mutex_is_locked(struct mutex *m)
{
	return READ_ONCE(m->owner) != NULL;
}
