/* What the files of kernel/governor share (not an interface). */
#ifndef KERNEL_POWER_INTERNAL_H
#define KERNEL_POWER_INTERNAL_H

#include <kernel/cpuidle.h>
#include <kernel/governor.h>
#include <kernel/sched.h>
#include <lib/cpumask.h>
#include <lib/types.h>

/* policy.c: the count a policy wants for sample s (before clamping). */
unsigned int gov_policy_want(enum gov_policy p, const struct gov_tunables *t,
			     const struct gov_record *s, unsigned int ceiling);

/*
 * The power model (model.c): each core is active at an operating point,
 * idle in one of its idle states or off; clusters cost their active power
 * while a core of theirs runs, their idle power while all are idle, their
 * down power while all are in a cluster state or off; a hotplug operation
 * (up or down) costs its measured time at active power plus a firmware
 * constant, or transition_uj if set.
 */
#define POWER_IDLE_MAX 4 /* idle states 1..3 have tunables */
#define POWER_OPP_MAX SCHED_OPP_MAX
#define POWER_UJ_DERIVED 0xffffffffU /* entry energy: exit latency x active */
struct power_opp {
	unsigned int khz;
	unsigned int capacity; /* of 1024 for the fastest core anywhere */
	unsigned int cpu_mw; /* a core running */
	unsigned int cluster_mw; /* its cluster while a core of it runs */
};
struct power_model {
	const char *name;
	struct power_opp opp[POWER_OPP_MAX];
	unsigned int nr_opps;
	unsigned int cur_opp; /* the top: what fixed costs are priced at */
	unsigned int wfi_mw;
	unsigned int idle_mw[POWER_IDLE_MAX]; /* [0] unused: WFI is wfi_mw */
	unsigned int idle_uj[POWER_IDLE_MAX];
	unsigned int off_mw;
	unsigned int cluster_idle_mw; /* every core idle, cluster on */
	unsigned int cluster_down_mw; /* every core in a cluster state/off */
	unsigned int cluster_uj; /* per cluster power-down */
	unsigned int transition_uj; /* 0: measured, plus fw_uj */
	unsigned int fw_uj;
};
extern struct power_model power_model;
/* Figures by name (juno-a53, invented): 0 or -EINVAL with a message. */
int power_model_load(const char *name);

/* Counters at the start of a measurement. */
struct power_meter_cpu {
	u64 busy_ns, idle_ns;
	u64 opp_busy_ns[POWER_OPP_MAX];
	struct cpuidle_state_usage idle[CPUIDLE_STATE_MAX];
};
struct power_meter {
	u64 t0_ns;
	struct power_meter_cpu *cpu; /* nr_cpu_ids entries, kmalloc'ed */
	u64 transitions;
	u64 op_ns; /* hotplug operations' time, summed */
	u64 stall_ns; /* CPUs held by stop_machine(), summed */
	struct cpuidle_cluster_stats clusters;
};

struct power_result {
	u64 wall_ns;
	u64 active_ns, idle_ns, off_ns; /* summed over CPUs */
	u64 opp_busy_ns[POWER_OPP_MAX]; /* active_ns by operating point */
	u64 state_ns[CPUIDLE_STATE_MAX]; /* idle_ns by state; [0] WFI */
	u64 state_entries[CPUIDLE_STATE_MAX];
	unsigned int nr_clusters;
	u64 clusters_idle_ns; /* summed over clusters: all cores idle/off */
	u64 clusters_down_ns; /* of which all in a cluster state or off */
	u64 cluster_downs;
	u64 cluster_uj; /* the energy of each, as the model priced it */
	u64 transitions;
	u64 transition_uj; /* the energy of each, as the model priced it */
	u64 stall_ns; /* other CPUs held by stop_machine(), summed */
	u64 energy_uj;
};

/*
 * strategy.c: every listed strategy (all if nr_only is 0) on every listed
 * workload, then hotplug+idle once per down delay of delays[] (ms);
 * -EINVAL (nothing run) if a name is unknown.
 */
#define POWER_MAX_DELAYS 8
int power_strategies(char *const *only, int nr_only, char *const *wls,
		     int nr_wls, unsigned int scale, const unsigned int *delays,
		     int nr_delays);

/* The break-even idle length of taking a CPU down, and its terms. */
struct power_break_even {
	u64 transition_uj; /* one down or up */
	int state; /* the idle state it would otherwise idle in */
	unsigned int state_mw, off_mw;
	unsigned int rate_hz; /* its wake-ups a second */
	u64 entry_uj; /* each wake-up's entry energy in that state */
	bool cluster_term; /* last online core, cluster not down from idle */
	unsigned int cluster_idle_mw, cluster_down_mw;
	unsigned int ms; /* the result, at most 60000 */
};
/* The formula from the terms (pure: tests call it). */
unsigned int power_break_even_calc(const struct power_break_even *be);
/* The terms for cpu now, and the result in be->ms. */
void power_break_even_for(unsigned int cpu, struct power_break_even *be);

/* A hotplug operation's energy now (uJ). */
u64 power_transition_uj(void);
/* <0 if there is no memory for it; power_meter_free() when done. */
int power_meter_start(struct power_meter *m);
void power_meter_free(struct power_meter *m);
void power_meter_read(const struct power_meter *m, struct power_result *r);
/* "active_mw=150", "model=invented" etc.; 0 or -EINVAL with a message
 * (nothing changed). */
int power_model_set(const char *kv);
void power_model_print(void);
/* Figures since boot (boot.c starts the meter at boot). */
void power_since_boot(struct power_result *r);
/* power.scale=: the workloads' length in percent (0: each one's default). */
extern unsigned long power_scale;
/* Split s at commas, in place, into at most POWER_MAX_WORDS words. */
#define POWER_MAX_WORDS 16
int power_split_commas(char *s, char **argv);

/* Synthetic workloads (workload.c). */
enum wl_kind {
	WL_IDLE, /* nothing */
	WL_STEADY, /* `threads` CPU-bound threads */
	WL_BURST, /* `threads` threads: on_us busy every period_ms */
	WL_FRAMES, /* like bursts, a frame period: wake-up latency matters */
	WL_RING, /* `threads` pass a token round: on_us each, then wake the
		  * next and sleep (a wake-up storm over every CPU) */
};

/* Threads of one kind; a phase runs up to WL_PARTS parts at once. */
struct wl_part {
	enum wl_kind kind;
	unsigned int threads;
	unsigned int on_us, period_ms;
};

#define WL_PARTS 3
struct wl_phase {
	const char *name;
	unsigned int ms;
	struct wl_part part[WL_PARTS]; /* threads 0 ends the list */
};

struct wl_result {
	u64 units; /* work units done by every thread */
	u64 cpu_ns; /* CPU time they received (work on a fixed-speed core) */
	unsigned int wakeups; /* latency samples */
	u64 frames, frame_misses; /* periodic work items, those late */
	u64 lat_p50_ns, lat_p99_ns;
};

/* A named sequence of phases: the phased mix, the phone, the storm. */
struct wl_workload {
	const char *name;
	const struct wl_phase *phases;
	unsigned int nr_phases;
};
extern const struct wl_workload wl_workloads[];
extern const unsigned int wl_nr_workloads;

/* The phased mix make power and the demo run. */
extern const struct wl_phase wl_mix[];
extern const unsigned int wl_mix_len;

void wl_reset(void);
/*
 * Run a phase for ms x scale / 100; tick(arg) is called about every
 * second while it runs (NULL: none). Returns once its threads are gone.
 */
void wl_run_phase(const struct wl_phase *ph, unsigned int scale,
		  void (*tick)(const char *phase, void *arg), void *arg);
void wl_result(struct wl_result *r);
/*
 * A frame released at release_ns, due period_ns later, finished at
 * done_ns: the deadlines it missed (its own, and each later release that
 * passed meanwhile, a dropped frame); *next_ns the next release to serve.
 */
unsigned int wl_frame_misses(u64 release_ns, u64 period_ns, u64 done_ns,
			     u64 *next_ns);

#endif
