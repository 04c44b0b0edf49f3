/*
 * Kernel threads: creation (a stack and a first context that enters
 * ret_from_fork), binding, exit, and the boot thread init_task.
 *
 * A thread that exits is freed by the next thread to run on its CPU, in
 * finish_task_switch(): by then nothing runs on its stack any more.
 */
#define pr_fmt(fmt) "kthread: " fmt
#include <kernel/cpu.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <lib/printf.h>
#include <string.h>
#include "sched.h"

void ret_from_fork(void);

struct task_struct init_task = {
	.state = TASK_RUNNING,
	.comm = "swapper/0",
	.on_rq = true,
	.pi_lock = __SPIN_LOCK_UNLOCKED,
};

static DEFINE_SPINLOCK(tasklist_lock);
static LIST_HEAD(tasklist);
static int last_pid;

static void tasklist_add(struct task_struct *p)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	p->pid = last_pid++;
	list_add_tail(&p->tasks, &tasklist);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* A thread struct and a stack with the overflow canary at its bottom. */
static struct task_struct *alloc_task(void)
{
	struct task_struct *p = kzalloc(sizeof(*p));

	if (!p)
		return NULL;
	p->stack = __get_free_pages(get_order(THREAD_SIZE));
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
	p->cpu = smp_processor_id();
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
	spin_unlock_irqrestore(&tasklist_lock, flags);
	free_pages(p->stack, get_order(THREAD_SIZE));
	kfree(p);
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

void show_threads(void)
{
	struct task_struct *p;
	unsigned long flags;

	printk(KERN_INFO "  PID CPU ST  SWITCHES   RUN(ms) NAME\n");
	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry (p, &tasklist, tasks)
		printk(KERN_INFO "%5d %3d %-2s %9llu %9llu %s%s\n", p->pid, p->cpu,
			state_name(p), (unsigned long long)p->nr_switches,
			(unsigned long long)(p->sum_exec_ns / 1000000), p->comm,
			p->bound ? " (bound)" : "");
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

void sched_init(void)
{
	INIT_LIST_HEAD(&init_task.run_list);
	tasklist_add(&init_task);
	sched_init_cpu(smp_processor_id());
}
