/*
 * The board description: everything the kernel needs from the device
 * tree, read once at boot by board_init() so later code (the shell's `dt`,
 * hotplug, drivers after boot) never calls libfdt.
 */
#ifndef KERNEL_BOARD_H
#define KERNEL_BOARD_H

#include <kernel/devicetree.h>
#include <lib/cpumask.h>

#define BOARD_MAX_MEM 16
#define BOARD_MAX_RESERVED 32
#define BOARD_MAX_IRQ_CELLS 4
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

struct board_irq {
	u32 cells[BOARD_MAX_IRQ_CELLS]; /* as the interrupt parent reads them */
	int nr_cells;
	/* The interrupt parent's node: a driver of two cascaded controllers
	 * (BCM2836 local + BCM2835 armctrl) tells by it whose cells these are. */
	int parent;
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
	char stdout_path[64];

	struct board_cpu cpus[NR_CPUS];
	int nr_cpus; /* described and usable (at most NR_CPUS) */
	int nr_cpus_dt; /* described in the tree */

	struct {
		bool present;
		char method[8]; /* "hvc" or "smc" */
		char compatible[32];
		u32 version; /* major << 16 | minor, from PSCI_VERSION */
	} psci;

	struct {
		char compatible[40];
		struct dt_reg reg[DT_MAX_REGS];
		int nr_reg;
		int node;
	} irqchip;

	struct {
		struct board_irq irq[4]; /* secure, non-secure, virtual, hyp */
		int nr_irq;
	} timer;

	struct {
		char compatible[32];
		phys_addr_t base;
		int node;
	} uart;
};

extern struct board board;

/* Fill `board` from the checked device tree; <0 if unusable (printed). */
int board_init(const void *fdt);
/* Print the description (the `dt` command and the boot banner). */
void board_print(void);
const char *enable_method_name(enum enable_method m);

/* The kernel command line, from /chosen/bootargs. */
#define boot_command_line (board.bootargs)

#endif
