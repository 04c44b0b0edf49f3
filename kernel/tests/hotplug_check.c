/*
 * The invariants a CPU down or up must leave behind (hotplug_check.h):
 *   - the phase agrees with the masks and with the firmware (PSCI
 *     AFFINITY_INFO, or the kernel's pen): online means online, active,
 *     ON and answering a call; off means neither bit, no area, and OFF
 *     (in the pen) once a late CPU had its time to park; no CPU is left
 *     between steps;
 *   - a CPU that answers runs on its own live area and stack: its own
 *     per-CPU offset, the area's CPU number (its ownership tag), the
 *     stack end magic of its thread;
 *   - no area of a CPU that is off is still published;
 *   - no thread is queued on an inactive CPU;
 *   - no cpu_up()/cpu_down() in progress, no design's lock held.
 */
#include <asm/percpu.h>
#include <kernel/cpu.h>
#include <kernel/cpuhp.h>
#include <kernel/percpu.h>
#include <kernel/task.h>
#include "helpers.h"
#include "hotplug_check.h"

/* What the CPU itself says of where it runs (a cross-CPU call). */
struct self_view {
	unsigned int cpu, tag;
	unsigned long offset;
	struct task_struct *curr;
	u64 stack_end;
};

static void read_self(void *p)
{
	struct self_view *v = p;

	v->cpu = raw_smp_processor_id();
	v->offset = __my_cpu_offset();
	v->tag = *raw_cpu_ptr(&cpu_number);
	v->curr = current;
	v->stack_end = current->stack ? *(u64 *)current->stack : 0;
}

static void check_runs_own(hotplug_violated_fn violated, void *ctx,
			   const char *when, unsigned int cpu)
{
	struct self_view v = {.cpu = ~0U};

	/* A call to a CPU that is gone would wait for ever: ask first. */
	if (psci_checkable() &&
	    psci_affinity_info(cpu_logical_map(cpu)) != PSCI_AFFINITY_ON)
		return; /* said by check_cpu() */
	if (smp_call_function_single(cpu, read_self, &v, true) ||
	    v.cpu != cpu) {
		violated(ctx, "%s: CPU%u is online but takes no call", when,
			 cpu);
		return;
	}
	if (v.offset != __per_cpu_offset[cpu] || !percpu_area(cpu))
		violated(ctx, "%s: CPU%u runs on offset %#lx, not its area's",
			 when, cpu, v.offset);
	else if (v.tag != cpu)
		violated(ctx, "%s: CPU%u's area says CPU%u (not its own)", when,
			 cpu, v.tag);
	if (v.stack_end != STACK_END_MAGIC)
		violated(ctx,
			 "%s: CPU%u runs '%s' on a stack without its "
			 "end magic",
			 when, cpu, v.curr->comm);
}

/*
 * Off: AFFINITY_INFO says OFF, or, where offline CPUs park in the
 * kernel's pen (hotplug.pen, spin-table), the pen holds it; once a late
 * CPU had its time to get there. Before, a retry's CPU_ON would rightly
 * be answered ALREADY_ON.
 */
bool hotplug_cpu_settled_off(unsigned int cpu)
{
	if (psci_checkable())
		return wait_for(psci_affinity_info(cpu_logical_map(cpu)) ==
					PSCI_AFFINITY_OFF,
				HOTPLUG_SETTLE_US);
	return wait_for(cpu_pen_holds(cpu), HOTPLUG_SETTLE_US);
}

static void check_cpu(hotplug_violated_fn violated, void *ctx, const char *when,
		      unsigned int cpu)
{
	enum cpuhp_phase phase = cpuhp_phase(cpu);
	bool online = cpu_online(cpu), active = cpu_active(cpu);
	bool psci = psci_checkable();
	struct sched_cpu_stats st;

	if (!active) {
		sched_cpu_stats(cpu, &st);
		if (st.nr_running)
			violated(ctx, "%s: %u thread(s) on inactive CPU%u",
				 when, st.nr_running, cpu);
	}
	switch (phase) {
	case CPUHP_PHASE_ONLINE:
		if (!online || !active)
			violated(ctx,
				 "%s: CPU%u online by phase, online %d "
				 "active %d",
				 when, cpu, online, active);
		if (psci && psci_affinity_info(cpu_logical_map(cpu)) !=
				    PSCI_AFFINITY_ON)
			violated(ctx,
				 "%s: CPU%u online by phase, firmware "
				 "says not on",
				 when, cpu);
		check_runs_own(violated, ctx, when, cpu);
		break;
	case CPUHP_PHASE_OFF:
		if (online || active)
			violated(ctx,
				 "%s: CPU%u off by phase, online %d "
				 "active %d",
				 when, cpu, online, active);
		if (percpu_area(cpu))
			violated(ctx,
				 "%s: CPU%u is off, its area still "
				 "published",
				 when, cpu);
		if (!hotplug_cpu_settled_off(cpu))
			violated(ctx, "%s: CPU%u off by phase, but %s", when,
				 cpu,
				 psci ? "the firmware says on"
				      : "not in the pen");
		break;
	case CPUHP_PHASE_UNCONFIRMED:
		if (online || active)
			violated(ctx,
				 "%s: CPU%u unconfirmed, online %d "
				 "active %d",
				 when, cpu, online, active);
		break;
	default:
		violated(ctx, "%s: CPU%u left in phase %d", when, cpu, phase);
	}
}

void hotplug_check_cpus(hotplug_violated_fn violated, void *ctx,
			const char *when)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		check_cpu(violated, ctx, when, cpu);
	/* A reader may hold a design's read lock for a moment, never long. */
	if (!wait_for(cpu_hotplug_idle(), HOTPLUG_SETTLE_US))
		violated(ctx,
			 "%s: the hotplug lock or a design's lock is "
			 "held",
			 when);
}
