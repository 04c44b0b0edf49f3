/*
 * RCU callbacks: call_rcu() queues on the calling CPU; the tick moves
 * segments along as grace periods end (next -> wait -> done); a per-CPU
 * thread, rcuc/N, invokes done callbacks with interrupts on, a batch at a
 * time. synchronize_rcu() and rcu_barrier() are built on call_rcu().
 *
 * Only an online CPU keeps callbacks. One that is not online may still
 * run the kernel: going down, coming up, or left between the two when a
 * down and its way back both failed (CPUHP_PHASE_STOPPED), its rcuc
 * thread parked. It gives every callback it holds to the orphanage at
 * its next rcu_advance_cbs() (each call_rcu(), and each tick, which it
 * keeps while it holds callbacks), and an online CPU adopts them: the
 * one whose rcuc thread that wakes, any online CPU's tick, a down's
 * rcu:callbacks step, rcu_barrier(). So no callback waits for a thread
 * that is parked, and rcu_barrier() need reach online CPUs only, once
 * the others have handed theirs over. Linux's rcu_barrier() instead
 * visits every CPU with callbacks; here the callback lists of a CPU
 * that runs the kernel are its own (IRQs off, no lock), so that CPU
 * hands them over rather than have another CPU queue onto them.
 */
#define pr_fmt(fmt) "rcu: " fmt
#include <kernel/cpu.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include "rcu.h"

#define RCU_BATCH 32 /* callbacks invoked between chances to reschedule */

void rcu_cblist_init(struct rcu_cblist *l)
{
	l->head = NULL;
	l->tail = &l->head;
	l->len = 0;
}

static void cblist_append(struct rcu_cblist *dst, struct rcu_cblist *src)
{
	if (!src->head)
		return;
	*dst->tail = src->head;
	dst->tail = src->tail;
	dst->len += src->len;
	rcu_cblist_init(src);
}

static void cblist_add(struct rcu_cblist *l, struct rcu_head *head)
{
	head->next = NULL;
	*l->tail = head;
	l->tail = &head->next;
	l->len++;
}

bool rcu_has_cbs(struct rcu_data *rdp)
{
	return READ_ONCE(rdp->done.head) || READ_ONCE(rdp->wait.head) ||
	       READ_ONCE(rdp->next.head);
}

void rcu_wake_cb_thread(struct rcu_data *rdp)
{
	if (rdp->kthread)
		wake_up(&rdp->kthread_wq);
}

/*
 * The orphanage: callbacks given up by CPUs that are not online, until
 * an online CPU adopts them. done's grace period has ended; next's may
 * not have, so they get a new one (they only wait longer).
 */
static DEFINE_SPINLOCK(orphan_lock);
static struct rcu_cblist orphan_done, orphan_next; /* orphan_lock */
static bool orphans; /* the orphanage is not empty: a lockless hint */

/* This CPU is not online: all its callbacks to the orphanage. IRQs off. */
static void rcu_orphan_cbs(struct rcu_data *rdp)
{
	unsigned int adopter;

	if (!rcu_has_cbs(rdp))
		return;
	spin_lock(&orphan_lock);
	cblist_append(&orphan_done, &rdp->done);
	cblist_append(&orphan_next, &rdp->wait);
	cblist_append(&orphan_next, &rdp->next);
	WRITE_ONCE(orphans, true);
	spin_unlock(&orphan_lock);
	adopter = cpumask_first(cpu_online_mask);
	if (adopter < nr_cpu_ids)
		rcu_wake_cb_thread(&rcu_data[adopter]);
}

/* This CPU is online: the orphans become its own. IRQs off. */
static void rcu_adopt_orphans(struct rcu_data *rdp)
{
	spin_lock(&orphan_lock);
	cblist_append(&rdp->done, &orphan_done);
	cblist_append(&rdp->next, &orphan_next);
	WRITE_ONCE(orphans, false);
	spin_unlock(&orphan_lock);
}

/*
 * Move callbacks whose grace period has ended to done, and give the next
 * ones a grace period when the wait segment is free; on a CPU that is not
 * online, give them all up instead, and on one that is, adopt what others
 * gave up. This CPU, IRQs off.
 */
void rcu_advance_cbs(struct rcu_data *rdp)
{
	long completed;

	if (unlikely(!cpu_online(smp_processor_id()))) {
		rcu_orphan_cbs(rdp);
		return;
	}
	if (unlikely(READ_ONCE(orphans)))
		rcu_adopt_orphans(rdp);
	/* Paired with the store-release in rcu_gp_end(). */
	completed = smp_load_acquire(&rcu_state.gp_completed);
	if (rdp->wait.head && completed - rdp->wait_gp >= 0)
		cblist_append(&rdp->done, &rdp->wait);
	if (!rdp->wait.head && rdp->next.head) {
		cblist_append(&rdp->wait, &rdp->next);
		rcu_request_gp(rdp);
	}
	if (rdp->done.head)
		rcu_wake_cb_thread(rdp);
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_data *rdp;
	unsigned long flags;

	head->func = func;
	local_irq_save(flags);
	rdp = this_rdp();
	cblist_add(&rdp->next, head);
	rdp->queued++;
	rcu_advance_cbs(rdp);
	local_irq_restore(flags);
}

/* Take up to RCU_BATCH done callbacks off this CPU's list. */
static struct rcu_head *take_batch(struct rcu_data *rdp, long *n)
{
	struct rcu_head *first, *last;
	unsigned long flags;

	local_irq_save(flags);
	first = last = rdp->done.head;
	for (*n = first ? 1 : 0; last && last->next && *n < RCU_BATCH; (*n)++)
		last = last->next;
	if (last) {
		rdp->done.head = last->next;
		if (!rdp->done.head)
			rdp->done.tail = &rdp->done.head;
		rdp->done.len -= *n;
		last->next = NULL;
	}
	local_irq_restore(flags);
	return first;
}

/* Work for rdp's thread: its done callbacks, or orphans to adopt. */
static bool has_done(struct rcu_data *rdp)
{
	return READ_ONCE(rdp->done.head) != NULL ||
	       (READ_ONCE(orphans) && cpu_online(rdp - rcu_data));
}

static int rcu_cb_thread(void *arg)
{
	struct rcu_data *rdp = arg;
	unsigned long flags;

	for (;;) {
		struct rcu_head *head;
		long n;

		wait_event_parkable(rdp->kthread_wq, has_done(rdp));
		if (kthread_should_park()) {
			kthread_parkme(); /* its CPU is going away */
			continue;
		}
		if (READ_ONCE(orphans)) {
			local_irq_save(flags);
			if (rdp == this_rdp()) /* bound: it runs on its CPU */
				rcu_advance_cbs(rdp);
			local_irq_restore(flags);
		}
		while ((head = take_batch(rdp, &n))) {
			while (head) {
				struct rcu_head *next = head->next;

				head->func(head);
				head = next;
			}
			WRITE_ONCE(rdp->invoked, rdp->invoked + n);
			cond_resched();
		}
	}
	return 0;
}

/* Create cpu's callback thread, bound to it (before it comes online). */
int rcu_spawn_cpu_thread(unsigned int cpu)
{
	struct rcu_data *rdp = (&rcu_data[cpu]);

	if (rdp->kthread)
		return 0;
	rdp->kthread = kthread_create(rcu_cb_thread, rdp, "rcuc/%u", cpu);
	if (!rdp->kthread)
		return -12; /* -ENOMEM */
	kthread_bind(rdp->kthread, cpu);
	rdp->kthread->parkable = true;
	/* A CPU still coming up gets it started by its kthreads step. */
	if (cpu_active(cpu))
		wake_up_process(rdp->kthread);
	return 0;
}

/* One per possible CPU (rcu_callbacks_init()): it may outlive its CPU. */
static struct rcu_head *barrier_head;

void rcu_callbacks_init(void)
{
	unsigned int cpu;

	barrier_head = kcalloc(nr_cpu_ids, sizeof(*barrier_head));
	if (!barrier_head)
		panic("no memory for rcu_barrier()'s %u callbacks", nr_cpu_ids);
	for_each_possible_cpu (cpu) {
		struct rcu_data *rdp = (&rcu_data[cpu]);

		rcu_cblist_init(&rdp->done);
		rcu_cblist_init(&rdp->wait);
		rcu_cblist_init(&rdp->next);
		init_waitqueue_head(&rdp->kthread_wq);
	}
	rcu_cblist_init(&orphan_done);
	rcu_cblist_init(&orphan_next);
}

u64 rcu_cbs_queued(unsigned int cpu)
{
	return READ_ONCE(rcu_data[cpu].queued);
}

u64 rcu_cbs_invoked(unsigned int cpu)
{
	return READ_ONCE(rcu_data[cpu].invoked);
}

/*
 * A dead CPU's callbacks go to the calling CPU: all to the next segment,
 * which is safe (they only wait longer), with any orphans if the calling
 * CPU is online (else they go on to the orphanage). IRQs on; cpu no
 * longer runs.
 */
void rcutree_migrate_callbacks(unsigned int cpu)
{
	struct rcu_data *src = (&rcu_data[cpu]), *dst;
	unsigned long flags;

	local_irq_save(flags);
	dst = this_rdp();
	cblist_append(&dst->done, &src->done);
	cblist_append(&dst->next, &src->wait);
	cblist_append(&dst->next, &src->next);
	rcu_advance_cbs(dst);
	local_irq_restore(flags);
}

struct rcu_synchronize {
	struct rcu_head head;
	struct completion done;
};

static void wakeme_after_rcu(struct rcu_head *head)
{
	complete(&container_of(head, struct rcu_synchronize, head)->done);
}

void synchronize_rcu(void)
{
	struct rcu_synchronize rs;

	BUG_ON_MSG(preempt_count() || irqs_disabled(),
		   "synchronize_rcu() in an atomic or read-side section");
	init_completion(&rs.done);
	call_rcu(&rs.head, wakeme_after_rcu);
	wait_for_completion(&rs.done);
}

static DEFINE_MUTEX(barrier_mutex);
static struct completion barrier_done;
static int barrier_pending;

static void barrier_callback(struct rcu_head *head)
{
	if (__atomic_sub_fetch(&barrier_pending, 1, __ATOMIC_ACQ_REL) == 0)
		complete(&barrier_done);
}

/* On each CPU: a callback behind every one queued there before it. */
static void barrier_queue(void *unused)
{
	__atomic_add_fetch(&barrier_pending, 1, __ATOMIC_ACQ_REL);
	call_rcu(&barrier_head[smp_processor_id()], barrier_callback);
}

#define BARRIER_WARN_MS 10000

/* Each CPU's callbacks and its rcuc thread, for a barrier that hangs. */
static void barrier_report(void)
{
	pr_warn("rcu_barrier: %d callbacks still pending after %d ms; gp %ld "
		"completed %ld needed %ld\n",
		READ_ONCE(barrier_pending), BARRIER_WARN_MS,
		READ_ONCE(rcu_state.gp_seq), READ_ONCE(rcu_state.gp_completed),
		READ_ONCE(rcu_state.gp_seq_needed));
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct rcu_data *rdp = &rcu_data[cpu];
		struct task_struct *t = rdp->kthread;

		if (!rcu_has_cbs(rdp) && !cpu_online(cpu))
			continue;
		pr_warn("  CPU%u%s: done %ld, wait %ld (gp %ld), next %ld, "
			"invoked %llu; rcuc state %d on_rq %d on_cpu %d cpu "
			"%d\n",
			cpu, cpu_online(cpu) ? "" : " (offline)",
			READ_ONCE(rdp->done.len), READ_ONCE(rdp->wait.len),
			rdp->wait_gp, READ_ONCE(rdp->next.len),
			(unsigned long long)READ_ONCE(rdp->invoked),
			t ? t->state : -1, t ? t->on_rq : -1,
			t ? t->on_cpu : -1, t ? t->cpu : -1);
	}
}

/* On an online CPU, by IPI (IRQs off): adopt the orphans. */
static void barrier_adopt(void *unused)
{
	rcu_advance_cbs(this_rdp());
}

/*
 * Every callback queued before now on a CPU that is not online, onto an
 * online CPU's lists. Such a CPU runs the kernel (the down of one that
 * left it moved its callbacks) and ticks while it holds callbacks, each
 * tick giving them up: wait for that, then have an online CPU adopt the
 * orphanage. Hotplug held off, so the CPUs stay as they are.
 */
static void barrier_gather_orphans(void)
{
	u64 warn = jiffies + msecs_to_jiffies(BARRIER_WARN_MS);
	unsigned int cpu;

	for_each_possible_cpu (cpu) {
		while (!cpu_online(cpu) && rcu_has_cbs(&rcu_data[cpu])) {
			if (warn && jiffies > warn) {
				pr_warn("rcu_barrier: CPU%u, not online, still "
					"holds callbacks after %d ms\n",
					cpu, BARRIER_WARN_MS);
				warn = 0;
			}
			msleep(1);
		}
	}
	if (READ_ONCE(orphans))
		smp_call_function_single(cpumask_first(cpu_online_mask),
					 barrier_adopt, NULL, true);
}

/*
 * Wait for every callback queued before the call. Hotplug is held off
 * throughout: on_each_cpu() reaches only online CPUs, so the callbacks of
 * the others are gathered onto online CPUs first (a CPU going down when
 * the barrier began finished its down first, and its rcu:callbacks step
 * moved them). No caller holds the hotplug mutex or runs from a hotplug
 * step, and none of those waits for a barrier, so this cannot deadlock.
 */
void rcu_barrier(void)
{
	cpu_maps_update_begin();
	mutex_lock(&barrier_mutex);
	barrier_gather_orphans();
	init_completion(&barrier_done);
	/* One extra count, dropped below, so no CPU completes it early. */
	barrier_pending = 1;
	on_each_cpu(barrier_queue, NULL, true);
	if (__atomic_sub_fetch(&barrier_pending, 1, __ATOMIC_ACQ_REL) == 0)
		complete(&barrier_done);
	/* Never silently: after a while, say what it waits for. */
	if (!wait_for_completion_timeout(&barrier_done,
					 msecs_to_jiffies(BARRIER_WARN_MS))) {
		barrier_report();
		wait_for_completion(&barrier_done);
	}
	mutex_unlock(&barrier_mutex);
	cpu_maps_update_done();
}
