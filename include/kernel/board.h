/*
 * The board description: the board-wide facts of the device tree (model,
 * where the kernel and the tree were loaded, memory and reservations, the
 * command line, the CPUs and how each is started, which node is the root
 * interrupt controller and which the console), read once at boot by
 * board_init() so later code (the shell's `dt`, hotplug) never calls
 * libfdt. A device's own facts (PSCI's conduit, a controller's registers,
 * the timer's interrupts) are its driver's, read at probe.
 */
#ifndef KERNEL_BOARD_H
#define KERNEL_BOARD_H

#include <kernel/devicetree.h>
#include <lib/cpumask.h>

#define BOARD_MAX_MEM 16
#define BOARD_MAX_RESERVED 32
#define COMMAND_LINE_SIZE 1024

enum enable_method {
	ENABLE_METHOD_NONE,
	ENABLE_METHOD_PSCI,
	ENABLE_METHOD_SPIN_TABLE,
};

struct board_cpu {
	u64 mpidr; /* the node's "reg" */
	enum enable_method method;
	phys_addr_t release_addr; /* spin-table only */
};

struct board {
	char model[64];
	char compatible[64];
	int entry_el;
	phys_addr_t kimage_pa;
	u64 kimage_size;
	phys_addr_t dtb_pa;
	u32 dtb_size;

	struct dt_reg mem[BOARD_MAX_MEM];
	int nr_mem;
	struct dt_reg reserved[BOARD_MAX_RESERVED];
	int nr_reserved;

	char bootargs[COMMAND_LINE_SIZE];
	/* The console: the node /chosen/stdout-path names (<0: none). */
	int stdout_node;
	char stdout_path[DT_PATH_MAX];
	/*
	 * The root interrupt controller (<0: none): the root's
	 * interrupt-parent chain followed to its end, where the timer
	 * interrupts and the IPIs arrive. Its driver reads the rest.
	 */
	int irqchip_node;

	/*
	 * board_init() counts the CPUs; board_read_cpus() reads them into
	 * an array the caller allocated with nr_cpus entries (the kernel:
	 * smp_setup_cpu_maps(), once memory is up), so a build for many
	 * CPUs does not carry NR_CPUS of them. NULL until then.
	 */
	struct board_cpu *cpus;
	int nr_cpus; /* described and usable (at most NR_CPUS) */
	int nr_cpus_dt; /* described in the tree */
};

extern struct board board;

/* Fill `board` from the checked device tree; <0 if unusable (printed). */
int board_init(const void *fdt);
/* Read the CPUs board_init() counted into cpus[board.nr_cpus]. */
void board_read_cpus(const void *fdt, struct board_cpu *cpus);
/* Print it: the board part of the shell's `dt` (drivers print the rest). */
void board_print(void);
const char *enable_method_name(enum enable_method m);

/* The kernel command line, from /chosen/bootargs. */
#define boot_command_line (board.bootargs)

#endif
