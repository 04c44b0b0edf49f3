/*
 * board_dump: the kernel's own device-tree code (dt_init(), board_init(),
 * the core's matching of drivers to nodes and the dt_device their probes
 * get, the PSCI and generic timer drivers' node readers, and the CPU
 * idle states reader of drivers/cpuidle/dt_idle_states.c), built
 * natively and run on a DTB file, with the result printed one fact per
 * line for tests/boards/check.py to hold against dtc.
 *
 *	board_dump FILE [MPIDR...]
 *
 * Each MPIDR is a value as the CPU's MPIDR_EL1 would read (RES1 bit 31,
 * MT bit, affinity): the line "boot-cpu MPIDR INDEX" says which entry of
 * board.cpus[] the kernel takes that CPU to be (-1: none), by the same
 * masked comparison smp_setup_cpu_maps() and get_logical_index() make.
 * Kernel messages come out as "log: ..." lines.
 *
 * The build wraps libfdt's fdt_node_offset_by_phandle() (the Makefile's
 * --wrap) to count lookups: each walks the whole tree, so a reader that
 * looks up every CPU's states costs CPUs x states walks of a tree that
 * grows with the CPUs ("idle-table-lookups").
 */
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/devicetree.h>
#include <lib/fdt.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/clocksource/arm_arch_timer_node.h"
#include "../../drivers/cpuidle/dt_idle_states.h"
#include "../../drivers/firmware/psci_node.h"
#include "../common/dt_shim.h"
#include "shim.h"

/*
 * The drivers' node readers, bound through the kernel's own matching
 * (dt_probe_class()) by the drivers' own compatible lists; each "probe"
 * prints what its driver would keep. A tree has one node of each; should
 * it have more, only the first is printed.
 */
static int psci_found, timer_found;

static int dump_psci(const struct dt_device *dev)
{
	struct psci_node node;

	if (psci_found++)
		return 0;
	psci_read_node(dev, &node);
	printf("psci %s %s\n", dev->compatible, node.method);
	return 0;
}

static int dump_timer(const struct dt_device *dev)
{
	struct arch_timer_node node;

	if (timer_found++)
		return 0;
	arch_timer_read_node(dev, &node);
	for (int i = 0; i < node.nr_irq; i++) {
		printf("timer");
		for (int c = 0; c < node.irq[i].nr_cells; c++)
			printf(" %u", node.irq[i].cells[c]);
		printf("\n");
	}
	return 0;
}

#define NR_DRIVERS 2
const struct dt_driver dump_dt_drivers[NR_DRIVERS] = {
	{"psci", DT_CLASS_FIRMWARE, psci_compat, dump_psci, NULL},
	{"arch_timer", DT_CLASS_TIMER, arch_timer_compat, dump_timer, NULL},
};

DT_SHIM_DRIVER_TABLE(dump_dt_drivers, NR_DRIVERS);

/* The root interrupt controller and the console as their probes get them. */
static void print_node(const char *what, int node)
{
	struct dt_device dev;

	printf("%s", what);
	if (node >= 0) {
		dt_device_init(node, &dev);
		printf(" %s", dev.compatible);
		for (int i = 0; i < dev.nr_reg; i++)
			printf(" %#llx", (unsigned long long)dev.reg[i].base);
	}
	printf("\n");
}

static void print_board(void)
{
	int i;

	printf("model %s\n", board.model);
	printf("compatible %s\n", board.compatible);
	for (i = 0; i < board.nr_mem; i++)
		printf("memory %#llx %#llx\n",
		       (unsigned long long)board.mem[i].base,
		       (unsigned long long)board.mem[i].size);
	for (i = 0; i < board.nr_reserved; i++)
		printf("reserved %#llx %#llx\n",
		       (unsigned long long)board.reserved[i].base,
		       (unsigned long long)board.reserved[i].size);
	printf("cpus %d\n", board.nr_cpus_dt);
	for (i = 0; i < board.nr_cpus; i++)
		printf("cpu %d %#llx %s %#llx\n", i,
		       (unsigned long long)board.cpus[i].mpidr,
		       enable_method_name(board.cpus[i].method),
		       (unsigned long long)board.cpus[i].release_addr);
	print_node("irqchip", board.irqchip_node);
	print_node("uart", board.stdout_node);
	printf("stdout %s\n", board.stdout_path);
	if (!dt_probe_class(DT_CLASS_FIRMWARE))
		printf("psci absent\n");
	dt_probe_class(DT_CLASS_TIMER);
}

static unsigned long phandle_lookups;

int __real_fdt_node_offset_by_phandle(const void *fdt, uint32_t phandle);

int __wrap_fdt_node_offset_by_phandle(const void *fdt, uint32_t phandle)
{
	phandle_lookups++;
	return __real_fdt_node_offset_by_phandle(fdt, phandle);
}

/*
 * Each CPU node's idle states, one line each ("idle CPU INDEX ..."), then
 * the table cpuidle-psci.c would register: "idle-table common" and the
 * names of the usable states, or "idle-table wfi-only" and why (a CPU
 * node lists other states than the first, no state listed, none usable);
 * and "idle-table-lookups N", the phandles that table's reading looked up.
 */
static void print_idle_states(const void *fdt)
{
	struct dt_idle_state st[CPUIDLE_STATE_MAX - 1];
	int cpus = fdt_path_offset(fdt, "/cpus"), node, cpu = 0, n, other;
	int usable = 0;

	fdt_for_each_subnode (node, fdt, cpus) {
		const char *type = fdt_read_string(fdt, node, "device_type");

		if (!type || strcmp(type, "cpu"))
			continue;
		n = dt_idle_states_read(fdt, node, st, ARRAY_SIZE(st));
		for (int i = 0; i < n; i++) {
			const struct cpuidle_state *c = &st[i].state;

			if (st[i].bad)
				printf("idle %d %d bad %#x %s\n", cpu, i,
				       st[i].phandle, st[i].bad);
			else
				printf("idle %d %d %s %u %u %u 0x%x %d\n", cpu,
				       i, c->name, c->entry_latency_us,
				       c->exit_latency_us,
				       c->target_residency_us, c->psci_param,
				       !!(c->flags & CPUIDLE_FLAG_TIMER_STOP));
		}
		cpu++;
	}
	phandle_lookups = 0;
	n = dt_idle_states_common(fdt, st, ARRAY_SIZE(st), &other);
	printf("idle-table-lookups %lu\n", phandle_lookups);
	if (n < 0) {
		printf("idle-table wfi-only %s lists other states\n",
		       fdt_get_name(fdt, other, NULL));
		return;
	}
	for (int i = 0; i < n; i++)
		if (!st[i].bad)
			printf("%s %s", usable++ ? "" : "idle-table common",
			       st[i].state.name);
	if (!usable)
		printf("idle-table wfi-only no %s state",
		       n ? "usable" : "listed");
	printf("\n");
}

/*
 * Every CPU's cluster state through fdt_phandle_map()'s table, as
 * cpuidle-psci.c reads them, and again through libfdt's lookups:
 * "cluster-map same|differs" and "cluster-map-lookups N", the lookups that
 * walked the tree while the table was in use (none: a 512-CPU boot spent
 * 7.9 s on them).
 */
static void print_cluster_map(const void *fdt)
{
	struct fdt_phandles ph = {.nr = fdt_phandle_map(fdt, NULL, 0) + 1};
	int cpus = fdt_path_offset(fdt, "/cpus"), node, *map, same = 1;
	struct dt_idle_state a, b;
	unsigned long walks = 0;
	u32 ca, cb;

	map = calloc(ph.nr, sizeof(*map));
	if (!map)
		exit(2);
	fdt_phandle_map(fdt, map, ph.nr);
	ph.node = map;
	fdt_for_each_subnode (node, fdt, cpus) {
		const char *type = fdt_read_string(fdt, node, "device_type");
		int ha, hb;

		if (!type || strcmp(type, "cpu"))
			continue;
		phandle_lookups = 0;
		ha = dt_cluster_state_read(fdt, &ph, node, &a, &ca);
		walks += phandle_lookups;
		hb = dt_cluster_state_read(fdt, NULL, node, &b, &cb);
		if (ha != hb || ca != cb || a.phandle != b.phandle ||
		    !a.bad != !b.bad ||
		    (!a.bad && memcmp(&a.state, &b.state, sizeof(a.state))))
			same = 0;
	}
	printf("cluster-map %s\ncluster-map-lookups %lu\n",
	       same ? "same" : "differs", walks);
	free(map);
}

static int boot_cpu_index(unsigned long long hw)
{
	for (int i = 0; i < board.nr_cpus; i++)
		if (board.cpus[i].mpidr == (hw & MPIDR_HWID_MASK))
			return i;
	return -1;
}

static void *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n;

	if (!f)
		return NULL;
	/* 8-byte aligned, as the boot protocol hands the tree over. */
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (buf = aligned_alloc(8, (n + 7) & ~7L)))
		*len = fread(buf, 1, n, f);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct board_cpu *cpus = NULL;
	size_t len = 0;
	void *blob;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: board_dump FILE [MPIDR...]\n");
		return 2;
	}
	blob = read_file(argv[1], &len);
	if (!blob) {
		perror(argv[1]);
		return 2;
	}
	dt_shim_blob = blob;
	dt_shim_blob_len = len;
	err = dt_init((phys_addr_t)(uintptr_t)blob);
	if (!err)
		err = board_init(initial_boot_params);
	printf("\nboard_init %d\n", err);
	if (!err) {
		/* As smp_setup_cpu_maps(): room for the CPUs counted, exactly. */
		cpus = calloc(board.nr_cpus, sizeof(*cpus));
		if (!cpus)
			return 2;
		board_read_cpus(initial_boot_params, cpus);
		board_print(); /* as the boot banner: must not trip ASan */
		print_board();
		print_idle_states(initial_boot_params);
		print_cluster_map(initial_boot_params);
		for (int i = 2; i < argc; i++) {
			unsigned long long hw = strtoull(argv[i], NULL, 0);

			printf("boot-cpu %#llx %d\n", hw, boot_cpu_index(hw));
		}
	}
	free(cpus);
	free(blob);
	return 0;
}
