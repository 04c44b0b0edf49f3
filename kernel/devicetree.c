/*
 * The boot device tree: mapped at FDT_VADDR, checked whole before anything
 * trusts it, matched against the drivers in the .dt_drivers section, and
 * the record of which driver bound to which node.
 */
#define pr_fmt(fmt) "dt: " fmt
#include <asm/pgtable.h>
#include <kernel/devicetree.h>
#include <kernel/printk.h>
#include <libfdt.h>
#include <lib/errno.h>
#include <lib/fdt.h>
#include <lib/kernel.h>

/* Drivers bound at boot: console, firmware, irqchip, timer, power. */
#define DT_MAX_BOUND 8

const void *initial_boot_params;

/* Filled at boot by dt_probe_node(), on the boot CPU; read-only after. */
static struct dt_binding {
	const struct dt_driver *drv;
	struct dt_device dev;
} dt_bound[DT_MAX_BOUND];
static int dt_nr_bound;

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
	dt_nr_bound = 0; /* bindings are to nodes of this tree */
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

void dt_device_init(int node, struct dt_device *dev)
{
	const void *fdt = initial_boot_params;

	dev->node = node;
	dev->name = fdt_get_name(fdt, node, NULL);
	dev->compatible = fdt_read_string(fdt, node, "compatible");
	if (!dev->compatible)
		dev->compatible = "";
	if (fdt_get_path(fdt, node, dev->path, sizeof(dev->path)))
		dev->path[0] = '\0';
	dev->nr_reg = 0;
	while (dev->nr_reg < DT_MAX_REGS &&
	       !fdt_read_reg(fdt, node, dev->nr_reg,
			     &dev->reg[dev->nr_reg].base,
			     &dev->reg[dev->nr_reg].size))
		dev->nr_reg++;
}

static void record_binding(const struct dt_driver *drv,
			   const struct dt_device *dev)
{
	if (dt_nr_bound == DT_MAX_BOUND) {
		pr_warn("%s: bound to %s, but not listed by `dt` (more than "
			"%d devices)\n",
			dev->name, drv->name, DT_MAX_BOUND);
		return;
	}
	dt_bound[dt_nr_bound].drv = drv;
	dt_bound[dt_nr_bound].dev = *dev;
	dt_nr_bound++;
}

int dt_probe_node(int node, enum dt_class cls)
{
	const struct dt_driver *drv;
	struct dt_device dev;
	int err;

	for (drv = __dt_drivers_start; drv < __dt_drivers_end; drv++) {
		if (drv->cls != cls || !driver_matches(drv, node))
			continue;
		dt_device_init(node, &dev);
		err = drv->probe(&dev);
		if (err)
			pr_err("%s: driver %s failed: %d\n", dev.name,
			       drv->name, err);
		else
			record_binding(drv, &dev);
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

void dt_describe_devices(void)
{
	for (int i = 0; i < dt_nr_bound; i++)
		if (dt_bound[i].drv->describe)
			dt_bound[i].drv->describe(&dt_bound[i].dev);
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
	    cells < 1 || cells > DT_MAX_IRQ_CELLS)
		return -EINVAL;
	*parent = node;
	return cells;
}

int dt_read_irq(int node, int index, struct dt_irq *out)
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
