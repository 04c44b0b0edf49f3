/*
 * Operating points chosen from utilisation, as Linux's schedutil does:
 * each cluster runs at the lowest operating point (OPP) whose capacity
 * covers its busiest CPU's recent utilisation with a quarter to spare
 * (util x 1.25 <= capacity). The choice is made at each busy CPU's tick,
 * and every CPU's busy time is counted per OPP it ran at, for the power
 * model (kernel/governor/model.c), which registers the OPPs' capacities.
 *
 * QEMU cannot change its speed: a thread runs as fast at any OPP. So
 * utilisation here is measured at QEMU's one speed, taken to be the top
 * OPP's (which is what Linux's frequency-invariant utilisation is), and
 * the model charges work done at a lower OPP as capacity-scaled time:
 * a busy ms at capacity c costs cap_top / c ms at that OPP's power.
 * Nothing runs slower; wake-up latencies and deadlines are not stretched.
 *
 * sched.cpufreq_performance pins the top OPP (every CPU at full speed,
 * as without frequency scaling); schedutil is the default.
 */
#include <kernel/cpuidle.h>
#include <kernel/params.h>
#include <lib/errno.h>
#include <string.h>
#include "sched.h"

static unsigned int opp_caps[SCHED_OPP_MAX] = {1024};
static unsigned int nr_opps = 1;
static bool cpufreq_performance;
param_flag("sched.cpufreq_performance", cpufreq_performance,
	   "every CPU at its top operating point (no schedutil)");

unsigned int sugov_next_opp(unsigned int util, const unsigned int *caps,
			    unsigned int n)
{
	/* util is of UTIL_SCALE at the top OPP's capacity caps[n - 1]. */
	u64 need = (u64)util * caps[n - 1] * 5 / 4 / UTIL_SCALE;

	for (unsigned int i = 0; i < n; i++)
		if (caps[i] >= need)
			return i;
	return n - 1;
}

int sched_cpufreq_set_opps(const unsigned int *caps, unsigned int n)
{
	if (!n || n > SCHED_OPP_MAX)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (!caps[i] || (i && caps[i] <= caps[i - 1]))
			return -EINVAL; /* ascending, none zero */
	for (unsigned int i = 0; i < n; i++)
		WRITE_ONCE(opp_caps[i], caps[i]);
	WRITE_ONCE(nr_opps, n);
	return 0;
}

bool sched_cpufreq_performance(void)
{
	return READ_ONCE(cpufreq_performance);
}

/*
 * The OPP rq's cluster wants now: from the busiest CPU of the cluster.
 * Reads the others' utilisation without their locks (a snapshot is all
 * schedutil needs). Caller holds rq->lock.
 */
void sched_cpufreq_update(struct rq *rq, u64 now)
{
	unsigned int n = READ_ONCE(nr_opps), cpu = rq->cpu;
	u32 util = cpu_util(rq, now);

	lockdep_assert_held(&rq->lock);
	if (n == 1 || READ_ONCE(cpufreq_performance)) {
		rq->opp = n - 1;
		return;
	}
	while ((cpu = cpuidle_cluster_next(cpu)) != rq->cpu)
		util = max(util, cpu_util(cpu_rq(cpu), now));
	rq->opp = sugov_next_opp(util, opp_caps, n);
}
