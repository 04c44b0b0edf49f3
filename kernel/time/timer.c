/*
 * jiffies and kernel timers: HZ from the command line, jiffies from the
 * counter, and one timer list per CPU, run from that CPU's tick.
 *
 * Each CPU's timer_base is guarded by its own lock; a timer is guarded by
 * the lock of the base its base_cpu names. Moving a timer to another base
 * (mod_timer from another CPU, add_timer_on) holds one lock at a time,
 * with base_cpu = TIMER_MIGRATING in between, so lock_timer_base() waits
 * rather than lock a base the timer is leaving. Only
 * timers_migrate_from() holds two base locks, taken in CPU order.
 *
 * The bases are an NR_CPUS array, not per-CPU-area data: the timers of a
 * CPU that went away must still be there for timers_migrate_from().
 */
#define pr_fmt(fmt) "timer: " fmt
#include <asm/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <lib/kernel.h>

#define DEFAULT_HZ 100
#define MAX_HZ 1000 /* a tick every millisecond at most */
#define TIMER_MIGRATING (-1)
#define CACHE_LINE 64

static unsigned long hz = DEFAULT_HZ;
param_ulong("hz", hz, 1, MAX_HZ,
	    "N: timer tick rate in Hz, 1-1000 (default 100)");

unsigned int HZ = DEFAULT_HZ;

struct timer_base {
	spinlock_t lock;
	/* lock must be held to use these: */
	struct list_head pending; /* by expires, then arming order */
	struct timer_list *running; /* whose callback runs now */
	bool online; /* the tick runs; timers may be added from elsewhere */
} __aligned(CACHE_LINE);

static DEFINE_CPU_ARRAY(struct timer_base, timer_bases);

/* x * num / den without overflowing 64 bits (x large, num and den not). */
static u64 mul_div(u64 x, u64 num, u64 den)
{
	return x / den * num + x % den * num / den;
}

u64 get_jiffies_64(void)
{
	u64 freq = arch_timer_get_freq();

	return freq ? mul_div(arch_counter_get(), HZ, freq) : 0;
}

u64 jiffies_to_nsecs(u64 j)
{
	return mul_div(j, NSEC_PER_SEC, HZ);
}

u64 nsecs_to_jiffies(u64 ns)
{
	return mul_div(ns, HZ, NSEC_PER_SEC);
}

/* Rounded up: a wait of ms milliseconds is never cut short. */
u64 msecs_to_jiffies(u64 ms)
{
	return ms / MSEC_PER_SEC * HZ +
	       DIV_ROUND_UP(ms % MSEC_PER_SEC * HZ, MSEC_PER_SEC);
}

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *))
{
	INIT_LIST_HEAD(&t->entry);
	t->expires = 0;
	t->period = 0;
	t->function = fn;
	t->cpu = -1;
	t->base_cpu = 0; /* any base will do while it is not pending */
}

bool timer_pending(const struct timer_list *t)
{
	return READ_ONCE(t->cpu) >= 0;
}

/* Lock the base guarding t, IRQs off; waits out a move between bases. */
static struct timer_base *lock_timer_base(struct timer_list *t,
					  unsigned long *flags)
{
	struct timer_base *base;
	int cpu;

	for (;;) {
		cpu = READ_ONCE(t->base_cpu);
		if (cpu != TIMER_MIGRATING) {
			base = &timer_bases[cpu];
			spin_lock_irqsave(&base->lock, *flags);
			if (READ_ONCE(t->base_cpu) == cpu)
				return base;
			spin_unlock_irqrestore(&base->lock, *flags);
		}
		cpu_relax();
	}
}

/* Called with t's base locked; 1 if t was pending. */
static int detach_if_pending(struct timer_list *t)
{
	if (t->cpu < 0)
		return 0;
	list_del_init(&t->entry);
	WRITE_ONCE(t->cpu, -1);
	return 1;
}

/* Queue t on base (locked) after every timer expiring no later. */
static void enqueue_timer(struct timer_base *base, struct timer_list *t)
{
	struct timer_list *pos;

	list_for_each_entry (pos, &base->pending, entry)
		if (pos->expires > t->expires)
			break;
	list_add_tail(&t->entry, &pos->entry);
	WRITE_ONCE(t->cpu, (int)(base - timer_bases));
}

/*
 * Move t from from (locked) to the base it should go on, and return that
 * one locked. IRQs stay off throughout. A running timer stays put; an
 * offline target is replaced by the calling CPU's base.
 */
static struct timer_base *switch_timer_base(struct timer_list *t,
					    struct timer_base *from,
					    struct timer_base *to)
{
	struct timer_base *mine = &timer_bases[smp_processor_id()];

	if (from->running == t)
		return from;
	if (to == from && !to->online && to != mine)
		to = mine;
	if (to == from)
		return from;
	WRITE_ONCE(t->base_cpu, TIMER_MIGRATING);
	spin_unlock(&from->lock);
	spin_lock(&to->lock);
	if (!to->online && to != mine) {
		spin_unlock(&to->lock);
		to = mine;
		spin_lock(&to->lock);
	}
	/* Seen by lock_timer_base(), which then takes this lock and looks
	 * again: the lock, not this store, orders t's other fields. */
	WRITE_ONCE(t->base_cpu, (int)(to - timer_bases));
	return to;
}

/* Arm t on cpu (-1: the calling CPU); 1 if it was pending. */
static int __mod_timer(struct timer_list *t, u64 expires, u64 period, int cpu)
{
	struct timer_base *base, *to;
	unsigned long flags;
	int pending;
	bool remote;

	base = lock_timer_base(t, &flags);
	pending = detach_if_pending(t);
	if (cpu < 0 || (unsigned int)cpu >= nr_cpu_ids)
		cpu = smp_processor_id();
	to = switch_timer_base(t, base, &timer_bases[cpu]);
	t->expires = expires;
	t->period = period;
	enqueue_timer(to, t);
	remote = to != &timer_bases[smp_processor_id()];
	spin_unlock_irqrestore(&to->lock, flags);
	if (remote)
		tick_nohz_kick(to - timer_bases); /* its tick may be stopped */
	return pending;
}

/* The earliest expiry on cpu's list in jiffies, or ~0 if it is empty. */
u64 timers_next_expiry(unsigned int cpu)
{
	struct timer_base *base = &timer_bases[cpu];
	unsigned long flags;
	u64 next = ~0ULL;

	spin_lock_irqsave(&base->lock, flags);
	if (!list_empty(&base->pending))
		next = list_first_entry(&base->pending, struct timer_list,
					entry)
			       ->expires;
	spin_unlock_irqrestore(&base->lock, flags);
	return next;
}

int mod_timer(struct timer_list *t, u64 expires)
{
	return __mod_timer(t, expires, 0, -1);
}

void add_timer_on(struct timer_list *t, u64 expires, int cpu)
{
	__mod_timer(t, expires, t->period, cpu);
}

void mod_timer_periodic(struct timer_list *t, u64 period)
{
	period = max(period, 1ULL);
	__mod_timer(t, get_jiffies_64() + period, period, -1);
}

int del_timer(struct timer_list *t)
{
	struct timer_base *base;
	unsigned long flags;
	int pending;

	base = lock_timer_base(t, &flags);
	pending = detach_if_pending(t);
	spin_unlock_irqrestore(&base->lock, flags);
	return pending;
}

/* del_timer() unless its callback is running: then -1. */
static int try_to_del_timer_sync(struct timer_list *t)
{
	struct timer_base *base;
	unsigned long flags;
	int ret = -1;

	base = lock_timer_base(t, &flags);
	if (base->running != t)
		ret = detach_if_pending(t);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

int del_timer_sync(struct timer_list *t)
{
	int ret;

	if (in_irq() &&
	    READ_ONCE(timer_bases[smp_processor_id()].running) == t) {
		pr_warn("del_timer_sync() from the timer's own callback\n");
		return del_timer(t);
	}
	while ((ret = try_to_del_timer_sync(t)) < 0)
		cpu_relax();
	return ret;
}

/* From the tick: run every expired timer of this CPU, in expiry order. */
void run_local_timers(void)
{
	struct timer_base *base = &timer_bases[smp_processor_id()];
	u64 now = get_jiffies_64();
	void (*fn)(struct timer_list *);
	struct timer_list *t;

	spin_lock(&base->lock);
	while (!list_empty(&base->pending)) {
		t = list_first_entry(&base->pending, struct timer_list, entry);
		if (t->expires > now)
			break;
		detach_if_pending(t);
		if (t->period) {
			t->expires += t->period;
			enqueue_timer(base, t);
		}
		fn = t->function;
		base->running = t;
		spin_unlock(&base->lock);
		fn(t);
		spin_lock(&base->lock);
		base->running = NULL;
	}
	spin_unlock(&base->lock);
}

void timers_start_cpu(void)
{
	struct timer_base *base = &timer_bases[smp_processor_id()];

	spin_lock(&base->lock);
	base->online = true;
	spin_unlock(&base->lock);
}

void timers_migrate_from(unsigned int cpu)
{
	unsigned int me;
	struct timer_base *dead, *mine, *first, *second;
	struct timer_list *t;
	unsigned long flags;

	local_irq_save(flags);
	me = smp_processor_id();
	if (cpu >= nr_cpu_ids || cpu == me) {
		local_irq_restore(flags);
		return;
	}
	dead = &timer_bases[cpu];
	mine = &timer_bases[me];
	first = cpu < me ? dead : mine;
	second = cpu < me ? mine : dead;
	spin_lock(&first->lock);
	/* Both of one lock class: CPU order is the nesting order. */
	spin_lock_nested(&second->lock, SINGLE_DEPTH_NESTING);
	dead->online = false;
	while (!list_empty(&dead->pending)) {
		t = list_first_entry(&dead->pending, struct timer_list, entry);
		detach_if_pending(t);
		WRITE_ONCE(t->base_cpu, (int)me);
		enqueue_timer(mine, t);
	}
	spin_unlock(&second->lock);
	spin_unlock(&first->lock);
	local_irq_restore(flags);
}

void timers_init(void)
{
	HZ = (unsigned int)hz;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		spin_lock_init(&timer_bases[cpu].lock);
		INIT_LIST_HEAD(&timer_bases[cpu].pending);
	}
}
