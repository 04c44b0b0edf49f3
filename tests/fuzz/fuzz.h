/* Shared between the fuzz target and its shims. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>

#include "../common/dt_shim.h" /* dt_shim_blob: the current input */

#define FUZZ_NR_DRIVERS 5

extern unsigned long fuzz_probed;

#endif
