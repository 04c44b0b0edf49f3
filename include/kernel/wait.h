/*
 * Wait queues: threads sleep until a condition holds; whoever makes it
 * true calls wake_up(). The condition is re-checked after the thread's
 * state is set, so a wake-up between the check and schedule() is never
 * lost (set_current_state() is a store-release; the waker's wake-up
 * takes the sleeper's locks).
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/timer.h>
#include <lib/list.h>

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};

struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
};

#define DECLARE_WAIT_QUEUE_HEAD(name)                                   \
	struct wait_queue_head name = {__SPIN_LOCK_UNLOCKED(name.lock), \
				       LIST_HEAD_INIT(name.head)}
#define DEFINE_WAIT(name) \
	struct wait_queue_entry name = {current, LIST_HEAD_INIT(name.entry)}

void init_waitqueue_head(struct wait_queue_head *wq);
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e,
		     int state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e);
void wake_up(struct wait_queue_head *wq);

#define __wait_event(wq, cond, state)                        \
	do {                                                 \
		DEFINE_WAIT(__w);                            \
		might_sleep();                               \
		for (;;) {                                   \
			prepare_to_wait(&(wq), &__w, state); \
			if (cond)                            \
				break;                       \
			schedule();                          \
		}                                            \
		finish_wait(&(wq), &__w);                    \
	} while (0)
#define wait_event(wq, cond) __wait_event(wq, cond, TASK_UNINTERRUPTIBLE)
/*
 * For threads that wait for work, maybe for ever (no signals exist here,
 * so only the state differs): the hung-task detector leaves them alone.
 */
#define wait_event_interruptible(wq, cond) \
	__wait_event(wq, cond, TASK_INTERRUPTIBLE)

/* Like wait_event(); returns the jiffies left (>= 1) or 0 on timeout. */
#define wait_event_timeout(wq, cond, timeout)                               \
	({                                                                  \
		u64 __left = (timeout);                                     \
		DEFINE_WAIT(__w);                                           \
		for (;;) {                                                  \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE); \
			if (cond) {                                         \
				__left = __left ? __left : 1;               \
				break;                                      \
			}                                                   \
			if (!__left)                                        \
				break;                                      \
			__left = schedule_timeout(__left);                  \
		}                                                           \
		finish_wait(&(wq), &__w);                                   \
		__left;                                                     \
	})

/* One-shot events: a thread waits until another calls complete(). */
struct completion {
	unsigned int done;
	struct wait_queue_head wait;
	struct lockdep_map dep_map; /* empty without lockdep */
};

void __init_completion(struct completion *x, const char *name,
		       const struct lock_class_key *key);
/* One lockdep class per call site: a wait with a lock held that the
 * completer takes before complete() is reported as a cycle. */
#ifdef CONFIG_PROVE_LOCKING
#define init_completion(x)                          \
	do {                                        \
		static struct lock_class_key __key; \
		__init_completion((x), #x, &__key); \
	} while (0)
#else
#define init_completion(x) __init_completion((x), NULL, NULL)
#endif
void complete(struct completion *x);
void wait_for_completion(struct completion *x);
/* Returns the jiffies left (>= 1), or 0 if it timed out. */
u64 wait_for_completion_timeout(struct completion *x, u64 timeout);
/* The same, polling for up to spin_us before they sleep (short hand-offs). */
void wait_for_completion_spin(struct completion *x, unsigned int spin_us);
u64 wait_for_completion_spin_timeout(struct completion *x, unsigned int spin_us,
				     u64 timeout);
bool completion_done(struct completion *x);

#endif
