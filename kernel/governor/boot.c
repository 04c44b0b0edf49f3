/*
 * What the command line asks of the governor at boot: power.model= sets
 * the power model, policy= starts the governor, demo runs the phased
 * workload under it with a live status line each second, then stops it
 * and brings every CPU back (make run). The comparisons that power= and
 * power.strategies run are experiments, in run.c and strategy.c.
 */
#define pr_fmt(fmt) "power: " fmt
#include <kernel/cpu.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <string.h>
#include <kernel/power.h>

static char policy_word[256], model_word[128];
unsigned long power_scale;
static bool demo;
param_string("policy", policy_word,
	     "NAME[,key=value...]: start the hotplug governor");
param_ulong("power.scale", power_scale, 1, 1000,
	    "N: length of the phased workload of power= and demo, percent "
	    "(default 100; demo 200)");
param_string("power.model", model_word,
	     "[model=juno-a53|invented,]key=N,...: the power model's figures");
param_flag("demo", demo,
	   "the phased workload under the governor with a status line each "
	   "second, then the shell");

/* Split s at commas, in place. */
int power_split_commas(char *s, char **argv)
{
	int n = 0;

	while (*s && n < POWER_MAX_WORDS) {
		argv[n++] = s;
		s = strchr(s, ',');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static struct power_meter boot_meter;

/* Energy and figures since boot, for the shell's `power`. */
void power_since_boot(struct power_result *r)
{
	power_meter_read(&boot_meter, r);
}

struct demo {
	u64 t0, last;
};

static void demo_status(const char *phase, void *arg)
{
	struct demo *d = arg;
	u64 now = ktime_get_ns();
	struct cpuhp_stats hs;
	struct rcu_stats rs;
	struct gov_record r;
	char mask[64];

	if (now - d->last < NSEC_PER_SEC)
		return;
	d->last = now;
	governor_last(&r);
	rcu_get_stats(&rs);
	hotplug_get_stats(&hs);
	cpumap_print_list(mask, sizeof(mask), cpu_online_mask);
	printk(KERN_INFO
	       "[demo %2llus] %-9s load %2u.%02u util %3u%%  online "
	       "%-8s (%u)  grace periods %ld + %llu expedited  hotplug "
	       "%llu\n",
	       (unsigned long long)((now - d->t0) / NSEC_PER_SEC), phase,
	       r.depth / 100, r.depth % 100, r.util, mask, num_online_cpus(),
	       rs.gp_completed, (unsigned long long)rs.nr_exp_samples,
	       (unsigned long long)(hs.ups + hs.downs));
}

static void demo_run(unsigned int scale)
{
	struct demo d = {.t0 = ktime_get_ns()};
	struct gov_tunables t;
	enum gov_policy p;
	struct power_meter m;
	struct power_result pr;
	struct wl_result wl;

	governor_get(&p, &t);
	if (p == GOV_NONE)
		governor_set(GOV_RQDEPTH, &t);
	governor_get(&p, &t);
	printk(KERN_INFO "demo: %s governor, phased workload (idle, 4 "
			 "CPU-bound threads, frames, bursts, 1 thread, idle)\n",
	       gov_policy_name(p));
	wl_reset();
	if (power_meter_start(&m)) {
		pr_err("demo: no memory for the meter\n");
		return;
	}
	for (unsigned int i = 0; i < wl_mix_len; i++)
		wl_run_phase(&wl_mix[i], scale, demo_status, &d);
	power_meter_read(&m, &pr);
	power_meter_free(&m);
	wl_result(&wl);
	printk(KERN_INFO "demo: done: modelled energy %llu mJ, %llu work "
			 "units, wake-up p50 %llu us p99 %llu us, %llu hotplug "
			 "operations\n",
	       (unsigned long long)(pr.energy_uj / 1000),
	       (unsigned long long)wl.units,
	       (unsigned long long)(wl.lat_p50_ns / 1000),
	       (unsigned long long)(wl.lat_p99_ns / 1000),
	       (unsigned long long)pr.transitions);
	/* The shell starts as a plain boot would: every CPU online and no
	 * governor taking them down behind the user's back. */
	governor_set(GOV_NONE, &t);
	cpu_up_all();
	if (num_online_cpus() == cpumask_weight(cpu_present_mask))
		printk(KERN_INFO "demo: done; all %u CPUs online (governor "
				 "stopped, policy none); try 'cpus', 'policy "
				 "rqdepth'\n",
		       num_online_cpus());
	else
		pr_warn("demo: done; only %u of %u CPUs came back online "
			"(governor stopped); see 'cpus'\n",
			num_online_cpus(), cpumask_weight(cpu_present_mask));
}

/* policy=NAME[,key=value...] */
static void policy_from_cmdline(char *arg)
{
	char *words[POWER_MAX_WORDS];
	int n = power_split_commas(arg, words);
	struct gov_tunables t;
	enum gov_policy p;

	gov_default_tunables(&t);
	if (!n || gov_policy_parse(words[0], &p) ||
	    gov_parse_args(n - 1, words + 1, &t)) {
		pr_warn("policy= ignored\n");
		return;
	}
	governor_set(p, &t);
}

static void model_from_cmdline(char *arg)
{
	char *words[POWER_MAX_WORDS];
	int n = power_split_commas(arg, words);

	for (int i = 0; i < n; i++)
		if (power_model_set(words[i]))
			pr_warn("power_model: '%s' ignored\n", words[i]);
}

/* power.model= and policy=, before anything runs. */
void governor_boot(void)
{
	char arg[256]; /* split in place: the words keep their values */

	if (power_meter_start(&boot_meter))
		pr_err("power: no memory for the boot meter\n");
	if (model_word[0]) {
		strlcpy(arg, model_word, sizeof(arg));
		model_from_cmdline(arg);
	}
	if (policy_word[0]) {
		strlcpy(arg, policy_word, sizeof(arg));
		policy_from_cmdline(arg);
	}
}

/* demo, the last thing a boot does before the shell. */
void governor_demo_boot(void)
{
	if (demo)
		demo_run(power_scale ?: 200);
}
