/*
 * GICv3: a distributor for SPIs, one redistributor per CPU for its SGIs
 * and PPIs (found by matching GICR_TYPER's affinity to the CPU's MPIDR,
 * across every redistributor region), and a CPU interface reached through
 * the ICC_* system registers. SPIs are routed by affinity (IROUTER) and
 * SGIs sent by affinity (ICC_SGI1R_EL1), one write per cluster. Every
 * interrupt is non-secure group 1. No LPIs (no ITS).
 */
#define pr_fmt(fmt) "GICv3: " fmt
#include <asm/barrier.h>
#include <asm/io.h>
#include <asm/pgtable.h>
#include <asm/cputype.h>
#include <asm/sysreg.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/devicetree.h>
#include <kernel/fault.h>
#include <kernel/irq.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <libfdt.h>
#include <lib/errno.h>
#include <lib/fdt.h>
#include <string.h>

#include "irq-gic-common.h"

#define GICD_CTLR_RWP BIT(31)
#define GICD_CTLR_ARE_NS BIT(4)
/* One security state: GICR_WAKER is ours. Reads 0 from Non-secure when
 * there are two (the bit is not in the Non-secure view of GICD_CTLR). */
#define GICD_CTLR_DS BIT(6)
/* Group 1 enables: bit 1 in the non-secure view (or with one security
 * state), bit 0 with one security state is group 0, harmless as unused. */
#define GICD_CTLR_ENABLE_G1A BIT(1)
#define GICD_CTLR_ENABLE_G1 BIT(0)
#define GICD_IROUTER 0x6000
#define GIC_PIDR2 0xffe8 /* in the distributor and each redistributor */
#define GIC_PIDR2_ARCH(v) (((v) >> 4) & 0xf)

#define GICR_CTLR 0x0000
#define GICR_CTLR_RWP BIT(3)
#define GICR_TYPER 0x0008
#define GICR_TYPER_VLPIS BIT(1) /* GICv4: two more 64 KiB frames */
#define GICR_TYPER_LAST BIT(4)
#define GICR_TYPER_AFF_SHIFT 32
#define GICR_WAKER 0x0014
#define GICR_WAKER_PROCESSOR_SLEEP BIT(1)
#define GICR_WAKER_CHILDREN_ASLEEP BIT(2)
#define GICR_FRAME SZ_64K /* RD_base, then SGI_base, ... */
#define GICR_SGI_BASE GICR_FRAME

#define ICC_IAR1_EL1 "S3_0_C12_C12_0"
#define ICC_EOIR1_EL1 "S3_0_C12_C12_1"
#define ICC_BPR1_EL1 "S3_0_C12_C12_3"
#define ICC_CTLR_EL1 "S3_0_C12_C12_4"
#define ICC_CTLR_EOIMODE BIT(1) /* 0: EOI also deactivates */
#define ICC_SRE_EL1 "S3_0_C12_C12_5"
#define ICC_SRE_SRE BIT(0)
#define ICC_SRE_DFB BIT(1)
#define ICC_SRE_DIB BIT(2)
#define ICC_IGRPEN1_EL1 "S3_0_C12_C12_7"
#define ICC_PMR_EL1 "S3_0_C4_C6_0"
#define ICC_SGI1R_EL1 "S3_0_C12_C11_5"
#define ICC_IAR_INTID 0xffffff

/* ICC_SGI1R_EL1 fields. */
#define SGI1R_TARGET_LIST_BITS 16 /* Aff0 values 0-15 of one range */
#define SGI1R_AFF1_SHIFT 16
#define SGI1R_INTID_SHIFT 24
#define SGI1R_AFF2_SHIFT 32
#define SGI1R_RS_SHIFT 44
#define SGI1R_AFF3_SHIFT 48

#define MPIDR_AFF(mpidr, n) (((mpidr) >> ((n) == 3 ? 32 : (n)*8)) & 0xff)

/* Bound on waits for the GIC (RWP, WAKER): generous, it is µs on QEMU. */
#define GIC_WAIT_US 1000000

struct rdist_region {
	void *base;
	phys_addr_t pa;
	u64 size;
};

static struct {
	void *dist;
	phys_addr_t dist_pa;
	unsigned int nr_lines;
	struct rdist_region regions[DT_MAX_REGS];
	int nr_regions;
	u64 stride; /* from "redistributor-stride"; 0: from GICR_TYPER */
	int nr_rdists;
	bool one_security_state; /* GICD_CTLR.DS: no secure firmware's GIC */
	/* ICFGR read-modify-writes of the distributor. */
	spinlock_t lock;
} gic;
/* Each CPU's RD_base, found by that CPU in cpu_init. */
static DEFINE_CPU_ARRAY(void *, gic_rdist);

/*
 * fail.gic_waker=ro: GICR_WAKER reads as 0 and ignores writes, as the
 * Non-secure kernel sees it when the GIC has two security states
 * (GICD_CTLR.DS=0) and secure firmware owns the redistributors' power.
 * QEMU lets Non-secure write it even then, so a board's view is made
 * here, at the register's only accessors.
 */
static const char *const ro_word[] = {"ro", NULL};
static const struct fault_field gic_waker_fields[] = {
	{"ro", FAULT_WORD, .words = ro_word}, {}};
DEFINE_FAULT(gic_waker, gic_waker_fields, 1, FAULT_FOREVER, NULL,
	     "GICv3's GICR_WAKER reads 0 and ignores writes, as the kernel "
	     "sees it under secure firmware (GICD_CTLR.DS=0)");

static u32 gic_readl(void *reg)
{
	return readl_relaxed(reg);
}

/* GICR_WAKER of the redistributor at rd. */
static u32 gic_waker_read(void *rd)
{
	if (fault_armed(&fault_gic_waker))
		return 0;
	return readl_relaxed(rd + GICR_WAKER);
}

static void gic_waker_write(void *rd, u32 val)
{
	if (!fault_armed(&fault_gic_waker))
		writel_relaxed(val, rd + GICR_WAKER);
}

/*
 * Wait until (read(at) & bit) == want, for at most GIC_WAIT_US; false on
 * timeout (printed).
 */
static bool gic_wait_bit(u32 (*read)(void *at), void *at, u32 bit, bool want,
			 const char *what)
{
	for (int us = 0; us < GIC_WAIT_US; us++) {
		if (!!(read(at) & bit) == want)
			return true;
		udelay(1);
	}
	pr_err("CPU%u: timeout waiting for %s\n", smp_processor_id(), what);
	return false;
}

static void gic_dist_wait_rwp(void)
{
	gic_wait_bit(gic_readl, gic.dist + GICD_CTLR, GICD_CTLR_RWP, false,
		     "distributor RWP");
}

static void *gic_this_rdist(void)
{
	void *rd = gic_rdist[smp_processor_id()];

	if (!rd)
		pr_warn("CPU%u: redistributor not set up (cpu_init?)\n",
			smp_processor_id());
	return rd;
}

/* The bank holding irq: the distributor, or this CPU's SGI frame. */
static void *gic_bank(unsigned int irq)
{
	void *rd;

	if (irq >= IRQ_FIRST_SPI)
		return gic.dist;
	rd = gic_this_rdist();
	return rd ? rd + GICR_SGI_BASE : NULL;
}

static void gic_enable(unsigned int irq)
{
	void *base = gic_bank(irq);

	if (base)
		gic_poke_irq(base, GICD_ISENABLER, irq);
}

/* Returns once the disable has taken effect (RWP clear). */
static void gic_disable(unsigned int irq)
{
	void *base = gic_bank(irq);

	if (!base)
		return;
	gic_poke_irq(base, GICD_ICENABLER, irq);
	if (irq >= IRQ_FIRST_SPI)
		gic_dist_wait_rwp();
	else
		gic_wait_bit(gic_readl, base - GICR_SGI_BASE + GICR_CTLR,
			     GICR_CTLR_RWP, false, "redistributor RWP");
}

static void gic_wake_only(unsigned int irq, bool on)
{
	void *base = gic_bank(irq);

	if (!base)
		return;
	gic_set_priority(base, irq,
			 on ? GIC_WAKE_PRIORITY : GIC_DEFAULT_PRIORITY);
	if (on)
		gic_enable(irq);
	else
		gic_disable(irq);
	write_sysreg_s(on ? GIC_WAKE_MASK : GIC_PRIORITY_MASK, ICC_PMR_EL1);
	isb();
}

static void gic_set_type(unsigned int irq, unsigned int type)
{
	void *base = gic_bank(irq);

	/* SGIs are always edge-triggered. */
	if (base && irq >= IRQ_FIRST_PPI)
		gic_configure_irq(base, irq, type, &gic.lock);
}

static void gic_set_pending(unsigned int irq, bool pending)
{
	void *base = gic_bank(irq);

	if (base)
		gic_poke_irq(base, pending ? GICD_ISPENDR : GICD_ICPENDR, irq);
}

static int gic_set_affinity(unsigned int irq, unsigned int cpu)
{
	u64 aff = cpu_logical_map(cpu) & MPIDR_HWID_MASK;

	/* IROUTER has MPIDR's layout (Aff3 at 39:32); IRM = 0: this PE. */
	writeq_relaxed(aff, gic.dist + GICD_IROUTER + irq * 8);
	return 0;
}

/* The SGI1R bits naming a cluster: Aff3, Aff2, Aff1 and Aff0's range. */
static u64 gic_sgi_cluster(u64 mpidr)
{
	return MPIDR_AFF(mpidr, 3) << SGI1R_AFF3_SHIFT |
	       MPIDR_AFF(mpidr, 2) << SGI1R_AFF2_SHIFT |
	       MPIDR_AFF(mpidr, 1) << SGI1R_AFF1_SHIFT |
	       (MPIDR_AFF(mpidr, 0) / SGI1R_TARGET_LIST_BITS) << SGI1R_RS_SHIFT;
}

/* One ICC_SGI1R_EL1 write per cluster of the CPUs in mask. */
static void gic_send_ipi(const struct cpumask *mask, unsigned int ipi)
{
	struct cpumask todo;
	unsigned int cpu, other;
	u64 cluster, list;

	cpumask_copy(&todo, mask);
	/* Stores before the IPI are seen by its handler: pairs with the
	 * isb() after the IAR read in gic_handle_irq(). A dsb, not a dmb:
	 * the SGI is a system register write, not a memory access. */
	dsb(ishst);
	for_each_cpu (cpu, &todo) {
		cluster = gic_sgi_cluster(cpu_logical_map(cpu));
		list = 0;
		for_each_cpu (other, &todo) {
			u64 mpidr = cpu_logical_map(other);

			if (gic_sgi_cluster(mpidr) != cluster)
				continue;
			list |= BIT(MPIDR_AFF(mpidr, 0) %
				    SGI1R_TARGET_LIST_BITS);
			cpumask_clear_cpu(other, &todo);
		}
		write_sysreg_s(cluster | (u64)ipi << SGI1R_INTID_SHIFT | list,
			       ICC_SGI1R_EL1);
	}
	isb(); /* generate the SGIs now, not at some later sync point */
}

static void gic_handle_irq(struct pt_regs *regs)
{
	u64 iar;
	u32 irq;

	for (;;) {
		iar = read_sysreg_s(ICC_IAR1_EL1);
		irq = iar & ICC_IAR_INTID;
		if (irq >= GIC_SPURIOUS_FIRST && irq <= GIC_SPURIOUS_LAST)
			break;
		/* No handler load runs ahead of the acknowledge: pairs with
		 * the dsb in gic_send_ipi(). */
		if (irq < IRQ_FIRST_PPI)
			isb();
		irq_enter();
		generic_handle_irq(irq);
		irq_exit();
		write_sysreg_s(iar, ICC_EOIR1_EL1);
		isb();
	}
}

static bool gic_rdist_valid(void *rd)
{
	u32 arch = GIC_PIDR2_ARCH(readl_relaxed(rd + GIC_PIDR2));

	return arch == 3 || arch == 4;
}

/*
 * Walk every redistributor of every region; returns the one whose
 * GICR_TYPER affinity is aff (NULL if none) and counts them all.
 */
static void *gic_rdist_walk(u32 aff, int *count)
{
	void *found = NULL, *rd, *end;
	u64 typer, stride = 2 * GICR_FRAME;

	*count = 0;
	for (int r = 0; r < gic.nr_regions; r++) {
		rd = gic.regions[r].base;
		end = rd + gic.regions[r].size;
		for (; rd < end && gic_rdist_valid(rd); rd += stride) {
			typer = readq_relaxed(rd + GICR_TYPER);
			if (typer >> GICR_TYPER_AFF_SHIFT == aff && !found)
				found = rd;
			(*count)++;
			if (typer & GICR_TYPER_LAST)
				break;
			stride = gic.stride
					 ? gic.stride
					 : (typer & GICR_TYPER_VLPIS ? 4 : 2) *
						   GICR_FRAME;
		}
	}
	return found;
}

static u32 mpidr_to_aff32(u64 mpidr)
{
	return MPIDR_AFF(mpidr, 3) << 24 | MPIDR_AFF(mpidr, 2) << 16 |
	       MPIDR_AFF(mpidr, 1) << 8 | MPIDR_AFF(mpidr, 0);
}

/*
 * Wake the redistributor: clear ProcessorSleep, wait for ChildrenAsleep
 * to follow. Where GICR_WAKER is RAZ/WI to us (secure firmware owns it)
 * both read 0 at once: the firmware woke it before it let the CPU run.
 */
static void gic_rdist_wake(void *rd)
{
	gic_waker_write(rd, gic_waker_read(rd) & ~GICR_WAKER_PROCESSOR_SLEEP);
	gic_wait_bit(gic_waker_read, rd, GICR_WAKER_CHILDREN_ASLEEP, false,
		     "redistributor to wake");
}

/*
 * Put it to sleep, if GICR_WAKER is ours to write: ProcessorSleep must
 * read back set, as Linux's gic_enable_redist() checks. RAZ/WI (secure
 * firmware, GICD_CTLR.DS=0), it is the firmware's to do, and waiting for
 * a ChildrenAsleep that never comes would spin GIC_WAIT_US with
 * interrupts off.
 */
static void gic_rdist_sleep(void *rd)
{
	gic_waker_write(rd, gic_waker_read(rd) | GICR_WAKER_PROCESSOR_SLEEP);
	if (!(gic_waker_read(rd) & GICR_WAKER_PROCESSOR_SLEEP))
		return;
	gic_wait_bit(gic_waker_read, rd, GICR_WAKER_CHILDREN_ASLEEP, true,
		     "redistributor to sleep");
}

/* The system-register CPU interface; false if firmware keeps it off. */
static bool gic_cpu_sys_reg_init(void)
{
	u64 sre = read_sysreg_s(ICC_SRE_EL1);

	if (!(sre & ICC_SRE_SRE)) {
		write_sysreg_s(sre | ICC_SRE_SRE | ICC_SRE_DFB | ICC_SRE_DIB,
			       ICC_SRE_EL1);
		isb();
		if (!(read_sysreg_s(ICC_SRE_EL1) & ICC_SRE_SRE)) {
			pr_err("CPU%u: ICC_SRE_EL1.SRE stuck at 0 (EL2/EL3 "
			       "did not allow the system registers)\n",
			       smp_processor_id());
			return false;
		}
	}
	write_sysreg_s(GIC_PRIORITY_MASK, ICC_PMR_EL1);
	write_sysreg_s(0, ICC_BPR1_EL1);
	write_sysreg_s(read_sysreg_s(ICC_CTLR_EL1) & ~ICC_CTLR_EOIMODE,
		       ICC_CTLR_EL1);
	write_sysreg_s(1, ICC_IGRPEN1_EL1);
	isb();
	return true;
}

static void gic_cpu_init(void)
{
	unsigned int cpu = smp_processor_id();
	u64 mpidr = read_cpuid_mpidr() & MPIDR_HWID_MASK;
	int count;
	void *rd = gic_rdist_walk(mpidr_to_aff32(mpidr), &count);

	if (!rd) {
		pr_err("CPU%u: no redistributor for MPIDR %#llx: no "
		       "interrupts on this CPU\n",
		       cpu, (unsigned long long)mpidr);
		return;
	}
	gic_rdist[cpu] = rd;
	gic_rdist_wake(rd);
	writel_relaxed(~0U, rd + GICR_SGI_BASE + GICD_IGROUPR);
	gic_cpu_config(rd + GICR_SGI_BASE);
	gic_wait_bit(gic_readl, rd + GICR_CTLR, GICR_CTLR_RWP, false,
		     "redistributor RWP");
	gic_cpu_sys_reg_init();
}

/*
 * Going down: the CPU interface stops taking group 1 interrupts. The
 * redistributor is left awake, as Linux leaves it on CPU hotplug: its
 * power is the firmware's. Under secure firmware (GICD_CTLR.DS=0)
 * GICR_WAKER is not even writable by us, and TF-A's CPU_OFF marks it
 * asleep itself (gicv3_cpuif_disable()) before the core goes. With one
 * security state (DS=1, QEMU's own PSCI) we could, but this CPU still
 * runs kernel code after this step (smpcfd_dying_cpu(), the complete()
 * that wakes the waiter) and sends SGIs: ProcessorSleep is for a CPU
 * interface already quiescent, not one that still generates. Left
 * awake, it holds what arrives for its CPU until cpu_init, which wakes
 * it (nothing to do then) before group 1 is enabled again. Only the
 * emulated power-down (cpu_lose_context) puts it to sleep.
 */
static void gic_cpu_off(void)
{
	write_sysreg_s(0, ICC_IGRPEN1_EL1);
	isb();
}

/*
 * Back from a power-down: the firmware put the redistributor to sleep
 * (as TF-A does) and the ICC_* registers were lost. Wake it, set them.
 */
static void gic_cpu_resume(void)
{
	void *rd = gic_rdist[smp_processor_id()];

	if (!rd)
		return;
	gic_rdist_wake(rd);
	gic_cpu_sys_reg_init();
}

/* What TF-A's power-down and the reset leave: group 1 off, PMR 0, the
 * EOI mode split (EOI no longer deactivates), redistributor asleep. */
static void gic_cpu_lose_context(void)
{
	void *rd = gic_rdist[smp_processor_id()];

	write_sysreg_s(0, ICC_IGRPEN1_EL1);
	write_sysreg_s(0, ICC_PMR_EL1);
	write_sysreg_s(3, ICC_BPR1_EL1);
	write_sysreg_s(read_sysreg_s(ICC_CTLR_EL1) | ICC_CTLR_EOIMODE,
		       ICC_CTLR_EL1);
	isb();
	if (rd)
		gic_rdist_sleep(rd);
}

/*
 * For tests: cpu's redistributor asleep (ChildrenAsleep, as read now)?
 * -EPERM where GICR_WAKER is the firmware's: two security states (RAZ/WI
 * to us on hardware, though QEMU shows it), or fail.gic_waker=ro.
 */
static int gic_cpu_asleep(unsigned int cpu)
{
	void *rd = cpu < nr_cpu_ids ? gic_rdist[cpu] : NULL;

	if (!rd)
		return -ENODEV;
	if (!gic.one_security_state || fault_armed(&fault_gic_waker))
		return -EPERM;
	return !!(gic_waker_read(rd) & GICR_WAKER_CHILDREN_ASLEEP);
}

static int gic_xlate(const struct dt_irq *spec, unsigned int *irq,
		     unsigned int *type)
{
	return gic_irq_xlate(spec, gic.nr_lines, irq, type);
}

static void gic_print_info(void)
{
	printk(KERN_INFO
	       "GIC: v3, %u SPIs, distributor %#llx, %d redistributor(s) "
	       "in %d region(s) from %#llx\n",
	       gic.nr_lines - IRQ_FIRST_SPI, (unsigned long long)gic.dist_pa,
	       gic.nr_rdists, gic.nr_regions,
	       (unsigned long long)gic.regions[0].pa);
}

static struct irqchip_ops gic_ops = {
	.name = "GICv3",
	.cpu_init = gic_cpu_init,
	.cpu_off = gic_cpu_off,
	.cpu_resume = gic_cpu_resume,
	.cpu_lose_context = gic_cpu_lose_context,
	.cpu_asleep = gic_cpu_asleep,
	.enable = gic_enable,
	.disable = gic_disable,
	.set_type = gic_set_type,
	.set_affinity = gic_set_affinity,
	.send_ipi = gic_send_ipi,
	.xlate = gic_xlate,
	.set_pending = gic_set_pending,
	.wake_only = gic_wake_only,
	.print_info = gic_print_info,
};

/* Every SPI group 1, level, disabled, and routed to the boot CPU. */
static void gic_dist_init(void)
{
	u64 aff = read_cpuid_mpidr() & MPIDR_HWID_MASK;
	unsigned int i;

	writel_relaxed(0, gic.dist + GICD_CTLR);
	gic_dist_wait_rwp();
	for (i = IRQ_FIRST_SPI; i < gic.nr_lines; i += 32)
		writel_relaxed(~0U, gic.dist + GICD_IGROUPR + i / 8);
	gic_dist_config(gic.dist, gic.nr_lines);
	gic_dist_wait_rwp();
	/* Affinity routing first: IROUTER means nothing without it. */
	writel_relaxed(GICD_CTLR_ARE_NS | GICD_CTLR_ENABLE_G1A |
			       GICD_CTLR_ENABLE_G1,
		       gic.dist + GICD_CTLR);
	gic_dist_wait_rwp();
	gic.one_security_state =
		readl_relaxed(gic.dist + GICD_CTLR) & GICD_CTLR_DS;
	for (i = IRQ_FIRST_SPI; i < gic.nr_lines; i++)
		writeq_relaxed(aff, gic.dist + GICD_IROUTER + i * 8);
}

/* The redistributor regions: reg[1..n], n from "#redistributor-regions". */
static int gic_map_rdist_regions(const struct dt_device *dev)
{
	const void *fdt = initial_boot_params;
	u32 n = 1;

	fdt_read_u32(fdt, dev->node, "#redistributor-regions", &n);
	if (n < 1 || (int)n >= dev->nr_reg) {
		pr_err("%s: %u redistributor regions, %d regs\n", dev->name, n,
		       dev->nr_reg);
		return -EINVAL;
	}
	for (u32 r = 0; r < n; r++) {
		gic.regions[r].pa = dev->reg[1 + r].base;
		gic.regions[r].size = dev->reg[1 + r].size;
		gic.regions[r].base =
			ioremap(dev->reg[1 + r].base, dev->reg[1 + r].size);
		if (!gic.regions[r].base)
			return -ENOMEM;
	}
	gic.nr_regions = n;
	if (fdt_read_u64(fdt, dev->node, "redistributor-stride", &gic.stride))
		gic.stride = 0;
	return 0;
}

static int gic_probe(const struct dt_device *dev)
{
	u32 arch;
	int err;

	if (dev->nr_reg < 2) {
		pr_err("%s: needs distributor and redistributor regs\n",
		       dev->name);
		return -EINVAL;
	}
	gic.dist_pa = dev->reg[0].base;
	gic.dist = ioremap(dev->reg[0].base, dev->reg[0].size);
	if (!gic.dist)
		return -ENOMEM;
	arch = GIC_PIDR2_ARCH(readl_relaxed(gic.dist + GIC_PIDR2));
	if (arch != 3 && arch != 4) {
		pr_err("%s: distributor reports GIC architecture %u, not 3/4\n",
		       dev->name, arch);
		return -ENODEV;
	}
	err = gic_map_rdist_regions(dev);
	if (err)
		return err;
	gic_rdist_walk(~0U, &gic.nr_rdists);
	spin_lock_init(&gic.lock);
	gic.nr_lines = gic_nr_lines(gic.dist);
	gic_dist_init();
	gic_ops.nr_irqs = gic.nr_lines;
	handle_arch_irq = gic_handle_irq;
	set_irqchip(&gic_ops);
	return 0;
}

static const char *const gic_v3_compat[] = {"arm,gic-v3", NULL};
DT_DRIVER(gic_v3, DT_CLASS_IRQCHIP, gic_v3_compat, gic_probe, irqchip_describe);
