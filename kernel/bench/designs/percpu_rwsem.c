/*
 * The percpu_rwsem design (the one Peter Zijlstra's series led to; Linux
 * since 4.13). Readers: a count in this CPU's slot, preemption off; while
 * a writer is active, the global rwlock instead. Writer: flag "writer
 * active", synchronize_rcu() so every reader sees it (skipped if a writer
 * left less than a grace period ago), take the rwlock, wait for the
 * counts to reach zero.
 *
 * One reader count per possible CPU, in its own cache line (a count may
 * go up on one CPU and down on another: only the sum means anything).
 * writer_active and gp_passed are Linux's rcu_sync: a writer flags
 * readers onto the slow path and waits a grace period, and they go back
 * to the fast path only a grace period after the last writer left, so
 * back-to-back writers (hotplug cycles) pay one grace period.
 */
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include <lib/errno.h>

#include "designs.h"

struct read_count {
	long count;
} __aligned(64);
static DEFINE_CPU_ARRAY(struct read_count, read_count);
static bool writer_active;
static DECLARE_WAIT_QUEUE_HEAD(writer_wait);
static struct {
	spinlock_t lock;
	int writers; /* inside or entering pcpu_write_lock() */
	bool gp_passed; /* every reader has seen writer_active */
	bool exit_pending; /* rss_exit() queued */
	struct rcu_head head;
} rss = {.lock = __SPIN_LOCK_UNLOCKED(rss.lock)};

enum { PCPU_FAST, PCPU_SLOW }; /* reader cookies */

/* A grace period after a writer left: readers may use the fast path
 * again, unless a writer came meanwhile. */
static void rss_exit(struct rcu_head *head)
{
	unsigned long flags;

	spin_lock_irqsave(&rss.lock, flags);
	if (!rss.writers) {
		WRITE_ONCE(writer_active, false);
		rss.gp_passed = false;
	}
	rss.exit_pending = false;
	spin_unlock_irqrestore(&rss.lock, flags);
}

static long readers_sum(void)
{
	long sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		sum += READ_ONCE(read_count[cpu].count);
	return sum;
}

/*
 * Called with preemption off (cpus_read_lock()), which makes the fast
 * path a classic-RCU reader: a writer that set writer_active and then
 * waited a grace period sees our count, or we see its flag. -EBUSY: a
 * writer holds the rwlock; wait for it and start again.
 */
static int pcpu_read_trylock(void)
{
	if (likely(!READ_ONCE(writer_active))) {
		read_count[smp_processor_id()].count++;
		return PCPU_FAST;
	}
	return rw_try_read() ? PCPU_SLOW : -EBUSY;
}

static void pcpu_read_unlock(int cookie)
{
	if (cookie == PCPU_SLOW) {
		rw_read_unlock();
		return;
	}
	preempt_disable();
	smp_mb(); /* the section's loads before the count drops */
	read_count[smp_processor_id()].count--;
	preempt_enable();
	if (unlikely(READ_ONCE(writer_active)))
		wake_up(&writer_wait);
}

static void pcpu_write_lock(void)
{
	unsigned long flags;
	bool passed;

	spin_lock_irqsave(&rss.lock, flags);
	rss.writers++;
	WRITE_ONCE(writer_active, true);
	passed = rss.gp_passed;
	spin_unlock_irqrestore(&rss.lock, flags);
	if (!passed) {
		synchronize_rcu(); /* every reader now sees it: no fast path */
		spin_lock_irqsave(&rss.lock, flags);
		rss.gp_passed = true;
		spin_unlock_irqrestore(&rss.lock, flags);
	}
	rw_write_lock(); /* slow-path readers wait */
	wait_event(writer_wait, readers_sum() == 0);
	smp_mb(); /* the readers' sections before our writes */
}

static void pcpu_write_unlock(void)
{
	unsigned long flags;
	bool queue;

	rw_write_unlock();
	spin_lock_irqsave(&rss.lock, flags);
	rss.writers--;
	queue = !rss.exit_pending;
	rss.exit_pending = true;
	spin_unlock_irqrestore(&rss.lock, flags);
	if (queue)
		call_rcu(&rss.head, rss_exit);
}

static bool pcpu_idle(void)
{
	return rw_idle() && !readers_sum();
}

/* Slow-path readers through the rwlock, fast-path ones by their counts
 * (the new design's may come and go meanwhile: not waited for). */
static void pcpu_drain(void)
{
	rw_write_lock();
	rw_write_unlock();
	while (readers_sum())
		msleep(1);
}

const struct hotplug_sync_ops percpu_rwsem_design = {
	.name = "percpu_rwsem",
	.read_trylock = pcpu_read_trylock,
	.read_unlock = pcpu_read_unlock,
	.wait_busy = rw_wait_writer,
	.write_lock = pcpu_write_lock,
	.write_unlock = pcpu_write_unlock,
	.idle = pcpu_idle,
	.drain = pcpu_drain,
};
