/*
 * A per-CPU timer that can raise one interrupt at a chosen time: what the
 * tick is built on. The driver (the Arm generic timer) registers one
 * device whose operations act on the calling CPU's own timer.
 */
#ifndef KERNEL_CLOCKEVENTS_H
#define KERNEL_CLOCKEVENTS_H

#include <lib/types.h>

struct clock_event_device {
	const char *name;
	u64 freq; /* counter ticks per second */
	unsigned int irq; /* its per-CPU interrupt (for the banner) */
	/* Raise the interrupt when the counter reaches `cycles` (absolute). */
	void (*set_next_event)(u64 cycles);
	/* Mask this CPU's timer: no more events until set_next_event(). */
	void (*shutdown)(void);
	/* Start taking this device's interrupt on the calling CPU. */
	void (*cpu_init)(void);
	/* Set by the core: called in interrupt context on each event. */
	void (*event_handler)(void);
};

/* A driver's probe registers its device; the tick runs on it. */
void clockevents_register_device(struct clock_event_device *dev);
/* Probe the timer the device tree describes (DT_CLASS_TIMER drivers,
 * after irqchip_init()); 0 or <0 (printed). */
int clockevents_init(void);

#endif
