/*
 * Device tree reading helpers over libfdt (see include/lib/fdt.h).
 * Bounds come from libfdt's length results; nothing here trusts a blob.
 */
#include <libfdt.h>
#include <lib/errno.h>
#include <lib/fdt.h>
#include <lib/kernel.h>
#include <string.h>

#define MAX_CELLS 4

bool fdt_node_available(const void *fdt, int node)
{
	int len;
	const char *s = fdt_getprop(fdt, node, "status", &len);

	return !s || (len > 0 &&
		      (!strncmp(s, "okay", len) || !strncmp(s, "ok", len)));
}

/* Up to two cells as a number; longer numbers keep their low 64 bits. */
static u64 read_cells(const fdt32_t *p, int n)
{
	u64 v = 0;

	for (int i = 0; i < n; i++)
		v = (v << 32) | fdt32_to_cpu(p[i]);
	return v;
}

static int cells_of(const void *fdt, int bus, int *ac, int *sc)
{
	*ac = fdt_address_cells(fdt, bus);
	*sc = fdt_size_cells(fdt, bus);
	if (*ac < 1 || *ac > MAX_CELLS || *sc < 0 || *sc > MAX_CELLS)
		return -EINVAL;
	return 0;
}

/* Apply one bus's "ranges"; -EINVAL if addr is not in any window. */
static int translate_one(const void *fdt, int bus, u64 *addr)
{
	int len, ac, pac, sc, parent, entry, n;
	const fdt32_t *r = fdt_getprop(fdt, bus, "ranges", &len);
	u64 child, paddr, size;

	if (!r)
		return -EINVAL; /* no ranges: not memory-mapped above here */
	if (len == 0)
		return 0; /* empty ranges: identity */
	parent = fdt_parent_offset(fdt, bus);
	if (parent < 0 || cells_of(fdt, bus, &ac, &sc))
		return -EINVAL;
	pac = fdt_address_cells(fdt, parent);
	if (pac < 1 || pac > MAX_CELLS)
		return -EINVAL;
	entry = ac + pac + sc;
	n = len / (int)(4 * entry);
	for (int i = 0; i < n; i++, r += entry) {
		child = read_cells(r, ac);
		paddr = read_cells(r + ac, pac);
		size = read_cells(r + ac + pac, sc);
		if (*addr >= child && *addr - child < size) {
			*addr = paddr + (*addr - child);
			return 0;
		}
	}
	return -EINVAL;
}

int fdt_translate(const void *fdt, int bus, u64 *addr)
{
	int err;

	while (bus > 0) {
		err = translate_one(fdt, bus, addr);
		if (err)
			return err;
		bus = fdt_parent_offset(fdt, bus);
	}
	return bus < 0 ? -EINVAL : 0;
}

static const fdt32_t *reg_prop(const void *fdt, int node, int *ac, int *sc,
			       int *count)
{
	int len, parent = fdt_parent_offset(fdt, node);
	const fdt32_t *p;

	if (parent < 0 || cells_of(fdt, parent, ac, sc))
		return NULL;
	p = fdt_getprop(fdt, node, "reg", &len);
	if (!p || len < 0)
		return NULL;
	*count = len / (4 * (*ac + *sc));
	return p;
}

int fdt_count_reg(const void *fdt, int node)
{
	int ac, sc, count;

	if (!reg_prop(fdt, node, &ac, &sc, &count))
		return -ENOENT;
	return count;
}

int fdt_read_reg(const void *fdt, int node, int idx, u64 *addr, u64 *size)
{
	int ac, sc, count;
	const fdt32_t *p = reg_prop(fdt, node, &ac, &sc, &count);

	if (!p || idx < 0 || idx >= count)
		return -ENOENT;
	p += idx * (ac + sc);
	*addr = read_cells(p, ac);
	*size = read_cells(p + ac, sc);
	return fdt_translate(fdt, fdt_parent_offset(fdt, node), addr);
}

int fdt_read_cell(const void *fdt, int node, const char *prop, int idx,
		  u32 *out)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, prop, &len);

	if (!p)
		return -ENOENT;
	if (idx < 0 || (idx + 1) * 4 > len)
		return -EINVAL;
	*out = fdt32_to_cpu(p[idx]);
	return 0;
}

int fdt_read_u32(const void *fdt, int node, const char *prop, u32 *out)
{
	return fdt_read_cell(fdt, node, prop, 0, out);
}

int fdt_read_u64(const void *fdt, int node, const char *prop, u64 *out)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, prop, &len);

	if (!p)
		return -ENOENT;
	if (len != 4 && len != 8)
		return -EINVAL;
	*out = read_cells(p, len / 4);
	return 0;
}

const char *fdt_read_string(const void *fdt, int node, const char *prop)
{
	int len;
	const char *s = fdt_getprop(fdt, node, prop, &len);

	if (!s || len < 1 || s[len - 1] != '\0')
		return NULL;
	return s;
}

int fdt_memory_ranges(const void *fdt, struct fdt_range *out, int max)
{
	int node = -1, n = 0, i, count;

	for (;;) {
		node = fdt_node_offset_by_prop_value(fdt, node, "device_type",
						     "memory", 7);
		if (node < 0)
			break;
		if (!fdt_node_available(fdt, node))
			continue;
		count = fdt_count_reg(fdt, node);
		for (i = 0; i < count && n < max; i++)
			if (!fdt_read_reg(fdt, node, i, &out[n].base,
					  &out[n].size) &&
			    out[n].size)
				n++;
	}
	return n;
}

int fdt_reserved_ranges(const void *fdt, struct fdt_range *out, int max)
{
	int n = 0, node, child, i, count;
	int rsv = fdt_num_mem_rsv(fdt);

	for (i = 0; i < rsv && n < max; i++)
		if (!fdt_get_mem_rsv(fdt, i, &out[n].base, &out[n].size) &&
		    out[n].size)
			n++;
	node = fdt_path_offset(fdt, "/reserved-memory");
	if (node < 0)
		return n;
	fdt_for_each_subnode (child, fdt, node) {
		if (!fdt_node_available(fdt, child))
			continue;
		count = fdt_count_reg(fdt, child);
		for (i = 0; i < count && n < max; i++)
			if (!fdt_read_reg(fdt, child, i, &out[n].base,
					  &out[n].size) &&
			    out[n].size)
				n++;
	}
	return n;
}

int fdt_stdout_node(const void *fdt)
{
	int chosen = fdt_path_offset(fdt, "/chosen");
	const char *path, *colon;

	if (chosen < 0)
		return chosen;
	path = fdt_read_string(fdt, chosen, "stdout-path");
	if (!path)
		path = fdt_read_string(fdt, chosen, "linux,stdout-path");
	if (!path)
		return -FDT_ERR_NOTFOUND;
	colon = strchr(path, ':');
	return fdt_path_offset_namelen(
		fdt, path, colon ? colon - path : (int)strlen(path));
}

int fdt_find_compatible(const void *fdt, const char *const *compat)
{
	int node;

	for (; *compat; compat++) {
		node = -1;
		for (;;) {
			node = fdt_node_offset_by_compatible(fdt, node,
							     *compat);
			if (node < 0)
				break;
			if (fdt_node_available(fdt, node))
				return node;
		}
	}
	return -FDT_ERR_NOTFOUND;
}

u32 fdt_phandle_map(const void *fdt, int *map, u32 n)
{
	u32 max = 0, p;
	int node;

	for (p = 0; p < n; p++)
		map[p] = -FDT_ERR_NOTFOUND;
	for (node = fdt_next_node(fdt, -1, NULL); node >= 0;
	     node = fdt_next_node(fdt, node, NULL)) {
		p = fdt_get_phandle(fdt, node);
		if (!p)
			continue;
		max = max(max, p);
		if (p < n)
			map[p] = node;
	}
	return max;
}

int fdt_phandle_node(const void *fdt, const struct fdt_phandles *ph,
		     u32 phandle)
{
	if (ph && phandle < ph->nr)
		return ph->node[phandle];
	return fdt_node_offset_by_phandle(fdt, phandle);
}
