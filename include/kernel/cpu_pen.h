/*
 * Parking offline CPUs in a kernel-owned pen (arch/arm64/pen.S), for
 * enable methods whose firmware cannot power a CPU off (spin-table).
 */
#ifndef KERNEL_CPU_PEN_H
#define KERNEL_CPU_PEN_H

#include <lib/types.h>

/* On the dying CPU, interrupts off, after its down steps: never returns. */
void cpu_pen_park(unsigned int cpu) __attribute__((noreturn));
/* On a surviving CPU: 0 once cpu sits in the pen, -ETIMEDOUT if not. */
int cpu_pen_wait(unsigned int cpu);
/* Is cpu parked in the pen (so starting it means releasing it)? */
bool cpu_pen_holds(unsigned int cpu);
/* Let it out: it restarts through secondary_data. */
void cpu_pen_release(unsigned int cpu);

#endif
