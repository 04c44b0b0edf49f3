/* Wait queues, completions and timed sleeps (see include/kernel/wait.h). */
#include <kernel/time.h>
#include <kernel/wait.h>
#include "sched.h"

void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e,
		     int state)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (list_empty(&e->entry))
		list_add_tail(&e->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&e->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

static void wake_up_locked(struct wait_queue_head *wq)
{
	struct wait_queue_entry *e;

	list_for_each_entry (e, &wq->head, entry)
		wake_up_process(e->task);
}

void wake_up(struct wait_queue_head *wq)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	wake_up_locked(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void __init_completion(struct completion *x, const char *name,
		       const struct lock_class_key *key)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
	lockdep_init_map(&x->dep_map, name, key);
}

void complete(struct completion *x)
{
	unsigned long flags;

	lock_signal_event(&x->dep_map, _RET_IP_);
	/*
	 * Count and wake in one critical section: a completion often lives
	 * on the waiter's stack, and a waiter that sees done (polling, or
	 * timing out) returns at once; after the unlock x may be gone.
	 */
	spin_lock_irqsave(&x->wait.lock, flags);
	x->done++;
	wake_up_locked(&x->wait);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

/* Consume one completion if there is one. */
static bool try_take(struct completion *x)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&x->wait.lock, flags);
	ok = x->done > 0;
	if (ok)
		x->done--;
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return ok;
}

void wait_for_completion(struct completion *x)
{
	might_sleep();
	lock_wait_event(&x->dep_map, _RET_IP_);
	wait_event(x->wait, try_take(x));
}

u64 wait_for_completion_timeout(struct completion *x, u64 timeout)
{
	might_sleep();
	return wait_event_timeout(x->wait, try_take(x), timeout);
}

/*
 * Poll first, then sleep (at once if another thread wants this CPU: the
 * completer may be queued here): a hand-off to another CPU that usually ends
 * within microseconds (the hotplug steps) then costs no sleep and no
 * wake-up IPI back, which under emulation are most of its latency.
 */
static bool spin_for(struct completion *x, unsigned int spin_us)
{
	u64 end = ktime_get_ns() + spin_us * 1000ULL;

	do {
		if (READ_ONCE(x->done) && try_take(x))
			return true;
		cpu_relax();
	} while (ktime_get_ns() < end && !test_thread_flag(TIF_NEED_RESCHED));
	return false;
}

void wait_for_completion_spin(struct completion *x, unsigned int spin_us)
{
	might_sleep();
	lock_wait_event(&x->dep_map, _RET_IP_);
	if (!spin_for(x, spin_us))
		wait_for_completion(x);
}

u64 wait_for_completion_spin_timeout(struct completion *x, unsigned int spin_us,
				     u64 timeout)
{
	might_sleep();
	if (spin_for(x, spin_us))
		return timeout ? timeout : 1;
	return wait_for_completion_timeout(x, timeout);
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) > 0;
}

struct sleeper {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct sleeper *s = container_of(t, struct sleeper, timer);

	wake_up_process(s->task);
}

u64 schedule_timeout(u64 timeout)
{
	struct sleeper s = {.task = current};
	u64 expire = jiffies + timeout, now;

	timer_setup(&s.timer, process_timeout);
	mod_timer(&s.timer, expire);
	schedule();
	del_timer_sync(&s.timer);
	now = jiffies;
	return now < expire ? expire - now : 0;
}

void msleep(unsigned int ms)
{
	might_sleep();
	u64 left = msecs_to_jiffies(ms) + 1;

	while (left) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		left = schedule_timeout(left);
	}
}
