/*
 * The debug_preempt check (Linux's check_preemption_disabled()): a use of
 * this_cpu_*() or smp_processor_id() by a thread that could move to another
 * CPU is reported, with its caller and a backtrace. In Linux such a use
 * only yields a stale value; here the old CPU may go down and its per-CPU
 * area be freed between reading TPIDR_EL1 and loading through it.
 */
#define pr_fmt(fmt) fmt
#include <kernel/kallsyms.h>
#include <kernel/panic.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>

/* Each call site is reported once, the first MAX_SITES of them. */
#define MAX_SITES 32

bool debug_preempt;
param_flag("debug_preempt", debug_preempt,
	   "report this_cpu_*() and smp_processor_id() used where the thread "
	   "may move (make test boots set it)");
unsigned long debug_preempt_reports;
static DEFINE_SPINLOCK(sites_lock);
static void *sites[MAX_SITES]; /* under sites_lock */

/*
 * Can the running thread not leave its CPU? Preemption or IRQs off, or
 * bound to exactly the CPU it is on: hotplug parks a per-CPU thread before
 * its CPU goes down, and refuses the down of a CPU that another thread
 * can only run on (find_stranded_thread()).
 */
bool preemption_check_passes(void)
{
	struct task_struct *p = current;

	if (preempt_count() || irqs_disabled())
		return true;
	return cpumask_weight(&p->cpus_allowed) == 1 &&
	       cpumask_test_cpu(raw_smp_processor_id(), &p->cpus_allowed);
}

/* Is caller a call site not reported yet (and room to remember it)? */
static bool first_report(void *caller)
{
	unsigned long flags;
	bool first = false;
	int i;

	spin_lock_irqsave(&sites_lock, flags);
	for (i = 0; i < MAX_SITES && sites[i] && sites[i] != caller; i++)
		;
	if (i < MAX_SITES && !sites[i]) {
		sites[i] = caller;
		first = true;
	}
	spin_unlock_irqrestore(&sites_lock, flags);
	return first;
}

void check_preemption_disabled(const char *what)
{
	void *caller = __builtin_return_address(0);
	char sym[96];

	if (preemption_check_passes())
		return;
	preempt_disable(); /* the report reads the CPU number itself */
	__atomic_fetch_add(&debug_preempt_reports, 1, __ATOMIC_RELAXED);
	if (first_report(caller)) {
		sprint_symbol(sym, sizeof(sym), (u64)caller);
		pr_err("BUG: using %s() in preemptible [%08x] code: %s/%d\n",
		       what, preempt_count() - PREEMPT_OFFSET, current->comm,
		       current->pid);
		pr_err("caller is %s\n", sym);
		dump_stack();
	}
	preempt_enable();
}
