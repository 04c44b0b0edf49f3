/*
 * The rwlock design: a global reader-writer lock, as get_online_cpus()
 * was. Readers: one atomic on a global word (and, while a writer holds
 * it, sleep and start again). Writer: the whole cpu_down()/cpu_up().
 *
 * Readers count in the low bits of one word, WRITER set while a writer
 * holds it or waits for readers to leave. Writers are already serialised
 * by the hotplug lock.
 */
#include <kernel/wait.h>
#include <lib/errno.h>

#include "designs.h"

#define WRITER (1UL << 62)
static unsigned long rw_word;
static DECLARE_WAIT_QUEUE_HEAD(rw_wait);

bool rw_try_read(void)
{
	unsigned long v = __atomic_load_n(&rw_word, __ATOMIC_RELAXED);

	while (!(v & WRITER))
		if (__atomic_compare_exchange_n(&rw_word, &v, v + 1, true,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

void rw_read_unlock(void)
{
	if (__atomic_sub_fetch(&rw_word, 1, __ATOMIC_RELEASE) == WRITER)
		wake_up(&rw_wait); /* the last reader a writer waits for */
}

void rw_write_lock(void)
{
	__atomic_fetch_or(&rw_word, WRITER, __ATOMIC_ACQUIRE);
	wait_event(rw_wait,
		   __atomic_load_n(&rw_word, __ATOMIC_ACQUIRE) == WRITER);
}

void rw_write_unlock(void)
{
	__atomic_fetch_and(&rw_word, ~WRITER, __ATOMIC_RELEASE);
	wake_up(&rw_wait);
}

void rw_wait_writer(void)
{
	wait_event(rw_wait,
		   !(__atomic_load_n(&rw_word, __ATOMIC_RELAXED) & WRITER));
}

bool rw_idle(void)
{
	return !__atomic_load_n(&rw_word, __ATOMIC_RELAXED);
}

static int rwlock_read_trylock(void)
{
	return rw_try_read() ? 0 : -EBUSY;
}

static void rwlock_read_unlock(int cookie)
{
	rw_read_unlock();
}

/* A writer's lock and unlock: every reader that took it has left. */
static void rwlock_drain(void)
{
	rw_write_lock();
	rw_write_unlock();
}

const struct hotplug_sync_ops rwlock_design = {
	.name = "rwlock",
	.read_trylock = rwlock_read_trylock,
	.read_unlock = rwlock_read_unlock,
	.wait_busy = rw_wait_writer,
	.write_lock = rw_write_lock,
	.write_unlock = rw_write_unlock,
	.idle = rw_idle,
	.drain = rwlock_drain,
};
