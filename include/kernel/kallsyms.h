/* Kernel symbol table (generated at link time by tools/kallsyms.py). */
#ifndef KERNEL_KALLSYMS_H
#define KERNEL_KALLSYMS_H

#include <lib/types.h>

/* Name of the function containing addr, its offset and size; NULL if none. */
const char *kallsyms_lookup(u64 addr, u64 *offset, u64 *size);
/* Address of a text symbol by name, or 0. */
u64 kallsyms_lookup_name(const char *name);
/* "name+0xoff/0xsize" or the bare address, into buf. */
int sprint_symbol(char *buf, size_t len, u64 addr);

#endif
