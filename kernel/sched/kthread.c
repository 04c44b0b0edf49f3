/*
 * Kernel threads: creation (a stack and a first context that enters
 * ret_from_fork), binding, exit, and the boot thread init_task.
 *
 * A thread that exits is freed by the next thread to run on its CPU, in
 * finish_task_switch(): by then nothing runs on its stack any more.
 */
#define pr_fmt(fmt) "kthread: " fmt
#include <asm/sections.h>
#include <asm/entry.h>
#include <asm/vmap_stack.h>
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>
#include "sched.h"

struct task_struct init_task = {
	.state = TASK_RUNNING,
	.comm = "swapper/0",
	.on_rq = true,
	.pi_lock = __SPIN_LOCK_UNLOCKED(init_task.pi_lock),
	.stack = boot_stack,
};

static DEFINE_SPINLOCK(tasklist_lock);
static LIST_HEAD(tasklist);
static int last_pid;
static unsigned int nr_tasks; /* under tasklist_lock */

static void tasklist_add(struct task_struct *p)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	p->pid = last_pid++;
	list_add_tail(&p->tasks, &tasklist);
	WRITE_ONCE(nr_tasks, nr_tasks + 1);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/*
 * A thread struct and a stack above a guard (arch/arm64/vmap_stack.c),
 * with the overflow canary at its bottom for what jumps the guard.
 */
static struct task_struct *alloc_task(void)
{
	struct task_struct *p = kzalloc(sizeof(*p));

	if (!p)
		return NULL;
	p->stack = thread_stack_alloc();
	if (!p->stack) {
		kfree(p);
		return NULL;
	}
	*(u64 *)p->stack = STACK_END_MAGIC;
	spin_lock_init(&p->pi_lock);
	INIT_LIST_HEAD(&p->run_list);
	return p;
}

struct task_struct *kthread_create(int (*fn)(void *), void *arg,
				   const char *fmt, ...)
{
	struct task_struct *p = alloc_task();
	va_list ap;

	if (!p)
		return NULL;
	va_start(ap, fmt);
	vscnprintf(p->comm, sizeof(p->comm), fmt, ap);
	va_end(ap);
	p->fn = fn;
	p->arg = arg;
	p->state = TASK_UNINTERRUPTIBLE; /* until wake_up_process() */
	p->cpu = raw_smp_processor_id(); /* where it starts: a hint */
	cpumask_copy(&p->cpus_allowed, cpu_possible_mask);
	/*
	 * It starts inside the schedule() that switches to it, as every
	 * thread switched away from does: preemption disabled once by
	 * schedule() and once by the held run-queue lock.
	 */
	p->preempt_count = 2 * PREEMPT_OFFSET;
	p->cpu_context.pc = (u64)ret_from_fork;
	p->cpu_context.sp = (u64)p->stack + THREAD_SIZE;
	p->cpu_context.x19 = (u64)fn;
	p->cpu_context.x20 = (u64)arg;
	tasklist_add(p);
	return p;
}

void kthread_bind(struct task_struct *p, unsigned int cpu)
{
	BUG_ON_MSG(p->state != TASK_UNINTERRUPTIBLE || p->on_rq,
		   "kthread_bind(%s): thread already started", p->comm);
	cpumask_clear(&p->cpus_allowed);
	cpumask_set_cpu(cpu, &p->cpus_allowed);
	p->cpu = cpu;
	p->bound = true;
}

/* An idle thread for cpu: it will run as that CPU's first context. */
struct task_struct *fork_idle(unsigned int cpu)
{
	struct task_struct *p = alloc_task();

	if (!p)
		return NULL;
	scnprintf(p->comm, sizeof(p->comm), "swapper/%u", cpu);
	p->state = TASK_RUNNING;
	p->cpu = cpu;
	p->on_rq = true;
	p->idle = true;
	p->bound = true;
	cpumask_set_cpu(cpu, &p->cpus_allowed);
	tasklist_add(p);
	return p;
}

void release_task(struct task_struct *p)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_del(&p->tasks);
	WRITE_ONCE(nr_tasks, nr_tasks - 1);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (p == &init_task)
		return; /* its stack is the boot stack, in the image */
	thread_stack_free(p->stack);
	kfree(p);
}

bool kthread_should_park(void)
{
	return smp_load_acquire(&current->should_park);
}

void kthread_parkme(void)
{
	struct task_struct *me = current;

	for (;;) {
		set_current_state(TASK_PARKED);
		/* Paired with the store-release in kthread_park(): seeing
		 * should_park set, we see the parked completion with it. */
		if (!smp_load_acquire(&me->should_park))
			break;
		/*
		 * Take the completion before signalling it: once it is
		 * complete, the parker may go on to park us again and store
		 * a new one, which a later clear would wipe out.
		 */
		struct completion *done = __atomic_exchange_n(&me->parked, NULL,
							      __ATOMIC_ACQ_REL);

		if (done)
			complete(done);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Asleep in wait_event_parkable(): off every queue, and on waking it
 * checks the flag first. Called under t->pi_lock, which every waker
 * takes, so it stays asleep until the caller lets go.
 */
static bool asleep_at_park_point(struct task_struct *t)
{
	/* park_point is read after the queue lock that ordered its
	 * sleep: the value it had when it went to sleep. */
	return task_asleep_locked(t) && READ_ONCE(t->park_point);
}

/*
 * Ask t to park, completing done when it has. Asleep at its park point,
 * it is parked once the flag is set: waking it onto its CPU to switch
 * there and back cost a round trip with that CPU on every down (issue
 * 20; milliseconds on a loaded host). Anywhere else, it is woken to see
 * the ask and completes done itself.
 */
static const struct fault_field kthread_park_fields[] = {
	{"N", FAULT_TIMES, .min = 1, .max = 100}, {}};
DEFINE_FAULT(kthread_park, kthread_park_fields, 1, 1, NULL,
	     "the next N (1-100) asks to park a thread fail with -EAGAIN, "
	     "the thread left running");

static int kthread_park_start(struct task_struct *t, struct completion *done)
{
	unsigned long flags;
	bool asleep;

	if (!t->parkable)
		return -EINVAL;
	if (should_fail(&fault_kthread_park))
		return -EAGAIN;
	init_completion(done);
	spin_lock_irqsave(&t->pi_lock, flags);
	asleep = asleep_at_park_point(t);
	if (asleep) /* what `threads` shows; a wake-up sets it running */
		WRITE_ONCE(t->state, TASK_PARKED);
	else
		t->parked = done;
	smp_store_release(&t->should_park, true);
	spin_unlock_irqrestore(&t->pi_lock, flags);
	if (asleep)
		complete(done);
	else
		wake_up_process(t);
	return 0;
}

static void kthread_park_wait(struct task_struct *t, struct completion *done)
{
	/* Parking on another CPU takes microseconds: poll for it then. */
	if (READ_ONCE(t->cpu) != (int)raw_smp_processor_id())
		wait_for_completion_spin(done, 1000);
	else
		wait_for_completion(done);
}

int kthread_park(struct task_struct *t)
{
	struct completion done;
	int err = kthread_park_start(t, &done);

	if (!err)
		kthread_park_wait(t, &done);
	return err;
}

/*
 * Its CPU is active again: let it run there. Still asleep at its park
 * point, it never saw the flag (a wake-up would have made it park in
 * kthread_parkme()), and nothing it waits for came meanwhile: it is
 * left asleep. Otherwise it is woken out of kthread_parkme().
 */
void kthread_unpark(struct task_struct *t)
{
	unsigned long flags;
	bool asleep;

	spin_lock_irqsave(&t->pi_lock, flags);
	asleep = asleep_at_park_point(t);
	if (asleep)
		WRITE_ONCE(t->state, TASK_INTERRUPTIBLE);
	smp_store_release(&t->should_park, false);
	spin_unlock_irqrestore(&t->pi_lock, flags);
	if (!asleep)
		wake_up_process(t);
}

unsigned int nr_threads(void)
{
	return READ_ONCE(nr_tasks);
}

void do_exit(int code)
{
	preempt_disable();
	current->exit_code = code;
	set_current_state(TASK_DEAD);
	schedule_dead();
	BUG();
}

static const char *state_name(const struct task_struct *p)
{
	static const char *const names[] = {"R", "S", "D", "P", "X"};

	return p->state < (int)ARRAY_SIZE(names) ? names[p->state] : "?";
}

/* Call fn(p, arg) for every thread, under tasklist_lock (IRQs off). */
void for_each_task(void (*fn)(struct task_struct *p, u64 arg), u64 arg)
{
	struct task_struct *p;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry (p, &tasklist, tasks)
		fn(p, arg);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

void show_threads(void)
{
	struct task_struct *p;
	unsigned long flags;

	printk(KERN_INFO "  PID CPU ST  SWITCHES   RUN(ms) NAME\n");
	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry (p, &tasklist, tasks)
		printk(KERN_INFO "%5d %3d %-2s %9llu %9llu %s%s\n", p->pid,
		       p->cpu, state_name(p),
		       (unsigned long long)p->nr_switches,
		       (unsigned long long)(p->sum_exec_ns / 1000000), p->comm,
		       p->bound ? " (bound)" : "");
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

void sched_init(void)
{
	INIT_LIST_HEAD(&init_task.run_list);
	sched_init_runqueues();
	tasklist_add(&init_task);
	sched_init_cpu(smp_processor_id());
	idle_thread_set_boot(&init_task);
	sched_mode_init();
}

/* Is p stuck on cpu: no other active CPU in its affinity? */
static bool bound_to(struct task_struct *p, unsigned int cpu)
{
	struct cpumask others;

	cpumask_and(&others, &p->cpus_allowed, cpu_active_mask);
	cpumask_clear_cpu(cpu, &others);
	return cpumask_test_cpu(cpu, &p->cpus_allowed) &&
	       cpumask_empty(&others);
}

/*
 * A live thread that can run only on cpu and cannot be parked, or NULL:
 * taking cpu down would strand it, so the down is refused.
 */
struct task_struct *find_stranded_thread(unsigned int cpu)
{
	struct task_struct *p, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry (p, &tasklist, tasks)
		if (!p->idle && !p->parkable && p->state != TASK_DEAD &&
		    bound_to(p, cpu)) {
			found = p;
			break;
		}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return found;
}

/* Threads parked or unparked a batch at a time (on the stack). */
#define PARK_BATCH 8

/*
 * cpu's threads with a pid above `after`, the PARK_BATCH lowest of them
 * in pid order: a batch, and the next starts after its last pid. So the
 * step reaches every thread, however many, with a bounded stack.
 */
static int cpu_threads(unsigned int cpu, int after, struct task_struct **out)
{
	struct task_struct *p;
	unsigned long flags;
	int n = 0, i;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry (p, &tasklist, tasks) {
		if (!p->parkable || p->state == TASK_DEAD || p->pid <= after ||
		    !cpumask_test_cpu(cpu, &p->cpus_allowed) ||
		    cpumask_weight(&p->cpus_allowed) != 1)
			continue;
		if (n < PARK_BATCH)
			i = n++;
		else if (p->pid < out[PARK_BATCH - 1]->pid)
			i = PARK_BATCH - 1; /* drops the highest */
		else
			continue;
		for (; i > 0 && out[i - 1]->pid > p->pid; i--)
			out[i] = out[i - 1];
		out[i] = p;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return n;
}

/*
 * Park cpu's per-CPU threads (hotplug "kthreads" step, going down), every
 * one of them, a batch at a time. An ask that fails is reported and fails
 * the step: the threads parked so far run again, and the down rolls
 * back, as a thread left running on a CPU going down would be stranded.
 */
int kthreads_park_cpu(unsigned int cpu)
{
	struct task_struct *t[PARK_BATCH];
	struct completion done[PARK_BATCH];
	int n, after = -1, err = 0;

	while (!err && (n = cpu_threads(cpu, after, t))) {
		int asked = 0;

		/*
		 * All asked first, then all waited for: the threads park
		 * side by side on their CPU, and the waits end in one
		 * round trip, not one wake-up and switch per thread in turn.
		 */
		while (asked < n &&
		       !(err = kthread_park_start(t[asked], &done[asked])))
			asked++;
		for (int i = 0; i < asked; i++)
			kthread_park_wait(t[i], &done[i]);
		if (err)
			pr_err("CPU%u: cannot park %s (pid %d): %d\n", cpu,
			       t[asked]->comm, t[asked]->pid, err);
		after = t[n - 1]->pid;
	}
	if (err)
		kthreads_unpark_cpu(cpu);
	return err;
}

/*
 * ... and let them run again once cpu is active (coming up); a thread
 * created for a CPU still coming up is started here.
 */
int kthreads_unpark_cpu(unsigned int cpu)
{
	struct task_struct *t[PARK_BATCH];
	int n, after = -1;

	while ((n = cpu_threads(cpu, after, t))) {
		for (int i = 0; i < n; i++)
			kthread_unpark(t[i]);
		after = t[n - 1]->pid;
	}
	return 0;
}
