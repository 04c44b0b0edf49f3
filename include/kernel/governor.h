/*
 * The hotplug-for-power governor (kernel/governor/): a thread that samples
 * every online CPU's run-queue depth and busy share each period and takes
 * CPUs up or down under a policy, in the manner of Android's mpdecision,
 * cpuquiet and intelli-plug. docs/governor.md has the policies, their
 * parameters and the rules between the governor and a manual off/on.
 */
#ifndef KERNEL_GOVERNOR_H
#define KERNEL_GOVERNOR_H

#include <lib/cpumask.h>
#include <lib/kernel.h>

enum gov_policy {
	GOV_NONE, /* governor stopped: CPUs change only by hand */
	GOV_PERFORMANCE, /* every CPU up to the ceiling */
	GOV_POWERSAVE, /* the floor only */
	GOV_RQDEPTH, /* run-queue depth thresholds (cpuquiet, intelli-plug) */
	GOV_LOAD, /* utilisation thresholds (mpdecision-like) */
	GOV_FIXED, /* a count set by hand (cpus=) */
	GOV_NR_POLICIES,
};

/* Everything `policy NAME key=value` may set; docs/governor.md. */
struct gov_tunables {
	unsigned int period_ms; /* sampling period */
	unsigned int up_delay_ms; /* "want more" must last this long */
	unsigned int down_delay_ms; /* "want fewer" must last this long */
	unsigned int hysteresis_ms; /* at least this between two changes */
	unsigned int min_cpus; /* floor */
	unsigned int max_cpus; /* ceiling (0: every present CPU) */
	unsigned int up_rq; /* rqdepth: threads/CPU x100 above which: up */
	unsigned int down_rq; /* rqdepth: x100 below which, on one CPU less */
	unsigned int up_util; /* load: busy % per CPU above which: up */
	unsigned int down_util; /* load: % below which, on one CPU less */
	unsigned int cpus; /* fixed: the count */
	/* 1: down_delay_ms is the break-even time of the power model
	 * (power_break_even_ms()), not the tunable's value */
	unsigned int cost_aware;
};

enum gov_event {
	GOV_EV_SAMPLE, /* a sample, nothing changed */
	GOV_EV_UP, /* the governor brought cpu up */
	GOV_EV_DOWN, /* the governor took cpu down */
	GOV_EV_UP_FAILED,
	GOV_EV_DOWN_FAILED,
	GOV_EV_MANUAL_OFF, /* `off N` from the shell: pinned off */
	GOV_EV_MANUAL_ON, /* `on N`: unpinned, the governor's again */
	GOV_EV_POLICY, /* policy or tunables changed */
};

/*
 * One record of the governor's trace. depth is the sum over online CPUs
 * of their average run-queue depth during the period (x100), util the
 * sum of their busy shares (percent, up to 100 per CPU).
 */
struct gov_record {
	u64 seq;
	u64 t_ns; /* ktime */
	u32 depth;
	u32 util;
	u64 mask; /* online CPUs 0..63 after the record's event */
	u16 online;
	u16 want; /* what the policy asked for (clamped) */
	s16 cpu; /* the event's CPU, -1 for none */
	u8 event; /* enum gov_event */
	u8 policy; /* enum gov_policy */
};

/* Names, here so that the trace's dump prints them without calling up
 * into the governor. */
static inline const char *gov_policy_name(enum gov_policy p)
{
	static const char *const names[GOV_NR_POLICIES] = {
		[GOV_NONE] = "none",
		[GOV_PERFORMANCE] = "performance",
		[GOV_POWERSAVE] = "powersave",
		[GOV_RQDEPTH] = "rqdepth",
		[GOV_LOAD] = "load",
		[GOV_FIXED] = "fixed",
	};

	return (unsigned int)p < GOV_NR_POLICIES ? names[p] : "?";
}

static inline const char *gov_event_name(enum gov_event e)
{
	static const char *const names[] = {
		[GOV_EV_SAMPLE] = "sample",
		[GOV_EV_UP] = "up",
		[GOV_EV_DOWN] = "down",
		[GOV_EV_UP_FAILED] = "up-failed",
		[GOV_EV_DOWN_FAILED] = "down-failed",
		[GOV_EV_MANUAL_OFF] = "manual-off",
		[GOV_EV_MANUAL_ON] = "manual-on",
		[GOV_EV_POLICY] = "policy",
	};

	return (unsigned int)e < ARRAY_SIZE(names) ? names[e] : "?";
}
/* -EINVAL for an unknown name. */
int gov_policy_parse(const char *name, enum gov_policy *out);

/*
 * Set the policy and tunables (the governor thread starts if it is not
 * running and policy is not none; none stops it and waits for it).
 */
void governor_set(enum gov_policy p, const struct gov_tunables *t);
void governor_get(enum gov_policy *p, struct gov_tunables *t);
void gov_default_tunables(struct gov_tunables *t);
/*
 * Apply "key=value" to t; 0, or -EINVAL with the reason printed (an
 * unknown key, a value that is not a number or out of its range).
 */
int gov_tunable_set(struct gov_tunables *t, const char *kv);
void gov_tunables_print(const struct gov_tunables *t);
/* Sets t to the defaults, then applies "key=value" words; -EINVAL. */
int gov_parse_args(int argc, char **argv, struct gov_tunables *t);

/* Manual off/on (the shell's off/on): a manual off pins the CPU off. */
int governor_manual_off(unsigned int cpu);
int governor_manual_on(unsigned int cpu);
void governor_pinned_off(struct cpumask *out);

/* The trace: records with seq >= from, oldest first; returns the count. */
unsigned int gov_trace_read(u64 from, struct gov_record *out, unsigned int n);
u64 gov_trace_next_seq(void);
/* Samples taken so far (tests wait on it instead of sleeping). */
u64 governor_samples(void);
/* The last sample (zeros before the first). */
void governor_last(struct gov_record *r);
/* Print "gov-trace,..." CSV lines of records from `from` on (make power),
 * times in ms from t0_ns. */
void gov_trace_dump(u64 from, const char *label, u64 t0_ns);

/* At boot: power.model= and policy=; then, last, demo (make run). */
void governor_boot(void);
void governor_demo_boot(void);
/* At boot: the comparisons of make power (power=, power.strategies). A
 * build without benchmarks (BENCH=0) has none. */
#ifdef CONFIG_BENCH
void power_runs_boot(void);
#else
static inline void power_runs_boot(void)
{
}
#endif

/*
 * The power model's break-even idle length (ms): a down and an up cost
 * more energy than an off core saves against the deepest idle state it
 * would otherwise sit in, until the core has been off this long.
 */
unsigned int power_break_even_ms(void);

#endif
