/* The buffer tests/common/dt_shim.c treats as the only physical memory. */
#ifndef DT_SHIM_H
#define DT_SHIM_H

#include <stddef.h>

extern const unsigned char *dt_shim_blob;
extern size_t dt_shim_blob_len;

/*
 * kernel/devicetree.c walks [__dt_drivers_start, __dt_drivers_end), which
 * the kernel's linker script places around the .dt_drivers section; on
 * the host, both name the ends of an array of n drivers instead.
 */
#define DT_SHIM_STR_(x) #x
#define DT_SHIM_STR(x) DT_SHIM_STR_(x)
#define DT_SHIM_DRIVER_TABLE(table, n)                  \
	_Static_assert(sizeof(struct dt_driver) == 40,  \
		       "the asm assumes 40 bytes");     \
	__asm__(".globl __dt_drivers_start\n"           \
		".set __dt_drivers_start, " #table "\n" \
		".globl __dt_drivers_end\n"             \
		".set __dt_drivers_end, " #table        \
		" + " DT_SHIM_STR(n) " * 40\n")

#endif
