/*
 * The governor's policies: their names, their tunables (defaults, ranges,
 * key=value parsing) and each policy's decision, "how many CPUs should be
 * online for this sample". Delays, hysteresis and which CPU moves are the
 * governor's (governor.c), the same for every policy.
 */
#define pr_fmt(fmt) fmt
#include <kernel/printk.h>
#include <lib/errno.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/power.h>

int gov_policy_parse(const char *name, enum gov_policy *out)
{
	for (int p = 0; p < GOV_NR_POLICIES; p++)
		if (!strcmp(name, gov_policy_name(p))) {
			*out = p;
			return 0;
		}
	pr_info("error: unknown policy '%s' (performance powersave rqdepth "
		"load fixed none)\n",
		name);
	return -EINVAL;
}

struct tunable {
	const char *key;
	size_t offset;
	unsigned int min, max, def;
};

#define T(field, lo, hi, d)                                             \
	{                                                               \
#field, offsetof(struct gov_tunables, field), lo, hi, d \
	}

/*
 * Defaults: a 50 ms period (intelli-plug sampled every 50-100 ms), quick
 * to add a CPU (100 ms), slow to remove one (500 ms), as those governors
 * were, because a missing CPU costs latency at once while an idle one
 * costs only a little power. rqdepth adds a CPU when more than 1.25
 * threads per CPU are runnable and removes one when the rest would carry
 * fewer than 0.75 each; load uses 80 % and 40 % busy. cost_aware=1
 * replaces the fixed down delay by the power model's break-even time
 * (kernel/governor/model.c), which no Android governor did.
 */
static const struct tunable tunables[] = {
	T(period_ms, 5, 10000, 50),	 T(up_delay_ms, 0, 60000, 100),
	T(down_delay_ms, 0, 60000, 500), T(hysteresis_ms, 0, 60000, 200),
	T(min_cpus, 1, NR_CPUS, 1),	 T(max_cpus, 0, NR_CPUS, 0),
	T(up_rq, 1, 10000, 125),	 T(down_rq, 0, 10000, 75),
	T(up_util, 1, 100, 80),		 T(down_util, 0, 100, 40),
	T(cpus, 1, NR_CPUS, 2),		 T(cost_aware, 0, 1, 0),
};

static unsigned int *field(struct gov_tunables *t, const struct tunable *d)
{
	return (unsigned int *)((char *)t + d->offset);
}

void gov_default_tunables(struct gov_tunables *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++)
		*field(t, &tunables[i]) = tunables[i].def;
}

static void print_keys(void)
{
	pr_info("keys:");
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++)
		pr_cont(" %s", tunables[i].key);
	pr_cont("\n");
}

int gov_tunable_set(struct gov_tunables *t, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
	unsigned long v;
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++) {
		const struct tunable *d = &tunables[i];

		if (strlen(d->key) != klen || strncmp(kv, d->key, klen))
			continue;
		if (!eq || !eq[1]) {
			pr_info("error: '%s' wants key=value\n", kv);
			return -EINVAL;
		}
		v = strtoul(eq + 1, &end, 10);
		if (*end || v < d->min || v > d->max) {
			pr_info("error: %s wants a whole number in [%u, %u], "
				"not '%s'\n",
				d->key, d->min, d->max, eq + 1);
			return -EINVAL;
		}
		*field(t, d) = v;
		return 0;
	}
	pr_info("error: unknown key '%.*s'\n", (int)klen, kv);
	print_keys();
	return -EINVAL;
}

int gov_parse_args(int argc, char **argv, struct gov_tunables *t)
{
	for (int i = 0; i < argc; i++)
		if (gov_tunable_set(t, argv[i]))
			return -EINVAL;
	if (t->max_cpus && t->min_cpus > t->max_cpus) {
		pr_info("error: min_cpus %u is above max_cpus %u\n",
			t->min_cpus, t->max_cpus);
		return -EINVAL;
	}
	if (t->down_rq >= t->up_rq || t->down_util >= t->up_util) {
		pr_info("error: a down threshold must be below its up "
			"threshold\n");
		return -EINVAL;
	}
	return 0;
}

void gov_tunables_print(const struct gov_tunables *t)
{
	pr_info("tunables:");
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++)
		pr_cont(" %s=%u", tunables[i].key,
			*field((struct gov_tunables *)t, &tunables[i]));
	pr_cont("\n");
}

/* The fewest CPUs that carry `total` with at most `per_cpu` each. */
static unsigned int cpus_for(u32 total, unsigned int per_cpu)
{
	return (total + per_cpu - 1) / per_cpu;
}

/*
 * Threshold policies: jump up to as many CPUs as the demand needs above
 * the up threshold; step down one CPU at a time while the remaining ones
 * would stay below the down threshold. The gap between the two
 * thresholds is the load hysteresis.
 */
static unsigned int thresholds(u32 total, unsigned int online, unsigned int up,
			       unsigned int down)
{
	if (total > online * up)
		return max(cpus_for(total, up), online + 1);
	if (online > 1 && total < (online - 1) * down)
		return online - 1;
	return online;
}

unsigned int gov_policy_want(enum gov_policy p, const struct gov_tunables *t,
			     const struct gov_record *s, unsigned int ceiling)
{
	switch (p) {
	case GOV_PERFORMANCE:
		return ceiling;
	case GOV_POWERSAVE:
		return t->min_cpus;
	case GOV_FIXED:
		return t->cpus;
	case GOV_RQDEPTH:
		return thresholds(s->depth, s->online, t->up_rq, t->down_rq);
	case GOV_LOAD:
		return thresholds(s->util, s->online, t->up_util, t->down_util);
	default:
		return s->online;
	}
}
