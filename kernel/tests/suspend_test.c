/*
 * The CPU-suspend suite: PSCI CPU_SUSPEND's two outcomes on each CPU.
 * QEMU's firmware returns from every state it accepts (a WFI): a
 * power-down request comes back through cpu_suspend() as
 * CPU_SUSPEND_NO_POWERDOWN with nothing lost. With the fault injection
 * fail.cpu_suspend=lose_context the kernel emulates what real firmware
 * does (arch/arm64/suspend.c): the CPU restarts at cpu_resume with its
 * EL1 context lost, and these cases check that everything the kernel
 * relies on came back: callee-saved registers and sp, the per-CPU
 * offset, current, the vectors, the other system registers, the GIC
 * CPU interface (IRQs, IPIs) and the timer (the tick, a timer armed
 * before the suspend), over many cycles.
 *
 * Each suspend has a reschedule IPI to itself pending (IRQs masked):
 * QEMU's WFI then returns at once instead of at the next tick, and the
 * IPI must still arrive after the resume.
 */
#include <asm/entry.h>
#include <asm/irqflags.h>
#include <asm/suspend.h>
#include <asm/sysreg.h>
#include <kernel/cpuidle.h>
#include <kernel/fault.h>
#include <kernel/kunit.h>
#include <kernel/percpu.h>
#include <kernel/psci.h>
#include <kernel/smp.h>
#include <lib/printf.h>
#include <string.h>
#include "helpers.h"

/* Original power_state format: a level-0 power-down and a standby. */
#define STATE_POWERDOWN 0x00010000
#define STATE_STANDBY 0x00000001
/* Power level 1 (cluster): QEMU refuses any affinity level above 0. */
#define STATE_LEVEL1 0x01000000

#define LOSE_CYCLES 1000
#define TICKS_AFTER 3
#define WAIT_US 5000000 /* generous: a loaded host is slow, not wrong */

/*
 * x19-x28 as marked before cpu_suspend() and found after it, then sp
 * before and after.
 */
#define NR_MARKED 10
struct marked_regs {
	u64 x[NR_MARKED];
	u64 sp_before, sp_after;
};

/*
 * cpu_suspend(state, psci_suspend_finisher) with x19-x28 set to marks;
 * what they and sp hold after it returns goes in *r. The compiler saves
 * its own x19-x28 (clobbered) and finds r again on the stack.
 */
static int suspend_marked(u32 state, struct marked_regs *r)
{
	register long x0 asm("x0") = state;
	register long x1 asm("x1") = (long)psci_suspend_finisher;
	register struct marked_regs *x2 asm("x2") = r;

	asm volatile("mov	x3, sp\n"
		     "str	x3, [x2, #80]\n"
		     "stp	x2, xzr, [sp, #-16]!\n"
		     "mov	x19, #0x1919\n"
		     "mov	x20, #0x2020\n"
		     "mov	x21, #0x2121\n"
		     "mov	x22, #0x2222\n"
		     "mov	x23, #0x2323\n"
		     "mov	x24, #0x2424\n"
		     "mov	x25, #0x2525\n"
		     "mov	x26, #0x2626\n"
		     "mov	x27, #0x2727\n"
		     "mov	x28, #0x2828\n"
		     "bl	cpu_suspend\n"
		     "ldr	x2, [sp], #16\n"
		     "stp	x19, x20, [x2, #0]\n"
		     "stp	x21, x22, [x2, #16]\n"
		     "stp	x23, x24, [x2, #32]\n"
		     "stp	x25, x26, [x2, #48]\n"
		     "stp	x27, x28, [x2, #64]\n"
		     "mov	x3, sp\n"
		     "str	x3, [x2, #88]\n"
		     : "+r"(x0), "+r"(x1), "+r"(x2)
		     :
		     : "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",
		       "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19",
		       "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27",
		       "x28", "x30", "memory", "cc");
	return (int)x0;
}

/* The first of x19-x28 that lost its mark, NR_MARKED if none did. */
static unsigned int first_lost_mark(const struct marked_regs *r)
{
	unsigned int i;

	for (i = 0; i < NR_MARKED; i++) {
		unsigned int n = 19 + i, hi = n / 10, lo = n % 10;

		if (r->x[i] != (hi << 12 | lo << 8 | hi << 4 | lo))
			break;
	}
	return i;
}

/* The EL1 state the kernel set and a power-down loses. */
#define NR_SYSREGS 16
static const char *const sysreg_names[NR_SYSREGS] = {
	"SP_EL0",     "TPIDR_EL1",   "VBAR_EL1",    "TCR_EL1",
	"SCTLR_EL1",  "MAIR_EL1",    "TTBR1_EL1",   "CPACR_EL1",
	"MDSCR_EL1",  "CNTKCTL_EL1", "CNTV_CVAL",   "CNTV_CTL",
	"CONTEXTIDR", "TPIDR_EL0",   "TPIDRRO_EL0", "DAIF",
};

static void read_sysregs(u64 *v)
{
	v[0] = read_sysreg(sp_el0);
	v[1] = read_sysreg(tpidr_el1);
	v[2] = read_sysreg(vbar_el1);
	v[3] = read_sysreg(tcr_el1);
	v[4] = read_sysreg(sctlr_el1);
	v[5] = read_sysreg(mair_el1);
	v[6] = read_sysreg(ttbr1_el1);
	v[7] = read_sysreg(cpacr_el1);
	v[8] = read_sysreg(mdscr_el1);
	v[9] = read_sysreg(cntkctl_el1);
	v[10] = read_sysreg(cntv_cval_el0);
	v[11] = read_sysreg(cntv_ctl_el0) & ~4UL; /* ISTATUS: time moves */
	v[12] = read_sysreg(contextidr_el1);
	v[13] = read_sysreg(tpidr_el0);
	v[14] = read_sysreg(tpidrro_el0);
	v[15] = read_sysreg(daif);
}

/* The firmware this suite's power states are written for. */
/*
 * The injection fires on any power-down request that got SUCCESS, the
 * idle loop's too (drivers/cpuidle/): while a case counts its own, the
 * other CPUs idle in WFI.
 */
static void idle_in_wfi(bool wfi)
{
	cpuidle_force_state(wfi ? 0 : -1);
}

static bool qemu_cpu_suspend(struct kunit *test)
{
	if (!psci_has_cpu_suspend()) {
		kunit_skip(test, "the firmware has no CPU_SUSPEND");
		return false;
	}
	if (psci_firmware_name()) {
		kunit_skip(test, "the power states are QEMU's, not %s's",
			   psci_firmware_name());
		return false;
	}
	return true;
}

/*
 * The standby (0x1) and a level-1 state: QEMU's PSCI takes the one and
 * refuses the other, and so does TF-A's qemu platform (its table holds
 * 0x1, 0x10002 and 0x1010022; it powers nothing down, so the power-down
 * cases stay QEMU's). Other firmware's tables are its own.
 */
static bool standby_cpu_suspend(struct kunit *test)
{
	const char *fw = psci_firmware_name();

	if (!psci_has_cpu_suspend()) {
		kunit_skip(test, "the firmware has no CPU_SUSPEND");
		return false;
	}
	if (fw && strcmp(fw, "Trusted Firmware-A")) {
		kunit_skip(test,
			   "the power states are QEMU's and TF-A's, not %s's",
			   fw);
		return false;
	}
	return true;
}

/* One bound thread's work: `cycles` suspends of `state` on `cpu`. */
struct suspend_job {
	struct kunit *test;
	unsigned int cpu;
	u32 state;
	unsigned int cycles;
	int expect; /* what cpu_suspend() must return */
	struct completion done;
	struct timer_list timer;
	volatile int timer_cpu; /* where it fired; -1 before */
};

static void job_timer_fn(struct timer_list *t)
{
	struct suspend_job *j = container_of(t, struct suspend_job, timer);

	j->timer_cpu = (int)raw_smp_processor_id();
}

/*
 * One suspend, IRQs masked, with a reschedule IPI pending; false (and
 * the case failed) if anything came back different.
 */
static bool suspend_once(struct suspend_job *j, unsigned int i)
{
	struct kunit *test = j->test;
	u64 before[NR_SYSREGS], after[NR_SYSREGS];
	struct marked_regs r;
	unsigned int cpu_after;
	struct task_struct *me = current, *cur_after;
	unsigned long off_after;
	unsigned int lost;
	int ret;
	bool ok = true;

	local_irq_disable();
	read_sysregs(before);
	smp_send_reschedule(j->cpu);
	ret = suspend_marked(j->state, &r);
	read_sysregs(after);
	cpu_after = smp_processor_id();
	cur_after = current;
	off_after = __my_cpu_offset();
	/* Reported with IRQs still masked: with VBAR lost the first IRQ
	 * would never return. */
	if (ret != j->expect) {
		kunit_fail(test, __FILE__, __LINE__,
			   "CPU%u cycle %u: cpu_suspend(%#x) returned %d, "
			   "expected %d",
			   j->cpu, i, j->state, ret, j->expect);
		local_irq_enable();
		return false;
	}
	for (unsigned int k = 0; k < NR_SYSREGS; k++)
		if (before[k] != after[k]) {
			kunit_fail(test, __FILE__, __LINE__,
				   "CPU%u cycle %u: %s %#llx, was %#llx",
				   j->cpu, i, sysreg_names[k],
				   (unsigned long long)after[k],
				   (unsigned long long)before[k]);
			ok = false;
		}
	lost = first_lost_mark(&r);
	if (lost < NR_MARKED) {
		kunit_fail(test, __FILE__, __LINE__,
			   "CPU%u cycle %u: x%u %#llx, was its mark", j->cpu, i,
			   19 + lost, (unsigned long long)r.x[lost]);
		ok = false;
	}
	ok &= KUNIT_EXPECT_EQ(test, r.sp_after, r.sp_before);
	ok &= KUNIT_EXPECT_EQ(test, cpu_after, j->cpu);
	ok &= KUNIT_EXPECT_TRUE(test, cur_after == me);
	ok &= KUNIT_EXPECT_EQ(test, off_after, __per_cpu_offset[j->cpu]);
	ok &= KUNIT_EXPECT_EQ(test, read_sysreg(vbar_el1), (u64)vectors);
	local_irq_enable();
	return ok;
}

/*
 * The bound thread: a timer armed on this CPU first, the suspends, then
 * the tick must still count here and the timer fire here.
 */
static int suspend_thread(void *p)
{
	struct suspend_job *j = p;
	struct kunit *test = j->test;
	u64 ticks;

	j->timer_cpu = -1;
	timer_setup(&j->timer, job_timer_fn);
	mod_timer(&j->timer, jiffies + 2);
	for (unsigned int i = 0; i < j->cycles; i++)
		if (!suspend_once(j, i))
			break;
	ticks = tick_count_cpu(j->cpu);
	if (!wait_for(tick_count_cpu(j->cpu) >= ticks + TICKS_AFTER, WAIT_US))
		kunit_fail(test, __FILE__, __LINE__,
			   "CPU%u: its tick stopped after the suspends (%llu "
			   "-> %llu)",
			   j->cpu, (unsigned long long)ticks,
			   (unsigned long long)tick_count_cpu(j->cpu));
	if (!wait_for(j->timer_cpu >= 0, WAIT_US))
		kunit_fail(test, __FILE__, __LINE__,
			   "CPU%u: the timer armed before the suspends never "
			   "fired",
			   j->cpu);
	else
		KUNIT_EXPECT_EQ(test, j->timer_cpu, j->cpu);
	del_timer_sync(&j->timer);
	complete(&j->done);
	return 0;
}

static void record_cpu(void *p)
{
	*(volatile int *)p = (int)raw_smp_processor_id();
}

/* Run the job on each online CPU in turn; then an IPI must reach it. */
static void suspend_each_cpu(struct kunit *test, u32 state, unsigned int cycles,
			     int expect)
{
	unsigned int threads = nr_threads(), cpu;
	struct suspend_job *j = kunit_kcalloc(test, 1, sizeof(*j));

	KUNIT_ASSERT_NOT_NULL(test, j);
	for_each_online_cpu (cpu) {
		struct task_struct *t;
		volatile int where = -1;

		j->test = test;
		j->cpu = cpu;
		j->state = state;
		j->cycles = cycles;
		j->expect = expect;
		init_completion(&j->done);
		t = kthread_create(suspend_thread, j, "suspend/%u", cpu);
		KUNIT_ASSERT_NOT_NULL(test, t);
		kthread_bind(t, cpu);
		wake_up_process(t);
		wait_for_completion(&j->done);
		KUNIT_EXPECT_EQ(test,
				smp_call_function_single(cpu, record_cpu,
							 (void *)&where, true),
				0);
		KUNIT_EXPECT_EQ(test, where, cpu);
		if (test->failed)
			break;
	}
	KUNIT_EXPECT_TRUE(test, wait_threads_reaped(threads));
}

/* Is the state's type read as the firmware's format says? */
static void suspend_power_state_type(struct kunit *test)
{
	if (!standby_cpu_suspend(test))
		return;
	KUNIT_EXPECT_TRUE(test, psci_power_state_is_powerdown(STATE_POWERDOWN));
	KUNIT_EXPECT_FALSE(test, psci_power_state_is_powerdown(STATE_STANDBY));
	KUNIT_EXPECT_FALSE(test, psci_power_state_is_powerdown(STATE_LEVEL1));
}

/*
 * Does a power-down request that QEMU answers with a WFI come back as
 * CPU_SUSPEND_NO_POWERDOWN on every CPU, with nothing lost?
 */
static void suspend_powerdown_not_taken(struct kunit *test)
{
	if (!qemu_cpu_suspend(test))
		return;
	suspend_each_cpu(test, STATE_POWERDOWN, 3, CPU_SUSPEND_NO_POWERDOWN);
}

/* Does a standby return SUCCESS directly, even with the injection armed
 * (it is no power-down)? */
static void suspend_standby_returns(struct kunit *test)
{
	unsigned long flags;
	int ret;

	if (!standby_cpu_suspend(test))
		return;
	idle_in_wfi(true);
	fault_inject("cpu_suspend", "lose_context:1");
	preempt_disable();
	local_irq_save(flags);
	smp_send_reschedule(smp_processor_id());
	ret = psci_cpu_suspend(STATE_STANDBY, 0, 0);
	local_irq_restore(flags);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, ret, PSCI_RET_SUCCESS);
	KUNIT_EXPECT_EQ(test, fault_times("cpu_suspend"), 1);
	fault_clear("cpu_suspend");
	idle_in_wfi(false);
}

/*
 * Does a state the firmware refuses (power level 1) give its error back through
 * cpu_suspend(), with nothing lost, the injection armed but not used?
 */
static void suspend_invalid_state_refused(struct kunit *test)
{
	if (!standby_cpu_suspend(test))
		return;
	idle_in_wfi(true);
	fault_inject("cpu_suspend", "lose_context");
	suspend_each_cpu(test, STATE_LEVEL1, 1, PSCI_RET_INVALID_PARAMS);
	KUNIT_EXPECT_EQ(test, fault_times("cpu_suspend"), FAULT_FOREVER);
	fault_clear("cpu_suspend");
	idle_in_wfi(false);
}

/*
 * With the context lost (the injection), does each CPU come back
 * through cpu_resume with all it had: registers, per-CPU offset,
 * current, vectors, IRQs, its tick, its timer, IPIs?
 */
static void suspend_lose_context_resumes(struct kunit *test)
{
	if (!qemu_cpu_suspend(test))
		return;
	idle_in_wfi(true);
	fault_inject("cpu_suspend", "lose_context");
	suspend_each_cpu(test, STATE_POWERDOWN, 1, 0);
	fault_clear("cpu_suspend");
	idle_in_wfi(false);
}

/* The same, LOSE_CYCLES times on each CPU: nothing drifts or leaks (sp
 * and every register compared on each cycle); the injection fires on
 * each one. */
static void suspend_lose_context_cycles(struct kunit *test)
{
	char val[32];
	unsigned int n = num_online_cpus() * LOSE_CYCLES;

	if (!qemu_cpu_suspend(test))
		return;
	snprintf(val, sizeof(val), "lose_context:%u", n + 1);
	idle_in_wfi(true);
	fault_inject("cpu_suspend", val);
	suspend_each_cpu(test, STATE_POWERDOWN, LOSE_CYCLES, 0);
	KUNIT_EXPECT_EQ(test, fault_times("cpu_suspend"), 1);
	fault_clear("cpu_suspend");
	idle_in_wfi(false);
	kunit_info(test, "%u power-down cycles on %u CPUs", n,
		   num_online_cpus());
}

static const struct kunit_case suspend_cases[] = {
	KUNIT_CASE(suspend_power_state_type),
	KUNIT_CASE(suspend_powerdown_not_taken),
	KUNIT_CASE(suspend_standby_returns),
	KUNIT_CASE(suspend_invalid_state_refused),
	KUNIT_CASE(suspend_lose_context_resumes),
	KUNIT_CASE(suspend_lose_context_cycles),
	{},
};

static struct kunit_suite suspend_suite = {
	.name = "suspend",
	.cases = suspend_cases,
};
kunit_test_suite(suspend_suite);
