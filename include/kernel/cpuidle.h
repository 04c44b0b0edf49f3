/*
 * CPU idle states: what an idle CPU does instead of a bare WFI when the
 * firmware offers deeper states (PSCI CPU_SUSPEND), which one it picks
 * for each idle period (the governor), and what each CPU did (per-state
 * counts and residency, for the power model and the `cpuidle` command).
 *
 * State 0 is always WFI. Deeper states come from the device tree's
 * idle-states (drivers/cpuidle/dt_idle_states.c), in increasing depth.
 */
#ifndef KERNEL_CPUIDLE_H
#define KERNEL_CPUIDLE_H

#include <lib/types.h>

#define CPUIDLE_STATE_MAX 8
#define CPUIDLE_NAME_LEN 24

/* The local timer stops in this state: the CPU needs a broadcast wake-up. */
#define CPUIDLE_FLAG_TIMER_STOP (1U << 0)
/* The core loses its context (PSCI power-down): cpu_suspend() saves it. */
#define CPUIDLE_FLAG_POWERDOWN (1U << 1)
/*
 * A cluster state: the CPU's deepest state and its cluster's, asked for
 * together (one composite power_state); the cluster powers down only once
 * every CPU of it is in such a state or off (platform-coordinated).
 */
#define CPUIDLE_FLAG_CLUSTER (1U << 2)

struct cpuidle_state {
	char name[CPUIDLE_NAME_LEN];
	u32 entry_latency_us;
	u32 exit_latency_us; /* worst-case wake-up latency: entry + exit */
	u32 target_residency_us; /* shortest stay for it to save energy */
	u32 flags;
	u32 psci_param; /* CPU_SUSPEND's power_state (0 for WFI) */
	/* Refused by the firmware (the reason printed) or by the user. */
	bool disabled;
	/* Of exit_latency_us, the cluster's part (a cluster state's): where
	 * the exit is emulated (QEMU), paid only if the cluster went down. */
	u32 cluster_exit_us;
};

/*
 * What one CPU did in one state. An array, not per-CPU data: the counts
 * outlive hotplug and are read for CPUs that are off.
 */
struct cpuidle_state_usage {
	u64 usage; /* entries */
	u64 time_ns; /* measured residency */
	u64 above; /* woke before the target residency: too deep */
	u64 below; /* stayed long enough for a deeper allowed state */
	u64 rejected; /* the entry failed or the broadcast refused it */
	u64 demoted; /* power-down asked, the firmware returned from standby */
	u64 exit_ns; /* emulated exits (QEMU), not in time_ns */
	u64 cluster_exits; /* of them, exits that paid the cluster's part */
};

/* The governor's history of one CPU (drivers/cpuidle/menu.c). */
#define MENU_INTERVALS 8
#define MENU_BUCKETS 6
struct menu_device {
	u32 intervals_us[MENU_INTERVALS]; /* last measured idle lengths */
	unsigned int interval_ptr;
	u32 correction[MENU_BUCKETS]; /* measured / next-timer, x 1024 */
	u32 bucket; /* of the current selection */
	u64 next_timer_ns; /* of the current selection */
};

struct cpuidle_device {
	struct cpuidle_state_usage states[CPUIDLE_STATE_MAX];
	struct menu_device menu;
	int last_state; /* -1: none yet */
	u64 last_residency_ns;
	u64 broadcast_refused; /* a timer-stop state refused: this CPU wakes others */
};

/*
 * The governor's choice for an idle period expected to last until the
 * next timer event (next_ns from now, U64_MAX if none) with a wake-up
 * latency limit (latency_us, U32_MAX for none): the deepest enabled
 * state whose target residency fits the predicted idle length and whose
 * exit latency keeps within the limit. Pure: tests call it directly.
 */
int menu_select(const struct cpuidle_state *states, int count,
		struct menu_device *md, u64 next_ns, u32 latency_us);
/* After the period: how long the CPU stayed (measured_ns) in state idx. */
void menu_reflect(struct menu_device *md, u64 measured_ns);
void menu_device_init(struct menu_device *md);

/* The states in force, WFI included; 1 means WFI only. */
int cpuidle_state_count(void);
/* The deepest state idle CPUs may use now (forced, enabled, off): 0 is WFI. */
int cpuidle_deepest_usable(void);
const struct cpuidle_state *cpuidle_get_state(int idx);
/* Copy of cpu's counts (zeroed for a CPU with none). */
void cpuidle_get_usage(unsigned int cpu, struct cpuidle_state_usage *out,
		       int count);

/* From the idle loop: IRQs off, RCU in its extended quiescent state. */
void cpuidle_idle_call(void);
/* From the idle loop once RCU watches again: print a firmware refusal. */
void cpuidle_idle_exit_report(void);

/*
 * The wake-up latency limit (us) every idle choice keeps within: the
 * smallest of `cpuidle.latency_us=`, the shell's and every request
 * (Linux's cpu_latency_qos). U32_MAX: none.
 */
struct cpu_latency_req {
	u32 latency_us;
	bool active;
	struct cpu_latency_req *next;
};
/* Add (or update) and remove a request; idle CPUs see it at their next
 * idle entry (cpuidle_kick_all_sync() makes that now). */
void cpu_latency_qos_add_request(struct cpu_latency_req *req, u32 us);
void cpu_latency_qos_remove_request(struct cpu_latency_req *req);
u32 cpu_latency_qos_limit(void);

/*
 * Tests and benchmarks: every idle entry uses state idx (still refused
 * past the latency limit or when disabled); -1 lets the governor choose.
 */
int cpuidle_force_state(int idx);
/* The same without waiting for the other CPUs (preemption off: benches). */
int cpuidle_force_state_nosync(int idx);
/* Enable or disable state idx (>= 1) for every CPU: 0 or -EINVAL. */
int cpuidle_set_disabled(int idx, bool disabled);
/*
 * Every CPU leaves the idle period it is in (counted) and chooses again:
 * after a change of the rules. May sleep; the calls above do it.
 */
void cpuidle_kick_all_sync(void);

/*
 * Clusters: which CPUs share one (the tree's PSCI power domains, else
 * groups of 2 in CPU order), how long each was idle (every CPU of it in
 * the idle path or off) and down (every CPU in a cluster state or off;
 * counted as the firmware would power it).
 */
struct cpuidle_cluster_stats {
	unsigned int cpus;
	u64 downs; /* times it went down */
	u64 down_ns; /* time down, until now */
	u64 idle_ns; /* time every CPU of it idle or off (down included) */
	unsigned int idle_cpus; /* its CPUs idle or off, now */
	unsigned int down_cpus; /* those of them in a cluster state or off */
};
unsigned int cpuidle_nr_clusters(void);
unsigned int cpuidle_cpu_cluster(unsigned int cpu);
/* The next CPU of cpu's cluster, cpu itself last: walk a cluster with it. */
unsigned int cpuidle_cluster_next(unsigned int cpu);
void cpuidle_cluster_stats(unsigned int c, struct cpuidle_cluster_stats *st);
/* The same summed over every cluster (cpus: every CPU). */
void cpuidle_clusters_sum(struct cpuidle_cluster_stats *sum);
/*
 * Group CPUs in clusters of n when the tree does not say: 0, -EINVAL
 * (n is 0 or above nr_cpu_ids), -EBUSY (the tree groups them), or
 * -ETIMEDOUT (stop_machine() could not stop every CPU). Nothing changes
 * on an error. May sleep; takes the hotplug lock.
 */
int cpuidle_set_cluster_cpus(unsigned int n);
/* At boot, on the boot CPU before any other: every other CPU is off. */
void cpuidle_clusters_init(void);
/*
 * Whether idle CPUs may use cluster states (cpuidle.cluster_idle=): off,
 * only CPUs being off power a cluster down. -ENODEV if the tree has none
 * (the setting is kept).
 */
int cpuidle_set_cluster_idle(bool on);
bool cpuidle_cluster_idle(void);
/* Does each wake-up wait out its state's exit latency (QEMU virt)? */
bool cpuidle_exit_emulated(void);

/* Boot, once PSCI is probed: the states of the tree, or WFI only. */
void cpuidle_init(void);
/* The other CPUs are up: idle states may be used from now on. */
void cpuidle_boot_done(void);
void cpuidle_print_info(void);

#endif
