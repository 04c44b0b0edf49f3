/*
 * The firmware's share of a bring-up and of a power-off, timed for the
 * figures (hotplug statistics, make bench): what the enable method's
 * firmware calls took, apart from the kernel's own steps.
 *
 * The firmware's share of a bring-up and of a power-off, on the generic
 * timer's counter (the clock ktime_get_ns() reads, the same on every CPU):
 *
 *   up    on_call (right before CPU_ON, on the CPU calling it) to the
 *         started CPU's first instruction (secondary_data.entry_ticks,
 *         head.S)
 *   down  off_call (right before CPU_OFF, on the dying CPU) to off_seen
 *         (right after the first AFFINITY_INFO answer OFF, on the CPU
 *         waiting in __cpu_die())
 *
 * smp.c opens each attempt (fw_share_*_begin(), which clears its stamps)
 * and closes a successful one (fw_share_*_done()).
 *
 * The enable method stamps the firmware calls (cpu_fw_*() in
 * <kernel/cpu_ops.h>); one that calls no firmware (spin-table, the pen)
 * stamps nothing, and its operations have no figure. Each attempt clears
 * its stamps first, so a figure never mixes two attempts. Bring-ups and
 * downs are serialised by cpu_add_remove_lock.
 */
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <asm/smp.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpu_ops.h>
#include <kernel/cpuhp.h>
#include <kernel/time.h>

struct fw_share {
	u64 on_call, off_call, off_seen; /* counter ticks; 0: none */
	u64 up_ticks, down_ticks; /* the last successful attempt's share */
};
static DEFINE_CPU_ARRAY(struct fw_share, fw_share);

void cpu_fw_on_calling(unsigned int cpu)
{
	WRITE_ONCE(fw_share[cpu].on_call, arch_counter_get());
}

/* On the dying CPU: the stamp must be out before its power goes. */
void cpu_fw_off_calling(unsigned int cpu)
{
	WRITE_ONCE(fw_share[cpu].off_call, arch_counter_get());
	dsb(ish); /* complete before the call; pairs with smp_rmb() below */
}

void cpu_fw_off_seen(unsigned int cpu)
{
	WRITE_ONCE(fw_share[cpu].off_seen, arch_counter_get());
}

static u64 fw_ticks_to_ns(u64 ticks)
{
	return cycles_to_ns(ticks, arch_timer_get_freq());
}

u64 arch_cpu_fw_up_ns(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? fw_ticks_to_ns(fw_share[cpu].up_ticks) : 0;
}

u64 arch_cpu_fw_down_ns(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? fw_ticks_to_ns(fw_share[cpu].down_ticks) : 0;
}

void fw_share_up_begin(unsigned int cpu)
{
	fw_share[cpu].on_call = fw_share[cpu].up_ticks = 0;
}

/* After cpu_running: the CPU's entry stamp is visible (the lock's order). */
void fw_share_up_done(unsigned int cpu, u64 entry_ticks)
{
	u64 on = fw_share[cpu].on_call;

	fw_share[cpu].up_ticks = on && entry_ticks ? entry_ticks - on : 0;
}

/* Before the down request's release: the CPU_OFF stamp comes after. */
void fw_share_down_begin(unsigned int cpu)
{
	WRITE_ONCE(fw_share[cpu].off_call, 0);
	fw_share[cpu].off_seen = fw_share[cpu].down_ticks = 0;
}

/* After the firmware said off: its CPU_OFF stamp is visible. */
void fw_share_down_done(unsigned int cpu)
{
	u64 off, seen;

	smp_rmb(); /* after AFFINITY_INFO's OFF; pairs with the dsb above */
	off = READ_ONCE(fw_share[cpu].off_call);
	seen = fw_share[cpu].off_seen;
	fw_share[cpu].down_ticks = off && seen ? seen - off : 0;
}
