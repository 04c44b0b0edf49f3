/*
 * The four hotplug reader/writer designs (include/kernel/hotplug_sync.h).
 *
 * Reader side, writer side, per design:
 *
 *   rwlock        read: one atomic on a global word (and sleep while a
 *                 writer holds it). write: the whole cpu_down()/cpu_up().
 *   percpu_rwsem  read: a count in this CPU's slot, preemption off; while
 *                 a writer is active, the rwlock instead. write: flag
 *                 "writer active", synchronize_rcu() so every reader sees
 *                 it (skipped if a writer left less than a grace period
 *                 ago), take the rwlock, wait for the counts to reach zero.
 *   stop_machine  read: preempt_disable(). write: the online bit clears
 *                 inside stop_machine(), which also waits out every
 *                 preempt-disabled section: no grace period needed after.
 *   rcu           read: rcu_read_lock(). write: the bit changes, then
 *                 cpu_down() waits a grace period.
 *
 * In every design the kernel's own readers (the scheduler, timers, RCU)
 * follow the per-bit RCU rules, so cpu_down() waits a grace period in
 * every one (hotplug_sync_wait_readers()), stop_machine included: its
 * stop covers the online bit only, and the active bit, which wakers read
 * with interrupts off, clears after it. In 2013, Linux's cpu_down() too
 * paid a grace period (synchronize_sched() after clearing the active
 * bit) and a stop_machine() besides its reader lock.
 */
#define pr_fmt(fmt) "hotplug_sync: " fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/hotplug_sync.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/stop_machine.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <string.h>

static const char *const sync_names[HOTPLUG_SYNC_NR] = {
	[HOTPLUG_SYNC_RWLOCK] = "rwlock",
	[HOTPLUG_SYNC_PERCPU_RWSEM] = "percpu_rwsem",
	[HOTPLUG_SYNC_STOP_MACHINE] = "stop_machine",
	[HOTPLUG_SYNC_RCU] = "rcu",
};

static char sync_word[16];
param_string("hotplug.sync", sync_word,
	     "rwlock|percpu_rwsem|stop_machine|rcu: the online mask's reader "
	     "design (default rcu)");

static enum hotplug_sync design = HOTPLUG_SYNC_RCU;
/* The design the writer in progress locked under (hotplug lock held). */
static enum hotplug_sync writer_design;

/*
 * The global reader-writer lock: readers in the low bits of one word,
 * WRITER set while a writer holds it or waits for readers to leave.
 * Writers are already serialised by the hotplug lock.
 */
#define WRITER (1UL << 62)
static unsigned long rw_word;
static DECLARE_WAIT_QUEUE_HEAD(rw_wait);

static bool rw_try_read(void)
{
	unsigned long v = __atomic_load_n(&rw_word, __ATOMIC_RELAXED);

	while (!(v & WRITER))
		if (__atomic_compare_exchange_n(&rw_word, &v, v + 1, true,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

static void rw_read_lock(void)
{
	while (!rw_try_read())
		wait_event(rw_wait,
			   !(__atomic_load_n(&rw_word, __ATOMIC_RELAXED) &
			     WRITER));
}

static void rw_read_unlock(void)
{
	if (__atomic_sub_fetch(&rw_word, 1, __ATOMIC_RELEASE) == WRITER)
		wake_up(&rw_wait); /* the last reader a writer waits for */
}

static void rw_write_lock(void)
{
	__atomic_fetch_or(&rw_word, WRITER, __ATOMIC_ACQUIRE);
	wait_event(rw_wait,
		   __atomic_load_n(&rw_word, __ATOMIC_ACQUIRE) == WRITER);
}

static void rw_write_unlock(void)
{
	__atomic_fetch_and(&rw_word, ~WRITER, __ATOMIC_RELEASE);
	wake_up(&rw_wait);
}

/*
 * percpu_rwsem: one reader count per possible CPU, in its own cache
 * line (a count may go up on one CPU and down on another: only the sum
 * means anything). writer_active and gp_passed are Linux's rcu_sync: a
 * writer flags readers onto the slow path and waits a grace period, and
 * they go back to the fast path only a grace period after the last writer
 * left, so back-to-back writers (hotplug cycles) pay one grace period.
 */
struct read_count {
	long count;
} __aligned(64);
static DEFINE_CPU_ARRAY(struct read_count, read_count);
static bool writer_active;
static DECLARE_WAIT_QUEUE_HEAD(pcpu_writer_wait);
static struct {
	spinlock_t lock;
	int writers; /* inside or entering pcpu_write_lock() */
	bool gp_passed; /* every reader has seen writer_active */
	bool exit_pending; /* rss_exit() queued */
	struct rcu_head head;
} rss = {.lock = __SPIN_LOCK_UNLOCKED(rss.lock)};

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

enum { PCPU_FAST = HOTPLUG_SYNC_NR, PCPU_SLOW }; /* reader cookies */

static long readers_sum(void)
{
	long sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		sum += READ_ONCE(read_count[cpu].count);
	return sum;
}

static int pcpu_read_lock(void)
{
	/*
	 * Preemption off makes the fast path a classic-RCU reader: a writer
	 * that set writer_active and then waited a grace period sees our
	 * count, or we see its flag.
	 */
	preempt_disable();
	if (likely(!READ_ONCE(writer_active))) {
		read_count[smp_processor_id()].count++;
		preempt_enable();
		return PCPU_FAST;
	}
	preempt_enable();
	rw_read_lock();
	return PCPU_SLOW;
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
		wake_up(&pcpu_writer_wait);
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
	wait_event(pcpu_writer_wait, readers_sum() == 0);
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

/*
 * Every design's readers and writer as one lock for lockdep: a reader
 * that waits for a writer (rwlock, percpu_rwsem's slow path) deadlocks
 * if the writer waits for something the reader holds; a read inside a
 * read deadlocks when a writer arrives between the two.
 */
struct lockdep_map cpu_hotplug_lock_map = LOCKDEP_MAP_INIT("cpu_hotplug_lock");

int cpus_read_lock(void)
{
	enum hotplug_sync d = READ_ONCE(design);

	lock_acquire(&cpu_hotplug_lock_map, 0, false, _RET_IP_);

	switch (d) {
	case HOTPLUG_SYNC_RWLOCK:
		rw_read_lock();
		return d;
	case HOTPLUG_SYNC_PERCPU_RWSEM:
		return pcpu_read_lock();
	case HOTPLUG_SYNC_STOP_MACHINE:
		preempt_disable();
		return d;
	default:
		rcu_read_lock();
		return HOTPLUG_SYNC_RCU;
	}
}

void cpus_read_unlock(int cookie)
{
	lock_release(&cpu_hotplug_lock_map, _RET_IP_);
	switch (cookie) {
	case HOTPLUG_SYNC_RWLOCK:
		rw_read_unlock();
		break;
	case PCPU_FAST:
	case PCPU_SLOW:
		pcpu_read_unlock(cookie);
		break;
	case HOTPLUG_SYNC_STOP_MACHINE:
		preempt_enable();
		break;
	default:
		rcu_read_unlock();
	}
}

void cpus_write_lock(void)
{
	lock_acquire(&cpu_hotplug_lock_map, 0, false, _RET_IP_);
	writer_design = READ_ONCE(design);
	if (writer_design == HOTPLUG_SYNC_RWLOCK)
		rw_write_lock();
	else if (writer_design == HOTPLUG_SYNC_PERCPU_RWSEM)
		pcpu_write_lock();
}

void cpus_write_unlock(void)
{
	lock_release(&cpu_hotplug_lock_map, _RET_IP_);
	if (writer_design == HOTPLUG_SYNC_RWLOCK)
		rw_write_unlock();
	else if (writer_design == HOTPLUG_SYNC_PERCPU_RWSEM)
		pcpu_write_unlock();
}

struct online_change {
	unsigned int cpu;
	bool online;
};

static int change_online(void *arg)
{
	struct online_change *c = arg;

	set_cpu_online(c->cpu, c->online);
	return 0;
}

/*
 * Only a removal needs the stop: a reader that sees a new bit finds the
 * CPU's per-CPU area already published (set_cpu_online() releases), as
 * in Linux, where only take_cpu_down() ran under stop_machine().
 */
int hotplug_sync_set_online(unsigned int cpu, bool online)
{
	struct online_change c = {cpu, online};
	int ret;

	if (online || writer_design != HOTPLUG_SYNC_STOP_MACHINE)
		return change_online(&c);
	return stop_machine(change_online, &c, &ret) ?: ret;
}

/*
 * Every design: the stop of stop_machine waited for the readers of the
 * online bit, but the scheduler's readers of the active bit, cleared
 * since, still need a grace period before sched:drain.
 */
void hotplug_sync_wait_readers(bool expedite)
{
	if (expedite)
		synchronize_rcu_expedited();
	else
		synchronize_rcu();
}

bool hotplug_sync_idle(void)
{
	return !__atomic_load_n(&rw_word, __ATOMIC_RELAXED) && !readers_sum();
}

enum hotplug_sync hotplug_sync_current(void)
{
	return READ_ONCE(design);
}

const char *hotplug_sync_name(enum hotplug_sync sync)
{
	return sync < HOTPLUG_SYNC_NR ? sync_names[sync] : "?";
}

int hotplug_sync_parse(const char *name)
{
	for (int i = 0; i < HOTPLUG_SYNC_NR; i++)
		if (!strcmp(name, sync_names[i]))
			return i;
	return -EINVAL;
}

/*
 * With the hotplug lock held (no writer): new readers take the new
 * design's lock; wait until every reader of any design has left, so no
 * writer of the new design runs beside a reader of the old one.
 */
void hotplug_sync_switch(enum hotplug_sync sync)
{
	lockdep_assert_cpus_held();
	WRITE_ONCE(design, sync);
	synchronize_rcu(); /* rcu and stop_machine readers; fast-path picks */
	rw_write_lock(); /* rwlock and slow-path percpu readers */
	rw_write_unlock();
	while (readers_sum())
		msleep(1); /* fast-path percpu readers */
	pr_info("online-mask readers now use %s\n", sync_names[sync]);
}

void hotplug_sync_init(void)
{
	int d;

	if (!sync_word[0])
		return;
	d = hotplug_sync_parse(sync_word);
	if (d < 0) {
		pr_err("unknown hotplug.sync=%s (rwlock, percpu_rwsem, "
		       "stop_machine, rcu): keeping rcu\n",
		       sync_word);
		return;
	}
	design = d;
	pr_info("online-mask readers use %s\n", sync_names[d]);
}
