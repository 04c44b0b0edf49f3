/*
 * The spin-table enable method (Raspberry Pi firmware, some U-Boots):
 * each secondary CPU waits in WFE, with its MMU off, polling its
 * cpu-release-addr; writing an entry address there and sending an event
 * releases it. Taken offline, a CPU cannot go back to the firmware: it
 * parks in the kernel's pen, and coming up again releases it from there.
 *
 * The release address is RAM the firmware reserved, so the linear map
 * already covers it as Normal cacheable memory. Writing it through a
 * Device alias (ioremap()) would give one location two memory types, whose
 * accesses the architecture does not order or keep coherent with each
 * other; QEMU does not model it, real cores do. Write through the
 * cacheable mapping and clean to the point of coherency instead.
 */
#define pr_fmt(fmt) "spin-table: " fmt
#include <asm/barrier.h>
#include <asm/cacheflush.h>
#include <asm/pgtable.h>
#include <kernel/board.h>
#include <kernel/cpu_array.h>
#include <kernel/cpu_ops.h>
#include <kernel/printk.h>
#include <lib/errno.h>

/* The mapping to write a release address through; NULL if none. */
u64 *spin_table_release_slot(phys_addr_t release)
{
	int level;

	if (release + sizeof(u64) <= LINEAR_MAP_SIZE &&
	    lookup_pte((u64)__va(release), &level))
		return __va(release); /* RAM: Normal, cacheable */
	return ioremap(release, sizeof(u64)); /* not RAM: a device */
}

/* CPUs let out of the firmware's spin: they never go back there. */
static DEFINE_CPU_ARRAY(bool, released);

/*
 * Start cpu: out of the kernel's pen if it waits there, else out of the
 * firmware's spin. Released once already and not in the pen, it is
 * still in the kernel on its way to the pen (a straggler): -EBUSY. The
 * release is written again all the same, in case it never saw the first.
 */
static int spin_table_boot(unsigned int cpu, phys_addr_t entry)
{
	phys_addr_t release = board.cpus[cpu].release_addr;
	u64 *slot;

	if (cpu_pen_holds(cpu)) { /* offlined earlier: it waits in our pen */
		cpu_pen_release(cpu);
		return 0;
	}
	if (!release) {
		pr_err("CPU%u: no cpu-release-addr\n", cpu);
		return -ENODEV;
	}
	slot = spin_table_release_slot(release);
	if (!slot)
		return -ENOMEM;
	WRITE_ONCE(*slot, entry);
	/* The waiting CPU reads with its caches off: push the line out. */
	dcache_clean_inval_poc((unsigned long)slot,
			       (unsigned long)slot + sizeof(u64));
	dsb(sy);
	sev();
	if (released[cpu]) {
		pr_warn("CPU%u: released before and not in the pen: still on "
			"its way there\n",
			cpu);
		return -EBUSY;
	}
	released[cpu] = true;
	return 0;
}

static int spin_table_is_off(unsigned int cpu)
{
	return cpu_pen_holds(cpu);
}

/* No firmware call can power the CPU off: park it in the kernel's pen. */
static void spin_table_die(unsigned int cpu)
{
	cpu_pen_park(cpu);
}

static const struct cpu_operations spin_table_ops = {
	.name = "spin-table",
	.cpu_boot = spin_table_boot,
	.cpu_die = spin_table_die,
	.cpu_kill = cpu_pen_wait,
	.cpu_is_off = spin_table_is_off,
};
CPU_OPS_DECLARE(spin_table, spin_table_ops);
