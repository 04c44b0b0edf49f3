/*
 * The parking pen's bookkeeping (the pen itself: arch/arm64/pen.S). An
 * offline CPU in the pen is "off" for the kernel: out of every mask, no
 * interrupts, no RCU, no per-CPU area; the firmware still sees it on.
 */
#define pr_fmt(fmt) "pen: " fmt
#include <asm/barrier.h>
#include <asm/entry.h>
#include <kernel/cpu_array.h>
#include <kernel/cpu_ops.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <lib/cpumask.h>

#define PEN_WAIT_MS 1000

static DEFINE_CPU_ARRAY(u32, pen_parked);
static DEFINE_CPU_ARRAY(u64, pen_release_flag);

void cpu_pen_park(unsigned int cpu)
{
	cpu_pen_enter(&pen_parked[cpu], &pen_release_flag[cpu]);
}

bool cpu_pen_holds(unsigned int cpu)
{
	return smp_load_acquire(&pen_parked[cpu]);
}

int cpu_pen_wait(unsigned int cpu)
{
	for (int ms = 0; ms < PEN_WAIT_MS; ms++) {
		if (cpu_pen_holds(cpu))
			return 0;
		udelay(1000);
	}
	pr_err("CPU%u did not reach the pen within %d ms\n", cpu, PEN_WAIT_MS);
	return -ETIMEDOUT;
}

void cpu_pen_release(unsigned int cpu)
{
	smp_store_release(&pen_release_flag[cpu], 1); /* see pen.S */
	dsb(ish);
	sev();
}
