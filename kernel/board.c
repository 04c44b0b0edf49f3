/*
 * board_init(): reads the board-wide facts out of the device tree.
 * Missing optional parts (a console, an interrupt controller) are
 * recorded as absent; what the kernel cannot run without (memory, a CPU)
 * fails the boot. Devices' own facts are left to their drivers.
 */
#define pr_fmt(fmt) "board: " fmt
#include <kernel/board.h>
#include <kernel/printk.h>
#include <libfdt.h>
#include <lib/errno.h>
#include <lib/fdt.h>
#include <lib/kernel.h>
#include <string.h>

struct board board;

const char *enable_method_name(enum enable_method m)
{
	static const char *const names[] = {
		[ENABLE_METHOD_NONE] = "none",
		[ENABLE_METHOD_PSCI] = "psci",
		[ENABLE_METHOD_SPIN_TABLE] = "spin-table",
	};

	return m < ARRAY_SIZE(names) ? names[m] : "?";
}

static void copy_string(char *dst, size_t len, const void *fdt, int node,
			const char *prop)
{
	const char *s = node >= 0 ? fdt_read_string(fdt, node, prop) : NULL;

	strlcpy(dst, s ? s : "", len);
}

/*
 * Boot loaders write the memory node: the Raspberry Pi firmware fills in
 * the size-0 one its DTBs carry, U-Boot adds one to Rockchip and Allwinner
 * trees that have none. Such a tree given straight to the kernel (qemu
 * -dtb, a hand-made SD card) has no RAM to offer: say which case it is.
 */
static void no_memory_message(const void *fdt)
{
	int node = fdt_node_offset_by_prop_value(fdt, -1, "device_type",
						 "memory", 7);

	if (node < 0)
		pr_emerg("device tree has no memory node: the boot loader "
			 "(U-Boot, the Pi firmware) adds it; boot through one, "
			 "or give a tree with memory\n");
	else
		pr_emerg("memory node %s has size 0: "
			 "the boot firmware fills it in (Raspberry Pi: "
			 "start*.elf); boot through it, or give a tree with "
			 "memory\n",
			 fdt_get_name(fdt, node, NULL));
}

static int read_memory(const void *fdt)
{
	/*
	 * r holds the memory ranges, then the reservations: sized for the
	 * larger. It once had BOARD_MAX_MEM entries while up to
	 * BOARD_MAX_RESERVED were written, a stack overflow on a tree with
	 * more than 16 reservations (found by tests/fuzz).
	 */
	struct fdt_range r[max(BOARD_MAX_MEM, BOARD_MAX_RESERVED)];
	int n = fdt_memory_ranges(fdt, r, BOARD_MAX_MEM);

	for (int i = 0; i < n; i++) {
		board.mem[i].base = r[i].base;
		board.mem[i].size = r[i].size;
	}
	board.nr_mem = n;
	n = fdt_reserved_ranges(fdt, r, BOARD_MAX_RESERVED);
	for (int i = 0; i < n; i++) {
		board.reserved[i].base = r[i].base;
		board.reserved[i].size = r[i].size;
	}
	board.nr_reserved = n;
	if (!board.nr_mem) {
		no_memory_message(fdt);
		return -EINVAL;
	}
	return 0;
}

static enum enable_method parse_method(const char *s)
{
	if (s && !strcmp(s, "psci"))
		return ENABLE_METHOD_PSCI;
	if (s && !strcmp(s, "spin-table"))
		return ENABLE_METHOD_SPIN_TABLE;
	return ENABLE_METHOD_NONE;
}

/*
 * One CPU node: counted, and its facts read into `cpus` (which has room
 * for board.nr_cpus entries) when that is not NULL. Two passes over the
 * same nodes, so both see the same CPUs in the same order; the first
 * (board_init(), counting) prints what it ignores.
 */
static void read_cpu(const void *fdt, int node, int ac, struct board_cpu *cpus,
		     int *n)
{
	struct board_cpu *cpu;
	u32 hi = 0, lo;

	if (fdt_read_cell(fdt, node, "reg", 0, &lo) ||
	    (ac == 2 && (hi = lo, fdt_read_cell(fdt, node, "reg", 1, &lo)))) {
		if (!cpus)
			pr_warn("%s: no usable reg, ignored\n",
				fdt_get_name(fdt, node, NULL));
		return;
	}
	if (!cpus)
		board.nr_cpus_dt++;
	if (*n == (cpus ? board.nr_cpus : NR_CPUS))
		return;
	if (cpus) {
		cpu = &cpus[*n];
		cpu->mpidr = (u64)hi << 32 | lo;
		cpu->method = parse_method(
			fdt_read_string(fdt, node, "enable-method"));
		cpu->release_addr = 0;
		fdt_read_u64(fdt, node, "cpu-release-addr", &cpu->release_addr);
	}
	(*n)++;
}

/* Each usable CPU node in tree order, into cpus or only counted; how many. */
static int walk_cpus(const void *fdt, int parent, struct board_cpu *cpus)
{
	int node, ac = fdt_address_cells(fdt, parent), n = 0;
	const char *type;

	fdt_for_each_subnode (node, fdt, parent) {
		type = fdt_read_string(fdt, node, "device_type");
		if (type && !strcmp(type, "cpu"))
			read_cpu(fdt, node, ac, cpus, &n);
	}
	return n;
}

void board_read_cpus(const void *fdt, struct board_cpu *cpus)
{
	walk_cpus(fdt, fdt_path_offset(fdt, "/cpus"), cpus);
	board.cpus = cpus;
}

static int read_cpus(const void *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus");

	if (cpus < 0) {
		pr_emerg("device tree has no /cpus node\n");
		return -EINVAL;
	}
	board.nr_cpus = walk_cpus(fdt, cpus, NULL);
	if (!board.nr_cpus) {
		pr_emerg("device tree describes no CPU\n");
		return -EINVAL;
	}
	if (board.nr_cpus_dt > board.nr_cpus)
		pr_warn("%d CPUs described, only %d supported (NR_CPUS)\n",
			board.nr_cpus_dt, board.nr_cpus);
	return 0;
}

/*
 * The root's interrupt-parent, followed to the controller that has no
 * parent but itself: on GIC boards the GIC; on the BCM2836/7 (Pi 2, Pi 3)
 * the per-core local controller (brcm,bcm2836-l1-intc) that the root's
 * ARM controller is chained to, where the timer interrupts and the IPIs
 * arrive. Bounded: a phandle loop in a bad tree must not hang the boot.
 */
static int root_irqchip(const void *fdt)
{
	int node = 0, parent;
	u32 phandle;

	for (int hops = 0; hops < 8; hops++) {
		if (fdt_read_u32(fdt, node, "interrupt-parent", &phandle))
			break;
		parent = fdt_node_offset_by_phandle(fdt, phandle);
		if (parent < 0 || parent == node)
			break;
		node = parent;
	}
	return node ? node : -FDT_ERR_NOTFOUND;
}

static void read_stdout(const void *fdt)
{
	int node = fdt_stdout_node(fdt);

	board.stdout_node = node;
	if (node < 0 || fdt_get_path(fdt, node, board.stdout_path,
				     sizeof(board.stdout_path)))
		board.stdout_path[0] = '\0';
}

int board_init(const void *fdt)
{
	int chosen = fdt_path_offset(fdt, "/chosen");
	int err;

	board.dtb_size = fdt_totalsize(fdt);
	copy_string(board.model, sizeof(board.model), fdt, 0, "model");
	copy_string(board.compatible, sizeof(board.compatible), fdt, 0,
		    "compatible");
	copy_string(board.bootargs, sizeof(board.bootargs), fdt, chosen,
		    "bootargs");
	err = read_memory(fdt);
	if (!err)
		err = read_cpus(fdt);
	if (err)
		return err;
	board.irqchip_node = root_irqchip(fdt);
	read_stdout(fdt);
	return 0;
}

void board_print(void)
{
	int i;

	pr_info("model: %s (%s)\n", board.model, board.compatible);
	for (i = 0; i < board.nr_mem; i++)
		pr_info("memory: %#010llx-%#010llx\n",
			(unsigned long long)board.mem[i].base,
			(unsigned long long)(board.mem[i].base +
					     board.mem[i].size - 1));
	for (i = 0; i < board.nr_reserved; i++)
		pr_info("reserved: %#010llx-%#010llx\n",
			(unsigned long long)board.reserved[i].base,
			(unsigned long long)(board.reserved[i].base +
					     board.reserved[i].size - 1));
	for (i = 0; i < board.nr_cpus; i++) {
		pr_info("cpu%d: mpidr 0x%llx enable-method %s", i,
			(unsigned long long)board.cpus[i].mpidr,
			enable_method_name(board.cpus[i].method));
		if (board.cpus[i].method == ENABLE_METHOD_SPIN_TABLE)
			pr_cont(" release-addr %#llx",
				(unsigned long long)board.cpus[i].release_addr);
		pr_cont("\n");
	}
	pr_info("dtb: %#llx, %u bytes\n", (unsigned long long)board.dtb_pa,
		board.dtb_size);
}
