/*
 * Starting a secondary CPU: the boot side (__cpu_up) and the secondary's
 * first C code (secondary_start_kernel).
 *
 * The start-slot handshake. The boot side fills secondary_data (the new
 * CPU's number, MPIDR, idle thread and stack), publishes it with a
 * release store of its address into secondary_slot, and starts the CPU.
 * The CPU (head.S, MMU on) claims the slot by emptying it with a
 * load/store-exclusive pair, and only if the slot names its own MPIDR;
 * otherwise, or if the slot is empty, it parks without touching the
 * data. On timeout __cpu_up() takes the slot back with an exchange:
 *   - it got the slot back: the CPU never claimed it and never will, so
 *     rolling back (freeing the idle stack) is safe; if it arrives, it
 *     parks, also during a later bring-up of another CPU (not its MPIDR);
 *   - the slot was empty: the CPU claimed it and runs on the idle stack,
 *     so __cpu_up() waits for it instead of rolling back.
 * Exactly one side empties the slot, so exactly one CPU completes each
 * attempt's cpu_running: the one that claimed it, while its attempt
 * still waits. Bring-ups are serialised by cpu_add_remove_lock, so one
 * secondary_data serves all. tools/model/late_arrival.pml checks this,
 * and cpu_on_retry.pml a retry whose CPU_ON fails.
 *
 * The borrowed stack. A straggler (a CPU that did not claim the slot)
 * has no stack of its own, yet needs one to say so and to leave through
 * C (CPU_OFF, or the kernel's pen). head.S has one late_stack for all,
 * claimed through late_stack_owner. Who knows that its holder is off
 * it? Not the holder, which cannot write after CPU_OFF; the firmware
 * does (AFFINITY_INFO OFF), and so does the pen (the CPU has parked, and
 * pen.S touches no stack). So:
 *   - the kernel frees the stack, never the holder, and only once the
 *     enable method says the holder runs no code (cpu_is_off), or once
 *     cpu_boot() started the holder again (late_stack_put(): it was off;
 *     until this attempt gives up, its slot waits for it, so it cannot
 *     have taken the stack again meanwhile);
 *   - a second straggler waits for the stack in head.S and claims it
 *     when it is freed: it never parks for good;
 *   - something must keep freeing it while stragglers may come:
 *     late_watch, a timer armed when __cpu_up() gives up on a CPU, runs
 *     until each such CPU is seen off (arrived and left) and the stack
 *     is free, or for a bound (then says so); each __cpu_up() reaps too;
 *   - each claim takes a new generation of the owner word, so a release
 *     decided for one holding (its holder seen off) fails on a later
 *     holding by the same CPU;
 *   - a success of cpu_boot() says nothing of where a CPU is on spin
 *     tables, so spin-table answers -EBUSY for a CPU it released before
 *     that is not in the pen, as PSCI answers ALREADY_ON or ON_PENDING
 *     for a CPU that is on: a straggler. __cpu_up() then waits, up to
 *     the timeout and reaping, until it takes this attempt's slot (not
 *     yet at its claim: it comes up) or is off (past it: started once
 *     more). Neither in time: the up fails (-EBUSY) and says why.
 * tools/model/late_arrival.pml checks two stragglers on one stack, on
 * PSCI and on spin tables, and the old code as a mutant.
 */
#define pr_fmt(fmt) "smp: " fmt
#include <asm/barrier.h>
#include <asm/cputype.h>
#include <asm/entry.h>
#include <asm/memory.h>
#include <asm/smp.h>
#include <asm/sysreg.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuhp.h>
#include <kernel/cpu_ops.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include <lib/printf.h>

/*
 * How long a CPU may take to come up or to report going down. Generous:
 * under emulation on a loaded host a CPU can take seconds. Shorter for
 * the fault sweep, whose injected delays straddle it (and whose checks
 * hold on either side of it).
 */
static unsigned long cpu_timeout_ms = 5000;
param_ulong("hotplug.timeout_ms", cpu_timeout_ms, 50, 600000,
	    "MS: how long a CPU may take to come up or to report going down "
	    "(default 5000)");

unsigned long cpuhp_set_timeout_ms(unsigned long ms)
{
	unsigned long old = cpu_timeout_ms;

	WRITE_ONCE(cpu_timeout_ms, ms);
	return old;
}
/* A CPU usually starts or stops within a millisecond: wait polling. */
#define CPU_HANDOFF_SPIN_US 2000

struct secondary_data {
	struct task_struct *task;
	u64 stack;
	unsigned long cpu;
	u64 mpidr; /* only the CPU with this MPIDR may claim the slot */
	u64 entry_ticks; /* the counter at its entry, written by the claimer */
};
BUILD_BUG_ON(offsetof(struct secondary_data, mpidr) != SECONDARY_DATA_MPIDR);
BUILD_BUG_ON(offsetof(struct secondary_data, entry_ticks) !=
	     SECONDARY_DATA_ENTRY_TICKS);
BUILD_BUG_ON(MPIDR_HWID_MASK != SECONDARY_MPIDR_MASK);

struct secondary_data secondary_data;
/* &secondary_data while a bring-up waits and its CPU has not claimed it. */
struct secondary_data *secondary_slot;
static struct completion cpu_running;

/*
 * Take the start slot back; pairs with the claim in head.S. True if we
 * got it: no CPU claimed it, and none will. False if the CPU claimed it:
 * it runs on the idle stack.
 */
static bool slot_take_back(void)
{
	return __atomic_exchange_n(&secondary_slot, NULL, __ATOMIC_SEQ_CST);
}

/*
 * The CPU claimed the slot but has not finished: it runs on the idle
 * stack, which must not be freed. Wait as long as it takes.
 */
static void wait_for_claimed(unsigned int cpu, const char *why)
{
	pr_crit("CPU%u: %s but it claimed its start slot: waiting for it\n",
		cpu, why);
	while (!wait_for_completion_timeout(&cpu_running,
					    msecs_to_jiffies(cpu_timeout_ms)))
		pr_crit("CPU%u: still waiting for it to come online\n", cpu);
	pr_warn("CPU%u: came online late\n", cpu);
}

/* Is cpu known to run no code (off, or in the pen)? <0: cannot tell. */
static int cpu_known_off(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	return ops && ops->cpu_is_off ? ops->cpu_is_off(cpu) : -EOPNOTSUPP;
}

#define LATE_STACK_BUSY (1UL << LATE_STACK_BUSY_BIT)

/* Free the stack if this holding (owner, as read) is still the one. */
static bool late_stack_release(u64 owner)
{
	/* Pairs with the ldaxr of a straggler waiting in head.S. */
	if (!__atomic_compare_exchange_n(&late_stack_owner, &owner,
					 owner & LATE_STACK_GEN_MASK, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return false;
	sev(); /* the waiters' WFE */
	return true;
}

/*
 * cpu_boot() just started cpu: it was off (or in the pen), so a holding
 * of its own is one it left behind. Until this attempt gives up, its slot
 * waits for it, so it cannot have taken the stack again since.
 */
static void late_stack_put(unsigned int cpu)
{
	u64 owner = smp_load_acquire(&late_stack_owner);

	if ((owner & LATE_STACK_BUSY) &&
	    (owner & MPIDR_HWID_MASK) == cpu_logical_map(cpu))
		late_stack_release(owner);
}

/*
 * Free the borrowed stack if its holder is known off (the design note
 * above). True if it stays busy. Any context, interrupts too.
 */
static bool late_stack_reap(void)
{
	static u64 warned; /* the holding we said cannot be freed */
	/* Pairs with the stlxr of the claim: pen.S's stores come before. */
	u64 owner = smp_load_acquire(&late_stack_owner);
	int cpu, off;

	if (!(owner & LATE_STACK_BUSY))
		return false;
	cpu = get_logical_index(owner & MPIDR_HWID_MASK);
	off = cpu >= 0 ? cpu_known_off(cpu) : -ENODEV;
	if (off > 0)
		return !late_stack_release(owner) &&
		       (READ_ONCE(late_stack_owner) & LATE_STACK_BUSY);
	if (off < 0 && READ_ONCE(warned) != owner) {
		WRITE_ONCE(warned, owner);
		pr_crit("CPU%d holds the borrowed stack and cannot be "
			"confirmed off (%d): later stragglers wait for it\n",
			cpu, off);
	}
	return true;
}

/*
 * late_watch: CPUs given up on (a straggler may come), since when, and
 * the timer that reaps while any is not seen off or the stack is busy.
 */
#define LATE_WATCH_PERIOD_MS 20
static DEFINE_SPINLOCK(late_lock);
static DEFINE_CPU_ARRAY(u64, late_since); /* jiffies + 1; 0: not watched */
static unsigned int late_nr;
static struct timer_list late_watch;

/* How long to watch for a straggler: it may be late by many timeouts. */
static u64 late_watch_limit(void)
{
	return msecs_to_jiffies(20 * READ_ONCE(cpu_timeout_ms) + 10000);
}

static void late_watch_fn(struct timer_list *t)
{
	bool busy = late_stack_reap();
	unsigned long flags;

	spin_lock_irqsave(&late_lock, flags);
	for (unsigned int cpu = 0; late_nr && cpu < nr_cpu_ids; cpu++) {
		if (!late_since[cpu])
			continue;
		if (cpu_known_off(cpu) > 0) {
			late_since[cpu] = 0;
			late_nr--;
		} else if (jiffies - (late_since[cpu] - 1) >
			   late_watch_limit()) {
			pr_crit("CPU%u: given up on and not seen off since: no "
				"longer watched; the next bring-up frees the "
				"borrowed stack\n",
				cpu);
			late_since[cpu] = 0;
			late_nr--;
		}
	}
	if (!late_nr && !busy)
		del_timer(t);
	spin_unlock_irqrestore(&late_lock, flags);
}

/* Watch cpu (a straggler may come) or stop watching it (it is up). */
static void late_watch_cpu(unsigned int cpu, bool watch)
{
	unsigned long flags;

	spin_lock_irqsave(&late_lock, flags);
	if (watch && !late_since[cpu])
		late_nr++;
	else if (!watch && late_since[cpu])
		late_nr--;
	late_since[cpu] = watch ? jiffies + 1 : 0;
	if (!late_watch.function)
		timer_setup(&late_watch, late_watch_fn);
	if (watch && !timer_pending(&late_watch))
		mod_timer_periodic(&late_watch,
				   msecs_to_jiffies(LATE_WATCH_PERIOD_MS));
	spin_unlock_irqrestore(&late_lock, flags);
}

/*
 * cpu_boot() found cpu still on (-EBUSY): a straggler of an earlier
 * attempt. This attempt's slot names it: before its claim it takes the
 * slot and comes up; past it, it leaves (reaping frees the stack it may
 * wait for). Wait for either, up to the timeout: 1 if it took the slot,
 * 0 if it is off, -EBUSY (said) if neither.
 */
static int wait_for_straggler(unsigned int cpu)
{
	u64 end = ktime_get_ns() + READ_ONCE(cpu_timeout_ms) * 1000000ULL;
	u64 owner;
	int off;

	pr_warn("CPU%u: still on from a late arrival: waiting for it\n", cpu);
	for (;;) {
		if (completion_done(&cpu_running))
			return 1;
		late_stack_reap();
		off = cpu_known_off(cpu);
		if (off > 0)
			return 0;
		if (off < 0 || ktime_get_ns() > end)
			break;
		msleep(1);
	}
	owner = READ_ONCE(late_stack_owner);
	if (owner & LATE_STACK_BUSY)
		pr_crit("CPU%u: still on after %lu ms; the borrowed stack is "
			"held by MPIDR 0x%llx\n",
			cpu, cpu_timeout_ms,
			(unsigned long long)(owner & MPIDR_HWID_MASK));
	else
		pr_crit("CPU%u: still on after %lu ms (%d); the borrowed stack "
			"is free\n",
			cpu, cpu_timeout_ms, off);
	return -EBUSY;
}

/* The bring-up step: start cpu and wait until it has run its own steps. */
int __cpu_up(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);
	struct task_struct *idle = idle_thread_get(cpu);
	char why[48];
	int err, waited;

	if (!ops || !ops->cpu_boot) {
		pr_err("CPU%u: no way to start it (enable-method %s)\n", cpu,
		       enable_method_name(board.cpus[cpu].method));
		return -ENODEV;
	}
	for (bool again = false;; again = true) {
		secondary_data.task = idle;
		secondary_data.stack = (u64)idle->stack + THREAD_SIZE;
		secondary_data.cpu = cpu;
		secondary_data.mpidr = cpu_logical_map(cpu);
		secondary_data.entry_ticks = 0;
		fw_share_up_begin(cpu);
		init_completion(&cpu_running);
		late_stack_reap(); /* the one late stack: free it if it may */
		/* Its area and secondary_data first; pairs with head.S ldaxr */
		smp_store_release(&secondary_slot, &secondary_data);
		err = ops->cpu_boot(cpu,
				    smp_fault_lost(cpu)
					    ? __pa_symbol(secondary_lost)
					    : __pa_symbol(secondary_entry));
		if (!err) {
			late_stack_put(cpu);
			break;
		}
		/*
		 * A CPU still on from an earlier attempt that gave up on it
		 * (-EBUSY: ALREADY_ON, ON_PENDING, not in the pen) may take
		 * this attempt's slot, now or while we wait for it: it runs
		 * on this attempt's stack and area, so they stay, and the up
		 * succeeds. Its entry stamp is the earlier attempt's: no
		 * firmware figure.
		 */
		waited = err == -EBUSY && !again ? wait_for_straggler(cpu) : 0;
		if (!slot_take_back()) {
			snprintf(why, sizeof(why), "its start failed (%d)",
				 err);
			wait_for_claimed(cpu, why);
			late_watch_cpu(cpu, false);
			return 0;
		}
		/* Not taken: off now (start it once more), or a failure. */
		if (err != -EBUSY || again)
			return err;
		if (waited)
			return waited;
	}
	if (wait_for_completion_spin_timeout(
		    &cpu_running, CPU_HANDOFF_SPIN_US,
		    msecs_to_jiffies(cpu_timeout_ms))) {
		fw_share_up_done(cpu, secondary_data.entry_ticks);
		late_watch_cpu(cpu, false);
		return 0;
	}
	if (!slot_take_back()) {
		snprintf(why, sizeof(why), "not online within %lu ms",
			 cpu_timeout_ms);
		wait_for_claimed(cpu, why);
		fw_share_up_done(cpu, secondary_data.entry_ticks);
		late_watch_cpu(cpu, false);
		return 0;
	}
	pr_crit("CPU%u (MPIDR 0x%llx): failed to come online within %lu ms; "
		"if it arrives, it parks\n",
		cpu, (unsigned long long)cpu_logical_map(cpu), cpu_timeout_ms);
	if (ops->cpu_report_missing)
		ops->cpu_report_missing(cpu);
	late_watch_cpu(cpu, true);
	return -EIO;
}

/* A thread for a CPU that arrives after __cpu_up() gave up on it. */
struct task_struct late_task = {.comm = "late"};

/*
 * From head.S, on late_stack, for a CPU that did not claim the slot
 * (why: SECONDARY_LATE_*). It has no per-CPU area and no idle thread: it
 * must not join. Say so, and power it off again (or park it in the pen)
 * so a later cpu_up() can start it cleanly; the kernel frees the stack
 * once it sees it off (late_stack_reap()).
 */
void secondary_too_late(unsigned long why)
{
	u64 mpidr = read_cpuid_mpidr() & MPIDR_HWID_MASK;
	int cpu = get_logical_index(mpidr);
	const struct cpu_operations *ops = cpu >= 0 ? get_cpu_ops(cpu) : NULL;

	if (why == SECONDARY_LATE_NOT_MINE)
		pr_crit("CPU%d (MPIDR 0x%llx): arrived during the bring-up of "
			"MPIDR 0x%llx, not its own: parked\n",
			cpu, (unsigned long long)mpidr,
			(unsigned long long)READ_ONCE(secondary_data.mpidr));
	else
		pr_crit("CPU%d (MPIDR 0x%llx): arrived after its bring-up "
			"gave up: parked\n",
			cpu, (unsigned long long)mpidr);
	if (ops && ops->cpu_die)
		ops->cpu_die(cpu);
}

/* The first C code of a secondary CPU: MMU on, on its idle thread. */
void secondary_start_kernel(void)
{
	unsigned int cpu = secondary_data.cpu;
	u64 mpidr = read_cpuid_mpidr() & MPIDR_HWID_MASK;

	set_my_cpu_offset(__per_cpu_offset[cpu]);
	trap_init();
	sched_init_cpu(cpu);
	cpuhp_ap_startup(cpu);
	pr_info("CPU%u: online, MPIDR 0x%llx\n", cpu,
		(unsigned long long)mpidr);
	complete(&cpu_running);
	local_irq_enable();
	cpu_startup_entry();
}

/*
 * Taking a CPU down: the request handshake. The writer (__cpu_teardown())
 * sets should_die and kicks the CPU; the CPU, in its idle loop, claims
 * the request by exchanging should_die back to false, and only then runs
 * its own down steps and reports on its own completion. On timeout the
 * writer withdraws the request with the same exchange:
 *   - it got true back: the CPU never claimed it and never will (it finds
 *     false): it stays as it is, online for RCU and interrupts, and the
 *     down is undone;
 *   - it got false: the CPU claimed it and is on its way out: the writer
 *     waits for its report, however long that takes.
 * Exactly one side clears the flag, so a CPU leaves only while its down
 * waits for it, and no report outlives its down. Each CPU has its own
 * completion: a late report can never wake another CPU's down, nor meet
 * an init_completion() of the next one. tools/model/die_straggler.pml
 * checks this.
 */
static DEFINE_CPU_ARRAY(bool, should_die);
static DEFINE_CPU_ARRAY(struct completion, cpu_died);
/*
 * Set by a dying CPU after its own down steps, before its report: from
 * then on it touches none of the kernel's lists (RCU callbacks, timers),
 * only its report, its stack and per-CPU area on the way into the
 * firmware. Cleared by each __cpu_teardown().
 */
static DEFINE_CPU_ARRAY(bool, teardown_reached);

bool arch_cpu_left_kernel(unsigned int cpu)
{
	/* Pairs with the smp_store_release() in arch_cpu_idle_dead(). */
	return cpu < nr_cpu_ids && smp_load_acquire(&teardown_reached[cpu]);
}

bool cpu_should_die(void)
{
	return smp_load_acquire(&should_die[smp_processor_id()]);
}

/*
 * On the dying CPU, from its idle loop: claim the down request, run its
 * own down steps (timer and GIC interface off, RCU leaves last), report,
 * and power off. Returns only if the request was withdrawn.
 */
void arch_cpu_idle_dead(void)
{
	unsigned int cpu = smp_processor_id();
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	local_irq_disable();
	smp_fault_die_delay(cpu, false);
	/* Claim; pairs with the withdrawal in __cpu_teardown(). */
	if (!__atomic_exchange_n(&should_die[cpu], false, __ATOMIC_ACQ_REL)) {
		local_irq_enable();
		pr_warn("CPU%u: its down was withdrawn before it left: it "
			"stays\n",
			cpu);
		return;
	}
	smp_fault_die_delay(cpu, true);
	cpuhp_ap_teardown(cpu);
	/* Its lists are left for good; pairs with arch_cpu_left_kernel(). */
	smp_store_release(&teardown_reached[cpu], true);
	/*
	 * RCU no longer watches this CPU, and the wake-up in complete()
	 * reads other CPUs' run queues: their per-CPU areas. Safe: only a
	 * down frees an area, and the one down in progress (the hotplug
	 * lock) is the one waiting here for this report.
	 */
	complete(&cpu_died[cpu]);
	ops->cpu_die(cpu);
	/* Only if the firmware refused: stay here, interrupts off. */
	pr_crit("CPU%u: could not power off; parked with interrupts off\n",
		cpu);
	for (;;)
		wfi();
}

/*
 * Going down, on a surviving CPU: ask cpu to leave and wait for its
 * report (the request handshake above). -ETIMEDOUT if it did not take
 * the request in time: withdrawn, it is still there, and the down is
 * undone. Once it has taken it, no timeout: it is on its way out.
 */
int __cpu_teardown(unsigned int cpu)
{
	u64 timeout = msecs_to_jiffies(cpu_timeout_ms);

	init_completion(&cpu_died[cpu]); /* no report is due: see above */
	WRITE_ONCE(teardown_reached[cpu], false);
	fw_share_down_begin(cpu); /* before should_die's release: see there */
	smp_store_release(&should_die[cpu], true);
	smp_send_reschedule(cpu); /* out of WFI, into the idle loop's check */
	if (wait_for_completion_spin_timeout(&cpu_died[cpu],
					     CPU_HANDOFF_SPIN_US, timeout))
		return 0;
	/* Withdraw; pairs with the claim in arch_cpu_idle_dead(). */
	if (__atomic_exchange_n(&should_die[cpu], false, __ATOMIC_ACQ_REL)) {
		pr_crit("CPU%u: did not take its down request within %lu ms: "
			"withdrawn, it stays\n",
			cpu, cpu_timeout_ms);
		sched_report_stuck(cpu);
		return -ETIMEDOUT;
	}
	pr_crit("CPU%u: took its down request but did not report within %lu "
		"ms: waiting for it\n",
		cpu, cpu_timeout_ms);
	while (!wait_for_completion_timeout(&cpu_died[cpu], timeout))
		pr_crit("CPU%u: still waiting for it to leave\n", cpu);
	pr_warn("CPU%u: left late\n", cpu);
	return 0;
}

/*
 * The bring-up step, going down: the CPU has left the kernel; wait for
 * the firmware to confirm it off. Only then may its stacks and per-CPU
 * area be freed.
 */
int __cpu_die(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);
	int err = ops->cpu_kill ? ops->cpu_kill(cpu) : 0;

	if (err)
		pr_crit("CPU%u: not confirmed off (%d): keeping its stack and "
			"per-CPU area\n",
			cpu, err);
	else
		fw_share_down_done(cpu);
	return err;
}
