/*
 * The device tree the kernel booted with: mapping and checking the blob,
 * and matching drivers to its nodes. Drivers register a dt_driver with
 * DT_DRIVER(); the core probes a node or a whole class through it, so it
 * never includes a driver's header.
 *
 * libfdt uses FP/SIMD registers: call into it only at boot, before other
 * threads exist. What later code needs is copied into struct board.
 */
#ifndef KERNEL_DEVICETREE_H
#define KERNEL_DEVICETREE_H

#include <lib/types.h>

#define DT_MAX_REGS 8

struct dt_reg {
	phys_addr_t base;
	u64 size;
};

struct dt_device {
	int node;
	const char *name;
	struct dt_reg reg[DT_MAX_REGS];
	int nr_reg;
};

enum dt_class {
	DT_CLASS_CONSOLE,
	DT_CLASS_FIRMWARE,
	DT_CLASS_IRQCHIP,
	DT_CLASS_TIMER, /* clock event devices: probed after the irqchip */
	DT_CLASS_POWER,
};

struct dt_driver {
	const char *name;
	enum dt_class cls;
	const char *const *compatible; /* NULL-terminated */
	int (*probe)(const struct dt_device *dev);
};

#define DT_DRIVER(_name, _cls, _compat, _probe)                             \
	static const struct dt_driver __dt_driver_##_name __used __section( \
		".dt_drivers") = {#_name, _cls, _compat, _probe}

/* The blob, mapped read-only; NULL until dt_init() succeeds. */
extern const void *initial_boot_params;

/* Map and fully check the blob at pa. 0, or <0 with the reason printed. */
int dt_init(phys_addr_t pa);
struct board_irq;
/* The index-th "interrupts" specifier of node, with its cell count. */
int dt_read_irq(int node, int index, struct board_irq *out);
/* Probe node with the first matching driver of cls (-ENODEV: none). */
int dt_probe_node(int node, enum dt_class cls);
/* Probe every available node some driver of cls matches; returns count. */
int dt_probe_class(enum dt_class cls);

#endif
