/*
 * CPU hotplug: one ordered table of steps, each with an up and a down
 * callback, as Linux's cpuhp states. A CPU comes up by running the steps
 * in order and goes down by running them in reverse; a failing step turns
 * the operation around (below). After each one, whoever declared a
 * CPUHP_NOTIFIER() is told whether the CPU runs the kernel.
 *
 * Going down, the table reads like the design in four lines:
 *
 *	cpu:online      clear the online bit: new readers no longer see it
 *	kthreads, sched park its threads, clear its active bit
 *	rcu:sync        synchronize_rcu(): readers that saw the bit finished
 *	sched:drain     move its threads off: no waker still targets it
 *	cpu:teardown    the CPU masks its timer, turns its GIC interface
 *	                off, leaves RCU and calls psci_cpu_off()
 *	cpu:bringup     this CPU polls AFFINITY_INFO until it is really off
 *	..., percpu     then its callbacks, timers, idle stack, kmalloc
 *	                caches and per-CPU area are moved or freed
 *
 * Each CPU's state is how many steps of the table are done (cpu_done[]):
 * 0 when it is off, CPUHP_NR_STEPS when it is online. An operation runs
 * the steps from there towards its target, so a CPU left between the two
 * ends is resumed from where it stands, never run twice through a step.
 *
 * Above cpu:teardown the CPU runs the kernel. A step that fails there
 * turns the operation around (cpuhp_run()): a failed down is undone, the
 * CPU online again; a failed up takes the CPU down for real (down steps,
 * CPU_OFF, AFFINITY_INFO) before anything of it is freed. If the way back
 * fails too, it turns again, a few times at most.
 *
 * If the firmware never confirms the CPU off, the down stops at
 * cpu:bringup, but the CPU has left the kernel (arch_cpu_left_kernel()),
 * so the steps marked once_left still run: sleepers wait on its callbacks
 * and timers. Its stack and per-CPU area wait for the confirmation.
 *
 * Writers are serialised by cpu_add_remove_lock; readers of the online mask
 * take no lock at all (include/kernel/cpu.h). For the benchmark, readers
 * may instead use one of the 2013 thread's other designs, whose writer
 * side cpu_down()/cpu_up() honour through sync_ops
 * (include/kernel/hotplug_sync.h, kernel/bench/designs/).
 */
#define pr_fmt(fmt) "hotplug: " fmt
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuhp.h>
#include <kernel/current.h>
#include <kernel/cpu_ops.h>
#include <kernel/hotplug_sync.h>
#include <kernel/irq.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/trace.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <string.h>
#include "hotplug.h"

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

static const char *const gp_names[] = {"expedited", "normal", NULL};
static enum { GP_EXPEDITED, GP_NORMAL } hotplug_gp = GP_EXPEDITED;
param_enum("hotplug.gp", hotplug_gp, gp_names,
	   "the grace period cpu_down() waits for (default expedited)");

/*
 * The online mask's reader design: per-bit RCU, whose readers take
 * rcu_read_lock() and whose writer needs no lock of its own. The
 * benchmark's designs replace it (hotplug_sync_ops_set()); writer_ops is
 * the one the operation in progress locked under.
 */
static const struct hotplug_sync_ops per_bit_rcu = {.name = "rcu"};
static const struct hotplug_sync_ops *sync_ops = &per_bit_rcu, *writer_ops;

/*
 * Readers that saw the bit have finished: in every design, for the
 * scheduler's readers of the active bit, cleared since, read under the
 * per-bit RCU rules whatever the design.
 */
static int rcu_sync_down(unsigned int cpu)
{
	if (hotplug_gp == GP_EXPEDITED)
		synchronize_rcu_expedited();
	else
		synchronize_rcu();
	return 0;
}

static int set_online(unsigned int cpu, bool online)
{
	if (writer_ops->set_online)
		return writer_ops->set_online(cpu, online);
	set_cpu_online(cpu, online);
	return 0;
}

static int online_up(unsigned int cpu)
{
	return set_online(cpu, true);
}

static int online_down(unsigned int cpu)
{
	return set_online(cpu, false);
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
	CPUHP_AP_RCU,
	CPUHP_AP_IRQCHIP,
	CPUHP_AP_TICK,
	CPUHP_TEARDOWN,
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
	[CPUHP_BRINGUP] = {"cpu:bringup", __cpu_up, __cpu_die},
	/*
	 * On the CPU itself. RCU first up and last down: the CPU's other
	 * steps (its pending cross-CPU calls among them) are read-side
	 * sections that RCU must still wait for.
	 */
	[CPUHP_AP_RCU] = {"rcu:starting", rcu_starting, rcu_dying, true},
	[CPUHP_AP_IRQCHIP] = {"irqchip:starting", irqchip_starting,
			      irqchip_dying, true},
	[CPUHP_AP_TICK] = {"tick:starting", tick_starting, tick_dying, true},
	/* Ask the CPU to run the steps above down, and wait for it. */
	[CPUHP_TEARDOWN] = {"cpu:teardown", NULL, __cpu_teardown},
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

/*
 * Every design's readers and writer as one lock for lockdep: a reader
 * that waits for a writer (rwlock, percpu_rwsem's slow path) deadlocks
 * if the writer waits for something the reader holds; a read inside a
 * read deadlocks when a writer arrives between the two.
 */
struct lockdep_map cpu_hotplug_lock_map = LOCKDEP_MAP_INIT("cpu_hotplug_lock");

static void cpus_write_lock(void)
{
	lock_acquire(&cpu_hotplug_lock_map, 0, false, _RET_IP_);
	writer_ops = READ_ONCE(sync_ops);
	if (writer_ops->write_lock)
		writer_ops->write_lock();
}

static void cpus_write_unlock(void)
{
	lock_release(&cpu_hotplug_lock_map, _RET_IP_);
	if (writer_ops->write_unlock)
		writer_ops->write_unlock();
}

const struct hotplug_sync_ops *hotplug_sync_ops_get(void)
{
	return READ_ONCE(sync_ops);
}

void hotplug_sync_ops_set(const struct hotplug_sync_ops *ops)
{
	lockdep_assert_held(&cpu_add_remove_lock);
	WRITE_ONCE(sync_ops, ops);
}

#ifdef CONFIG_PROVE_LOCKING
bool lockdep_cpus_held(void)
{
	return lockdep_is_held(&cpu_add_remove_lock) ||
	       lock_is_held(&cpu_hotplug_lock_map);
}
#endif
static DEFINE_CPU_ARRAY(enum cpuhp_phase, cpu_phase);
/*
 * How many steps of the table are done, from the first: 0 off,
 * CPUHP_NR_STEPS online. Above CPUHP_TEARDOWN the CPU runs the kernel.
 * Changed under cpu_add_remove_lock only.
 */
static DEFINE_CPU_ARRAY(int, cpu_done);
/* The once_left steps already ran for a down not confirmed off. */
static DEFINE_CPU_ARRAY(bool, cpu_moved);

static bool runs_kernel(unsigned int cpu)
{
	return cpu_done[cpu] > CPUHP_TEARDOWN;
}

enum cpuhp_phase cpuhp_phase(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? READ_ONCE(cpu_phase[cpu]) : CPUHP_PHASE_OFF;
}

static int do_step(unsigned int cpu, int i, bool up, int (*fn)(unsigned int))
{
	u64 t0;
	int err = cpuhp_step_fault(cpu, i, up);

	if (err)
		return err;
	/* On-CPU steps too: the writer waits in cpu:teardown meanwhile. */
	t0 = ktime_get_ns();
	err = fn(cpu);
	cpuhp_stats_step(i, up, ktime_get_ns() - t0);
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

bool cpuhp_step_may_fail(unsigned int step, bool up)
{
	const struct cpuhp_step *st = &cpuhp_steps[step];

	if (step >= CPUHP_NR_STEPS)
		return false;
	return up ? st->startup != NULL
		  : st->teardown && step >= CPUHP_TEARDOWN;
}

unsigned int cpuhp_nr_steps(void)
{
	BUILD_BUG_ON(CPUHP_NR_STEPS > CPUHP_MAX_STEPS);
	return CPUHP_NR_STEPS;
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

/* Up from where cpu stands until `to` steps are done: 0, or the failing
 * step's error with the steps before it done. */
static int steps_up(unsigned int cpu, int to)
{
	for (int i = cpu_done[cpu]; i < to; i++) {
		int err = cpuhp_steps[i].on_cpu ? 0 : run_step(cpu, i, true);

		if (err)
			return err;
		cpu_done[cpu] = i + 1;
	}
	return 0;
}

/* Down until only `to` steps are done: 0, or the failing step's error
 * with it still done. The on-CPU steps run inside cpu:teardown. */
static int steps_down(unsigned int cpu, int to)
{
	for (int i = cpu_done[cpu] - 1; i >= to; i--) {
		const struct cpuhp_step *st = &cpuhp_steps[i];
		int err = st->on_cpu || (st->once_left && cpu_moved[cpu])
				  ? 0
				  : run_step(cpu, i, false);

		if (err)
			return err;
		cpu_done[cpu] = i;
	}
	cpu_moved[cpu] = false;
	return 0;
}

/*
 * cpu:bringup's down failed: the firmware did not confirm cpu off. The
 * CPU left the kernel before it reported (arch_cpu_left_kernel()), so it
 * will never touch its callbacks and timers again: move them now, or a
 * synchronize_rcu() caller, an msleep() and rcu_barrier() wait on them
 * for ever. Only its stack and per-CPU area wait for the firmware.
 */
static void down_unconfirmed(unsigned int cpu)
{
	if (!arch_cpu_left_kernel(cpu)) {
		pr_crit("CPU%u: never left the kernel: its callbacks and "
			"timers stay with it\n",
			cpu);
		return;
	}
	for (int i = CPUHP_BRINGUP - 1; i >= 0 && cpuhp_steps[i].once_left; i--)
		run_step(cpu, i, false);
	cpu_moved[cpu] = true;
	pr_warn("CPU%u: left the kernel: its callbacks and timers moved, "
		"its stack and per-CPU area wait for the firmware\n",
		cpu);
}

/* How many times an operation may turn around (see cpuhp_run()). */
#define CPUHP_TURNS 3

/*
 * Take cpu from where it stands to `goal` steps done (0: off,
 * CPUHP_NR_STEPS: online). A step that fails while the CPU runs the
 * kernel turns the operation back towards the other end; one that
 * fails on the way back turns it again, at most CPUHP_TURNS times. Each
 * turn re-runs only steps that just worked, so a passing failure (a drain
 * that timed out once, a CPU slow to take its request) ends at one end or
 * the other. A failure while the CPU does not run the kernel ends it:
 * an up that never started the CPU frees what it made; a down whose CPU
 * the firmware never confirms off stops there.
 * Returns 0 if cpu reached goal, else the first failing step's error.
 */
static int cpuhp_run(unsigned int cpu, int goal)
{
	int back = goal ? 0 : CPUHP_NR_STEPS, target = goal, first = 0, err;

	for (int turn = 0;; turn++) {
		err = target > cpu_done[cpu] ? steps_up(cpu, target)
					     : steps_down(cpu, target);
		if (!err)
			return target == goal ? 0 : first;
		first = first ?: err;
		if (!runs_kernel(cpu)) {
			if (cpu_done[cpu] > CPUHP_BRINGUP)
				down_unconfirmed(cpu);
			else
				steps_down(cpu, 0); /* never ran: free */
			return first;
		}
		if (turn == CPUHP_TURNS) {
			pr_crit("CPU%u: stopped between steps, %d of %d done, "
				"after %d turns: cpu_up() resumes from there\n",
				cpu, cpu_done[cpu], CPUHP_NR_STEPS, turn);
			return first;
		}
		target = target == goal ? back : goal;
		pr_err("CPU%u: %s: taking it %s\n", cpu,
		       turn ? "the way back failed too" : "it still runs",
		       target ? "back up"
			      : "down for real, before freeing its "
				"memory");
	}
}

extern const struct cpuhp_notifier __cpuhp_notifiers_start[],
	__cpuhp_notifiers_end[];

/* Whoever keeps figures by CPU state (CPUHP_NOTIFIER()). */
static void notify(unsigned int cpu, bool up)
{
	for (const struct cpuhp_notifier *n = __cpuhp_notifiers_start;
	     n < __cpuhp_notifiers_end; n++)
		n->fn(cpu, up);
}

/* What cpu_done[] says, once an operation ended. */
static enum cpuhp_phase phase_at_rest(unsigned int cpu)
{
	int done = cpu_done[cpu];

	if (done == CPUHP_NR_STEPS)
		return CPUHP_PHASE_ONLINE;
	if (!done)
		return CPUHP_PHASE_OFF;
	if (done > CPUHP_BRINGUP && !runs_kernel(cpu))
		return CPUHP_PHASE_UNCONFIRMED;
	return CPUHP_PHASE_STOPPED;
}

/* Why cpu may not go down, or NULL. Caller holds cpu_add_remove_lock. */
static const char *down_refusal(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	lockdep_assert_held(&cpu_add_remove_lock);
	if (!cpu_online(cpu))
		return "it is not online";
	if (num_online_cpus() == 1)
		return "it is the last online CPU";
	if (!ops || !ops->cpu_die)
		return "its enable method cannot take it down";
	if (ops->cpu_refuses_disable)
		return ops->cpu_refuses_disable(cpu);
	return NULL;
}

int cpu_down(unsigned int cpu)
{
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
	err = cpuhp_run(cpu, 0);
	cpus_write_unlock();
	trace_cpuhp_op(cpu, false, true, err);
	WRITE_ONCE(cpu_phase[cpu], phase_at_rest(cpu));
	if (err) {
		cpuhp_stats_failed(false);
	} else {
		cpuhp_stats_op(cpu, false, ktime_get_ns() - t0);
		pr_info("CPU%u is down\n", cpu);
	}
	if (!err || !runs_kernel(cpu)) /* unconfirmed: left all the same */
		notify(cpu, false);
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
	cpu_done[cpu] = CPUHP_BRINGUP; /* cpu:bringup's down, done now */
	steps_down(cpu, 0);
	WRITE_ONCE(cpu_phase[cpu], CPUHP_PHASE_OFF);
	pr_info("CPU%u: confirmed off at last\n", cpu);
	return 0;
}

int cpu_up(unsigned int cpu)
{
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
	fail_nth = cpuhp_alloc_up_fault();
	if (fail_nth)
		current->fail_nth = fail_nth;
	err = cpuhp_run(cpu, CPUHP_NR_STEPS);
	if (fail_nth)
		current->fail_nth = 0;
	cpus_write_unlock();
	trace_cpuhp_op(cpu, true, true, err);
	WRITE_ONCE(cpu_phase[cpu], phase_at_rest(cpu));
	if (err)
		cpuhp_stats_failed(true);
	else
		cpuhp_stats_op(cpu, true, ktime_get_ns() - t0);
	if (!err || runs_kernel(cpu)) /* stopped between steps, running */
		notify(cpu, true);
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

bool cpu_hotplug_idle(void)
{
	const struct hotplug_sync_ops *ops = READ_ONCE(sync_ops);

	return !mutex_is_locked(&cpu_add_remove_lock) &&
	       (!ops->idle || ops->idle());
}

/* The boot CPU is up without the table: record it as such. */
void cpuhp_boot_cpu_online(void)
{
	cpu_phase[0] = CPUHP_PHASE_ONLINE;
	cpu_done[0] = CPUHP_NR_STEPS;
}
