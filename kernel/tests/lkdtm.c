/*
 * Crashes on purpose (Linux's lkdtm), chosen with lkdtm=WHAT on the
 * command line, so tests can check both that the MMU enforces the
 * kernel's permissions and what the kernel prints when it dies, or when a
 * thread hangs or a reader stalls RCU, and that the debug checks catch
 * what they are for. Operations made to fail instead (Linux's fault
 * injection): include/kernel/fault.h.
 */
#define pr_fmt(fmt) "lkdtm: " fmt
#include <kernel/cpu.h>
#include <kernel/kasan.h>
#include <kernel/kcsan.h>
#include <kernel/lkdtm.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/params.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/ubsan.h>
#include <kernel/wait.h>
#include <string.h>

static const int fault_rodata_target = 42;
static u32 fault_data_target[4] = {0xd4200000}; /* brk #0, never run */
static unsigned long fault_never = ~0UL; /* a recursion depth never reached */

/* Hide where a pointer came from, so the compiler emits the access. */
static void *launder(const void *p)
{
	void *q;

	__asm__ __volatile__("mov %0, %1" : "=r"(q) : "r"(p));
	return q;
}

static noinline void fault_write_rodata(void)
{
	*(volatile int *)launder(&fault_rodata_target) = 1;
}

static noinline void fault_write_text(void)
{
	*(volatile u32 *)launder(fault_write_text) = 0;
}

static noinline void fault_exec_data(void)
{
	((void (*)(void))launder(fault_data_target))();
}

static noinline void fault_read_null(void)
{
	pr_info("read %d\n", *(volatile int *)launder(NULL));
}

static noinline void fault_undef(void)
{
	__asm__ __volatile__("udf #0");
}

/* Write past a stack array: the canary check on return must catch it. */
static noinline void fault_smash_stack(void)
{
	char buf[16] = ""; /* -Og warns on launder() of it otherwise */

	memset(launder(buf), 0x41, 32); /* to the canary, not far past */
	pr_info("smashed: %c\n", buf[0]);
}

/*
 * Recurse until the stack runs into its guard: the exception entry must
 * notice and name this thread. Each frame keeps 256 bytes live across the
 * call so that the compiler can neither drop nor flatten the recursion.
 */
static noinline unsigned long fault_recurse(unsigned long depth)
{
	volatile char frame[256];

	frame[0] = (char)depth;
	if (depth == *(volatile unsigned long *)launder(&fault_never))
		return 0;
	return fault_recurse(depth + 1) + frame[0];
}

static noinline void fault_overflow_stack(void)
{
	pr_info("recursing on a %lu KiB stack\n", THREAD_SIZE / 1024);
	pr_info("depth %lu\n", fault_recurse(0));
}

/* Block forever on an event nobody signals: for the hung-task detector. */
static noinline void fault_hang(void)
{
	struct completion never;

	init_completion(&never);
	pr_info("blocking forever\n");
	wait_for_completion(&never);
}

/*
 * A reader held past the stall threshold: the stall detector must name
 * this CPU, and once the reader leaves, grace periods end again.
 */
static void stall_gp_done(struct rcu_head *head)
{
	pr_info("the grace period the reader held up has ended\n");
}

static noinline void fault_stall(void)
{
	unsigned long ms = rcu_stall_timeout_ms + 1000;
	static struct rcu_head head;

	pr_info("holding rcu_read_lock() for %lu ms (stall timeout %lu ms)\n",
		ms, rcu_stall_timeout_ms);
	rcu_read_lock();
	call_rcu(&head, stall_gp_done); /* a grace period to hold up */
	for (unsigned long i = 0; i < ms; i++)
		udelay(1000);
	rcu_read_unlock();
	synchronize_rcu();
	pr_info("reader released; grace periods end again\n");
}

/*
 * A context switch inside a read-side section would be reported to RCU as
 * a quiescent state and end the grace period under the reader: __schedule()
 * must stop with "scheduling while atomic" instead.
 */
static noinline void fault_rcu_yield(void)
{
	pr_info("yield() inside rcu_read_lock()\n");
	rcu_read_lock();
	yield();
	rcu_read_unlock();
}

/*
 * smp_processor_id() and this_cpu_read() by a thread that may move: with
 * debug_preempt, each must be reported (once per call site).
 */
static noinline void fault_percpu_preemptible(void)
{
	unsigned long before = READ_ONCE(debug_preempt_reports);
	unsigned int a, b;

	if (!debug_preempt) {
		pr_err("'percpu_preemptible' needs the debug_preempt word\n");
		return;
	}
	a = smp_processor_id();
	b = this_cpu_read(cpu_number);
	pr_info("CPU%u, CPU%u: %lu report(s)\n", a, b,
		READ_ONCE(debug_preempt_reports) - before);
	if (READ_ONCE(debug_preempt_reports) - before < 2)
		pr_err("'percpu_preemptible' did not fault: a use went "
		       "unreported\n");
}

/*
 * The sanitizers' triggers (make SANITIZE=1): each does one bug that its
 * detector must report, and the boot goes on. On a build without that
 * detector nothing is done, and lkdtm says so.
 */
static noinline void ubsan_shift(void)
{
	volatile int by = 40;
	int one = 1;

	pr_info("1 << %d = %d\n", by, one << by);
}

/* Read a kmalloc object after kfree(): still in KASAN's quarantine. */
static noinline void kasan_uaf(void)
{
	int *p = kmalloc(8 * sizeof(int));

	if (!p)
		return;
	p[3] = 42;
	kfree(p);
	pr_info("read %d after kfree()\n", READ_ONCE(p[3]));
}

/* Write one int past the end of a 20-byte kmalloc object. */
static noinline void kasan_oob(void)
{
	int *p = kmalloc(5 * sizeof(int));

	if (!p)
		return;
	WRITE_ONCE(p[*(volatile int *)launder(&(int){5})], 7);
	kfree(p);
}

/*
 * A pointer into a CPU's per-CPU area, taken while the CPU was online,
 * used after the CPU went down and its area was freed: the bug a reader
 * racing a run-time design switch had.
 */
static noinline void kasan_percpu_uaf(void)
{
	unsigned int cpu = nr_cpu_ids - 1, *number;
	int err;

	if (!cpu || !cpu_online(cpu)) {
		pr_err("'kasan_percpu_uaf' needs a second CPU online\n");
		return;
	}
	rcu_read_lock();
	number = per_cpu_ptr(&cpu_number, cpu);
	rcu_read_unlock();
	err = cpu_down(cpu);
	if (err) {
		pr_err("cpu_down(%u) failed: %d\n", cpu, err);
		return;
	}
	pr_info("CPU%u's cpu_number after its down: %u\n", cpu,
		READ_ONCE(*number));
	cpu_up(cpu);
}

/*
 * A pointer into a thread's stack, used after the thread exited and its
 * stack was freed (KASAN's stack quarantine keeps it mapped).
 */
static struct completion stack_published;
static volatile int *stack_local;

static int stack_uaf_thread(void *unused)
{
	volatile int local = 42;

	stack_local = &local;
	complete(&stack_published);
	return local;
}

static noinline void kasan_stack_uaf(void)
{
	unsigned int threads = nr_threads();
	u64 deadline = jiffies + msecs_to_jiffies(10000);

	init_completion(&stack_published);
	if (!kthread_run(stack_uaf_thread, NULL, "stack_uaf")) {
		pr_err("no thread for 'kasan_stack_uaf'\n");
		return;
	}
	wait_for_completion(&stack_published);
	while (nr_threads() > threads && jiffies < deadline)
		msleep(1);
	rcu_barrier(); /* the thread's memory is freed after a grace period */
	if (nr_threads() > threads) {
		pr_err("the 'kasan_stack_uaf' thread did not exit\n");
		return;
	}
	pr_info("read %d from an exited thread's stack\n", *stack_local);
}

static const struct {
	const char *name;
	void (*fn)(void);
	const char *detector;
	bool (*built)(void);
	unsigned long (*reports)(void);
} reports[] = {
	{"ubsan_shift", ubsan_shift, "UBSAN", ubsan_built, ubsan_reports},
	{"kasan_uaf", kasan_uaf, "KASAN", kasan_built, kasan_reports},
	{"kasan_oob", kasan_oob, "KASAN", kasan_built, kasan_reports},
	{"kasan_percpu_uaf", kasan_percpu_uaf, "KASAN", kasan_built,
	 kasan_reports},
	{"kasan_stack_uaf", kasan_stack_uaf, "KASAN", kasan_built,
	 kasan_reports},
};

/* The trigger's detector must have printed a report for it. */
static void run_report(unsigned int i)
{
	unsigned long before;

	if (!reports[i].built()) {
		pr_err("'%s': %s is not built: make SANITIZE=1 builds it\n",
		       reports[i].name, reports[i].detector);
		return;
	}
	pr_info("injecting '%s'\n", reports[i].name);
	before = reports[i].reports();
	reports[i].fn();
	if (reports[i].reports() == before)
		pr_err("'%s' did not fault: %s did not report it\n",
		       reports[i].name, reports[i].detector);
	else
		pr_info("'%s': %lu %s report(s)\n", reports[i].name,
			reports[i].reports() - before, reports[i].detector);
}

/*
 * The lockdep triggers (make LOCKDEP=1): each does, once and without
 * deadlocking, what in some interleaving deadlocks or reads freed memory;
 * lockdep must report it. Without lockdep they report nothing.
 */
static DEFINE_SPINLOCK(lkdtm_lock_a);
static DEFINE_SPINLOCK(lkdtm_lock_b);

/* A then B here, B then A there: two threads doing each can deadlock. */
static noinline void lockdep_ab_ba(void)
{
	spin_lock(&lkdtm_lock_a);
	spin_lock(&lkdtm_lock_b);
	spin_unlock(&lkdtm_lock_b);
	spin_unlock(&lkdtm_lock_a);

	spin_lock(&lkdtm_lock_b);
	spin_lock(&lkdtm_lock_a);
	spin_unlock(&lkdtm_lock_a);
	spin_unlock(&lkdtm_lock_b);
}

/* An interrupt handler takes A (hardirq-safe). */
static void take_lock_a(void *info)
{
	spin_lock(&lkdtm_lock_a);
	spin_unlock(&lkdtm_lock_a);
}

/*
 * B taken with IRQs on (hardirq-unsafe), then B under A: a CPU holding B
 * takes the interrupt that spins on A, while another holds A spinning on B.
 */
static noinline void lockdep_irq_inversion(void)
{
	unsigned int cpu = raw_smp_processor_id();
	unsigned int target = cpumask_next(cpu, cpu_online_mask);
	unsigned long flags;

	if (target >= nr_cpu_ids)
		target = cpumask_first(cpu_online_mask);
	if (target == cpu) {
		pr_err("'irq_inversion' needs a second CPU\n");
		return;
	}
	smp_call_function_single(target, take_lock_a, NULL, true);
	spin_lock(&lkdtm_lock_b);
	spin_unlock(&lkdtm_lock_b);
	spin_lock_irqsave(&lkdtm_lock_a, flags);
	spin_lock(&lkdtm_lock_b);
	spin_unlock(&lkdtm_lock_b);
	spin_unlock_irqrestore(&lkdtm_lock_a, flags);
}

/*
 * A completion completed with a mutex held, and one of the same class (one
 * init site) waited for with that mutex held: had the two been the same,
 * the waiter would hold what the completer needs first. A helper thread
 * completes both (the first under the mutex), so nothing deadlocks here.
 */
struct wait_pair {
	struct mutex *lock;
	struct completion first, second;
};

static void init_done(struct completion *done)
{
	init_completion(done);
}

static int complete_pair(void *arg)
{
	struct wait_pair *w = arg;

	mutex_lock(w->lock);
	complete(&w->first);
	mutex_unlock(w->lock);
	complete(&w->second); /* w is gone after this */
	return 0;
}

static noinline void lockdep_wait_under_lock(void)
{
	static DEFINE_MUTEX(lkdtm_mutex);
	struct wait_pair w = {.lock = &lkdtm_mutex};

	init_done(&w.first);
	init_done(&w.second);
	if (!kthread_run(complete_pair, &w, "lkdtm_complete")) {
		pr_err("'wait_under_lock': no thread\n");
		return;
	}
	wait_for_completion(&w.first);
	mutex_lock(&lkdtm_mutex);
	wait_for_completion(&w.second);
	mutex_unlock(&lkdtm_mutex);
}

/*
 * A mutex taken with preemption off (a read-side section): it is free, so
 * nothing sleeps, but had it been held this would schedule while atomic.
 */
static noinline void lockdep_sleep_in_atomic(void)
{
	static DEFINE_MUTEX(lkdtm_atomic_mutex);

	rcu_read_lock();
	mutex_lock(&lkdtm_atomic_mutex);
	mutex_unlock(&lkdtm_atomic_mutex);
	rcu_read_unlock();
}

struct lkdtm_obj {
	int value;
};
static struct lkdtm_obj lkdtm_obj_storage = {42};
static struct lkdtm_obj *lkdtm_rcu_ptr = &lkdtm_obj_storage;

/* An RCU-protected pointer read with no read-side section. */
static noinline void lockdep_rcu_deref(void)
{
	struct lkdtm_obj *p = rcu_dereference(lkdtm_rcu_ptr);

	pr_info("read %d outside rcu_read_lock()\n", p->value);
}

static DEFINE_PER_CPU(unsigned long, lkdtm_percpu);

/*
 * Another CPU's per-CPU area used with preemption on, no read-side
 * section and no hotplug lock: the CPU may go down and the area be freed.
 */
static noinline void lockdep_percpu_remote(void)
{
	unsigned int cpu = raw_smp_processor_id();
	unsigned int other = cpumask_next(cpu, cpu_online_mask);

	if (other >= nr_cpu_ids)
		other = cpumask_first(cpu_online_mask);
	pr_info("CPU%u's per-CPU area from CPU%u: %lu\n", other, cpu,
		READ_ONCE(*per_cpu_ptr(&lkdtm_percpu, other)));
}

/*
 * A plain write on one CPU against a plain read of the same variable on
 * another, looping until the data-race detector reports them or 20 s
 * pass: with KCSAN (make KCSAN=1) it must print "BUG: KCSAN: data-race in
 * data_race_read / data_race_write". Each access is its own function,
 * noipa so that the compiler emits each one, plainly, every time (a
 * noinline reader alone is pure to it, and its call leaves the loop).
 * Meanwhile the reader's accesses are watched for 20 ms each, one in
 * ~5000, and the writer's never (it runs unstalled): on a busy host a vCPU
 * gets a host core a fraction of the time, and a watch sees the writer
 * whenever the writer runs while the window is open, even with the
 * watcher's own vCPU descheduled.
 */
static unsigned long data_race_var;
static bool data_race_stop;
static struct completion data_race_done[2];

static __attribute__((noipa)) void data_race_write(unsigned long v)
{
	data_race_var = v;
}

static __attribute__((noipa)) unsigned long data_race_read(void)
{
	return data_race_var;
}

static int data_race_writer(void *arg)
{
	kcsan_no_watch_current(true);
	for (unsigned long i = 0; !READ_ONCE(data_race_stop); i++)
		data_race_write(i);
	complete(&data_race_done[0]);
	return 0;
}

static int data_race_reader(void *arg)
{
	unsigned long sum = 0;

	while (!READ_ONCE(data_race_stop))
		sum += data_race_read();
	WRITE_ONCE(data_race_var, sum); /* keep the reads */
	complete(&data_race_done[1]);
	return 0;
}

static noinline void fault_data_race(void)
{
	int (*fn[2])(void *) = {data_race_writer, data_race_reader};
	unsigned long before = kcsan_reports();
	unsigned int cpu[2];
	u64 deadline = ktime_get_ns() + 20000000000ULL;
	unsigned long skip = 5000, us = 20000;

	if (num_online_cpus() < 2) {
		pr_err("'data_race' needs two CPUs online\n");
		return;
	}
	cpu[0] = cpumask_first(cpu_online_mask);
	cpu[1] = cpumask_next(cpu[0], cpu_online_mask);
	WRITE_ONCE(data_race_stop, false);
	for (unsigned int i = 0; i < 2; i++) {
		struct task_struct *t;

		init_completion(&data_race_done[i]);
		t = kthread_create(fn[i], NULL, "lkdtm-race/%u", i);
		if (!t)
			panic("lkdtm: cannot start a racing thread");
		kthread_bind(t, cpu[i]);
		wake_up_process(t);
	}
	pr_info("plain write on CPU%u vs plain read on CPU%u, up to 20 s\n",
		cpu[0], cpu[1]);
	kcsan_set_sampling(&skip, &us);
	while (kcsan_reports() == before && ktime_get_ns() < deadline)
		msleep(10);
	kcsan_set_sampling(&skip, &us);
	WRITE_ONCE(data_race_stop, true);
	for (unsigned int i = 0; i < 2; i++)
		wait_for_completion(&data_race_done[i]);
	if (kcsan_reports() == before)
		pr_err("'data_race' did not fault: no KCSAN report (a build "
		       "with make KCSAN=1 has the detector)\n");
	else
		pr_info("'data_race': %lu report(s)\n",
			kcsan_reports() - before);
}

/* Faults that must not return, and what should have stopped each. */
static const struct {
	const char *name;
	void (*fn)(void);
	const char *guard;
} faults[] = {
	{"rodata", fault_write_rodata, "the MMU"},
	{"text", fault_write_text, "the MMU"},
	{"exec", fault_exec_data, "the MMU"},
	{"null", fault_read_null, "the MMU"},
	{"undef", fault_undef, "the CPU"},
	{"stack", fault_smash_stack, "the stack canary"},
	{"overflow", fault_overflow_stack, "the stack guard"},
	{"rcu_yield", fault_rcu_yield, "the scheduler"},
};

/* Misuses that lockdep reports (and the boot goes on). */
static const struct {
	const char *name;
	void (*fn)(void);
} lockdep_triggers[] = {
	{"ab_ba", lockdep_ab_ba},
	{"irq_inversion", lockdep_irq_inversion},
	{"wait_under_lock", lockdep_wait_under_lock},
	{"sleep_in_atomic", lockdep_sleep_in_atomic},
	{"rcu_deref", lockdep_rcu_deref},
	{"percpu_remote", lockdep_percpu_remote},
};

static char lkdtm_word[32];
param_string(
	"lkdtm", lkdtm_word,
	"rodata|text|exec|null|undef|stack|overflow|rcu_yield|panic|"
	"hang|stall|percpu_preemptible|ubsan_shift|kasan_uaf|kasan_oob|"
	"kasan_percpu_uaf|kasan_stack_uaf|ab_ba|irq_inversion|"
	"wait_under_lock|sleep_in_atomic|rcu_deref|percpu_remote|data_race: "
	"crash, hang or misuse on purpose, or trip a detector, to "
	"see the report");

void lkdtm_boot(void)
{
	if (lkdtm_word[0])
		lkdtm_run(lkdtm_word);
}

void lkdtm_run(const char *what)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(faults); i++) {
		if (strcmp(what, faults[i].name))
			continue;
		pr_info("injecting '%s'\n", what);
		faults[i].fn();
		pr_err("'%s' did not fault: %s does not enforce it\n", what,
		       faults[i].guard);
		return;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(reports); i++) {
		if (!strcmp(what, reports[i].name)) {
			run_report(i);
			return;
		}
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(lockdep_triggers); i++) {
		if (strcmp(what, lockdep_triggers[i].name))
			continue;
		pr_info("injecting '%s'\n", what);
		lockdep_triggers[i].fn();
		pr_info("'%s' done\n", what);
		return;
	}
	if (!strcmp(what, "panic"))
		panic("deliberate panic (lkdtm=panic)");
	if (!strcmp(what, "hang"))
		fault_hang();
	else if (!strcmp(what, "stall"))
		fault_stall();
	else if (!strcmp(what, "percpu_preemptible"))
		fault_percpu_preemptible();
	else if (!strcmp(what, "data_race"))
		fault_data_race();
	else
		pr_err("unknown fault '%s' (rodata text exec null undef stack "
		       "overflow rcu_yield panic hang stall "
		       "percpu_preemptible ubsan_shift kasan_uaf kasan_oob "
		       "kasan_percpu_uaf kasan_stack_uaf ab_ba irq_inversion "
		       "wait_under_lock sleep_in_atomic rcu_deref "
		       "percpu_remote data_race)\n",
		       what);
}
