/*
 * The firmware's floor of a hotplug cycle (bench=hotplug's "floor"): PSCI
 * CPU_ON of an OFF CPU at an entry point that only stamps the counter and
 * calls CPU_OFF (kernel/bench/psci_floor_entry.S), then AFFINITY_INFO polled
 * back to back until it says OFF. No kernel code runs on the CPU, so the
 * time is the firmware's (and, on QEMU, the emulator's scheduling of the
 * vCPU): what a kernel's down+up of that CPU cannot go below.
 *
 * The caller keeps the CPU from the kernel's own hotplug while this runs
 * (cpu_maps_update_begin()) and has it offline.
 */
#define pr_fmt(fmt) "psci: " fmt
#include <asm/arch_timer.h>
#include <asm/cacheflush.h>
#include <asm/entry.h>
#include <asm/memory.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <kernel/time.h>
#include <lib/errno.h>
#include <lib/kernel.h>

#define FLOOR_TIMEOUT_NS (1000 * 1000000ULL)

/*
 * Written by the CPU with its MMU off: a cache writeback granule of its
 * own (at most 2 KiB by the architecture, 64 bytes on the cores here).
 */
static u64 floor_stamps[16] __aligned(128);

int psci_floor_cycle(u64 mpidr, struct psci_floor *f)
{
	void (*entry)(void) = psci_conduit_is_smc() ? psci_floor_entry_smc
						    : psci_floor_entry_hvc;
	unsigned long start = (unsigned long)floor_stamps;
	unsigned long end = start + sizeof(floor_stamps);
	u64 freq = arch_timer_get_freq(), t0, seen;
	bool stamped = false;
	int ret, state;

	if (psci_version() < PSCI_VERSION(0, 2))
		return -EOPNOTSUPP; /* no AFFINITY_INFO to end the cycle */
	state = psci_affinity_info(mpidr);
	if (state != PSCI_AFFINITY_OFF) {
		pr_err("floor: MPIDR 0x%llx is not OFF (AFFINITY_INFO %d)\n",
		       (unsigned long long)mpidr, state);
		return -EBUSY;
	}
	floor_stamps[0] = floor_stamps[1] = 0;
	dcache_clean_inval_poc(start, end);
	t0 = arch_counter_get();
	ret = psci_cpu_on(mpidr, __pa_symbol(entry), __pa_symbol(floor_stamps));
	if (ret) {
		pr_err("floor: CPU_ON of MPIDR 0x%llx: %s\n",
		       (unsigned long long)mpidr, psci_error_name(ret));
		return -EIO;
	}
	/*
	 * An OFF ends the cycle only if asked after the entry's last stamp
	 * is in memory: QEMU's CPU_ON queues the power-on as work for the
	 * new vCPU and its AFFINITY_INFO says OFF, not ON_PENDING, until
	 * that vCPU runs it (target/arm/arm-powerctl.c). Those answers are
	 * counted, not taken.
	 */
	f->early_off = 0;
	for (;;) {
		state = psci_affinity_info(mpidr);
		seen = arch_counter_get();
		if (state == PSCI_AFFINITY_OFF) {
			if (stamped)
				break;
			f->early_off++;
		}
		if (!stamped) {
			dcache_inval_poc(start, end);
			stamped = READ_ONCE(floor_stamps[1]) != 0;
		}
		if (state < 0 ||
		    cycles_to_ns(seen - t0, freq) >= FLOOR_TIMEOUT_NS) {
			pr_err("floor: MPIDR 0x%llx not OFF %llu ms after "
			       "CPU_ON (AFFINITY_INFO %d, %s)\n",
			       (unsigned long long)mpidr,
			       FLOOR_TIMEOUT_NS / 1000000, state,
			       stamped ? "entry ran" : "entry never ran");
			return -ETIMEDOUT;
		}
	}
	if (!floor_stamps[0] || floor_stamps[1] < floor_stamps[0] ||
	    floor_stamps[0] < t0 || floor_stamps[1] > seen) {
		pr_err("floor: MPIDR 0x%llx went OFF without sane stamps "
		       "(%llu, %llu; CPU_ON at %llu, OFF seen at %llu)\n",
		       (unsigned long long)mpidr,
		       (unsigned long long)floor_stamps[0],
		       (unsigned long long)floor_stamps[1],
		       (unsigned long long)t0, (unsigned long long)seen);
		return -EIO;
	}
	f->on_ns = cycles_to_ns(floor_stamps[0] - t0, freq);
	f->off_ns = cycles_to_ns(seen - floor_stamps[1], freq);
	f->cycle_ns = cycles_to_ns(seen - t0, freq);
	return 0;
}
