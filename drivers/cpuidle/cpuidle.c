/*
 * The idle-state core: one idle period of one CPU. The idle loop calls
 * cpuidle_idle_call() where it used to execute WFI, with IRQs off, the
 * tick stopped if nothing needed it, and RCU in its extended quiescent
 * state (so a deep state is, to RCU, exactly the WFI idle it was).
 *
 * For each period: the time to the next timer event, the latency limit
 * (cpu_latency_qos_limit()), the governor's choice (menu.c);
 * a state that stops the local timer needs the tick broadcast, and when
 * this CPU must host it, the deepest state that keeps the timer is used
 * instead. Then the driver's enter (cpuidle-psci.c), the measured stay,
 * and the counts that the power model and `cpuidle` read.
 *
 * A state the firmware refuses is disabled for every CPU and the reason
 * printed, outside the idle path (nothing prints with RCU not watching).
 *
 * On QEMU's virt machine a CPU woken from state idx waits out that
 * state's exit latency (cpuidle-psci.c turns it on): QEMU's CPU_SUSPEND
 * returns at once, so without it a deep state would cost a wake-up
 * nothing. The cluster's part of a cluster state's exit is paid only if
 * the cluster really went down, as on hardware, where a CPU whose
 * cluster stayed up resumes from its own state. The wait sleeps in WFI
 * (arch_timer_wait_masked()) instead of spinning a host core, and is
 * kept apart: out of the state's residency and the governor's history,
 * counted in exit_ns.
 *
 * Clusters. CPUs share a cluster (L2, SCU, interconnect) that can power
 * down only when none of its CPUs needs it. In PSCI's platform-coordinated
 * mode each CPU asks for the cluster's state with its own prediction (the
 * cluster state is one more, deeper state in the table) and the firmware
 * powers the cluster down once the last of them has asked, serving the
 * others' requests from the CPU's own state meanwhile. QEMU's firmware
 * does no such thing, so this core keeps the firmware's count: a cluster
 * is down from the moment each of its CPUs is either in a cluster state
 * or off until one of them leaves. Off is every CPU that does not run the
 * kernel: from boot until it first comes up (one that never does stays
 * off), and from a down, confirmed or not, until it is up again. A
 * regrouping recounts inside stop_machine(), where no CPU is in the idle
 * path: the counts of CPUs idle then would land in their new cluster's
 * count on their way out, one it never had. The power model
 * reads that time; cpuidle.cluster_idle=0 withholds the cluster states,
 * a firmware that powers a cluster down only when all its CPUs are off
 * (Tegra 3, Exynos 4-era parts).
 */
#define pr_fmt(fmt) "cpuidle: " fmt
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <kernel/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuidle.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/stop_machine.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>

#include "cpuidle_driver.h"

static bool cpuidle_off;
/*
 * Idle states are used once the boot CPU has brought the others up
 * (cpuidle_boot_done()): until then every idle CPU waits in WFI, as Linux's
 * do before its cpuidle driver registers, after SMP bring-up: the
 * bring-up is not slowed by exits from deep states of CPUs that are
 * already up.
 */
static bool cpuidle_ready;

void cpuidle_boot_done(void)
{
	smp_store_release(&cpuidle_ready, true);
}
param_flag("cpuidle.off", cpuidle_off,
	   "idle in WFI only, whatever states the device tree offers");

static struct cpuidle_state states[CPUIDLE_STATE_MAX] = {
	[0] = {.name = "WFI",
	       .entry_latency_us = 1,
	       .exit_latency_us = 1,
	       .target_residency_us = 1},
};
static int state_count = 1;
static cpuidle_enter_fn driver_enter;
static int forced_state = -1;
/* A firmware refusal to report from outside the idle path. */
static struct {
	int idx, err;
} refusal = {-1, 0};

static DEFINE_CPU_ARRAY(struct cpuidle_device, cpuidle_devices);

static bool exit_emulation, no_exit_emulation;
param_flag("cpuidle.no_exit_emulation", no_exit_emulation,
	   "on QEMU virt, do not wait each idle state's exit latency on "
	   "wake-up (QEMU's CPU_SUSPEND returns at once)");

void cpuidle_set_exit_emulation(bool on)
{
	WRITE_ONCE(exit_emulation, on && !no_exit_emulation);
}

bool cpuidle_exit_emulated(void)
{
	return READ_ONCE(exit_emulation);
}

static bool cluster_idle = true;
param_flag("cpuidle.cluster_idle", cluster_idle,
	   "0: the firmware powers a cluster down only when all its CPUs "
	   "are off (Tegra 3/Exynos 4-era), so cluster idle states are not "
	   "used");

/*
 * One cluster's power state, as the firmware would keep it. idle counts
 * its CPUs in the idle path or off, down those of them in a cluster
 * state or off: all idle, the cluster is idle (clocked, its caches on);
 * all down, it is powered down. lock orders the counts and the times.
 */
struct cpuidle_cluster {
	spinlock_t lock;
	unsigned int cpus;
	unsigned int idle, down;
	u64 idle_since, down_since; /* valid while is_idle, is_down */
	bool is_idle, is_down;
	u64 idle_ns, down_ns; /* completed periods */
	u64 downs; /* times it went down */
};

/* Indexed by cluster id (< nr_cpu_ids): enough for any grouping. */
static DEFINE_CPU_ARRAY(struct cpuidle_cluster, clusters);
static DEFINE_CPU_ARRAY(unsigned int, cpu_cluster);
/* The next CPU of the same cluster, round to the first: a ring per cluster. */
static DEFINE_CPU_ARRAY(unsigned int, cluster_next);
static DEFINE_CPU_ARRAY(bool, cpu_is_off);
static unsigned int nr_clusters;
/* The tree's grouping (cpuidle_register_clusters()), else by this size. */
static bool clusters_from_tree;
static unsigned int cluster_cpus = 2;

static void default_idle(void)
{
	dsb(sy);
	wfi();
}

int cpuidle_state_count(void)
{
	return state_count;
}

int cpuidle_deepest_usable(void)
{
	int forced = READ_ONCE(forced_state), idx = state_count - 1;

	if (cpuidle_off)
		return 0;
	if (forced >= 0)
		idx = forced;
	while (idx > 0 &&
	       (READ_ONCE(states[idx].disabled) ||
		states[idx].exit_latency_us > cpu_latency_qos_limit()))
		idx--;
	return idx;
}

const struct cpuidle_state *cpuidle_get_state(int idx)
{
	return idx >= 0 && idx < state_count ? &states[idx] : NULL;
}

void cpuidle_get_usage(unsigned int cpu, struct cpuidle_state_usage *out,
		       int count)
{
	for (int i = 0; i < count; i++)
		out[i] = cpu < nr_cpu_ids && cpuidle_devices
				 ? cpuidle_devices[cpu].states[i]
				 : (struct cpuidle_state_usage){0};
}

static void nop(void *unused)
{
}

/*
 * After a change of what idle CPUs may choose: a CPU asleep in a state
 * stays there until some interrupt, so call every CPU and wait. When
 * this returns, each has left the period it was in (and counted it) and
 * chooses afresh (Linux's wake_up_all_idle_cpus() does not wait).
 */
void cpuidle_kick_all_sync(void)
{
	on_each_cpu(nop, NULL, true);
}

int cpuidle_force_state_nosync(int idx)
{
	if (idx < -1 || idx >= state_count)
		return -EINVAL;
	WRITE_ONCE(forced_state, idx);
	return 0;
}

int cpuidle_force_state(int idx)
{
	int err = cpuidle_force_state_nosync(idx);

	if (!err)
		cpuidle_kick_all_sync();
	return err;
}

int cpuidle_set_disabled(int idx, bool disabled)
{
	if (idx < 1 || idx >= state_count)
		return -EINVAL;
	WRITE_ONCE(states[idx].disabled, disabled);
	cpuidle_kick_all_sync();
	return 0;
}

/* The deepest usable state at most idx that keeps the local timer. */
static int shallower_with_timer(int idx, u32 limit)
{
	while (idx > 0 && (states[idx].disabled ||
			   states[idx].flags & CPUIDLE_FLAG_TIMER_STOP ||
			   states[idx].exit_latency_us > limit))
		idx--;
	return idx;
}

/* A forced state, if it is usable now; else the shallower one that is. */
static int forced_choice(int idx, u32 limit)
{
	while (idx > 0 &&
	       (states[idx].disabled || states[idx].exit_latency_us > limit))
		idx--;
	return idx;
}

/* Link each cluster's CPUs in a ring (cluster_next) from cpu_cluster. */
static void clusters_link(void)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		unsigned int next = cpu;

		for (unsigned int i = 1; i < nr_cpu_ids; i++) {
			unsigned int o = (cpu + i) % nr_cpu_ids;

			if (cpu_cluster[o] == cpu_cluster[cpu]) {
				next = o;
				break;
			}
		}
		cluster_next[cpu] = next;
	}
}

static void clusters_recount(void);

static void clusters_group(void)
{
	nr_clusters = DIV_ROUND_UP(nr_cpu_ids, cluster_cpus);
	for (unsigned int c = 0; c < nr_cpu_ids; c++)
		clusters[c].cpus = 0;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		cpu_cluster[cpu] = cpu / cluster_cpus;
		clusters[cpu / cluster_cpus].cpus++;
	}
	clusters_link();
	clusters_recount();
}

/* Lazily, the default grouping: nothing else sets the arrays up early. */
static void clusters_ready(void)
{
	if (!nr_clusters && clusters && cpu_cluster)
		clusters_group();
}

/* Start or end a period of count reaching all of the cluster's CPUs. */
static void cluster_period(unsigned int count, unsigned int cpus, bool *in,
			   u64 *since, u64 *total, u64 now)
{
	if (count == cpus && !*in) {
		*in = true;
		*since = now;
	} else if (count < cpus && *in) {
		*in = false;
		*total += now - *since;
	}
}

/*
 * The counts from scratch, after a grouping: the off CPUs, as no CPU is
 * in the idle path (at boot, or inside the stop of a regrouping). Open
 * periods end now and start again by the new counts.
 */
static void clusters_recount(void)
{
	u64 now = ktime_get_ns();

	for (unsigned int c = 0; c < nr_cpu_ids; c++) {
		struct cpuidle_cluster *cl = &clusters[c];

		spin_lock(&cl->lock);
		cluster_period(0, 1, &cl->is_idle, &cl->idle_since,
			       &cl->idle_ns, now);
		cluster_period(0, 1, &cl->is_down, &cl->down_since,
			       &cl->down_ns, now);
		cl->idle = 0;
		cl->down = 0;
		spin_unlock(&cl->lock);
	}
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpu_is_off && cpu_is_off[cpu]) {
			clusters[cpu_cluster[cpu]].idle++;
			clusters[cpu_cluster[cpu]].down++;
		}
	for (unsigned int c = 0; c < nr_cpu_ids; c++) {
		struct cpuidle_cluster *cl = &clusters[c];

		spin_lock(&cl->lock);
		cluster_period(cl->idle, cl->cpus, &cl->is_idle,
			       &cl->idle_since, &cl->idle_ns, now);
		cluster_period(cl->down, cl->cpus, &cl->is_down,
			       &cl->down_since, &cl->down_ns, now);
		if (cl->is_down && cl->cpus)
			cl->downs++;
		spin_unlock(&cl->lock);
	}
}

/*
 * cpu's counts in its cluster change by idle and down (1 in, -1 out, 0):
 * from the idle path (IRQs off) and from the hotplug notifier. The last
 * CPU in starts the cluster's period, the first out ends it. Returns
 * whether the cluster was down before.
 */
static bool cluster_count(unsigned int cpu, int idle, int down)
{
	struct cpuidle_cluster *c;
	unsigned long flags;
	bool was_down;
	u64 now;

	clusters_ready();
	if (!nr_clusters || cpu >= nr_cpu_ids)
		return false;
	c = &clusters[cpu_cluster[cpu]];
	spin_lock_irqsave(&c->lock, flags);
	now = ktime_get_ns();
	c->idle += idle;
	c->down += down;
	was_down = c->is_down;
	cluster_period(c->idle, c->cpus, &c->is_idle, &c->idle_since,
		       &c->idle_ns, now);
	cluster_period(c->down, c->cpus, &c->is_down, &c->down_since,
		       &c->down_ns, now);
	if (c->is_down && !was_down)
		c->downs++;
	spin_unlock_irqrestore(&c->lock, flags);
	return was_down;
}

/* When a CPU starts or stops running the kernel: off counts as down. */
static void cluster_note_cpu(unsigned int cpu, bool up)
{
	if (!cpu_is_off || cpu >= nr_cpu_ids || cpu_is_off[cpu] == !up)
		return;
	cpu_is_off[cpu] = !up;
	cluster_count(cpu, up ? -1 : 1, up ? -1 : 1);
}

/*
 * At boot, before any other CPU runs: every CPU but this one is off until
 * it comes up (and one that never does stays so).
 */
void cpuidle_clusters_init(void)
{
	if (!cpu_is_off)
		return;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		cpu_is_off[cpu] = cpu != raw_smp_processor_id();
	clusters_ready();
	clusters_recount();
}

CPUHP_NOTIFIER(cluster_note_cpu);

unsigned int cpuidle_nr_clusters(void)
{
	clusters_ready();
	return nr_clusters;
}

unsigned int cpuidle_cpu_cluster(unsigned int cpu)
{
	clusters_ready();
	return cpu < nr_cpu_ids && cpu_cluster ? cpu_cluster[cpu] : 0;
}

unsigned int cpuidle_cluster_next(unsigned int cpu)
{
	clusters_ready();
	return cpu < nr_cpu_ids && cluster_next ? cluster_next[cpu] : cpu;
}

void cpuidle_cluster_stats(unsigned int c, struct cpuidle_cluster_stats *st)
{
	unsigned long flags;

	*st = (struct cpuidle_cluster_stats){0};
	clusters_ready();
	if (c >= nr_clusters)
		return;
	spin_lock_irqsave(&clusters[c].lock, flags);
	st->cpus = clusters[c].cpus;
	st->downs = clusters[c].downs;
	st->down_ns = clusters[c].down_ns;
	st->idle_ns = clusters[c].idle_ns;
	st->idle_cpus = clusters[c].idle;
	st->down_cpus = clusters[c].down;
	if (clusters[c].is_down)
		st->down_ns += ktime_get_ns() - clusters[c].down_since;
	if (clusters[c].is_idle)
		st->idle_ns += ktime_get_ns() - clusters[c].idle_since;
	spin_unlock_irqrestore(&clusters[c].lock, flags);
}

void cpuidle_clusters_sum(struct cpuidle_cluster_stats *sum)
{
	struct cpuidle_cluster_stats st;

	*sum = (struct cpuidle_cluster_stats){0};
	for (unsigned int c = 0; c < cpuidle_nr_clusters(); c++) {
		cpuidle_cluster_stats(c, &st);
		sum->cpus += st.cpus;
		sum->downs += st.downs;
		sum->down_ns += st.down_ns;
		sum->idle_ns += st.idle_ns;
		sum->idle_cpus += st.idle_cpus;
		sum->down_cpus += st.down_cpus;
	}
}

static int regroup(void *n)
{
	cluster_cpus = *(unsigned int *)n;
	clusters_group();
	return 0;
}

int cpuidle_set_cluster_cpus(unsigned int n)
{
	int err, ret;

	if (!n || n > nr_cpu_ids)
		return -EINVAL;
	if (clusters_from_tree)
		return -EBUSY; /* the tree says which CPUs share a cluster */
	/* No CPU comes or goes (cpu_is_off stays), none is idle meanwhile. */
	cpu_maps_update_begin();
	err = stop_machine(regroup, &n, &ret);
	cpu_maps_update_done();
	return err;
}

void cpuidle_register_clusters(const unsigned int *cluster_of, unsigned int nr)
{
	clusters_ready();
	if (!clusters || !nr || nr > nr_cpu_ids)
		return;
	for (unsigned int c = 0; c < nr_cpu_ids; c++)
		clusters[c].cpus = 0;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		cpu_cluster[cpu] = cluster_of[cpu];
		clusters[cluster_of[cpu]].cpus++;
	}
	clusters_link();
	nr_clusters = nr;
	clusters_from_tree = true;
	clusters_recount(); /* at boot: no CPU but this one runs */
}

static bool is_cluster_state(int idx)
{
	return states[idx].flags & CPUIDLE_FLAG_CLUSTER;
}

int cpuidle_set_cluster_idle(bool on)
{
	bool any = false;

	for (int i = 1; i < state_count; i++)
		if (is_cluster_state(i)) {
			WRITE_ONCE(states[i].disabled, !on);
			any = true;
		}
	WRITE_ONCE(cluster_idle, on);
	cpuidle_kick_all_sync();
	return any ? 0 : -ENODEV;
}

bool cpuidle_cluster_idle(void)
{
	return READ_ONCE(cluster_idle);
}

static void account(struct cpuidle_device *dev, int idx, u64 stay_ns, u32 limit)
{
	struct cpuidle_state_usage *u = &dev->states[idx];

	u->usage++;
	u->time_ns += stay_ns;
	dev->last_state = idx;
	dev->last_residency_ns = stay_ns;
	if (idx && stay_ns < (u64)states[idx].target_residency_us * 1000) {
		u->above++;
		return;
	}
	for (int i = idx + 1; i < state_count; i++)
		if (!states[i].disabled && states[i].exit_latency_us <= limit &&
		    stay_ns >= (u64)states[i].target_residency_us * 1000) {
			u->below++;
			return;
		}
}

/* The driver's answer for state idx: 0, CPUIDLE_DEMOTED or an error. */
static void note_result(struct cpuidle_device *dev, int idx, int ret)
{
	if (ret == CPUIDLE_DEMOTED) {
		dev->states[idx].demoted++;
	} else if (ret < 0) {
		dev->states[idx].rejected++;
		/* Firmware refusals do not change: stop asking. */
		WRITE_ONCE(states[idx].disabled, true);
		if (READ_ONCE(refusal.idx) < 0) {
			refusal.err = ret;
			WRITE_ONCE(refusal.idx, idx);
		}
	}
}

/*
 * The exit QEMU's firmware did not take (cpuidle_set_exit_emulation()):
 * the state's exit latency, less the cluster's part if the cluster did
 * not go down. Slept where it can be, spun where not.
 */
static void emulate_exit(struct cpuidle_device *dev, int idx,
			 bool cluster_was_down)
{
	const struct cpuidle_state *st = &states[idx];
	u32 us = st->exit_latency_us;
	u64 t0;

	if (st->flags & CPUIDLE_FLAG_CLUSTER && cluster_was_down)
		dev->states[idx].cluster_exits++;
	else
		us -= min(us, st->cluster_exit_us);
	t0 = arch_counter_get();
	if (us && arch_timer_wait_masked(us) < 0)
		udelay(us);
	dev->states[idx].exit_ns +=
		cycles_to_ns(arch_counter_get() - t0, arch_timer_get_freq());
}

void cpuidle_idle_call(void)
{
	struct cpuidle_device *dev;
	int idx, forced, ret = 0;
	u64 now, next, next_ns, t0, t1, stay_ns;
	bool cluster_was_down;
	u32 limit;

	if (state_count == 1 || cpuidle_off || !cpuidle_devices ||
	    !smp_load_acquire(&cpuidle_ready)) {
		cluster_count(smp_processor_id(), 1, 0);
		default_idle();
		cluster_count(smp_processor_id(), -1, 0);
		return;
	}
	dev = &cpuidle_devices[smp_processor_id()];
	now = arch_counter_get();
	next = tick_local_next();
	next_ns = next == ~0ULL ? U64_MAX
		  : next > now ? cycles_to_ns(next - now, arch_timer_get_freq())
			       : 0;
	limit = cpu_latency_qos_limit();
	forced = READ_ONCE(forced_state);
	if (forced >= 0)
		idx = forced_choice(forced, limit);
	else
		idx = menu_select(states, state_count, &dev->menu, next_ns,
				  limit);
	/*
	 * A state that stops the timer only when the tick is stopped too:
	 * with the tick running, its next event is at most a jiffy away and
	 * the broadcast's host would have to wake this CPU every jiffy,
	 * taking the broadcast's lock twice, for every such CPU: a cost that
	 * grows with the CPU count. Linux's menu governor keeps such states
	 * for a stopped tick in the same way.
	 */
	if (states[idx].flags & CPUIDLE_FLAG_TIMER_STOP &&
	    (!tick_stopped(smp_processor_id()) || tick_broadcast_enter())) {
		dev->broadcast_refused++;
		idx = shallower_with_timer(idx, limit);
	}
	cluster_count(smp_processor_id(), 1, is_cluster_state(idx));
	t0 = arch_counter_get();
	if (idx)
		ret = driver_enter(idx, &states[idx]);
	else
		default_idle();
	t1 = arch_counter_get();
	cluster_was_down =
		cluster_count(smp_processor_id(), -1, -is_cluster_state(idx));
	/* The wake-up pays the exit the firmware did not (QEMU). */
	if (idx && READ_ONCE(exit_emulation))
		emulate_exit(dev, idx, cluster_was_down);
	if (states[idx].flags & CPUIDLE_FLAG_TIMER_STOP)
		tick_broadcast_exit();
	stay_ns = cycles_to_ns(t1 - t0, arch_timer_get_freq());
	note_result(dev, idx, ret);
	account(dev, idx, stay_ns, limit);
	if (forced < 0)
		menu_reflect(&dev->menu, stay_ns);
}

void cpuidle_idle_exit_report(void)
{
	int idx = READ_ONCE(refusal.idx);

	if (likely(idx < 0))
		return;
	/* One report per refusal: the first CPU here prints it. */
	if (!__atomic_compare_exchange_n(&refusal.idx, &idx, -1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	pr_err("state %d (%s, psci-suspend-param %#x) refused by the "
	       "firmware: %s (%d); disabled on every CPU\n",
	       idx, states[idx].name, states[idx].psci_param,
	       psci_error_name(refusal.err), refusal.err);
}

void cpuidle_register_states(const struct cpuidle_state *s, int count,
			     cpuidle_enter_fn enter)
{
	count = min(count, CPUIDLE_STATE_MAX - 1);
	memcpy(&states[1], s, count * sizeof(*s));
	state_count = 1 + count;
	driver_enter = enter;
	for (int i = 1; i < state_count; i++)
		if (is_cluster_state(i) && !cluster_idle)
			states[i].disabled = true;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		menu_device_init(&cpuidle_devices[cpu].menu);
		cpuidle_devices[cpu].last_state = -1;
	}
}

void cpuidle_print_info(void)
{
	char line[256];
	int n = 0;

	for (int i = 0; i < state_count; i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s (%u/%u us%s)",
			      i ? ", " : "", states[i].name,
			      states[i].exit_latency_us,
			      states[i].target_residency_us,
			      states[i].flags & CPUIDLE_FLAG_TIMER_STOP
				      ? ", timer stops"
				      : "");
	pr_info("%s%s\n", cpuidle_off ? "off (cpuidle.off), would use: " : "",
		line);
}
