/*
 * Inter-processor interrupts: rescheduling, cross-CPU function calls,
 * stopping CPUs and remote backtraces, each on its own SGI.
 *
 * A cross-CPU call is a call_single_data (csd) queued on the target's
 * list under that list's lock; the IPI makes the target drain its list.
 * A caller that waits gives its csds one call_group: each target drops
 * the group's count after func ran, and the last one wakes the caller.
 * The caller sleeps on it when it may (polling briefly first), so a wait
 * for hundreds of CPUs holds no CPU: on an oversubscribed host a spinning
 * waiter takes the very time its targets need to answer. Only a caller
 * that cannot sleep (preemption or IRQs off) spins, for the group's
 * `released` flag (store-release after the count reached 0, load-acquire
 * by the caller, so the caller sees what func wrote).
 */
#define pr_fmt(fmt) "smp: " fmt
#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/irq.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/stop_machine.h>
#include <kernel/mm.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/errno.h>

/* The calls one waiting caller made; on its stack. */
struct call_group {
	int pending; /* calls not yet run */
	int released; /* set by the last target, for a spinning caller */
	bool sleeping; /* the caller waits on done, not on released */
	struct completion done;
};

struct call_single_data {
	struct list_head list;
	smp_call_func_t func;
	void *info;
	struct call_group *group; /* NULL: nobody waits, the target frees it */
	unsigned int cpu; /* the target, for a wait that reports */
	int ran; /* set by the target once func returned */
};

struct call_queue {
	spinlock_t lock;
	struct list_head list;
};

/*
 * One per possible CPU, allocated at boot (smp_init_ipis()). Not per-CPU
 * data: a call may be queued to a CPU whose area is about to go, and the
 * CPU drains its own queue on its way down (smpcfd_dying_cpu()).
 */
static struct call_queue *call_queue;
/*
 * IPIs this CPU took, by type: written only by the CPU itself, in its
 * handler, so they live in its per-CPU area and die with it. A CPU that
 * comes back up starts again from 0; ipi_count() reads another CPU's only
 * while it sees it online (0 otherwise). `irqs` counts IPIs in irq_desc.
 */
BUILD_BUG_ON(NR_IPI > NR_NS_SGIS); /* every IPI non-secure */
static DEFINE_PER_CPU(u64[NR_IPI], ipi_counts);

static void send_ipi(const struct cpumask *mask, enum ipi_msg_type ipi)
{
	if (irqchip && irqchip->send_ipi)
		irqchip->send_ipi(mask, ipi);
}

static void send_ipi_one(unsigned int cpu, enum ipi_msg_type ipi)
{
	struct cpumask mask;

	cpumask_clear(&mask);
	cpumask_set_cpu(cpu, &mask);
	send_ipi(&mask, ipi);
}

void smp_send_reschedule(unsigned int cpu)
{
	send_ipi_one(cpu, IPI_RESCHEDULE);
}

/* A target's call ran; the last one releases the caller. */
static void call_done(struct call_group *g)
{
	if (__atomic_sub_fetch(&g->pending, 1, __ATOMIC_ACQ_REL))
		return;
	if (g->sleeping) /* complete() is done with g before it returns */
		complete(&g->done);
	else /* paired with the load-acquire in call_wait() */
		smp_store_release(&g->released, 1);
}

void flush_smp_call_function_queue(void)
{
	struct call_queue *q = &call_queue[smp_processor_id()];
	struct call_single_data *csd;
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	while (!list_empty(&q->list)) {
		csd = list_first_entry(&q->list, struct call_single_data, list);
		list_del_init(&csd->list);
		spin_unlock(&q->lock);
		csd->func(csd->info);
		if (csd->group) {
			WRITE_ONCE(csd->ran, 1);
			call_done(csd->group);
		} else
			kfree(csd);
		spin_lock(&q->lock);
	}
	spin_unlock_irqrestore(&q->lock, flags);
}

static void csd_queue(unsigned int cpu, struct call_single_data *csd)
{
	struct call_queue *q = &call_queue[cpu];
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	list_add_tail(&csd->list, &q->list);
	spin_unlock_irqrestore(&q->lock, flags);
}

/*
 * Before queueing: a caller that may sleep (and means to wait) does. The
 * count starts at 1, the caller's own, dropped once every call is queued:
 * a target that runs before the next one is queued cannot release it.
 */
static void call_group_init(struct call_group *g, bool wait)
{
	*g = (struct call_group){.pending = 1,
				 .sleeping = wait && preemptible()};
	init_completion(&g->done);
}

/*
 * Poll this long first: a call to a running CPU ends within microseconds,
 * and then the caller pays no sleep and no wake-up IPI back.
 */
#define CALL_SPIN_US 20
#define CALL_CPUS_SHOWN 8

unsigned long smp_call_warn_ms = 10000;
unsigned long smp_call_resends;

/*
 * A sleeping caller's calls have not all run after smp_call_warn_ms: say which
 * CPUs owe one, whether it still sits in their queue and what those CPUs
 * did meanwhile, then send the call IPI again. If the calls then run, the
 * first IPI was lost or not taken; if not, the CPU is stuck.
 */
static void call_report(struct call_single_data *csds, unsigned int n)
{
	struct cpumask owing;
	unsigned int shown = 0;

	cpumask_clear(&owing);
	for (unsigned int i = 0; i < n; i++) {
		struct call_single_data *csd = &csds[i];
		struct call_queue *q = &call_queue[csd->cpu];
		unsigned long flags;
		bool queued;

		if (READ_ONCE(csd->ran))
			continue;
		cpumask_set_cpu(csd->cpu, &owing);
		if (shown++ >= CALL_CPUS_SHOWN)
			continue;
		spin_lock_irqsave(&q->lock, flags);
		queued = !list_empty(&csd->list);
		spin_unlock_irqrestore(&q->lock, flags);
		pr_warn("  CPU%u: call %s, %llu call IPIs taken, %llu ticks, "
			"tick %s\n",
			csd->cpu, queued ? "still queued" : "taken, not done",
			(unsigned long long)ipi_count(IPI_CALL_FUNC, csd->cpu),
			(unsigned long long)tick_count_cpu(csd->cpu),
			tick_stopped(csd->cpu) ? "stopped" : "on");
	}
	pr_warn("calls to %u CPU(s) not run after %lu ms (first %u above): "
		"sending their IPI again\n",
		cpumask_weight(&owing), READ_ONCE(smp_call_warn_ms),
		min(cpumask_weight(&owing), CALL_CPUS_SHOWN));
	__atomic_add_fetch(&smp_call_resends, 1, __ATOMIC_RELAXED);
	send_ipi(&owing, IPI_CALL_FUNC);
}

static void call_wait(struct call_group *g, struct call_single_data *csds,
		      unsigned int n)
{
	u64 t0 = ktime_get_ns();

	if (g->sleeping) {
		if (wait_for_completion_spin_timeout(
			    &g->done, CALL_SPIN_US,
			    msecs_to_jiffies(READ_ONCE(smp_call_warn_ms))))
			return;
		call_report(csds, n);
		wait_for_completion(&g->done);
		pr_warn("the calls ran %llu ms after they were sent\n",
			(unsigned long long)(ktime_get_ns() - t0) / 1000000);
		return;
	}
	while (!smp_load_acquire(&g->released))
		cpu_relax();
}

static void run_local(smp_call_func_t func, void *info)
{
	unsigned long flags;

	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
}

static const struct fault_field call_ipi_fields[] = {
	{"N", FAULT_TIMES, .min = 1, .max = 1000}, {}};

static int call_ipi_armed(struct fault_point *fp)
{
	pr_warn("the next %ld cross-CPU call(s) waited for get no IPI\n",
		fault_arg(fp, 0));
	return 0;
}
DEFINE_FAULT(call_ipi, call_ipi_fields, 1, 1, call_ipi_armed,
	     "the next N (1-1000) cross-CPU calls a caller waits for get no "
	     "IPI (the wait's report after smp_call_warn_ms sends it)");

/*
 * Queue func on each CPU of mask (not the caller) and send the IPIs. A
 * CPU no request could be allocated for is not called: it goes in missed
 * (never silently dropped). Returns how many were queued.
 */
static int queue_calls(const struct cpumask *mask, smp_call_func_t func,
		       void *info, struct call_single_data *csds,
		       struct call_group *g, struct cpumask *missed)
{
	struct cpumask targets;
	unsigned int cpu, n = 0;

	cpumask_and(&targets, mask, cpu_online_mask);
	cpumask_clear_cpu(smp_processor_id(), &targets);
	for_each_cpu (cpu, &targets) {
		struct call_single_data *csd =
			csds ? &csds[n] : kmalloc(sizeof(*csd));

		if (!csd) {
			pr_err("no memory for a call to CPU%u\n", cpu);
			cpumask_clear_cpu(cpu, &targets);
			cpumask_set_cpu(cpu, missed);
			continue;
		}
		*csd = (struct call_single_data){.func = func,
						 .info = info,
						 .group = csds ? g : NULL,
						 .cpu = cpu};
		INIT_LIST_HEAD(&csd->list);
		if (g) /* before the target can run it and drop the count */
			__atomic_add_fetch(&g->pending, 1, __ATOMIC_RELAXED);
		csd_queue(cpu, csd);
		n++;
	}
	if (g && g->sleeping && should_fail(&fault_call_ipi))
		return n; /* queued, never signalled: the wait must notice */
	send_ipi(&targets, IPI_CALL_FUNC);
	return n;
}

/*
 * func on each online CPU of mask (and on this one too if self), waiting
 * for them all if wait. The targets are fixed with preemption off; the
 * wait is outside it, asleep if the caller may sleep.
 */
static int call_many(const struct cpumask *mask, smp_call_func_t func,
		     void *info, bool wait, bool self, struct cpumask *missed)
{
	struct call_single_data *csds = NULL;
	struct call_group g;
	unsigned int cpu, n = 0;

	cpumask_clear(missed);
	WARN_ON(wait && irqs_disabled());
	call_group_init(&g, wait);
	if (wait) /* one per target at most, not NR_CPUS: this is hot */
		csds = kcalloc(cpumask_weight(mask), sizeof(*csds));
	preempt_disable();
	if (self)
		run_local(func, info);
	if (wait && !csds) { /* one at a time, with a csd on the stack */
		for_each_cpu (cpu, mask)
			if (cpu != smp_processor_id())
				smp_call_function_single(cpu, func, info, true);
	} else {
		n = queue_calls(mask, func, info, csds, wait ? &g : NULL,
				missed);
	}
	preempt_enable();
	if (wait) {
		call_done(&g); /* the caller's own count */
		call_wait(&g, csds, csds ? n : 0);
	}
	kfree(csds);
	return cpumask_weight(missed);
}

int smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			   void *info, bool wait, struct cpumask *missed)
{
	struct cpumask none;

	return call_many(mask, func, info, wait, false, missed ?: &none);
}

int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info,
			     bool wait)
{
	struct call_single_data csd;
	struct cpumask one, missed;
	struct call_group g;
	unsigned int n = 0;
	int err = 0;

	WARN_ON(wait && irqs_disabled());
	if (cpu >= nr_cpu_ids)
		return -ENXIO;
	call_group_init(&g, wait);
	cpumask_clear(&one);
	cpumask_clear(&missed);
	cpumask_set_cpu(cpu, &one);
	preempt_disable();
	if (cpu == smp_processor_id())
		run_local(func, info);
	else if (!cpu_online(cpu))
		err = -ENXIO;
	else if (!(n = queue_calls(&one, func, info, wait ? &csd : NULL,
				   wait ? &g : NULL, &missed)))
		err = -ENOMEM;
	preempt_enable();
	if (wait) {
		call_done(&g);
		call_wait(&g, &csd, n);
	}
	return err;
}

/* This CPU first, then the others; returns once all ran it, if wait. */
void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	struct cpumask missed;

	call_many(cpu_online_mask, func, info, wait, true, &missed);
}

/*
 * Each other online CPU clears its online bit and waits, IRQs off (see
 * ipi_stop()). Waits up to a second for them, then says which stopped.
 */
void smp_send_stop(void)
{
	struct cpumask others, left;
	unsigned int timeout_ms = 1000;
	char list[64];

	cpumask_copy(&others, cpu_online_mask);
	cpumask_clear_cpu(smp_processor_id(), &others);
	if (cpumask_empty(&others))
		return;
	send_ipi(&others, IPI_STOP);
	while (cpumask_and(&left, &others, cpu_online_mask) && timeout_ms--)
		udelay(1000);
	if (cpumask_empty(&left)) {
		pr_emerg("stopped %u other CPU(s)\n", cpumask_weight(&others));
		return;
	}
	cpumap_print_list(list, sizeof(list), &left);
	pr_emerg("failed to stop CPU(s) %s\n", list);
}

void smp_send_backtrace(const struct cpumask *mask)
{
	send_ipi(mask, IPI_BACKTRACE);
}

static void ipi_stop(void)
{
	local_irq_disable();
	set_cpu_online(smp_processor_id(), false);
	for (;;)
		wfi();
}

static void ipi_handler(unsigned int irq, void *dev)
{
	unsigned int cpu = smp_processor_id();

	if (irq >= NR_IPI)
		return;
	this_cpu_write(ipi_counts[irq], this_cpu_read(ipi_counts[irq]) + 1);
	switch (irq) {
	case IPI_RESCHEDULE:
		/*
		 * The flag is set; the IRQ return path reschedules. But the
		 * thread it was set on may have switched out meanwhile: a
		 * stop_machine() must not wait for this CPU's next tick.
		 */
		if (stop_machine_pending())
			set_tsk_need_resched(current);
		break;
	case IPI_CALL_FUNC:
		flush_smp_call_function_queue();
		break;
	case IPI_STOP:
		ipi_stop();
		break;
	case IPI_BACKTRACE:
		pr_emerg("NMI-less backtrace for CPU%u (%s):\n", cpu,
			 current->comm);
		/* A report that reads this CPU's per-CPU data from another
		 * relies on these agreeing (the drain's, sched/hotplug.c). */
		if (__my_cpu_offset() != READ_ONCE(__per_cpu_offset[cpu]))
			pr_emerg("CPU%u: per-CPU offset %#lx, its area at "
				 "%#lx\n",
				 cpu, __my_cpu_offset(),
				 READ_ONCE(__per_cpu_offset[cpu]));
		dump_stack();
		break;
	}
}

/* Since cpu last came up; 0 if it is offline (its area may be gone). */
u64 ipi_count(unsigned int ipi, unsigned int cpu)
{
	u64 n = 0;

	if (ipi >= NR_IPI)
		return 0;
	rcu_read_lock();
	if (cpu_online_rcu(cpu))
		n = READ_ONCE((*per_cpu_ptr(&ipi_counts, cpu))[ipi]);
	rcu_read_unlock();
	return n;
}

/*
 * On the CPU going down, IRQs off, after its last IPI could be sent: a
 * call queued just before its online bit cleared, whose IPI it never
 * took, runs now instead of leaving its caller waiting for ever.
 */
void smpcfd_dying_cpu(void)
{
	if (call_queue)
		flush_smp_call_function_queue();
}

void smp_init_ipis(void)
{
	unsigned int cpu;

	call_queue = kcalloc(nr_cpu_ids, sizeof(*call_queue));
	if (!call_queue)
		panic("no memory for %u CPUs' call queues", nr_cpu_ids);
	for_each_possible_cpu (cpu) {
		struct call_queue *q = &call_queue[cpu];

		spin_lock_init(&q->lock);
		INIT_LIST_HEAD(&q->list);
	}
	if (!irqchip) {
		pr_err("no interrupt controller: no IPIs, other CPUs stay "
		       "off\n");
		return;
	}
	/*
	 * Once, on the boot CPU: every irqchip's cpu_init() leaves the
	 * SGIs enabled, so a CPU coming up takes IPIs without this (it
	 * would be a trapped register write per IPI on every up).
	 */
	for (unsigned int ipi = 0; ipi < NR_IPI; ipi++)
		if (request_percpu_irq(ipi, ipi_handler, "IPI", NULL))
			pr_err("cannot take SGI %u for IPIs\n", ipi);
		else
			enable_percpu_irq(ipi, IRQ_TYPE_EDGE_RISING);
}
