/*
 * The spin-table enable method (Raspberry Pi firmware, some U-Boots):
 * each secondary CPU waits in WFE, with its MMU off, polling its
 * cpu-release-addr; writing an entry address there and sending an event
 * releases it.
 */
#define pr_fmt(fmt) "spin-table: " fmt
#include <asm/barrier.h>
#include <asm/cacheflush.h>
#include <asm/pgtable.h>
#include <kernel/board.h>
#include <kernel/cpu_ops.h>
#include <kernel/printk.h>
#include <lib/errno.h>

static int spin_table_boot(unsigned int cpu, phys_addr_t entry)
{
	phys_addr_t release = board.cpus[cpu].release_addr;
	volatile u64 *slot;

	if (!release) {
		pr_err("CPU%u: no cpu-release-addr\n", cpu);
		return -ENODEV;
	}
	slot = ioremap(release, sizeof(u64));
	if (!slot)
		return -ENOMEM;
	*slot = entry;
	/* The waiting CPU reads with its caches off: push the write out. */
	dcache_clean_poc((unsigned long)slot, (unsigned long)slot + 8);
	dsb(sy);
	sev();
	return 0;
}

static const struct cpu_operations spin_table_ops = {
	.name = "spin-table",
	.cpu_boot = spin_table_boot,
};
CPU_OPS_DECLARE(spin_table, spin_table_ops);
