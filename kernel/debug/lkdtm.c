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
#include <kernel/kcsan.h>
#include <kernel/lkdtm.h>
#include <kernel/params.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/task.h>
#include <kernel/time.h>
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

static char lkdtm_word[32];
param_string("lkdtm", lkdtm_word,
	     "rodata|text|exec|null|undef|stack|overflow|rcu_yield|panic|"
	     "hang|stall|percpu_preemptible|data_race: crash or hang on "
	     "purpose, to see "
	     "the report");

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
		       "percpu_preemptible data_race)\n",
		       what);
}
