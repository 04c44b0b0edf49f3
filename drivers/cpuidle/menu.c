/*
 * The idle governor: which state an idle CPU enters. It predicts how long
 * the CPU will stay idle and picks the deepest state that pays off over
 * that length (its target residency) within the wake-up latency limit.
 *
 * The prediction has Linux's menu governor's two sources, written anew:
 * - the next timer event, scaled by a correction factor learnt per range
 *   of that distance (interrupts other than the timer end many idle
 *   periods early: the factor is the measured share of the distance);
 * - a repeating pattern: if the last MENU_INTERVALS idle lengths agree
 *   (small spread, after dropping up to two outliers), their mean.
 * The smaller wins. Errors cost asymmetrically: too deep wastes the entry
 * and exit energy and adds latency, too shallow only misses a saving, so
 * when in doubt the prediction stays short.
 */
#include <kernel/cpuidle.h>
#include <lib/kernel.h>

#define CORRECTION_ONE 1024 /* a factor of 1.0 */
#define CORRECTION_DECAY 8 /* new = old x 7/8 + sample / 8 */
#define RATIO_CAP_NS 10000000000ULL /* no timer: measure against 10 s */

void menu_device_init(struct menu_device *md)
{
	*md = (struct menu_device){0};
	for (int i = 0; i < MENU_BUCKETS; i++)
		md->correction[i] = CORRECTION_ONE;
}

/* Decades of the next timer's distance: <10 us, <100 us, ... >= 100 ms. */
static u32 which_bucket(u64 next_ns)
{
	u32 b = 0;

	for (u64 limit = 10000; b < MENU_BUCKETS - 1 && next_ns >= limit;
	     limit *= 10)
		b++;
	return b;
}

/*
 * The mean of the recent idle lengths if they repeat, else U64_MAX. A
 * set repeats if its standard deviation is at most 20 us or a sixth of
 * the mean; otherwise drop the longest (a one-off long sleep) and retry,
 * keeping at least 6 of the 8.
 */
static u64 typical_interval_ns(const struct menu_device *md)
{
	u32 ceiling = U32_MAX;

	for (int round = 0; round < 3; round++) {
		u64 sum = 0, sq = 0, n = 0, avg, var;
		u32 longest = 0;

		for (int i = 0; i < MENU_INTERVALS; i++) {
			u32 v = md->intervals_us[i];

			if (!v || v > ceiling)
				continue;
			sum += v;
			n++;
			longest = max(longest, v);
		}
		if (n < MENU_INTERVALS - 2)
			return U64_MAX;
		avg = sum / n;
		for (int i = 0; i < MENU_INTERVALS; i++) {
			u32 v = md->intervals_us[i];

			if (v && v <= ceiling)
				sq += (u64)(((s64)v - (s64)avg) *
					    ((s64)v - (s64)avg));
		}
		var = sq / n;
		if (var <= 400 || avg * avg > 36 * var)
			return avg * 1000;
		ceiling = longest - 1;
	}
	return U64_MAX;
}

int menu_select(const struct cpuidle_state *states, int count,
		struct menu_device *md, u64 next_ns, u32 latency_us)
{
	u64 capped = min(next_ns, RATIO_CAP_NS), predicted;
	int idx = 0;

	md->bucket = which_bucket(capped);
	md->next_timer_ns = capped;
	predicted = capped * md->correction[md->bucket] / CORRECTION_ONE;
	predicted = min(predicted, typical_interval_ns(md));
	for (int i = 1; i < count; i++) {
		const struct cpuidle_state *s = &states[i];

		if (s->disabled || s->exit_latency_us > latency_us)
			continue;
		if ((u64)s->target_residency_us * 1000 > predicted)
			continue;
		idx = i;
	}
	return idx;
}

void menu_reflect(struct menu_device *md, u64 measured_ns)
{
	u32 *c = &md->correction[md->bucket];
	u64 ratio = CORRECTION_ONE;

	if (md->next_timer_ns)
		ratio = min(measured_ns, md->next_timer_ns) * CORRECTION_ONE /
			md->next_timer_ns;
	*c = (*c * (CORRECTION_DECAY - 1) + ratio) / CORRECTION_DECAY;
	/* Never zero: a factor of 0 would pin the bucket to WFI for good. */
	if (!*c)
		*c = 1;
	md->intervals_us[md->interval_ptr] =
		(u32)min(measured_ns / 1000 + 1, (u64)U32_MAX);
	md->interval_ptr = (md->interval_ptr + 1) % MENU_INTERVALS;
}
