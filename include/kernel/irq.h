/*
 * Interrupts: the core's descriptor table and handler registration, and
 * the operations an interrupt controller driver gives the core.
 *
 * Interrupt numbers are the controller's own (GIC INTIDs: SGIs 0-15,
 * PPIs 16-31, SPIs 32 and up). An irqchip driver translates device-tree
 * interrupt specifiers into these and registers itself with
 * set_irqchip(); it installs handle_arch_irq, which acknowledges each
 * pending interrupt and calls generic_handle_irq() between irq_enter()
 * and irq_exit().
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include <kernel/devicetree.h>
#include <lib/cpumask.h>
#include <lib/types.h>

#define NR_IRQS 1024
#define IRQ_FIRST_PPI 16 /* SGIs below: software-generated, per CPU */
#define IRQ_FIRST_SPI 32 /* PPIs below: per CPU; SPIs: shared, routed */

#define IRQ_TYPE_LEVEL_HIGH 0
#define IRQ_TYPE_EDGE_RISING 1

/*
 * SGIs 0-7 are the kernel's; secure firmware (TF-A, as real boards' does)
 * makes 8-15 secure, where a non-secure SGI would be raised as a group 0
 * FIQ or not at all. Linux keeps to 0-7 for the same reason.
 */
#define NR_NS_SGIS 8

/* Inter-processor interrupts, carried on SGIs 0..NR_IPI-1. */
enum ipi_msg_type {
	IPI_RESCHEDULE,
	IPI_CALL_FUNC,
	IPI_STOP,
	IPI_BACKTRACE, /* print this CPU's backtrace (stall reports) */
	NR_IPI,
};

struct pt_regs;
typedef void (*irq_handler_t)(unsigned int irq, void *dev);

struct irqchip_ops {
	const char *name;
	/* INTIDs 0..nr_irqs-1 exist; set by the driver before set_irqchip(). */
	unsigned int nr_irqs;
	/* Per-CPU set-up on the calling CPU (boot and each CPU coming up),
	 * IRQs masked, before the CPU is marked online: routing and IPIs to
	 * it need what this learns (GICv2: its CPU interface number). It
	 * leaves SGIs enabled and PPIs disabled: enable_percpu_irq() after. */
	void (*cpu_init)(void);
	/* The calling CPU is going away: stop taking interrupts, turn its
	 * CPU interface off (GICv3: the redistributor's power is left to
	 * the firmware's CPU_OFF). IRQs masked, after
	 * irq_migrate_all_off_this_cpu() and tick_cpu_stop(); the CPU may
	 * still send IPIs after it. */
	void (*cpu_off)(void);
	/* Back from a power-down (cpu_suspend()), IRQs masked: redo the
	 * calling CPU's interface set-up that a power-down loses (the
	 * CPU-interface part of cpu_init), without printing or allocating.
	 * NULL: the controller keeps it (no power-down support needed). */
	void (*cpu_resume)(void);
	/* Fault injection (fail.cpu_suspend): leave the calling CPU's
	 * interface as a power-down and the firmware leave it (disabled,
	 * priority mask 0), for cpu_resume to restore. IRQs masked. */
	void (*cpu_lose_context)(void);
	/* Tests: is cpu's part of the controller asleep (GICv3: its
	 * redistributor's GICR_WAKER.ChildrenAsleep as read now)? 1 or 0;
	 * -ENODEV if cpu has none set up, -EPERM if it is the firmware's
	 * (GICv3 with two security states). NULL: no such state. */
	int (*cpu_asleep)(unsigned int cpu);
	void (*enable)(unsigned int irq); /* SPI: global; PPI: this CPU */
	void (*disable)(unsigned int irq); /* SPI: global; PPI: this CPU */
	void (*set_type)(unsigned int irq, unsigned int type);
	/* Route an SPI to one CPU. */
	int (*set_affinity)(unsigned int irq, unsigned int cpu);
	/* Send SGI `ipi` to every CPU in mask. */
	void (*send_ipi)(const struct cpumask *mask, unsigned int ipi);
	/* Device-tree specifier -> INTID and trigger type. */
	int (*xlate)(const struct dt_irq *spec, unsigned int *irq,
		     unsigned int *type);
	/* Set or clear the pending state of a PPI (this CPU) or an SPI:
	 * how tests raise an interrupt no device drives. */
	void (*set_pending)(unsigned int irq, bool pending);
	/* The emulated idle exit's wait (arch_timer_wait_masked()): with on,
	 * the calling CPU's interface signals per-CPU interrupt irq alone
	 * (enabled, more urgent than the priority mask, the rest less), so
	 * that a WFI ends on it and on nothing already pending; off undoes.
	 * IRQs masked. NULL: the controller cannot. */
	void (*wake_only)(unsigned int irq, bool on);
	/* One line for the boot banner ("GIC: v3, ..."). */
	void (*print_info)(void);
};

extern void (*handle_arch_irq)(struct pt_regs *regs);
extern const struct irqchip_ops *irqchip;

void set_irqchip(const struct irqchip_ops *ops);

/* Probe the controller named in the device tree; 0 or <0 (printed). */
int irqchip_init(void);
/* The banner line of the interrupt controller, or why there is none. */
void irqchip_print_info(void);
/* An irqchip driver's `dt` line: the node's compatible and registers. */
void irqchip_describe(const struct dt_device *dev);

/* An SPI handler, routed to the calling CPU until moved. */
int request_irq(unsigned int irq, irq_handler_t handler, const char *name,
		void *dev);
/* A device's interrupt as its device-tree node gives it: translated by the
 * irqchip, its trigger set, requested as above; -ENODEV without one. */
int request_dt_irq(const struct dt_irq *spec, irq_handler_t handler,
		   const char *name, void *dev);
/* Free an SPI, or a per-CPU interrupt that every CPU has disabled; waits
 * for a handler running on another CPU to return. */
void free_irq(unsigned int irq);
/* Trigger type (IRQ_TYPE_*) of an SPI, before request_irq(). */
int irq_set_type(unsigned int irq, unsigned int type);
/* Set or clear an interrupt's pending state (tests): see set_pending. */
int irq_set_pending(unsigned int irq, bool pending);
/* Route an SPI to an online CPU; -EINVAL if cpu is not online. Ordered
 * with irq_migrate_all_off_this_cpu(): a CPU going down gets no SPI
 * routed to it after its own were migrated off. */
int irq_set_affinity(unsigned int irq, unsigned int cpu);
/* The CPU an SPI is routed to, or -1. */
int irq_get_affinity(unsigned int irq);
/* A per-CPU (SGI/PPI) handler; each CPU enables it for itself. SGIs
 * are enabled on every CPU by irqchip->cpu_init(): an SGI needs only its
 * handler. enable/disable act on the calling CPU (preemption off). */
int request_percpu_irq(unsigned int irq, irq_handler_t handler,
		       const char *name, void *dev);
void enable_percpu_irq(unsigned int irq, unsigned int type);
void disable_percpu_irq(unsigned int irq);

/* The irqchip's cpu_resume and cpu_lose_context on the calling CPU, if
 * it has them (arch/arm64/suspend.c). */
void irqchip_cpu_resume(void);
void irqchip_cpu_lose_context(void);

/* Called by the irqchip driver for each acknowledged interrupt. */
void generic_handle_irq(unsigned int irq);

/* How many times irq has fired on cpu (the `irqs` shell command). */
u64 kstat_irqs_cpu(unsigned int irq, unsigned int cpu);
/* Print which interrupts cpu takes over the next ms milliseconds. */
void irq_report_cpu_activity(unsigned int cpu, unsigned int ms);
/* Print every requested interrupt with its per-CPU counts. */
void show_interrupts(void);

/* Move every SPI routed to the calling CPU onto another online CPU
 * (hotplug: the dying CPU calls it once it is out of cpu_online_mask). */
void irq_migrate_all_off_this_cpu(void);

#endif
