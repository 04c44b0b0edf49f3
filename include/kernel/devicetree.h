/*
 * The device tree the kernel booted with: mapping and checking the blob,
 * and matching drivers to its nodes. Drivers register a dt_driver with
 * DT_DRIVER(); the core probes a node or a whole class through it, so it
 * never includes a driver's header.
 *
 * libfdt uses FP/SIMD registers: call into it only at boot, before other
 * threads exist. What later code needs is copied at boot: the board-wide
 * facts into struct board, a device's own into its driver at probe.
 */
#ifndef KERNEL_DEVICETREE_H
#define KERNEL_DEVICETREE_H

#include <lib/types.h>

#define DT_MAX_REGS 8
#define DT_MAX_IRQ_CELLS 4
#define DT_PATH_MAX 64

struct dt_reg {
	phys_addr_t base;
	u64 size;
};

/* One "interrupts" specifier of a node. */
struct dt_irq {
	u32 cells[DT_MAX_IRQ_CELLS]; /* as the interrupt parent reads them */
	int nr_cells;
	/* The interrupt parent's node: a driver of two cascaded controllers
	 * (BCM2836 local + BCM2835 armctrl) tells by it whose cells these are. */
	int parent;
};

/*
 * What a driver's probe gets for its node. name and compatible point into
 * the blob, which stays mapped read-only (FDT_VADDR) for good.
 */
struct dt_device {
	int node;
	const char *name;
	const char *compatible; /* the node's first compatible string */
	char path[DT_PATH_MAX];
	struct dt_reg reg[DT_MAX_REGS]; /* CPU addresses */
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
	/* Optional: print what the driver read from the node it is bound to
	 * (the shell's `dt`), from what it kept at probe: no libfdt. */
	void (*describe)(const struct dt_device *dev);
};

#define DT_DRIVER(_name, _cls, _compat, _probe, _describe)                  \
	static const struct dt_driver __dt_driver_##_name __used __section( \
		".dt_drivers") = {#_name, _cls, _compat, _probe, _describe}

/* The blob, mapped read-only; NULL until dt_init() succeeds. */
extern const void *initial_boot_params;

/* Map and fully check the blob at pa. 0, or <0 with the reason printed. */
int dt_init(phys_addr_t pa);
/* The index-th "interrupts" specifier of node, with its cell count. */
int dt_read_irq(int node, int index, struct dt_irq *out);
/* Fill dev for node as a probe gets it: name, compatible, path, regs. */
void dt_device_init(int node, struct dt_device *dev);
/* Probe node with the first matching driver of cls (-ENODEV: none). */
int dt_probe_node(int node, enum dt_class cls);
/* Probe every available node some driver of cls matches; returns count. */
int dt_probe_class(enum dt_class cls);
/* Each bound driver's description of its node, in the order they bound. */
void dt_describe_devices(void);

#endif
