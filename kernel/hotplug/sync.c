/*
 * The four hotplug reader/writer designs (include/kernel/hotplug_sync.h).
 *
 * Reader side, writer side, per design (a reader reads the design and
 * takes its lock with preemption off, so a switch's grace period finds
 * it in the lock of the design it read: hotplug_sync_switch()):
 *
 *   rwlock        read: one atomic on a global word (and, while a writer
 *                 holds it, sleep and start again). write: the whole
 *                 cpu_down()/cpu_up().
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
#include <kernel/fault.h>
#include <kernel/hotplug_sync.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>
#include <kernel/stop_machine.h>
#include <kernel/time.h>
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
/* Switches begun and ended: odd while hotplug_sync_switch() runs. */
static unsigned long switch_seq;
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

/*
 * fail.sync_read=CPU:MS: the next cpus_read_lock() on CPU waits, between
 * reading the design and taking its lock, until a design switch begun
 * since has ended, or MS ms after the switch began (MS at most if none
 * begins). A switch that leaves a reader in that window behind ends
 * first, and the reader then takes the old design's lock.
 */
static const struct fault_field sync_read_fields[] = {
	FAULT_FIELD_CPU, {"MS", FAULT_NUM, .min = 1, .max = 10000}, {}};
DEFINE_FAULT(sync_read, sync_read_fields, 1, 1, NULL,
	     "the next cpus_read_lock() on CPU waits between reading the "
	     "design and taking its lock until a design switch has come and "
	     "gone, or MS ms after one began");

static void sync_read_window(void)
{
	unsigned long seq = __atomic_load_n(&switch_seq, __ATOMIC_ACQUIRE), s;
	u64 end;

	if (likely(!fault_armed(&fault_sync_read)) ||
	    fault_arg(&fault_sync_read, 0) != (long)raw_smp_processor_id() ||
	    !should_fail(&fault_sync_read))
		return;
	end = ktime_get_ns() + fault_arg(&fault_sync_read, 1) * 1000000ULL;
	for (;;) {
		s = __atomic_load_n(&switch_seq, __ATOMIC_ACQUIRE);
		if (s != seq && !(s & 1))
			break; /* a switch came and went */
		if (s != seq && !(seq & 1)) { /* one began: MS from now */
			seq = s;
			end = ktime_get_ns() +
			      fault_arg(&fault_sync_read, 1) * 1000000ULL;
		}
		if (ktime_get_ns() > end)
			break;
		cpu_relax();
	}
}

/* Take design d's read side without sleeping: its cookie, or -EBUSY. */
static int read_trylock(enum hotplug_sync d)
{
	switch (d) {
	case HOTPLUG_SYNC_RWLOCK:
		return rw_try_read() ? (int)d : -EBUSY;
	case HOTPLUG_SYNC_PERCPU_RWSEM:
		return pcpu_read_trylock();
	case HOTPLUG_SYNC_STOP_MACHINE:
		preempt_disable();
		return d;
	default:
		rcu_read_lock();
		return HOTPLUG_SYNC_RCU;
	}
}

/*
 * The design is read and its lock taken in one preempt-disabled (so
 * classic-RCU) section: hotplug_sync_switch() stores the new design and
 * then waits a grace period, after which every reader that read the old
 * one holds its lock, where the switch's waits find it. A reader that
 * read the design and took its lock later, with preemption on, was
 * missed: the new design's writer then freed what it was reading.
 */
int cpus_read_lock(void)
{
	lock_acquire(&cpu_hotplug_lock_map, 0, false, _RET_IP_);
	for (;;) {
		enum hotplug_sync d;
		int cookie;

		preempt_disable();
		d = READ_ONCE(design);
		sync_read_window();
		cookie = read_trylock(d);
		preempt_enable();
		if (cookie >= 0)
			return cookie;
		/* A writer holds the rwlock: sleep until it leaves. */
		wait_event(rw_wait,
			   !(__atomic_load_n(&rw_word, __ATOMIC_RELAXED) &
			     WRITER));
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
 * writer of the new design runs beside a reader of the old one. The
 * grace period first: cpus_read_lock() reads the design and takes its
 * lock with preemption off, so after it every reader of the old design
 * is inside that design's lock, where the waits below see it.
 */
void hotplug_sync_switch(enum hotplug_sync sync)
{
	enum hotplug_sync old = design;

	lockdep_assert_cpus_held();
	__atomic_fetch_add(&switch_seq, 1, __ATOMIC_SEQ_CST);
	WRITE_ONCE(design, sync);
	/* Paired with cpus_read_lock()'s preempt-disabled read of design. */
	synchronize_rcu(); /* rcu and stop_machine readers; every lock taken */
	/*
	 * Only the old design's readers are waited for: the new one's may
	 * come and go meanwhile (a busy percpu_rwsem reader count is
	 * seldom zero), and its writer waits for them.
	 */
	if (old == HOTPLUG_SYNC_RWLOCK || old == HOTPLUG_SYNC_PERCPU_RWSEM) {
		rw_write_lock(); /* rwlock and slow-path percpu readers */
		rw_write_unlock();
	}
	if (old == HOTPLUG_SYNC_PERCPU_RWSEM && sync != old)
		while (readers_sum())
			msleep(1); /* fast-path percpu readers */
	pr_info("online-mask readers now use %s\n", sync_names[sync]);
	/* Paired with the acquire in sync_read_window() and switches(). */
	__atomic_fetch_add(&switch_seq, 1, __ATOMIC_RELEASE);
}

unsigned long hotplug_sync_switches(void)
{
	return __atomic_load_n(&switch_seq, __ATOMIC_ACQUIRE);
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
