/*
 * Which CPU this is, as the architecture says it: MPIDR_EL1's affinity
 * fields, which the device tree's cpu "reg" values name.
 */
#ifndef ASM_CPUTYPE_H
#define ASM_CPUTYPE_H

#include <asm/sysreg.h>

/* Aff3 and Aff2-Aff0: the MT and U bits and RES1 bit 31 left out. */
#define MPIDR_HWID_MASK 0xff00ffffffUL

static inline u64 read_cpuid_mpidr(void)
{
	return read_sysreg(mpidr_el1);
}

#endif
