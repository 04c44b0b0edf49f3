/*
 * Reading a flattened device tree, on top of libfdt: what libfdt leaves to
 * its users (cells, address translation through "ranges", status, memory
 * and reservations, the stdout path). Pure functions of the blob.
 */
#ifndef LIB_FDT_H
#define LIB_FDT_H

#include <lib/types.h>

struct fdt_range {
	u64 base;
	u64 size;
};

/* "status" absent, "okay" or "ok". */
bool fdt_node_available(const void *fdt, int node);

/* The idx-th "reg" entry of node, translated to a CPU physical address. */
int fdt_read_reg(const void *fdt, int node, int idx, u64 *addr, u64 *size);
/* Number of "reg" entries, or a negative error. */
int fdt_count_reg(const void *fdt, int node);
/* Map a bus address of a child of bus through every "ranges" up to root. */
int fdt_translate(const void *fdt, int bus, u64 *addr);

int fdt_read_u32(const void *fdt, int node, const char *prop, u32 *out);
/* A property of 1 or 2 cells as a number (e.g. cpu-release-addr). */
int fdt_read_u64(const void *fdt, int node, const char *prop, u64 *out);
/* The idx-th cell of a property, in host order. */
int fdt_read_cell(const void *fdt, int node, const char *prop, int idx,
		  u32 *out);
/* A NUL-terminated string property, or NULL. */
const char *fdt_read_string(const void *fdt, int node, const char *prop);

/* Every available memory node's ranges; returns how many (<= max). */
int fdt_memory_ranges(const void *fdt, struct fdt_range *out, int max);
/* /memreserve/ entries and /reserved-memory children with a "reg". */
int fdt_reserved_ranges(const void *fdt, struct fdt_range *out, int max);
/* The node /chosen/stdout-path names (aliases resolved, options cut). */
int fdt_stdout_node(const void *fdt);
/* The first available node compatible with any string in compat[]. */
int fdt_find_compatible(const void *fdt, const char *const *compat);

/*
 * Phandle to node for many lookups: fdt_node_offset_by_phandle() walks the
 * whole tree each time, which a reader of every CPU's power domains at 512
 * CPUs did thousands of times (seconds of boot under TCG). One walk fills
 * map[p] with the node of phandle p for each p < n (-FDT_ERR_NOTFOUND
 * where none) and returns the largest phandle in the tree: size the map
 * with a first call with n = 0. dtc numbers phandles from 1.
 */
u32 fdt_phandle_map(const void *fdt, int *map, u32 n);
struct fdt_phandles {
	const int *node; /* fdt_phandle_map()'s */
	u32 nr;
};
/* Through the map where it covers phandle (ph may be NULL), else libfdt. */
int fdt_phandle_node(const void *fdt, const struct fdt_phandles *ph,
		     u32 phandle);

#endif
