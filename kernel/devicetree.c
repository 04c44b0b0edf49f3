/*
 * The boot device tree: mapped at FDT_VADDR, checked whole before anything
 * trusts it, and matched against the drivers in the .dt_drivers section.
 */
#define pr_fmt(fmt) "dt: " fmt
#include <asm/pgtable.h>
#include <kernel/board.h>
#include <kernel/devicetree.h>
#include <kernel/printk.h>
#include <libfdt.h>
#include <lib/errno.h>
#include <lib/fdt.h>
#include <lib/kernel.h>

const void *initial_boot_params;

extern const struct dt_driver __dt_drivers_start[], __dt_drivers_end[];

int dt_init(phys_addr_t pa)
{
	const void *fdt;
	u32 size;
	int err;

	if (!pa) {
		pr_emerg("no device tree: the boot loader passed x0 = 0\n");
		return -ENOENT;
	}
	if (!IS_ALIGNED(pa, 8)) {
		pr_emerg("device tree address %#llx is not 8-byte aligned\n",
			 (unsigned long long)pa);
		return -EINVAL;
	}
	fdt = fixmap_fdt(pa, sizeof(struct fdt_header));
	if (!fdt || fdt_magic(fdt) != FDT_MAGIC) {
		pr_emerg("no device tree at %#llx (bad magic %#x)\n",
			 (unsigned long long)pa, fdt ? fdt_magic(fdt) : 0);
		return -EINVAL;
	}
	size = fdt_totalsize(fdt);
	if (size < sizeof(struct fdt_header) || size > FDT_MAX_SIZE) {
		pr_emerg("device tree at %#llx: implausible size %u\n",
			 (unsigned long long)pa, size);
		return -EINVAL;
	}
	/*
	 * Before version 17 the header has no size_dt_struct, and Debian's
	 * libfdt 1.6.1 then walks the structure block unbounded: the DTB
	 * fuzzer made fdt_check_full() read past the blob that way. Every
	 * boot loader of this century writes version 17.
	 */
	if (fdt_version(fdt) < 17) {
		pr_emerg("device tree at %#llx: version %u, need 17 or later\n",
			 (unsigned long long)pa, fdt_version(fdt));
		return -EINVAL;
	}
	fdt = fixmap_fdt(pa, size);
	err = fdt ? fdt_check_full(fdt, size) : -FDT_ERR_NOSPACE;
	if (err) {
		pr_emerg("device tree at %#llx is malformed: %s\n",
			 (unsigned long long)pa, fdt_strerror(err));
		return -EINVAL;
	}
	initial_boot_params = fdt;
	return 0;
}

static bool driver_matches(const struct dt_driver *drv, int node)
{
	const void *fdt = initial_boot_params;

	for (const char *const *c = drv->compatible; *c; c++)
		if (!fdt_node_check_compatible(fdt, node, *c))
			return true;
	return false;
}

static void fill_device(int node, struct dt_device *dev)
{
	const void *fdt = initial_boot_params;

	dev->node = node;
	dev->name = fdt_get_name(fdt, node, NULL);
	dev->nr_reg = 0;
	while (dev->nr_reg < DT_MAX_REGS &&
	       !fdt_read_reg(fdt, node, dev->nr_reg,
			     &dev->reg[dev->nr_reg].base,
			     &dev->reg[dev->nr_reg].size))
		dev->nr_reg++;
}

int dt_probe_node(int node, enum dt_class cls)
{
	const struct dt_driver *drv;
	struct dt_device dev;
	int err;

	for (drv = __dt_drivers_start; drv < __dt_drivers_end; drv++) {
		if (drv->cls != cls || !driver_matches(drv, node))
			continue;
		fill_device(node, &dev);
		err = drv->probe(&dev);
		if (err)
			pr_err("%s: driver %s failed: %d\n", dev.name,
			       drv->name, err);
		return err;
	}
	return -ENODEV;
}

int dt_probe_class(enum dt_class cls)
{
	const void *fdt = initial_boot_params;
	int node, depth = 0, count = 0;

	for (node = fdt_next_node(fdt, -1, &depth); node >= 0;
	     node = fdt_next_node(fdt, node, &depth))
		if (fdt_node_available(fdt, node) && !dt_probe_node(node, cls))
			count++;
	return count;
}

/*
 * #interrupt-cells of the controller node's interrupts go to, or <0;
 * *parent = that controller's node.
 */
static int interrupt_cells(const void *fdt, int node, int *parent)
{
	u32 phandle, cells;

	for (; node >= 0; node = fdt_parent_offset(fdt, node))
		if (!fdt_read_u32(fdt, node, "interrupt-parent", &phandle))
			break;
	if (node < 0)
		return -ENOENT;
	node = fdt_node_offset_by_phandle(fdt, phandle);
	if (node < 0 || fdt_read_u32(fdt, node, "#interrupt-cells", &cells) ||
	    cells < 1 || cells > BOARD_MAX_IRQ_CELLS)
		return -EINVAL;
	*parent = node;
	return cells;
}

int dt_read_irq(int node, int index, struct board_irq *out)
{
	const void *fdt = initial_boot_params;
	int parent, cells = interrupt_cells(fdt, node, &parent);

	if (cells < 0)
		return cells;
	for (int c = 0; c < cells; c++)
		if (fdt_read_cell(fdt, node, "interrupts", index * cells + c,
				  &out->cells[c]))
			return -ENOENT;
	out->nr_cells = cells;
	out->parent = parent;
	return 0;
}
