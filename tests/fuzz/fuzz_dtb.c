/*
 * libFuzzer target: the input is a flattened device tree handed to the
 * kernel as the boot loader would, and read by the kernel's own code in
 * its boot order: dt_init() (header and fdt_check_full()), board_init(),
 * board_print(), dt_probe_class() for every class, dt_describe_devices()
 * (the shell's `dt`); then the lib/fdt.c helpers and dt_read_irq() on
 * every node of a tree dt_init() accepted, and the idle states reader
 * (drivers/cpuidle/dt_idle_states.c) on every node as a CPU node and on
 * the tree as cpuidle-psci.c calls it.
 */
#include <kernel/board.h>
#include <kernel/devicetree.h>
#include <lib/fdt.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/cpuidle/dt_idle_states.h"
#include "fuzz.h"

/*
 * What the reader returns must hold whatever the tree: at most max entries,
 * each bad with a reason or with a NUL-terminated name (printed by the
 * boot), and the usable ones in min-residency order.
 */
static void check_idle_states(const struct dt_idle_state *st, int n, int max)
{
	const struct cpuidle_state *prev = NULL;

	if (n > max)
		abort();
	for (int i = 0; i < n; i++) {
		if (st[i].bad) {
			if (!strlen(st[i].bad))
				abort();
			continue;
		}
		if (strnlen(st[i].state.name, CPUIDLE_NAME_LEN) ==
		    CPUIDLE_NAME_LEN)
			abort();
		if (prev &&
		    st[i].state.target_residency_us < prev->target_residency_us)
			abort();
		prev = &st[i].state;
	}
}

/* A heap array of exactly max entries each time: ASan sees overruns. */
static void read_idle_states(const void *fdt, int node)
{
	static const int sizes[] = {1, 2, CPUIDLE_STATE_MAX - 1};

	for (unsigned int k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct dt_idle_state *st = malloc(sizes[k] * sizeof(*st));

		if (!st)
			abort();
		check_idle_states(st,
				  dt_idle_states_read(fdt, node, st, sizes[k]),
				  sizes[k]);
		free(st);
	}
}

/* Every node as a CPU node of a cluster: a state read is good or says why. */
static void read_cluster_state(const void *fdt, int node)
{
	struct dt_idle_state *st = malloc(sizeof(*st));
	u32 cluster;

	if (!st)
		abort();
	if (dt_cluster_state_read(fdt, NULL, node, st, &cluster) == 1 &&
	    !st->bad && !st->state.name[0])
		abort(); /* a good state always has a name */
	free(st);
}

/* As cpuidle-psci.c calls it, with room for CPUIDLE_STATE_MAX - 1. */
static void read_idle_table(const void *fdt)
{
	struct dt_idle_state *st =
		malloc((CPUIDLE_STATE_MAX - 1) * sizeof(*st));
	int n, other;

	if (!st)
		abort();
	n = dt_idle_states_common(fdt, st, CPUIDLE_STATE_MAX - 1, &other);
	check_idle_states(st, n, CPUIDLE_STATE_MAX - 1);
	if ((n < 0) != (other >= 0))
		abort();
	if (other >= 0)
		fdt_get_name(fdt, other, NULL); /* the boot names it */
	free(st);
}

static void walk_nodes(const void *fdt)
{
	static const char *const compat[] = {"arm,pl011", "simple-bus", NULL};
	struct fdt_range r[8];
	struct dt_irq irq;
	u64 addr, size;
	u32 v;
	int node, depth = 0, i, n;

	fdt_memory_ranges(fdt, r, ARRAY_SIZE(r));
	fdt_reserved_ranges(fdt, r, ARRAY_SIZE(r));
	fdt_stdout_node(fdt);
	fdt_find_compatible(fdt, compat);
	for (node = fdt_next_node(fdt, -1, &depth); node >= 0;
	     node = fdt_next_node(fdt, node, &depth)) {
		fdt_node_available(fdt, node);
		n = fdt_count_reg(fdt, node);
		for (i = 0; i < n && i < 16; i++)
			fdt_read_reg(fdt, node, i, &addr, &size);
		addr = 0x1000;
		fdt_translate(fdt, node, &addr);
		fdt_read_u32(fdt, node, "#address-cells", &v);
		fdt_read_cell(fdt, node, "interrupts", 2, &v);
		fdt_read_u64(fdt, node, "cpu-release-addr", &addr);
		fdt_read_string(fdt, node, "compatible");
		for (i = 0; i < 4 && !dt_read_irq(node, i, &irq); i++)
			;
		read_idle_states(fdt, node);
		read_cluster_state(fdt, node);
	}
	read_idle_table(fdt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	/* dt_init() wants an 8-byte aligned blob, as the boot protocol does. */
	unsigned char *buf = malloc(len ? len : 1);
	struct board_cpu *cpus = NULL;

	memcpy(buf, data, len);
	dt_shim_blob = buf;
	dt_shim_blob_len = len;
	initial_boot_params = NULL;
	memset(&board, 0, sizeof(board));

	if (!dt_init((phys_addr_t)(uintptr_t)buf)) {
		if (!board_init(initial_boot_params)) {
			/* Exactly board.nr_cpus entries: ASan sees overruns. */
			cpus = calloc(board.nr_cpus, sizeof(*cpus));
			if (!cpus)
				abort();
			board_read_cpus(initial_boot_params, cpus);
			board_print();
			dt_probe_class(DT_CLASS_FIRMWARE);
			dt_probe_class(DT_CLASS_IRQCHIP);
			dt_probe_class(DT_CLASS_TIMER);
			dt_probe_class(DT_CLASS_CONSOLE);
			dt_probe_class(DT_CLASS_POWER);
			dt_describe_devices();
		}
		walk_nodes(initial_boot_params);
	}
	free(cpus);
	free(buf);
	return 0;
}
