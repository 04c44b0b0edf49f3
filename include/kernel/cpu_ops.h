/*
 * CPU enable methods, as the device tree's "enable-method" names them:
 * how to start a CPU at an entry point, and how to take one off. Each
 * method's driver declares its operations with CPU_OPS_DECLARE().
 */
#ifndef KERNEL_CPU_OPS_H
#define KERNEL_CPU_OPS_H

#include <lib/kernel.h>

struct cpu_operations {
	const char *name; /* the enable-method string */
	/* Start cpu at the physical address entry (MMU off). -EBUSY: it
	 * is still on (a straggler on its way out), so it cannot start. */
	int (*cpu_boot)(unsigned int cpu, phys_addr_t entry);
	/* On the dying CPU itself: power down or park; does not return. */
	void (*cpu_die)(unsigned int cpu);
	/* On a surviving CPU: 0 once cpu is really off, <0 if not. */
	int (*cpu_kill)(unsigned int cpu);
	/* On any CPU, without waiting (interrupt context too): 1 if cpu is
	 * known to run no code of the kernel (powered off, or in the pen),
	 * 0 if it may, <0 if the method cannot tell. NULL: cannot tell. */
	int (*cpu_is_off)(unsigned int cpu);
	/* Why cpu may not go down at all (the firmware may need it, or
	 * could not confirm it off), or NULL. No op: it may. */
	const char *(*cpu_refuses_disable)(unsigned int cpu);
	/* After cpu_boot() succeeded but cpu never arrived: print what the
	 * firmware says of it. NULL: nothing to ask. */
	void (*cpu_report_missing)(unsigned int cpu);
};

/*
 * The firmware's share of a hotplug (arch/arm64/smp.c): a method that
 * calls firmware stamps the calls on the generic timer's counter, right
 * before it asks the firmware to start cpu (on the CPU asking) or to
 * power the calling CPU off (on the dying CPU itself, interrupts off),
 * and right after the firmware first answers that cpu is off (from
 * cpu_kill). A method that stamps nothing gets no figure.
 */
void cpu_fw_on_calling(unsigned int cpu);
void cpu_fw_off_calling(unsigned int cpu);
void cpu_fw_off_seen(unsigned int cpu);

#define CPU_OPS_DECLARE(_id, _ops)                                            \
	static const struct cpu_operations *__cpu_ops_##_id __used __section( \
		".cpu_ops") = &(_ops)

const struct cpu_operations *get_cpu_ops(unsigned int cpu);

/*
 * The kernel's pen (arch/arm64/pen.S, drivers/firmware/pen.c), where an
 * enable method whose firmware cannot power a CPU off (spin-table, or
 * hotplug.pen) parks it: off for the kernel, on for the firmware.
 */
/* On the dying CPU, interrupts off, after its down steps: never returns. */
void cpu_pen_park(unsigned int cpu) __attribute__((noreturn));
/* On a surviving CPU: 0 once cpu sits in the pen, -ETIMEDOUT if not. */
int cpu_pen_wait(unsigned int cpu);
/* Is cpu parked in the pen (so starting it means releasing it)? */
bool cpu_pen_holds(unsigned int cpu);
/* Let it out: it restarts through secondary_data. */
void cpu_pen_release(unsigned int cpu);

/* spin-table: the mapping its release write goes through (the tests). */
u64 *spin_table_release_slot(phys_addr_t release);

#endif
