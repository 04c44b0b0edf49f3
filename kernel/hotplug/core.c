/*
 * CPU hotplug: one ordered table of steps, each with an up and a down
 * callback, as Linux's cpuhp states. A CPU comes up by running the steps
 * in order and goes down by running them in reverse; a failing up step
 * rolls back the steps already done.
 *
 * Going down, the table reads like the design in four lines:
 *
 *	cpu:online      clear the online bit: new readers no longer see it
 *	kthreads, sched park its threads, clear its active bit
 *	rcu:sync        synchronize_rcu(): readers that saw the bit finished
 *	sched:drain     move its threads off: no waker still targets it
 *	arch:power    the CPU leaves RCU, masks its timer, turns its GIC
 *	                interface off and calls psci_cpu_off(); this CPU
 *	                polls AFFINITY_INFO until it is really off
 *	..., percpu     then its callbacks, timers, idle stack, kmalloc
 *	                caches and per-CPU area are moved or freed
 *
 * If the firmware never confirms the CPU off, the down stops there, but
 * once the CPU has provably left the kernel (arch_cpu_left_kernel()) the
 * steps marked once_left still run: sleepers wait on its callbacks and
 * timers. Its stack and per-CPU area wait for the confirmation.
 *
 * Steps after arch:power run with the CPU alive; if one fails coming
 * up, the CPU is taken down for real (down steps, CPU_OFF, AFFINITY_INFO)
 * before anything of it is freed.
 *
 * Writers are serialised by cpu_add_remove_lock; readers of the online mask
 * take no lock at all (include/kernel/cpu.h). For the benchmark, readers
 * may instead use one of the 2013 thread's other designs, whose writer
 * side cpu_down()/cpu_up() honour (include/kernel/hotplug_sync.h).
 */
#define pr_fmt(fmt) "hotplug: " fmt
#include <kernel/cpu.h>
#include <kernel/governor.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuhp.h>
#include <kernel/current.h>
#include <kernel/cpu_ops.h>
#include <kernel/fault.h>
#include <kernel/hotplug_sync.h>
#include <kernel/irq.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/trace.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/stats.h>
#include <string.h>

struct cpuhp_step {
	const char *name;
	int (*startup)(unsigned int cpu);
	int (*teardown)(unsigned int cpu);
	bool on_cpu; /* runs on the CPU itself, interrupts off */
	/* Down step safe once the CPU left the kernel, confirmed off or not. */
	bool once_left;
};

/* Steps a surviving CPU runs around the ones on the CPU itself. */
static int percpu_up(unsigned int cpu)
{
	return percpu_area_alloc(cpu);
}

static int percpu_down(unsigned int cpu)
{
	percpu_area_free(cpu); /* a grace period passed since the bit cleared */
	return 0;
}

static int timers_down(unsigned int cpu)
{
	timers_migrate_from(cpu);
	return 0;
}

static int rcu_callbacks_down(unsigned int cpu)
{
	rcutree_migrate_callbacks(cpu);
	return 0;
}

static int rcu_thread_up(unsigned int cpu)
{
	return rcu_spawn_cpu_thread(cpu);
}

static char hotplug_gp[12];
param_string("hotplug.gp", hotplug_gp,
	     "expedited|normal: the grace period cpu_down() waits for "
	     "(default expedited)");
static bool expedite_hotplug = true;

static int rcu_sync_down(unsigned int cpu)
{
	hotplug_sync_wait_readers(expedite_hotplug);
	return 0;
}

/* As the reader design in force wants it (kernel/hotplug/sync.c). */
static int online_up(unsigned int cpu)
{
	return hotplug_sync_set_online(cpu, true);
}

static int online_down(unsigned int cpu)
{
	return hotplug_sync_set_online(cpu, false);
}

/* Steps the CPU itself runs, interrupts off. */
static int irqchip_starting(unsigned int cpu)
{
	if (irqchip)
		irqchip->cpu_init(); /* its SGIs, so IPIs, enabled */
	return 0;
}

static int irqchip_dying(unsigned int cpu)
{
	irq_migrate_all_off_this_cpu();
	if (irqchip)
		irqchip->cpu_off();
	smpcfd_dying_cpu(); /* calls whose IPI it will not take now */
	return 0;
}

static int tick_starting(unsigned int cpu)
{
	tick_cpu_start();
	return 0;
}

static int tick_dying(unsigned int cpu)
{
	tick_cpu_stop();
	return 0;
}

static int rcu_starting(unsigned int cpu)
{
	rcu_cpu_starting(cpu);
	return 0;
}

static int rcu_dying(unsigned int cpu)
{
	rcu_report_dead(cpu);
	return 0;
}

enum cpuhp_state {
	CPUHP_PERCPU,
	CPUHP_KMALLOC,
	CPUHP_IDLE,
	CPUHP_RCU_THREAD,
	CPUHP_TIMERS,
	CPUHP_RCU_CALLBACKS,
	CPUHP_BRINGUP,
	CPUHP_AP_IRQCHIP,
	CPUHP_AP_TICK,
	CPUHP_AP_RCU,
	CPUHP_SCHED_DRAIN,
	CPUHP_RCU_SYNC,
	CPUHP_SCHED,
	CPUHP_KTHREADS,
	CPUHP_ONLINE,
	CPUHP_NR_STEPS,
};

/* In the order a CPU comes up; it goes down from the bottom. */
static const struct cpuhp_step cpuhp_steps[CPUHP_NR_STEPS] = {
	/* Prepared on a surviving CPU, where sleeping is allowed. */
	[CPUHP_PERCPU] = {"percpu:area", percpu_up, percpu_down},
	/* Its kmalloc caches live in the area: given back before it goes. */
	[CPUHP_KMALLOC] = {"kmalloc:dead", NULL, kmalloc_cpu_dead},
	[CPUHP_IDLE] = {"sched:idle", idle_thread_prepare, idle_thread_release},
	[CPUHP_RCU_THREAD] = {"rcu:thread", rcu_thread_up, NULL},
	[CPUHP_TIMERS] = {"timers:dead", NULL, timers_down, .once_left = true},
	[CPUHP_RCU_CALLBACKS] = {"rcu:callbacks", NULL, rcu_callbacks_down,
				 .once_left = true},
	/* Power on and wait for it / wait until AFFINITY_INFO says off. */
	[CPUHP_BRINGUP] = {"arch:power", __cpu_up, __cpu_die},
	/* On the CPU itself. */
	[CPUHP_AP_IRQCHIP] = {"irqchip:starting", irqchip_starting,
			      irqchip_dying, true},
	[CPUHP_AP_TICK] = {"tick:starting", tick_starting, tick_dying, true},
	[CPUHP_AP_RCU] = {"rcu:starting", rcu_starting, rcu_dying, true},
	/* Online, on a surviving CPU. */
	/*
	 * After the grace period: a waker that read the active bit before it
	 * was cleared (try_to_wake_up() runs with IRQs off, a reader) has
	 * queued its thread by now, and none comes later (Linux's
	 * sched_cpu_deactivate() waits the same way). Drained before it, a
	 * late waker's thread could be queued after the drain and keep the
	 * CPU from ever reaching its idle loop.
	 */
	[CPUHP_SCHED_DRAIN] = {"sched:drain", NULL, sched_cpu_drain},
	[CPUHP_RCU_SYNC] = {"rcu:sync", NULL, rcu_sync_down},
	[CPUHP_SCHED] = {"sched:active", sched_cpu_activate,
			 sched_cpu_deactivate},
	[CPUHP_KTHREADS] = {"kthreads:park", kthreads_unpark_cpu,
			    kthreads_park_cpu},
	[CPUHP_ONLINE] = {"cpu:online", online_up, online_down},
};

static DEFINE_MUTEX(cpu_add_remove_lock);
static DEFINE_CPU_ARRAY(enum cpuhp_phase, cpu_phase);
/*
 * After a down stopped at "not confirmed off": the highest step below
 * bring-up not yet undone; CPUHP_NR_STEPS when no down stopped there.
 */
static DEFINE_CPU_ARRAY(int, cpu_kept_from);

#define HP_SAMPLES 64 /* latencies kept for the figures */

struct hotplug_stats {
	u64 ups, downs, up_failed, down_failed;
	u64 up_ns[HP_SAMPLES], down_ns[HP_SAMPLES];
	/* Each step's time in the last operations, [0] down, [1] up. */
	u64 step_ns[CPUHP_NR_STEPS][2][HP_SAMPLES];
	/* Operations with a firmware figure: its share and the rest. */
	u64 fw_ops[2];
	u64 fw_ns[2][HP_SAMPLES], kernel_ns[2][HP_SAMPLES];
	struct cpuhp_op last[2];
};
static struct hotplug_stats hp_stats;

enum cpuhp_phase cpuhp_phase(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? READ_ONCE(cpu_phase[cpu]) : CPUHP_PHASE_OFF;
}

/* fail.up_step=NAME: that step of the next cpu_up() fails, once. */
static char up_step_name[24];

static int up_step_set(struct fault_point *fp, const char *val)
{
	const struct cpuhp_step *st;

	for (st = cpuhp_steps; st < cpuhp_steps + ARRAY_SIZE(cpuhp_steps); st++)
		if (st->startup && !strcmp(st->name, val))
			break;
	if (st == cpuhp_steps + ARRAY_SIZE(cpuhp_steps))
		return -EINVAL;
	strlcpy(up_step_name, val, sizeof(up_step_name));
	fp->times = 1;
	pr_warn("step %s of the next CPU up will fail\n", val);
	return 0;
}
DEFINE_FAULT(up_step, up_step_set,
	     "NAME: step NAME (one with an up callback, e.g. sched:active) of "
	     "the next cpu_up() fails with -EIO");

/* fail.alloc_up=N: the Nth allocation of the next cpu_up() fails. */
static int alloc_up_set(struct fault_point *fp, const char *val)
{
	unsigned long n;

	if (cmdline_parse_ulong(val, &n) || !n || n > 1000)
		return -EINVAL;
	fp->arg[0] = (long)n;
	fp->times = 1;
	pr_warn("allocation %lu of the next CPU up will fail\n", n);
	return 0;
}
DEFINE_FAULT(alloc_up, alloc_up_set,
	     "N: the Nth allocation (1-1000) of the next cpu_up() fails");

static int do_step(unsigned int cpu, int i, bool up, int (*fn)(unsigned int))
{
	u64 t0;
	int err;

	if (up && fault_armed(&fault_up_step) &&
	    !strcmp(up_step_name, cpuhp_steps[i].name) &&
	    should_fail(&fault_up_step)) {
		pr_err("CPU%u: step %s fails going up (fault injected)\n", cpu,
		       cpuhp_steps[i].name);
		return -EIO;
	}
	/* On-CPU steps too: the writer waits in arch:power meanwhile. */
	t0 = ktime_get_ns();
	err = fn(cpu);
	hp_stats.step_ns[i][up][(up ? hp_stats.ups : hp_stats.downs) %
				HP_SAMPLES] = ktime_get_ns() - t0;
	if (cpuhp_steps[i].on_cpu)
		return err; /* no printing there: interrupts off, dying */
	if (err)
		pr_err("CPU%u: step %s failed going %s: %d\n", cpu,
		       cpuhp_steps[i].name, up ? "up" : "down", err);
	return err;
}

/* One step of cpu, if it has a callback that way: a slice of the trace. */
static int run_step(unsigned int cpu, int i, bool up)
{
	int (*fn)(unsigned int) =
		up ? cpuhp_steps[i].startup : cpuhp_steps[i].teardown;
	int err;

	if (!fn)
		return 0;
	trace_cpuhp_enter(cpu, i, up);
	err = do_step(cpu, i, up, fn);
	trace_cpuhp_exit(cpu, i, up, err);
	return err;
}

const char *cpuhp_step_name(unsigned int step)
{
	return step < CPUHP_NR_STEPS ? cpuhp_steps[step].name : "?";
}

/* The steps the CPU runs itself (from secondary_start_kernel()). */
void cpuhp_ap_startup(unsigned int cpu)
{
	for (int i = CPUHP_BRINGUP + 1; i < CPUHP_NR_STEPS; i++)
		if (cpuhp_steps[i].on_cpu)
			run_step(cpu, i, true);
}

/* ... and in reverse on its way out (arch_cpu_idle_dead()). */
void cpuhp_ap_teardown(unsigned int cpu)
{
	for (int i = CPUHP_NR_STEPS - 1; i > CPUHP_BRINGUP; i--)
		if (cpuhp_steps[i].on_cpu)
			run_step(cpu, i, false);
}

/*
 * The firmware did not confirm cpu off. If the CPU provably left the
 * kernel, it will never touch its callbacks and timers again: move them
 * now, or a synchronize_rcu() caller, an msleep() and rcu_barrier() wait
 * on them for ever. Only its stack and per-CPU area wait for the firmware.
 * Returns the highest step still to undo once it confirms.
 */
static int down_unconfirmed(unsigned int cpu)
{
	int i = CPUHP_BRINGUP - 1;

	if (!arch_cpu_left_kernel(cpu)) {
		pr_crit("CPU%u: never left the kernel: its callbacks and "
			"timers stay with it\n",
			cpu);
		return i;
	}
	for (; i >= 0 && cpuhp_steps[i].once_left; i--)
		run_step(cpu, i, false);
	pr_warn("CPU%u: left the kernel: its callbacks and timers moved, "
		"its stack and per-CPU area wait for the firmware\n",
		cpu);
	return i;
}

/*
 * Down, running the down steps from top to 0; a failing step before the
 * CPU is gone undoes the ones done, up to top (it is online again).
 */
static int cpuhp_down_from(unsigned int cpu, int top)
{
	int err;

	cpu_kept_from[cpu] = CPUHP_NR_STEPS;
	for (int i = top; i >= 0; i--) {
		if (cpuhp_steps[i].on_cpu)
			continue;
		err = run_step(cpu, i, false);
		if (err && i > CPUHP_BRINGUP) { /* still running: undo */
			for (int j = i + 1; j <= top; j++)
				if (!cpuhp_steps[j].on_cpu)
					run_step(cpu, j, true);
			return err;
		}
		if (err) { /* not confirmed off: freeing its memory is unsafe */
			cpu_kept_from[cpu] = down_unconfirmed(cpu);
			return err;
		}
	}
	return 0;
}

static int cpuhp_down(unsigned int cpu)
{
	return cpuhp_down_from(cpu, CPUHP_NR_STEPS - 1);
}

/*
 * Undo steps [0, last) of a failed up, newest first. Before bring-up
 * nothing runs on the CPU: free. After it, the CPU runs on its stack and
 * per-CPU area: take it down for real, so they are freed only once the
 * firmware confirms it off.
 */
static void rollback(unsigned int cpu, int last)
{
	if (last > CPUHP_BRINGUP) {
		pr_err("CPU%u: failed after bring-up: taking it down before "
		       "freeing its memory\n",
		       cpu);
		if (cpuhp_down_from(cpu, last - 1))
			pr_crit("CPU%u: the rollback's down failed: its memory "
				"is kept\n",
				cpu);
		return;
	}
	for (int i = last - 1; i >= 0; i--)
		if (!cpuhp_steps[i].on_cpu)
			run_step(cpu, i, false);
}

/* The failing step's error is returned (-ENOMEM, -EIO, -ETIMEDOUT...). */
static int cpuhp_up(unsigned int cpu)
{
	cpu_kept_from[cpu] = CPUHP_NR_STEPS;
	for (int i = 0; i < CPUHP_NR_STEPS; i++) {
		int err;

		if (cpuhp_steps[i].on_cpu)
			continue;
		err = run_step(cpu, i, true);
		if (err) {
			rollback(cpu, i);
			return err;
		}
	}
	return 0;
}

static void record(u64 *ring, u64 count, u64 ns)
{
	ring[count % HP_SAMPLES] = ns;
}

/*
 * A successful down or up of cpu that took ns: its total, and split into
 * the firmware's share and the kernel's when the firmware was timed.
 * Caller holds cpu_add_remove_lock.
 */
static void record_op(unsigned int cpu, bool up, u64 ns)
{
	u64 *count = up ? &hp_stats.ups : &hp_stats.downs;
	u64 fw = up ? arch_cpu_fw_up_ns(cpu) : arch_cpu_fw_down_ns(cpu);

	record(up ? hp_stats.up_ns : hp_stats.down_ns, (*count)++, ns);
	power_note_cpu(cpu, up);
	hp_stats.last[up] = (struct cpuhp_op){
		.seq = *count, .cpu = cpu, .ns = ns, .fw_ns = fw};
	if (!fw)
		return;
	record(hp_stats.fw_ns[up], hp_stats.fw_ops[up], fw);
	record(hp_stats.kernel_ns[up], hp_stats.fw_ops[up]++, ns - fw);
}

/* Why cpu may not go down, or NULL. Caller holds cpu_add_remove_lock. */
static const char *down_refusal(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	if (!cpu_online(cpu))
		return "it is not online";
	if (num_online_cpus() == 1)
		return "it is the last online CPU";
	if (!ops || !ops->cpu_die)
		return "its enable method cannot take it down";
	/* PSCI 0.1 downs need AFFINITY_INFO, unless CPUs park in the pen. */
	if (ops->cpu_can_disable && !ops->cpu_can_disable(cpu))
		return psci_version() == PSCI_VERSION(0, 1) &&
				       !psci_offline_parks()
			       ? "the firmware cannot confirm a CPU off "
				 "(PSCI 0.1 has no AFFINITY_INFO)"
			       : "the firmware does not allow it (PSCI "
				 "MIGRATE_INFO_TYPE)";
	return NULL;
}

int cpu_down(unsigned int cpu)
{
	enum cpuhp_phase phase;
	const char *why;
	u64 t0;
	int err;

	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	mutex_lock(&cpu_add_remove_lock);
	why = down_refusal(cpu);
	if (why) {
		pr_err("CPU%u: cannot take it down: %s\n", cpu, why);
		mutex_unlock(&cpu_add_remove_lock);
		return cpu_online(cpu) ? -EBUSY : -EALREADY;
	}
	t0 = ktime_get_ns();
	trace_cpuhp_op(cpu, false, false, 0);
	cpus_write_lock();
	WRITE_ONCE(cpu_phase[cpu], CPUHP_PHASE_GOING_DOWN);
	err = cpuhp_down(cpu);
	cpus_write_unlock();
	trace_cpuhp_op(cpu, false, true, err);
	/* A failure before the CPU left is undone (it is online again); one
	 * after leaves it gone but not confirmed off. */
	if (!err)
		phase = CPUHP_PHASE_OFF;
	else if (cpu_online(cpu))
		phase = CPUHP_PHASE_ONLINE;
	else
		phase = CPUHP_PHASE_UNCONFIRMED;
	WRITE_ONCE(cpu_phase[cpu], phase);
	if (err) {
		hp_stats.down_failed++;
	} else {
		record_op(cpu, false, ktime_get_ns() - t0);
		pr_info("CPU%u is down\n", cpu);
	}
	mutex_unlock(&cpu_add_remove_lock);
	return err;
}

/*
 * A CPU whose down stopped at "not confirmed off": ask the firmware
 * again, and if it is off now, free what the down kept.
 */
static int finish_unconfirmed_down(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	if (ops->cpu_kill && ops->cpu_kill(cpu)) {
		pr_err("CPU%u: still not confirmed off: not restarting it\n",
		       cpu);
		return -EBUSY;
	}
	for (int i = cpu_kept_from[cpu]; i >= 0; i--)
		if (!cpuhp_steps[i].on_cpu)
			run_step(cpu, i, false);
	WRITE_ONCE(cpu_phase[cpu], CPUHP_PHASE_OFF);
	pr_info("CPU%u: confirmed off at last\n", cpu);
	return 0;
}

int cpu_up(unsigned int cpu)
{
	enum cpuhp_phase phase;
	unsigned int fail_nth;
	u64 t0;
	int err;

	if (cpu >= nr_cpu_ids || !cpumask_test_cpu(cpu, cpu_present_mask))
		return -EINVAL;
	mutex_lock(&cpu_add_remove_lock);
	if (cpu_online(cpu)) {
		pr_err("CPU%u: already online\n", cpu);
		mutex_unlock(&cpu_add_remove_lock);
		return -EALREADY;
	}
	if (cpu_phase[cpu] == CPUHP_PHASE_UNCONFIRMED) {
		err = finish_unconfirmed_down(cpu);
		if (err) {
			mutex_unlock(&cpu_add_remove_lock);
			return err;
		}
	}
	t0 = ktime_get_ns();
	trace_cpuhp_op(cpu, true, false, 0);
	cpus_write_lock();
	WRITE_ONCE(cpu_phase[cpu], CPUHP_PHASE_COMING_UP);
	fail_nth = should_fail(&fault_alloc_up) ? fault_alloc_up.arg[0] : 0;
	if (fail_nth)
		current->fail_nth = fail_nth;
	err = cpuhp_up(cpu);
	if (fail_nth)
		current->fail_nth = 0;
	cpus_write_unlock();
	trace_cpuhp_op(cpu, true, true, err);
	/* A failure after bring-up was a real down: it may be unconfirmed. */
	if (!err || cpu_online(cpu))
		phase = CPUHP_PHASE_ONLINE;
	else if (cpu_kept_from[cpu] < CPUHP_BRINGUP)
		phase = CPUHP_PHASE_UNCONFIRMED;
	else
		phase = CPUHP_PHASE_OFF;
	WRITE_ONCE(cpu_phase[cpu], phase);
	if (err)
		hp_stats.up_failed++;
	else
		record_op(cpu, true, ktime_get_ns() - t0);
	mutex_unlock(&cpu_add_remove_lock);
	return err;
}

/*
 * Hold off cpu_up()/cpu_down() (Linux's names for cpu_add_remove_lock):
 * for rcu_barrier(), which must not run while a CPU is half gone. Not
 * from a hotplug step, nor with the lock already held.
 */
void cpu_maps_update_begin(void)
{
	mutex_lock(&cpu_add_remove_lock);
}

void cpu_maps_update_done(void)
{
	mutex_unlock(&cpu_add_remove_lock);
}

/* The boot CPU is up without the table: record it as such. */
void cpuhp_boot_cpu_online(void)
{
	cpu_phase[0] = CPUHP_PHASE_ONLINE;
}

void hotplug_init(void)
{
	if (!strcmp(hotplug_gp, "normal"))
		expedite_hotplug = false;
	else if (hotplug_gp[0] && strcmp(hotplug_gp, "expedited"))
		pr_warn("hotplug.gp=%s ignored: want expedited or normal\n",
			hotplug_gp);
	hotplug_sync_init();
}

int cpu_hotplug_set_sync(enum hotplug_sync sync)
{
	if (sync >= HOTPLUG_SYNC_NR)
		return -EINVAL;
	mutex_lock(&cpu_add_remove_lock);
	hotplug_sync_switch(sync);
	mutex_unlock(&cpu_add_remove_lock);
	return 0;
}

void hotplug_get_stats(struct cpuhp_stats *st)
{
	mutex_lock(&cpu_add_remove_lock);
	st->ups = hp_stats.ups;
	st->downs = hp_stats.downs;
	st->up_failed = hp_stats.up_failed;
	st->down_failed = hp_stats.down_failed;
	ring_summary(hp_stats.up_ns, HP_SAMPLES, hp_stats.ups, st->up_ns);
	ring_summary(hp_stats.down_ns, HP_SAMPLES, hp_stats.downs, st->down_ns);
	for (int i = 0; i < CPUHP_NR_STEPS && i < CPUHP_MAX_STEPS; i++) {
		u64 down[3], up[3];

		ring_summary(hp_stats.step_ns[i][0], HP_SAMPLES, hp_stats.downs,
			     down);
		ring_summary(hp_stats.step_ns[i][1], HP_SAMPLES, hp_stats.ups,
			     up);
		st->step_name[i] = cpuhp_steps[i].name;
		st->step_down_ns[i] = down[1];
		st->step_up_ns[i] = up[1];
	}
	st->nr_steps = min(CPUHP_NR_STEPS, CPUHP_MAX_STEPS);
	st->fw_downs = hp_stats.fw_ops[0];
	st->fw_ups = hp_stats.fw_ops[1];
	ring_summary(hp_stats.fw_ns[0], HP_SAMPLES, st->fw_downs,
		     st->fw_down_ns);
	ring_summary(hp_stats.fw_ns[1], HP_SAMPLES, st->fw_ups, st->fw_up_ns);
	ring_summary(hp_stats.kernel_ns[0], HP_SAMPLES, st->fw_downs,
		     st->kernel_down_ns);
	ring_summary(hp_stats.kernel_ns[1], HP_SAMPLES, st->fw_ups,
		     st->kernel_up_ns);
	mutex_unlock(&cpu_add_remove_lock);
}

void hotplug_last_ops(struct cpuhp_op *down, struct cpuhp_op *up)
{
	mutex_lock(&cpu_add_remove_lock);
	*down = hp_stats.last[0];
	*up = hp_stats.last[1];
	mutex_unlock(&cpu_add_remove_lock);
}
