/*
 * RCU callbacks: call_rcu() queues on the calling CPU; the tick moves
 * segments along as grace periods end (next -> wait -> done); a per-CPU
 * thread, rcuc/N, invokes done callbacks with interrupts on, a batch at a
 * time. synchronize_rcu() and rcu_barrier() are built on call_rcu().
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
	return rdp->done.head || rdp->wait.head || rdp->next.head;
}

void rcu_wake_cb_thread(struct rcu_data *rdp)
{
	if (rdp->kthread)
		wake_up(&rdp->kthread_wq);
}

/*
 * Move callbacks whose grace period has ended to done, and give the next
 * ones a grace period when the wait segment is free. This CPU, IRQs off.
 */
void rcu_advance_cbs(struct rcu_data *rdp)
{
	/* Paired with the store-release in rcu_gp_end(). */
	long completed = smp_load_acquire(&rcu_state.gp_completed);

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

static bool has_done(struct rcu_data *rdp)
{
	return READ_ONCE(rdp->done.head) != NULL;
}

static int rcu_cb_thread(void *arg)
{
	struct rcu_data *rdp = arg;

	for (;;) {
		struct rcu_head *head;
		long n;

		wait_event_parkable(rdp->kthread_wq, has_done(rdp));
		if (kthread_should_park()) {
			kthread_parkme(); /* its CPU is going away */
			continue;
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
 * which is safe (they only wait longer). IRQs on; cpu no longer runs.
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

/*
 * Wait for every callback queued before the call. Hotplug is held off
 * throughout: on_each_cpu() reaches only online CPUs, and a CPU whose
 * online bit is clear keeps its callbacks until the rcu:callbacks step of
 * its down moves them, behind a barrier callback already queued there.
 * With no down or up in progress, every CPU with callbacks is online
 * (but one left unconfirmed off by a failed down: its callbacks wait for
 * the cpu_up() that finishes that down). No caller holds the hotplug
 * mutex or runs from a hotplug step, and none of those waits for a
 * barrier, so this cannot deadlock.
 */
void rcu_barrier(void)
{
	cpu_maps_update_begin();
	mutex_lock(&barrier_mutex);
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
